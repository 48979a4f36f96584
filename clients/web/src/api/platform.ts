// Where this page runs. In a browser `acc serve` serves it, so the server is the page's own
// origin and the refresh token lives in localStorage. Inside the desktop app (clients/desktop)
// the page is bundled in the app, whose origin is not the server's: the app says which server to
// use and keeps the refresh token in the OS keystore, through the commands below. Inside the
// Android app (clients/android, Capacitor) the page is bundled too: the person names the server
// once, and it is kept with the app's own storage.

type Invoke = <T>(command: string, args?: Record<string, unknown>) => Promise<T>;

declare global {
  // Injected by the desktop app (`withGlobalTauri`); absent in a browser.
  var __TAURI__: { core: { invoke: Invoke } } | undefined;
  // Injected by the Android app; absent in a browser.
  var Capacitor: { isNativePlatform(): boolean } | undefined;
}

const REFRESH_KEY = "acc.refreshToken";
const SERVER_KEY = "acc.server";

// Inside the app: its server, and the refresh token held in memory because `hasSession()` has
// to answer synchronously while the keystore can only be reached asynchronously.
interface Desktop {
  invoke: Invoke;
  server: string;
  credential: string | null;
  writes: Promise<void>;
}
let desktop: Desktop | null = null;
let keystoreProblem: string | null = null;
// Whether the page has added its own Content-Security-Policy (inside the apps).
let restricted = false;
const listeners = new Set<() => void>();

/** Asks the desktop app, when inside it, for its server and stored credential; call before the first render. */
export async function startPlatform(): Promise<void> {
  const invoke = globalThis.__TAURI__?.core.invoke;
  if (!invoke) {
    const android = insideAndroidApp() ? localStorage.getItem(SERVER_KEY) : null;
    if (android) restrictConnections(android);
    return;
  }
  const server = await invoke<string>("server_url");
  desktop = { invoke, server, credential: null, writes: Promise.resolve() };
  restrictConnections(server);
  try {
    desktop.credential = await invoke<string | null>("credential_get");
  } catch (error) {
    report(error);
  }
}

/** Known from the first line of script on, unlike the server, which needs `startPlatform`. */
export function insideDesktopApp(): boolean {
  return globalThis.__TAURI__ !== undefined;
}

/** Inside the Android app, whose pages come from the app, not from the server. */
export function insideAndroidApp(): boolean {
  return globalThis.Capacitor?.isNativePlatform() === true;
}

/** Inside the Android app before the person named the server: nothing can be asked yet. */
export function needsServer(): boolean {
  return insideAndroidApp() && localStorage.getItem(SERVER_KEY) === null;
}

/**
 * Keeps the server the Android app talks to from now on: the origin of `address`, which must be
 * an http(s) URL. Throws with a message for the person otherwise.
 */
export function chooseServer(address: string) {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw new Error(`"${address}" is not an address; write it as https://acc.example.com`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new Error(`"${address}" is not an http(s) address; write it as https://acc.example.com`);
  }
  localStorage.setItem(SERVER_KEY, url.origin);
  restrictConnections(url.origin);
}

/** Lets the person name another server in the Android app (from the sign-in page). */
export function forgetServer() {
  localStorage.removeItem(SERVER_KEY);
  // A policy cannot be widened: the page starts again without the one naming the old server.
  if (restricted) window.location.reload();
}

/**
 * The Content-Security-Policy of the page inside the desktop and Android apps, which load it
 * from the device: as strict as the one `acc serve` sends with it (the app has no GraphiQL, so no
 * `data:` fonts or images either), and it may connect only to `server`, over http(s) and ws(s),
 * and in the desktop app to the app itself over Tauri's IPC.
 */
export function appPolicy(server: string): string {
  const sockets = new URL(server);
  sockets.protocol = sockets.protocol === "https:" ? "wss:" : "ws:";
  const ipc = insideDesktopApp() ? " ipc: http://ipc.localhost" : "";
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ${new URL(server).origin} ${sockets.origin}${ipc}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join("; ");
}

/**
 * Inside the apps no server sends the page a policy, and the server is known only once the app
 * runs (the desktop app is told it at start; on Android the person names it), so the page adds
 * its own, as a <meta> element, as soon as it knows. Policies only ever narrow what a page may
 * do: this one takes nothing away that the page needs, and it cannot be loosened later.
 */
function restrictConnections(server: string) {
  if (restricted) return;
  const meta = document.createElement("meta");
  meta.httpEquiv = "Content-Security-Policy";
  meta.content = appPolicy(server);
  document.head.append(meta);
  restricted = true;
}

export function serverOrigin(): string {
  const android = insideAndroidApp() ? localStorage.getItem(SERVER_KEY) : null;
  return desktop?.server ?? android ?? window.location.origin;
}

/** `path` on the server, over http(s). */
export function serverUrl(path: string): string {
  return new URL(path, serverOrigin()).toString();
}

/** `path` on the server, over ws(s). */
export function socketUrl(path: string): string {
  const url = new URL(serverUrl(path));
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}

export function storedRefreshToken(): string | null {
  // In a browser, read it each time: another tab may have rotated it.
  return desktop ? desktop.credential : localStorage.getItem(REFRESH_KEY);
}

export function storeRefreshToken(token: string) {
  if (desktop) {
    desktop.credential = token;
    persist(desktop, "credential_set", { credential: token });
  } else {
    localStorage.setItem(REFRESH_KEY, token);
  }
}

export function clearRefreshToken() {
  if (desktop) {
    desktop.credential = null;
    persist(desktop, "credential_clear");
  } else {
    localStorage.removeItem(REFRESH_KEY);
  }
}

/**
 * Why the keystore could not keep this device's sign-in (a message starting `keystore:`), or
 * null. The session then lasts only while the app runs: it is never written to localStorage
 * instead, which would leave the credential on disk in the clear.
 */
export function keystoreError(): string | null {
  return keystoreProblem;
}

export function onKeystoreError(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function persist(app: Desktop, command: string, args?: Record<string, unknown>) {
  // One write at a time, so the keystore ends up with the last token rather than whichever
  // write the app happened to finish last.
  app.writes = app.writes.then(() => app.invoke<void>(command, args).then(() => report(null), report));
}

function report(error: unknown) {
  const problem = error === null ? null : error instanceof Error ? error.message : String(error);
  if (problem === keystoreProblem) return;
  keystoreProblem = problem;
  for (const listener of listeners) listener();
}
