// Where this page runs. In a browser `acc serve` serves it, so the server is the page's own
// origin and the refresh token lives in localStorage. Inside the desktop app (clients/desktop)
// the page is bundled in the app, whose origin is not the server's: the app says which server to
// use and keeps the refresh token in the OS keystore, through the commands below.

type Invoke = <T>(command: string, args?: Record<string, unknown>) => Promise<T>;

declare global {
  // Injected by the desktop app (`withGlobalTauri`); absent in a browser.
  var __TAURI__: { core: { invoke: Invoke } } | undefined;
}

const REFRESH_KEY = "acc.refreshToken";

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
const listeners = new Set<() => void>();

/** Asks the desktop app, when inside it, for its server and stored credential; call before the first render. */
export async function startPlatform(): Promise<void> {
  const invoke = globalThis.__TAURI__?.core.invoke;
  if (!invoke) return;
  const server = await invoke<string>("server_url");
  desktop = { invoke, server, credential: null, writes: Promise.resolve() };
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

export function serverOrigin(): string {
  return desktop?.server ?? window.location.origin;
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
