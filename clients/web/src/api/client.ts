// One urql client per signed-in session: auth on every request (and in the WebSocket's
// connection_init, since browsers cannot set WebSocket headers), the offline cache, and
// subscriptions over graphql-transport-ws.
import {
  Client,
  fetchExchange,
  makeErrorResult,
  makeOperation,
  subscriptionExchange,
  type Exchange,
  type Operation,
} from "urql";
import { offlineExchange } from "@urql/exchange-graphcache";
import { makeDefaultStorage } from "@urql/exchange-graphcache/default-storage";
import { authExchange } from "@urql/exchange-auth";
import { createClient as createWsClient, type Client as WsClient } from "graphql-ws";
import { filter, map, merge, pipe, share, tap } from "wonka";
import schema from "../gql/introspection";
import { accessRefused, accessToken, currentAccessToken, refresh } from "./auth";
import { liveCache } from "./cache";
import { OFFLINE_MESSAGE } from "./errors";
import { serverUrl, socketUrl } from "./platform";

let storage: ReturnType<typeof makeDefaultStorage> | null = null;

/** The IndexedDB store behind the offline cache, opened on first use. */
export function cacheStorage() {
  storage ??= makeDefaultStorage({ idbName: "acc-cache", maxAge: 14 });
  return storage;
}

export async function connectionParams(): Promise<Record<string, string>> {
  const token = await accessToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** Close code of a socket whose session ended (graphql-transport-ws "Unauthorized"). */
const SESSION_ENDED = 4401;

/** What every socket of the client does when it closes: follow the session's end at once. */
export const socketEvents = {
  closed(event: unknown) {
    if ((event as { code?: number } | null)?.code === SESSION_ENDED) void accessRefused();
  },
};

/** Writes while offline are refused here, before the cache could queue them. */
export const refuseOfflineWrites: Exchange = ({ forward }) => (operations$) => {
  const shared = pipe(operations$, share);
  const isOfflineWrite = (kind: string) => kind === "mutation" && !navigator.onLine;
  const refused = pipe(
    shared,
    filter((op) => isOfflineWrite(op.kind)),
    map((op) => makeErrorResult(op, new Error(OFFLINE_MESSAGE))),
  );
  const forwarded = forward(pipe(shared, filter((op) => !isOfflineWrite(op.kind))));
  return merge([refused, forwarded]);
};

/**
 * Lists on screen stay current through subscriptions, and whatever the server published while
 * the socket was down (a restart, a lost network, a sleeping phone) never arrives. `resync` asks
 * the server again for every query still on screen, bypassing the cache, so that after a
 * reconnect each list shows what is true now: an approval cancelled meanwhile leaves the inbox.
 */
export function resyncExchange(): { exchange: Exchange; resync: () => void } {
  const onScreen = new Map<number, Operation>();
  let reexecute: ((operation: Operation) => void) | null = null;
  const exchange: Exchange = ({ forward, client }) => {
    reexecute = (operation) => client.reexecuteOperation(operation);
    return (operations$) =>
      forward(
        pipe(
          operations$,
          tap((op) => {
            if (op.kind === "query") onScreen.set(op.key, op);
            else if (op.kind === "teardown") onScreen.delete(op.key);
          }),
        ),
      );
  };
  const resync = () => {
    for (const op of onScreen.values()) {
      reexecute?.(makeOperation("query", op, { ...op.context, requestPolicy: "network-only" }));
    }
  };
  return { exchange, resync };
}

const auth = authExchange(async (utils) => ({
  addAuthToOperation(operation) {
    const token = currentAccessToken();
    return token ? utils.appendHeaders(operation, { Authorization: `Bearer ${token}` }) : operation;
  },
  willAuthError() {
    return currentAccessToken() === null;
  },
  didAuthError(error) {
    return error.graphQLErrors.some((e) => e.extensions?.code === "UNAUTHENTICATED");
  },
  async refreshAuth() {
    // A refused refresh ends the session there (auth.ts); a server that cannot be reached (down,
    // restarting, offline) leaves it alone, so the session and its offline copy survive.
    await refresh();
  },
}));

export function makeClient(): { client: Client; ws: WsClient } {
  const { exchange: resyncOnReconnect, resync } = resyncExchange();
  // The first connection follows the queries' own answers; every later one follows a gap.
  let connectedBefore = false;
  const ws = createWsClient({
    url: socketUrl("/graphql/ws"),
    connectionParams,
    lazy: true,
    retryAttempts: Infinity,
    shouldRetry: () => true,
    on: {
      ...socketEvents,
      connected() {
        if (connectedBefore) resync();
        connectedBefore = true;
      },
    },
  });
  const cache = liveCache();
  const client = new Client({
    url: serverUrl("/graphql"),
    requestPolicy: "cache-and-network",
    exchanges: [
      resyncOnReconnect,
      refuseOfflineWrites,
      offlineExchange({ schema, storage: cacheStorage(), ...cache.config }),
      cache.askAgainWhenBehind,
      auth,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query ?? "" };
          return {
            subscribe(sink) {
              return { unsubscribe: ws.subscribe(input, sink) };
            },
          };
        },
      }),
    ],
  });
  return { client, ws };
}
