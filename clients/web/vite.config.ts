/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";

// In development the API runs beside Vite (`acc serve` on :8080), so the app still talks to its
// own origin, as it does when `acc serve` serves the built bundle.
const api = process.env.ACC_API ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [react()],
  resolve: {
    // GraphiQL's dialogs would add a <style> element, which the server's policy refuses.
    alias: { "react-style-singleton": fileURLToPath(new URL("src/graphiql/styleSingleton.ts", import.meta.url)) },
  },
  server: {
    proxy: {
      "/graphql/ws": { target: api.replace(/^http/, "ws"), ws: true },
      "/graphql": { target: api },
    },
  },
  build: {
    sourcemap: false,
    // GraphiQL's editor and language service make its page's script about 1.5 MB.
    chunkSizeWarningLimit: 2000,
    // Two pages: the app, and GraphiQL, which `acc serve` answers at /graphql to a browser.
    rollupOptions: { input: { app: "index.html", graphiql: "graphiql.html" } },
  },
  test: {
    environment: "node",
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
