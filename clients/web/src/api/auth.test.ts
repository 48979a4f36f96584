import { beforeEach, describe, expect, it, vi } from "vitest";
import { accept, currentAccessToken, forget, hasSession, onSessionChange } from "./auth";

const tokens = (n: number) => ({
  accessToken: `access-${n}`,
  accessTokenExpiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
  refreshToken: `refresh-${n}`,
});

describe("session", () => {
  beforeEach(() => {
    const items = new Map<string, string>();
    vi.stubGlobal("localStorage", {
      getItem: (k: string) => items.get(k) ?? null,
      setItem: (k: string, v: string) => void items.set(k, v),
      removeItem: (k: string) => void items.delete(k),
    });
  });

  it("tells listeners of signing in and out, not of each renewal", () => {
    const heard = vi.fn();
    const stop = onSessionChange(heard);
    accept(tokens(1));
    expect(heard).toHaveBeenCalledTimes(1);
    // A refresh renews the tokens: the client, its cache and its subscriptions stay.
    accept(tokens(2));
    expect(heard).toHaveBeenCalledTimes(1);
    expect(currentAccessToken()).toBe("access-2");
    expect(localStorage.getItem("acc.refreshToken")).toBe("refresh-2");
    forget();
    forget();
    expect(heard).toHaveBeenCalledTimes(2);
    expect(hasSession()).toBe(false);
    stop();
  });

  it("does not hand out an access token about to expire", () => {
    accept({ ...tokens(3), accessTokenExpiresAt: new Date(Date.now() + 5_000).toISOString() });
    expect(currentAccessToken()).toBeNull();
    forget();
  });
});
