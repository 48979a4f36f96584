/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// In development the API runs beside Vite (`acc serve` on :8080), so the app still talks to its
// own origin, as it does when `acc serve` serves the built bundle.
const api = process.env.ACC_API ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      "/graphql/ws": { target: api.replace(/^http/, "ws"), ws: true },
      "/graphql": { target: api },
    },
  },
  build: { sourcemap: false, chunkSizeWarningLimit: 800 },
  test: {
    environment: "node",
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
