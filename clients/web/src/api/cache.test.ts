import { describe, expect, it, vi } from "vitest";
import { cacheExchange } from "@urql/exchange-graphcache";
import { Client, gql, makeResult, type Exchange, type Operation } from "urql";
import { filter, map, pipe, subscribe, take, toPromise } from "wonka";
import schema from "../gql/introspection";
import { QUERY_ROOT, keysFor, liveCache } from "./cache";

/**
 * A client on a fresh cache whose server answers each operation (not its teardown) with the data
 * `answer` gives for it.
 */
function clientAnswering(answer: (op: Operation) => Record<string, unknown>) {
  const server: Exchange = () => (operations$) =>
    pipe(
      operations$,
      filter((op) => op.kind !== "teardown"),
      map((op) => makeResult(op, { data: answer(op) })),
    );
  const cache = liveCache();
  return new Client({ url: "/graphql", exchanges: [cacheExchange({ schema, ...cache.config }), cache.askAgainWhenBehind, server] });
}

describe("cache keys", () => {
  const keys = keysFor(schema);

  it("embeds every object type without an id", () => {
    for (const name of ["PageInfo", "TaskConnection", "RunAttempt", "Checkpoint", "AuthPayload", "EffectiveSetting"]) {
      expect(keys[name]?.({ __typename: name })).toBeNull();
    }
  });

  it("leaves types with an id to the default key, and gives events and settings their natural keys", () => {
    expect(keys.Task).toBeUndefined();
    expect(keys.TaskRun).toBeUndefined();
    expect(keys.RunEvent?.({ __typename: "RunEvent", runId: "r1", sequence: 7 })).toBe("r1:7");
    expect(keys.EffectiveSettings?.({ __typename: "EffectiveSettings", scopeId: "p1" })).toBe("p1");
  });

  it("knows the server's root type names", () => {
    expect(QUERY_ROOT).toBe("QueryRoot");
    expect(keys.QueryRoot).toBeUndefined();
  });
});

describe("a started run joins its task's cached run list", () => {
  const RunsOfTask = gql`
    query RunsOfTask($taskId: ID!) {
      node(id: $taskId) {
        __typename
        id
        ... on Task {
          runs {
            id
            status
          }
        }
      }
    }
  `;
  const StartRun = gql`
    mutation StartRun($taskId: ID!) {
      startRun(taskId: $taskId) {
        id
        status
      }
    }
  `;
  const run = (id: string, status: string) => ({ __typename: "TaskRun", id, status });

  it("without a refetch, so the list stays whole in the offline cache", async () => {
    let fetches = 0;
    // The server's side: one run at first, and the run `startRun` creates.
    const client = clientAnswering((op) => {
      if (op.kind === "mutation") return { __typename: "MutationRoot", startRun: run("r2", "QUEUED") };
      fetches++;
      return { __typename: "QueryRoot", node: { __typename: "Task", id: "t1", runs: [run("r1", "SUCCEEDED")] } };
    });
    const first = await client.query(RunsOfTask, { taskId: "t1" }).toPromise();
    expect(first.data?.node.runs.map((r: { id: string }) => r.id)).toEqual(["r1"]);
    await client.mutation(StartRun, { taskId: "t1" }).toPromise();
    const after = await client.query(RunsOfTask, { taskId: "t1" }, { requestPolicy: "cache-only" }).toPromise();
    expect(after.data?.node.runs.map((r: { id: string }) => r.id)).toEqual(["r1", "r2"]);
    expect(fetches).toBe(1);
  });
});

describe("a task's latest run", () => {
  const LatestRun = gql`
    query LatestRun($taskId: ID!) {
      node(id: $taskId) {
        __typename
        id
        ... on Task {
          latestRun {
            id
            createdAt
          }
        }
      }
    }
  `;
  const StartRun = gql`
    mutation StartRun($taskId: ID!) {
      startRun(taskId: $taskId) {
        id
        createdAt
      }
    }
  `;
  const run = (id: string, createdAt: string) => ({ __typename: "TaskRun", id, createdAt });
  const answering = (started: ReturnType<typeof run>, latest: ReturnType<typeof run> | null) =>
    clientAnswering((op) =>
      op.kind === "mutation"
        ? { __typename: "MutationRoot", startRun: started }
        : { __typename: "QueryRoot", node: { __typename: "Task", id: "t1", latestRun: latest } },
    );
  const latestAfterStart = async (client: Client) => {
    await client.query(LatestRun, { taskId: "t1" }).toPromise();
    await client.mutation(StartRun, { taskId: "t1" }).toPromise();
    const after = await client.query(LatestRun, { taskId: "t1" }, { requestPolicy: "cache-only" }).toPromise();
    return after.data?.node.latestRun?.id ?? null;
  };

  it("becomes a run newer than the one the card shows, or the first one", async () => {
    expect(await latestAfterStart(answering(run("r2", "2026-12-04T10:00:00Z"), run("r1", "2026-12-04T09:00:00Z")))).toBe("r2");
    expect(await latestAfterStart(answering(run("r1", "2026-12-04T09:00:00Z"), null))).toBe("r1");
  });

  it("stays when an older run is heard of", async () => {
    expect(await latestAfterStart(answering(run("r0", "2026-12-04T08:00:00Z"), run("r1", "2026-12-04T09:00:00Z")))).toBe("r1");
  });
});

