// Requests outside GraphQL (artifacts' bytes, docs/artifacts.md) with the session's bearer token.
import { accessRefused, accessToken } from "./auth";
import { serverUrl } from "./platform";

/**
 * `path` on the server with the access token. A token the server refuses (the session was
 * renewed elsewhere, or it ended) is dropped and the request sent once more with a renewed one,
 * as the GraphQL client does; a session that really ended signs this device out (auth.ts).
 * Throws, as fetch does, when the server cannot be reached.
 */
export async function fetchWithToken(path: string, init: RequestInit = {}): Promise<Response> {
  const send = (token: string | null) => {
    const headers = new Headers(init.headers);
    if (token) headers.set("Authorization", `Bearer ${token}`);
    return fetch(serverUrl(path), { ...init, headers });
  };
  const response = await send(await accessToken());
  if (response.status !== 401) return response;
  const renewed = await accessRefused();
  return renewed ? send(renewed) : response;
}
