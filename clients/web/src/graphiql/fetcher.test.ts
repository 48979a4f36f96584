import { afterEach, describe, expect, it, vi } from "vitest";
import type { Client, ClientOptions } from "graphql-ws";
import { graphiqlFetcher, isSubscription } from "./fetcher";

afterEach(() => vi.unstubAllGlobals());

const HEADERS = { Authorization: "Bearer eyJ-test" };

describe("GraphiQL's fetcher", () => {
  it("runs subscriptions over /graphql/ws with the entered headers in connection_init", async () => {
    const opened: ClientOptions[] = [];
    let disposed = 0;
    const connect = (options: ClientOptions) => {
      opened.push(options);
      return {
        async *iterate() {
          yield { data: { taskEvents: { kind: "UPDATED" } } };
        },
        dispose: async () => void (disposed += 1),
      } as unknown as Client;
    };
    const fetcher = graphiqlFetcher(new URL("https://acc.example.com/graphql"), connect);
    const result = (await fetcher({ query: "subscription W { taskEvents(projectId: 1) { kind } }" }, { headers: HEADERS })) as AsyncIterable<unknown>;
    const seen = [];
    for await (const value of result) seen.push(value);
    expect(seen).toEqual([{ data: { taskEvents: { kind: "UPDATED" } } }]);
    expect(opened).toHaveLength(1);
    expect(opened[0].url).toBe("wss://acc.example.com/graphql/ws");
    expect(opened[0].connectionParams).toEqual(HEADERS);
    expect(disposed).toBe(1);
  });

  it("posts queries and mutations to /graphql with the entered headers", async () => {
    const fetch = vi.fn(async () => new Response('{"data":{"viewer":null}}', { headers: { "content-type": "application/json" } }));
    vi.stubGlobal("fetch", fetch);
    const fetcher = graphiqlFetcher(new URL("http://127.0.0.1:8080/graphql"), () => {
      throw new Error("no socket for a query");
    });
    expect(await fetcher({ query: "{ viewer { email } }" }, { headers: HEADERS })).toEqual({ data: { viewer: null } });
    const [url, init] = fetch.mock.calls[0] as unknown as [URL, RequestInit];
    expect(url.toString()).toBe("http://127.0.0.1:8080/graphql");
    expect(init.method).toBe("POST");
    expect(init.headers).toMatchObject({ ...HEADERS, "Content-Type": "application/json" });
  });

  it("picks the selected operation of a document with several", () => {
    const query = "query Q { viewer { email } } subscription S { approvalUpdated { id } }";
    expect(isSubscription({ query, operationName: "S" })).toBe(true);
    expect(isSubscription({ query, operationName: "Q" })).toBe(false);
    expect(isSubscription({ query: "subscription {" })).toBe(false);
  });
});
