import { afterEach, describe, expect, it, vi } from "vitest";
import {
  Client,
  createRequest,
  gql,
  makeOperation,
  makeResult,
  type Exchange,
  type Operation,
  type OperationContext,
  type OperationResult,
} from "urql";
import { filter, makeSubject, map, pipe, subscribe, tap } from "wonka";
import { refuseOfflineWrites, resyncExchange } from "./client";
import { OFFLINE_MESSAGE } from "./errors";

const client = new Client({ url: "/graphql", exchanges: [] });
const context = { url: "/graphql", requestPolicy: "network-only" } as OperationContext;
const operation = (kind: "query" | "mutation"): Operation =>
  makeOperation(kind, createRequest(gql`mutation Logout { logout }`, {}), context);

/** Runs one operation through the exchange; returns what it passed on and what it answered. */
function run(kind: "query" | "mutation") {
  const forwarded: Operation[] = [];
  const exchange = refuseOfflineWrites({
    client,
    dispatchDebug: () => {},
    forward: (ops$) =>
      pipe(
        ops$,
        tap((op) => forwarded.push(op)),
        filter(() => false),
      ) as never,
  });
  // Operations arrive on a subject after the exchange is listening, as they do in a client.
  const operations = makeSubject<Operation>();
  const results: OperationResult[] = [];
  pipe(
    exchange(operations.source),
    subscribe((result) => results.push(result)),
  );
  operations.next(operation(kind));
  return { forwarded, results };
}

describe("refuseOfflineWrites", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("refuses a mutation while offline, with a message that says nothing changed", () => {
    vi.stubGlobal("navigator", { onLine: false });
    const { forwarded, results } = run("mutation");
    expect(forwarded).toEqual([]);
    expect(results).toHaveLength(1);
    expect(results[0].error?.networkError?.message).toBe(OFFLINE_MESSAGE);
  });

  it("lets reads through offline, for the cache to answer, and everything online", () => {
    vi.stubGlobal("navigator", { onLine: false });
    expect(run("query").forwarded).toHaveLength(1);
    vi.stubGlobal("navigator", { onLine: true });
    expect(run("mutation").forwarded).toHaveLength(1);
  });
});

describe("resyncExchange", () => {
  const Tasks = gql`
    query Tasks {
      tasks {
        id
      }
    }
  `;

  /** A client whose network records the queries it was asked and answers each with no tasks. */
  function clientWithResync() {
    const { exchange, resync } = resyncExchange();
    const asked: Operation[] = [];
    const network: Exchange = () => (ops$) =>
      pipe(
        ops$,
        filter((op) => op.kind === "query"),
        tap((op) => asked.push(op)),
        map((op) => makeResult(op, { data: { tasks: [] } })),
      );
    const client = new Client({ url: "/graphql", exchanges: [exchange, network] });
    return { client, resync, asked };
  }

  it("asks the server again, past the cache, for every query still on screen", async () => {
    const { client, resync, asked } = clientWithResync();
    const watching = pipe(client.query(Tasks, {}), subscribe(() => {}));
    expect(asked).toHaveLength(1);
    resync();
    await new Promise((settled) => setTimeout(settled, 0));
    expect(asked).toHaveLength(2);
    expect(asked[1].key).toBe(asked[0].key);
    expect(asked[1].context.requestPolicy).toBe("network-only");
    watching.unsubscribe();
  });

  it("leaves alone queries nobody watches any more", async () => {
    const { client, resync, asked } = clientWithResync();
    pipe(client.query(Tasks, {}), subscribe(() => {})).unsubscribe();
    resync();
    await new Promise((settled) => setTimeout(settled, 0));
    expect(asked).toHaveLength(1);
  });
});
