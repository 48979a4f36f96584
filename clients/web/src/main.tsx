import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { insideAndroidApp, insideDesktopApp, startPlatform } from "./api/platform";
import "./styles.css";

void startPlatform().then(() =>
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);

// The service worker makes the app installable and opens its shell without a network; the
// data itself comes from the offline cache in IndexedDB. The desktop and Android apps have the
// bundle on disk.
if ("serviceWorker" in navigator && import.meta.env.PROD && !insideDesktopApp() && !insideAndroidApp()) {
  window.addEventListener("load", () => void navigator.serviceWorker.register("/sw.js"));
}
