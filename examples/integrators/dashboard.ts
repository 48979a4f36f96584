// A small dashboard over Agent Control Center's GraphQL API, in TypeScript with graphql-ws
// (docs/integrators.md). It prints one JSON object — how the runs of a workspace or project
// ended, by agent, and what they used this month by agent — and, with `--follow N`, then prints
// the next N run updates of a project as JSON lines as they happen.
//
//   ACC_URL=https://acc.example.com ACC_TOKEN=acc_pat_… node dashboard.ts <workspace-or-project-id> [--follow N]
//
// Runs as it is under Node.js 24 (which strips the types); needs `graphql-ws` and `graphql`.
import { createClient } from "graphql-ws";

const url = (process.env.ACC_URL ?? "http://127.0.0.1:8080").replace(/^http/, "ws") + "/graphql/ws";
const token = process.env.ACC_TOKEN;
const [scopeId, flag, count] = process.argv.slice(2);
if (!token || !scopeId) {
  console.error("usage: ACC_URL=… ACC_TOKEN=… node dashboard.ts <workspace-or-project-id> [--follow N]");
  process.exit(2);
}

// One socket for queries and subscriptions; the token goes in `connection_init`.
const client = createClient({ url, connectionParams: { authorization: `Bearer ${token}` } });

/** One query over the socket, its data or its errors thrown. */
function query<T>(document: string, variables: Record<string, unknown>): Promise<T> {
  return new Promise((resolve, reject) => {
    let data: T | undefined;
    client.subscribe<T>(
      { query: document, variables },
      {
        next: (result) => (result.errors ? reject(new Error(JSON.stringify(result.errors))) : (data = result.data as T)),
        error: reject,
        complete: () => resolve(data as T),
      },
    );
  });
}

interface Counts {
  runs: number;
  finished: number;
  medianDurationMs: number | null;
  byStatus: { status: string; count: number }[];
}

interface Dashboard {
  runStatistics: { total: Counts; byAgent: { agent: { name: string } | null; counts: Counts }[] };
  usageSummary: {
    total: { inputTokens: number; outputTokens: number; tokens: string; costUsd: number | null };
    groups: { label: string; totals: { inputTokens: number; outputTokens: number; tokens: string } }[];
  };
}

const COUNTS = "runs finished medianDurationMs byStatus { status count }";
const DASHBOARD = `
  query Dashboard($filter: RunFilter!, $scope: ID!, $from: DateTime!, $to: DateTime!) {
    runStatistics(filter: $filter) { total { ${COUNTS} } byAgent { agent { name } counts { ${COUNTS} } } }
    usageSummary(scopeId: $scope, from: $from, to: $to, groupBy: AGENT) {
      total { inputTokens outputTokens tokens costUsd }
      groups { label totals { inputTokens outputTokens tokens } }
    }
  }`;

const now = new Date();
const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
// A project's runs, or a whole workspace's: `node` says which the id names.
const { node } = await query<{ node: { __typename: string } }>("query($id: ID!) { node(id: $id) { __typename } }", { id: scopeId });
const filter = node.__typename === "Project" ? { projectId: scopeId } : { workspaceId: scopeId };

const dashboard = await query<Dashboard>(DASHBOARD, { filter, scope: scopeId, from, to });
const usage = dashboard.usageSummary;
console.log(
  JSON.stringify({
    runs: dashboard.runStatistics.total.runs,
    finished: dashboard.runStatistics.total.finished,
    byStatus: Object.fromEntries(dashboard.runStatistics.total.byStatus.map((s) => [s.status, s.count])),
    byAgent: dashboard.runStatistics.byAgent.map((a) => ({ agent: a.agent?.name ?? null, runs: a.counts.runs })),
    tokens: usage.total.inputTokens + usage.total.outputTokens,
    tokensAre: usage.total.tokens,
    costUsd: usage.total.costUsd,
    tokensByAgent: Object.fromEntries(usage.groups.map((g) => [g.label, g.totals.inputTokens + g.totals.outputTokens])),
  }),
);

if (flag === "--follow") {
  // Live: each run update of the project, as it happens.
  let left = Number(count ?? 1);
  console.log(JSON.stringify({ following: scopeId }));
  await new Promise<void>((resolve, reject) => {
    const stop = client.subscribe<{ runUpdated: { id: string; status: string } }>(
      { query: "subscription($p: ID!) { runUpdated(projectId: $p) { id status } }", variables: { p: scopeId } },
      {
        next: ({ data }) => {
          if (data) console.log(JSON.stringify({ run: data.runUpdated.id, status: data.runUpdated.status }));
          left -= 1;
          if (left <= 0) {
            stop();
            resolve();
          }
        },
        error: reject,
        complete: resolve,
      },
    );
  });
}
await client.dispose();
