// Home, the page after sign-in: what needs the person now, across every project they can read —
// approvals waiting for a decision, runs in progress, tasks whose latest run failed, connectors
// offline. Live through the subscriptions the other pages use, and asked again after a reconnect
// like every list on screen (api/client.ts).
import type { ReactNode } from "react";
import { useQuery, useSubscription } from "urql";
import { graphql } from "../gql";
import type { RunSummaryFragment } from "../gql/graphql";
import { useQueries } from "../api/queries";
import { ErrorBox, Loading, Status, When, usePageTitle } from "../ui/components";
import { Link } from "../ui/router";
import { usePendingApprovals } from "./Approvals";
import { ConnectorStatusSubscription } from "./Agents";
import { TaskEventsSubscription } from "./Board";
import { ProjectTasksQuery, RunUpdatedSubscription } from "./TaskDetail";
import { WorkspacesQuery } from "./Workspaces";
import { TERMINAL } from "./runState";

const AllConnectorsQuery = graphql(`
  query AllConnectors {
    connectors {
      ...ConnectorFields
      workspaceId
    }
  }
`);

const TaskRunsQuery = graphql(`
  query TaskRuns($taskId: ID!) {
    runs(taskId: $taskId) {
      ...RunSummary
    }
  }
`);

/** A failed task's latest run stays here until a newer run of the task replaces it. */
const FAILED = new Set(["FAILED", "INTERRUPTED"]);
const RECENT_FAILURES = 10;

interface TaskRef {
  id: string;
  title: string;
  project: { id: string; name: string };
}

const newestFirst = (a: { run: RunSummaryFragment }, b: { run: RunSummaryFragment }) => b.run.updatedAt.localeCompare(a.run.updatedAt);

export function Home() {
  usePageTitle("Home");
  const approvals = usePendingApprovals();
  const [{ data: spaces, error }] = useQuery({ query: WorkspacesQuery });
  const [{ data: connectorList, error: connectorError }] = useQuery({ query: AllConnectorsQuery });
  const workspaces = spaces?.workspaces.nodes ?? [];
  const projects = workspaces.flatMap((w) => w.projects.nodes.map((p) => ({ id: p.id, name: p.name })));
  // The API lists runs per task only: the tasks of every project, then the runs of every task.
  const taskLists = useQueries(ProjectTasksQuery, projects.map((p) => ({ projectId: p.id })));
  const tasks: TaskRef[] = projects.flatMap((project, i) =>
    (taskLists.data[i]?.tasks.nodes ?? []).map((t) => ({ id: t.id, title: t.title, project })),
  );
  const runLists = useQueries(TaskRunsQuery, tasks.map((t) => ({ taskId: t.id })));
  const runsLoaded = spaces !== undefined && taskLists.complete && runLists.complete;
  const inProgress = tasks
    .flatMap((task, i) => (runLists.data[i]?.runs ?? []).map((run) => ({ task, run })))
    .filter(({ run }) => !TERMINAL.has(run.status))
    .sort(newestFirst);
  const failures = tasks
    .map((task, i) => ({ task, run: runLists.data[i]?.runs.at(-1) }))
    .filter((r): r is { task: TaskRef; run: RunSummaryFragment } => r.run !== undefined && FAILED.has(r.run.status))
    .sort(newestFirst)
    .slice(0, RECENT_FAILURES);
  const offline = connectorList?.connectors.filter((c) => !c.online && !c.revokedAt) ?? [];
  const workspaceName = (id: string) => workspaces.find((w) => w.id === id)?.name;

  return (
    <section className="stack">
      <h1>Home</h1>
      <p className="muted">What needs you now, across every project you can see. Live.</p>
      {projects.map((p) => (
        <ProjectLive key={p.id} projectId={p.id} />
      ))}
      {workspaces.map((w) => (
        <ConnectorsLive key={w.id} workspaceId={w.id} />
      ))}
      <ErrorBox error={error ?? approvals.error ?? connectorError ?? taskLists.error ?? runLists.error} />
      <div className="grid-2">
        <Needs
          id="home-approvals"
          title="Approvals waiting for you"
          count={approvals.pending.length}
          loaded={approvals.loaded}
          empty="Nothing waits for a decision."
        >
          {approvals.pending.map((a) => (
            <li key={a.id} data-approval-id={a.id}>
              <strong>{a.run.agent?.name ?? "An agent"}</strong> wants to run <code className="action">{a.action}</code>
              <div className="muted small">
                <Link href={`/tasks/${a.run.task.id}`}>{a.run.task.title}</Link> in {a.run.task.project?.name} · asked{" "}
                <When at={a.createdAt} /> · expires <When at={a.expiresAt} />
              </div>
              <Link href="/approvals">Decide</Link>
            </li>
          ))}
        </Needs>
        <Needs id="home-running" title="Runs in progress" count={inProgress.length} loaded={runsLoaded} empty="No run is in progress.">
          {inProgress.map(({ task, run }) => (
            <RunRow key={run.id} task={task} run={run} />
          ))}
        </Needs>
        <Needs id="home-failures" title="Recent failures" count={failures.length} loaded={runsLoaded} empty="No task's latest run failed.">
          {failures.map(({ task, run }) => (
            <RunRow key={run.id} task={task} run={run} />
          ))}
        </Needs>
        <Needs
          id="home-offline"
          title="Connectors offline"
          count={offline.length}
          loaded={connectorList !== undefined}
          empty="Every connector is online."
        >
          {offline.map((c) => (
            <li key={c.id} data-connector={c.name}>
              <Status of="OFFLINE" /> <strong>{c.name}</strong> <span className="muted">in {workspaceName(c.workspaceId)}</span>
              <div className="muted small">
                last seen <When at={c.lastSeenAt} /> · <Link href="/agents">Agents</Link>
              </div>
            </li>
          ))}
        </Needs>
      </div>
    </section>
  );
}

