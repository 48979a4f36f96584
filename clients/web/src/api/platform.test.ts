import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// Each test loads the modules afresh: they hold the session and what the app said at start.
const load = async () => {
  vi.resetModules();
  return { platform: await import("./platform"), auth: await import("./auth") };
};

let stored: Map<string, string>;
// The Content-Security-Policies the page added to itself, and page reloads.
let policies: string[];
let reloads: number;

beforeEach(() => {
  stored = new Map();
  policies = [];
  reloads = 0;
  vi.stubGlobal("document", {
    createElement: () => ({}),
    head: { append: (meta: { httpEquiv: string; content: string }) => policies.push(`${meta.httpEquiv}: ${meta.content}`) },
  });
  vi.stubGlobal("localStorage", {
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => void stored.set(k, v),
    removeItem: (k: string) => void stored.delete(k),
  });
  vi.stubGlobal("window", {
    location: { origin: "http://127.0.0.1:5173", href: "http://127.0.0.1:5173/runs/1", reload: () => (reloads += 1) },
  });
});

afterEach(() => vi.unstubAllGlobals());

describe("in a browser", () => {
  it("talks to the page's own origin", async () => {
    const { platform } = await load();
    await platform.startPlatform();
    expect(platform.insideDesktopApp()).toBe(false);
    expect(platform.serverOrigin()).toBe("http://127.0.0.1:5173");
    expect(platform.serverUrl("/graphql")).toBe("http://127.0.0.1:5173/graphql");
    expect(platform.socketUrl("/graphql/ws")).toBe("ws://127.0.0.1:5173/graphql/ws");
    vi.stubGlobal("window", { location: { origin: "https://acc.example.com" } });
    expect(platform.socketUrl("/graphql/ws")).toBe("wss://acc.example.com/graphql/ws");
  });

  it("adds no policy of its own: the server sends it with the page", async () => {
    const { platform } = await load();
    await platform.startPlatform();
    expect(policies).toEqual([]);
  });

  it("keeps the refresh token in localStorage, read afresh each time", async () => {
    const { platform } = await load();
    await platform.startPlatform();
    platform.storeRefreshToken("refresh-1");
    expect(stored.get("acc.refreshToken")).toBe("refresh-1");
    // Another tab rotated it.
    stored.set("acc.refreshToken", "refresh-2");
    expect(platform.storedRefreshToken()).toBe("refresh-2");
    platform.clearRefreshToken();
    expect(stored.has("acc.refreshToken")).toBe(false);
    expect(platform.keystoreError()).toBeNull();
  });
});

