// Who is signed in on this device. The access token lives only in memory; the refresh token is
// kept on the device (platform.ts: localStorage, or the OS keystore in the desktop app) so a
// reload or an offline start stays signed in, and is rotated on every use. Refreshes are
// serialised across tabs (Web Locks) because each refresh token works once.
import { print } from "graphql";
import { graphql } from "../gql";
import { clearRefreshToken, serverUrl, storedRefreshToken, storeRefreshToken } from "./platform";

// Refresh a little early so a request never leaves with a token that expires on the way.
const EARLY_MS = 30_000;

export const AuthTokensFragment = graphql(`
  fragment AuthTokens on AuthPayload {
    accessToken
    accessTokenExpiresAt
    refreshToken
  }
`);

const RefreshSessionMutation = graphql(`
  mutation RefreshSession($refreshToken: String!) {
    refreshSession(refreshToken: $refreshToken) {
      ...AuthTokens
    }
  }
`);

export interface Tokens {
  accessToken: string;
  accessTokenExpiresAt: string;
  refreshToken: string;
}

let access: { token: string; expiresAt: number } | null = null;
let inflight: Promise<string | null> | null = null;
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

export function hasSession(): boolean {
  return access !== null || storedRefreshToken() !== null;
}

/** Calls `listener` when this device signs in or its session ends. */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Signs in with new tokens, or renews them; listeners hear only of signing in, not renewals. */
export function accept(tokens: Tokens) {
  const had = hasSession();
  access = { token: tokens.accessToken, expiresAt: Date.parse(tokens.accessTokenExpiresAt) };
  storeRefreshToken(tokens.refreshToken);
  if (!had) notify();
}

export function forget() {
  const had = hasSession();
  access = null;
  clearRefreshToken();
  if (had) notify();
}

/** The current access token if it is still fresh; no network. */
export function currentAccessToken(): string | null {
  return access && access.expiresAt - Date.now() > EARLY_MS ? access.token : null;
}

/** A fresh access token, refreshing the session if needed; null when signed out or offline. */
export async function accessToken(): Promise<string | null> {
  return currentAccessToken() ?? refresh();
}

/**
 * The server refused the access token (a socket closed with 4401, the session ended): drop it
 * and refresh. A session that really ended is refused there too, which signs this device out.
 */
export function accessRefused(): Promise<string | null> {
  access = null;
  return refresh();
}

export function refresh(): Promise<string | null> {
  inflight ??= withLock(exchangeRefreshToken).finally(() => {
    inflight = null;
  });
  return inflight;
}

function withLock(work: () => Promise<string | null>): Promise<string | null> {
  if (!navigator.locks) return work();
  // The lock resolves with what `work` resolves to; the DOM typings nest the promise.
  return navigator.locks.request("acc-refresh", work) as Promise<unknown> as Promise<string | null>;
}

async function exchangeRefreshToken(): Promise<string | null> {
  // Another tab may have refreshed while this one waited for the lock.
  const fresh = currentAccessToken();
  if (fresh) return fresh;
  const refreshToken = storedRefreshToken();
  if (!refreshToken) return null;
  let body: { data?: { refreshSession?: Tokens }; errors?: { extensions?: { code?: string } }[] } | null;
  try {
    const response = await fetch(serverUrl("/graphql"), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/graphql-response+json, application/json" },
      body: JSON.stringify({
        query: print(RefreshSessionMutation),
        operationName: "RefreshSession",
        variables: { refreshToken },
      }),
    });
    body = await response.json();
  } catch {
    // Offline or the server is down: keep the refresh token for when it is back.
    return null;
  }
  const tokens = body?.data?.refreshSession;
  if (tokens) {
    accept(tokens);
    return tokens.accessToken;
  }
  if (body?.errors?.some((e) => e.extensions?.code === "UNAUTHENTICATED")) forget();
  return null;
}
