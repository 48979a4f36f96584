// How GraphiQL reaches the server: queries and mutations as POST /graphql, subscriptions over
// /graphql/ws (graphql-transport-ws). A browser cannot set headers on a WebSocket, so the headers
// the person enters in GraphiQL's Headers pane (`{"Authorization": "Bearer …"}`) travel in
// `connection_init` instead, which is where the server reads the token of a socket.
import type { GraphiQLProps } from "graphiql";
import { getOperationAST, parse, type ExecutionResult } from "graphql";
import { createClient, type Client, type ClientOptions } from "graphql-ws";

type Fetcher = GraphiQLProps["fetcher"];
type Params = Parameters<Fetcher>[0];
type Headers = Record<string, unknown>;

/**
 * Whether GraphiQL is about to run a subscription: the selected operation of the document it
 * sends. Parsed from the query itself, since GraphiQL's own parse of the editor may lag behind it.
 */
export function isSubscription(params: Params): boolean {
  try {
    const operation = getOperationAST(parse(params.query), params.operationName ?? undefined);
    return operation?.operation === "subscription";
  } catch {
    // A document that does not parse goes to the server, which answers with the reason.
    return false;
  }
}

/** The fetcher for the GraphiQL page at `page` (its own origin is the server's). */
export function graphiqlFetcher(page: URL, connect: (options: ClientOptions) => Client = createClient): Fetcher {
  const http = new URL("/graphql", page);
  const socket = new URL("/graphql/ws", page);
  socket.protocol = socket.protocol === "https:" ? "wss:" : "ws:";
  return (params, opts) => {
    const headers: Headers = opts?.headers ?? {};
    if (isSubscription(params)) {
      // One socket per subscription, authenticated with the headers as they are now.
      const client = connect({ url: socket.toString(), connectionParams: headers, lazy: true, retryAttempts: 0 });
      return subscribe(client, params);
    }
    return post(http, params, headers);
  };
}

async function post(url: URL, params: Params, headers: Headers) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/graphql-response+json, application/json", ...headers },
    body: JSON.stringify(params),
  });
  const type = response.headers.get("content-type") ?? "";
  if (!type.includes("json")) throw new Error(`${response.status} ${response.statusText}: ${await response.text()}`);
  return response.json();
}

// GraphiQL's types name the server-side result; on the wire its errors are the formatted kind.
async function* subscribe(client: Client, params: Params): AsyncGenerator<ExecutionResult> {
  try {
    const results = client.iterate({ query: params.query, operationName: params.operationName, variables: params.variables });
    for await (const result of results) yield result as ExecutionResult;
  } finally {
    await client.dispose();
  }
}