describe("in the desktop app", () => {
  /** A stand-in for the app's commands; `fail` makes the keystore ones reject as the app does. */
  function desktopApp(server: string, credential: string | null) {
    const calls: [string, unknown?][] = [];
    const keystore = { credential, fail: null as string | null };
    const invoke = async (command: string, args?: Record<string, unknown>) => {
      calls.push(args === undefined ? [command] : [command, args]);
      if (command === "server_url") return server;
      // A keystore answers later than the page asks.
      await new Promise((resolve) => setTimeout(resolve, command === "credential_set" ? 5 : 0));
      if (keystore.fail) throw keystore.fail;
      if (command === "credential_get") return keystore.credential;
      keystore.credential = command === "credential_set" ? (args!.credential as string) : null;
      return null;
    };
    vi.stubGlobal("__TAURI__", { core: { invoke } });
    return { calls, keystore };
  }

  it("sends GraphQL and the socket to the server the app names", async () => {
    desktopApp("https://acc.example.com", null);
    const { platform } = await load();
    expect(platform.insideDesktopApp()).toBe(true);
    await platform.startPlatform();
    expect(platform.serverOrigin()).toBe("https://acc.example.com");
    expect(platform.serverUrl("/graphql")).toBe("https://acc.example.com/graphql");
    expect(platform.socketUrl("/graphql/ws")).toBe("wss://acc.example.com/graphql/ws");
  });

  it("lets the page connect to that server and the app only", async () => {
    desktopApp("https://acc.example.com", null);
    const { platform } = await load();
    await platform.startPlatform();
    expect(policies).toEqual([
      "Content-Security-Policy: default-src 'self'; script-src 'self'; style-src 'self'; " +
        "connect-src https://acc.example.com wss://acc.example.com ipc: http://ipc.localhost; object-src 'none'; base-uri 'none'; form-action 'self'",
    ]);
  });

  it("uses ws: for a server on plain http", async () => {
    desktopApp("http://10.0.0.5:8080", null);
    const { platform } = await load();
    await platform.startPlatform();
    expect(platform.serverUrl("/graphql")).toBe("http://10.0.0.5:8080/graphql");
    expect(platform.socketUrl("/graphql/ws")).toBe("ws://10.0.0.5:8080/graphql/ws");
  });

  it("keeps the refresh token in the keystore, in the order it changed, never in localStorage", async () => {
    const { calls, keystore } = desktopApp("https://acc.example.com", "refresh-0");
    const { platform } = await load();
    await platform.startPlatform();
    expect(calls).toEqual([["server_url"], ["credential_get"]]);
    expect(platform.storedRefreshToken()).toBe("refresh-0");
    platform.storeRefreshToken("refresh-1");
    expect(platform.storedRefreshToken()).toBe("refresh-1");
    platform.clearRefreshToken();
    expect(platform.storedRefreshToken()).toBeNull();
    // The write is slower than the clear; the keystore still ends signed out.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.slice(2)).toEqual([["credential_set", { credential: "refresh-1" }], ["credential_clear"]]);
    expect(keystore.credential).toBeNull();
    expect(stored.size).toBe(0);
  });

  it("signs in and out through the keystore", async () => {
    const { calls } = desktopApp("https://acc.example.com", null);
    const { platform, auth } = await load();
    await platform.startPlatform();
    expect(auth.hasSession()).toBe(false);
    const expires = new Date(Date.now() + 15 * 60_000).toISOString();
    auth.accept({ accessToken: "a-1", accessTokenExpiresAt: expires, refreshToken: "refresh-1" });
    auth.forget();
    expect(auth.hasSession()).toBe(false);
    await vi.waitFor(() => expect(calls).toHaveLength(4));
    expect(calls.slice(2)).toEqual([["credential_set", { credential: "refresh-1" }], ["credential_clear"]]);
  });

  it("asks the server the app names to refresh the session, and stores the rotated token", async () => {
    const { calls } = desktopApp("https://acc.example.com", "refresh-0");
    const fetch = vi.fn(async (_url: string, init: RequestInit) => {
      expect(JSON.parse(init.body as string).variables).toEqual({ refreshToken: "refresh-0" });
      const tokens = { accessToken: "a-1", accessTokenExpiresAt: new Date(Date.now() + 60 * 60_000).toISOString(), refreshToken: "refresh-1" };
      return new Response(JSON.stringify({ data: { refreshSession: tokens } }));
    });
    vi.stubGlobal("fetch", fetch);
    vi.stubGlobal("navigator", {});
    const { platform, auth } = await load();
    await platform.startPlatform();
    expect(auth.hasSession()).toBe(true);
    expect(await auth.accessToken()).toBe("a-1");
    expect(fetch.mock.calls[0][0]).toBe("https://acc.example.com/graphql");
    await vi.waitFor(() => expect(calls).toContainEqual(["credential_set", { credential: "refresh-1" }]));
  });

  it("shows a keystore failure and keeps the session in memory only", async () => {
    const { keystore } = desktopApp("https://acc.example.com", "refresh-0");
    keystore.fail = "keystore: the collection is locked";
    const { platform } = await load();
    const heard = vi.fn();
    platform.onKeystoreError(heard);
    await platform.startPlatform();
    // What the keystore could not say reads as signed out, and the reason is there to show.
    expect(platform.storedRefreshToken()).toBeNull();
    expect(platform.keystoreError()).toBe("keystore: the collection is locked");
    expect(heard).toHaveBeenCalledTimes(1);

    platform.storeRefreshToken("refresh-1");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(platform.storedRefreshToken()).toBe("refresh-1");
    expect(platform.keystoreError()).toBe("keystore: the collection is locked");
    expect(stored.size).toBe(0);

    // Once the keystore takes a write, the session is kept again and the warning goes.
    keystore.fail = null;
    platform.storeRefreshToken("refresh-2");
    await vi.waitFor(() => expect(platform.keystoreError()).toBeNull());
    expect(keystore.credential).toBe("refresh-2");
    expect(heard).toHaveBeenCalledTimes(2);
  });
});

describe("inside the Android app", () => {
  beforeEach(() => vi.stubGlobal("Capacitor", { isNativePlatform: () => true }));

  it("asks for the server once, keeps its origin and talks to it", async () => {
    const { platform } = await load();
    await platform.startPlatform();
    expect(platform.insideAndroidApp()).toBe(true);
    expect(platform.needsServer()).toBe(true);
    platform.chooseServer("  https://acc.example.com:8443/graphql ");
    expect(stored.get("acc.server")).toBe("https://acc.example.com:8443");
    expect(platform.needsServer()).toBe(false);
    expect(platform.serverUrl("/graphql")).toBe("https://acc.example.com:8443/graphql");
    expect(platform.socketUrl("/graphql/ws")).toBe("wss://acc.example.com:8443/graphql/ws");
    // From then on the page may connect to that server only.
    expect(policies).toHaveLength(1);
    expect(policies[0]).toContain("; connect-src https://acc.example.com:8443 wss://acc.example.com:8443; ");

    // From the sign-in page the person may name another one: the page starts again without
    // the policy that names this one, which could not be loosened.
    platform.forgetServer();
    expect(platform.needsServer()).toBe(true);
    expect(reloads).toBe(1);
  });

  it("names a server chosen earlier in its policy from the start", async () => {
    stored.set("acc.server", "http://10.0.0.5:8080");
    const { platform } = await load();
    await platform.startPlatform();
    expect(policies).toHaveLength(1);
    expect(policies[0]).toContain("; connect-src http://10.0.0.5:8080 ws://10.0.0.5:8080; ");
  });

  it("refuses what is not an http(s) address and keeps nothing", async () => {
    const { platform } = await load();
    expect(() => platform.chooseServer("acc.example.com")).toThrow(/not an address/);
    expect(() => platform.chooseServer("ftp://acc.example.com")).toThrow(/not an http\(s\) address/);
    expect(stored.has("acc.server")).toBe(false);
    expect(platform.needsServer()).toBe(true);
  });
});

describe("a server named in the Android app", () => {
  it("is ignored by a browser, whose server is the page's origin", async () => {
    stored.set("acc.server", "https://elsewhere.example");
    const { platform } = await load();
    expect(platform.needsServer()).toBe(false);
    expect(platform.serverOrigin()).toBe("http://127.0.0.1:5173");
  });
});