function Needs({
  id,
  title,
  count,
  loaded,
  empty,
  children,
}: {
  id: string;
  title: string;
  count: number;
  loaded: boolean;
  empty: string;
  children: ReactNode;
}) {
  return (
    <article className="card stack" aria-labelledby={`${id}-title`} data-testid={id} data-count={loaded ? count : undefined}>
      <h2 id={`${id}-title`}>
        {title} {loaded && count > 0 && <span className="count">{count}</span>}
      </h2>
      {!loaded ? (
        <Loading what={title.toLowerCase()} />
      ) : count === 0 ? (
        <p className="muted" data-testid={`${id}-empty`}>
          {empty}
        </p>
      ) : (
        <ul className="plain stack">{children}</ul>
      )}
    </article>
  );
}

function RunRow({ task, run }: { task: TaskRef; run: RunSummaryFragment }) {
  return (
    <li data-run-id={run.id}>
      <Status of={run.status} /> <Link href={`/runs/${run.id}`}>{task.title}</Link>{" "}
      <span className="muted">in {task.project.name}</span>
      <div className="muted small">
        {run.agent && <>on {run.agent.name} · </>}
        {TERMINAL.has(run.status) ? "ended" : "started"} <When at={TERMINAL.has(run.status) ? run.updatedAt : run.createdAt} />
        {run.statusReason && <> · {run.statusReason}</>}
      </div>
    </li>
  );
}

/** A project's runs and tasks as they change: new tasks bring their runs onto this page. */
function ProjectLive({ projectId }: { projectId: string }) {
  useSubscription({ query: RunUpdatedSubscription, variables: { projectId } });
  useSubscription({ query: TaskEventsSubscription, variables: { projectId } });
  return null;
}

function ConnectorsLive({ workspaceId }: { workspaceId: string }) {
  useSubscription({ query: ConnectorStatusSubscription, variables: { workspaceId } });
  return null;
}