describe("a requested approval joins its run's cached approvals", () => {
  const RunApprovals = gql`
    query RunApprovals($runId: ID!) {
      node(id: $runId) {
        __typename
        id
        ... on TaskRun {
          status
          approvals {
            id
            status
          }
        }
      }
    }
  `;
  const ApprovalUpdated = gql`
    subscription ApprovalUpdated {
      approvalUpdated {
        id
        status
        run {
          id
        }
      }
    }
  `;
  const approval = (id: string) => ({ __typename: "Approval", id, status: "PENDING", run: { __typename: "TaskRun", id: "r1" } });

  /** The run as its update delivered it, waiting but without its request; then the request. */
  const client = (approvals: ReturnType<typeof approval>[]) =>
    clientAnswering((op) =>
      op.kind === "subscription"
        ? { __typename: "SubscriptionRoot", approvalUpdated: approval("a1") }
        : { __typename: "QueryRoot", node: { __typename: "TaskRun", id: "r1", status: "WAITING_APPROVAL", approvals } },
    );
  const approvalsAfterNotice = async (client: Client) => {
    await client.query(RunApprovals, { runId: "r1" }).toPromise();
    await pipe(client.subscription(ApprovalUpdated, {}), take(1), toPromise);
    const after = await client.query(RunApprovals, { runId: "r1" }, { requestPolicy: "cache-only" }).toPromise();
    return after.data?.node.approvals.map((a: { id: string }) => a.id);
  };

  it("when the run's own update came without it", async () => {
    expect(await approvalsAfterNotice(client([]))).toEqual(["a1"]);
  });

  it("once", async () => {
    expect(await approvalsAfterNotice(client([approval("a1")]))).toEqual(["a1"]);
  });
});

describe("a list shows the newest state heard of a run", () => {
  const RunState = gql`
    query RunState($runId: ID!) {
      node(id: $runId) {
        __typename
        id
        ... on TaskRun {
          status
          statusReason
          updatedAt
        }
      }
    }
  `;
  const RunUpdated = gql`
    subscription RunUpdated {
      runUpdated(projectId: "p1") {
        id
        status
        statusReason
        updatedAt
      }
    }
  `;
  const run = (status: string, updatedAt: string) => ({ __typename: "TaskRun", id: "r1", status, statusReason: null, updatedAt });

  /**
   * A list on screen (watched) is answered `answers[0]`; then the run's update is heard live, and
   * the list, asked again because of it, is answered `answers[1]`, and `answers[2]` if it asks once
   * more. What the list shows in the end, and how many times the server was asked.
   */
  const shownAfter = async (answers: ReturnType<typeof run>[], heard: ReturnType<typeof run>) => {
    let asked = 0;
    const client = clientAnswering((op) => {
      if (op.kind === "subscription") return { __typename: "SubscriptionRoot", runUpdated: heard };
      return { __typename: "QueryRoot", node: answers[asked++] };
    });
    const shown: string[] = [];
    const watching = pipe(
      client.query(RunState, { runId: "r1" }),
      subscribe((result) => result.data?.node && shown.push(result.data.node.status)),
    );
    await vi.waitFor(() => expect(asked).toBe(1));
    await pipe(client.subscription(RunUpdated, {}), take(1), toPromise);
    await client.query(RunState, { runId: "r1" }, { requestPolicy: "network-only" }).toPromise();
    // Once what the answer queued (a request to ask again) has run, and its own answer with it.
    await new Promise((settled) => setTimeout(settled, 0));
    watching.unsubscribe();
    return { shown: shown.at(-1), asked };
  };

  it("asking again once when an answer older than what was heard arrives after it", async () => {
    const answers = [run("RUNNING", "2026-12-04T10:00:01Z"), run("RUNNING", "2026-12-04T10:00:01Z"), run("WAITING_APPROVAL", "2026-12-04T10:00:02Z")];
    expect(await shownAfter(answers, run("WAITING_APPROVAL", "2026-12-04T10:00:02Z"))).toEqual({ shown: "WAITING_APPROVAL", asked: 3 });
  });

  it("and not when the answer is as new as what was heard, or newer", async () => {
    const newer = [run("RUNNING", "2026-12-04T10:00:01Z"), run("SUCCEEDED", "2026-12-04T10:00:03Z")];
    expect(await shownAfter(newer, run("WAITING_APPROVAL", "2026-12-04T10:00:02Z"))).toEqual({ shown: "SUCCEEDED", asked: 2 });
  });
});
