// Home, the page after sign-in: what needs the person now, across every project they can read —
// approvals waiting for a decision, runs in progress, tasks whose latest run failed, connectors
// offline. Live through the subscriptions the other pages use, and asked again after a reconnect
// like every list on screen (api/client.ts).
import { useCallback, type ReactNode } from "react";
import { useQuery, useSubscription } from "urql";
import { graphql } from "../gql";
import type { HomeRunFragment, RunStatus, RunSummaryFragment } from "../gql/graphql";
import { ErrorBox, Loading, Status, When, usePageTitle } from "../ui/components";
import { Link } from "../ui/router";
import { ApprovalAsk, usePendingApprovals } from "./Approvals";
import { describeApproval } from "./approvalText";
import { ConnectorStatusSubscription } from "./Agents";
import { RunUpdatedSubscription } from "./TaskDetail";
import { WorkspacesQuery } from "./Workspaces";
import { GettingStarted } from "./GettingStarted";
import { TERMINAL } from "./runState";

const AllConnectorsQuery = graphql(`
  query AllConnectors {
    connectors {
      ...ConnectorFields
      workspaceId
    }
  }
`);

/** A run with what Home shows of its task. */
export const HomeRunFields = graphql(`
  fragment HomeRun on TaskRun {
    ...RunSummary
    task {
      id
      title
      project {
        id
        name
      }
    }
  }
`);

// Runs that have not ended, and tasks whose latest run failed (until a newer run replaces it):
// one request each, however many projects and tasks there are.
const HomeRunsQuery = graphql(`
  query HomeRuns($live: [RunStatus!]!, $failed: [RunStatus!]!, $recent: Int!) {
    inProgress: runs(filter: { status: $live }, last: 100) {
      edges {
        node {
          ...HomeRun
        }
      }
    }
    failures: runs(filter: { status: $failed, latestOfTask: true }, last: $recent) {
      edges {
        node {
          ...HomeRun
        }
      }
    }
  }
`);

const LIVE: RunStatus[] = ["QUEUED", "DISPATCHING", "RUNNING", "WAITING_APPROVAL", "CHECKPOINTING", "HANDOFF_READY", "BLOCKED", "CANCELLING"];
const FAILED: RunStatus[] = ["FAILED", "INTERRUPTED"];
const RECENT_FAILURES = 10;

const newestFirst = (a: RunSummaryFragment, b: RunSummaryFragment) => b.updatedAt.localeCompare(a.updatedAt);

export function Home() {
  usePageTitle("Home");
  const approvals = usePendingApprovals();
  const [{ data: spaces, error }, refetchSpaces] = useQuery({ query: WorkspacesQuery });
  const [{ data: connectorList, error: connectorError }, refetchConnectors] = useQuery({ query: AllConnectorsQuery });
  const askAgain = useCallback(() => {
    refetchSpaces({ requestPolicy: "network-only" });
    refetchConnectors({ requestPolicy: "network-only" });
  }, [refetchSpaces, refetchConnectors]);
  const workspaces = spaces?.workspaces.nodes ?? [];
  const projects = workspaces.flatMap((w) => w.projects.nodes.map((p) => p.id));
  const [{ data: runs, error: runsError }] = useQuery({
    query: HomeRunsQuery,
    variables: { live: LIVE, failed: FAILED, recent: RECENT_FAILURES },
  });
  const homeRuns = (edges: readonly { node: HomeRunFragment }[] | undefined) => (edges ?? []).map((e) => e.node).sort(newestFirst);
  // A run's update can cross the list's answer: what the cache says of each run now decides.
  const inProgress = homeRuns(runs?.inProgress.edges).filter((run) => !TERMINAL.has(run.status));
  const failures = homeRuns(runs?.failures.edges).filter((run) => FAILED.includes(run.status));
  const runsLoaded = runs !== undefined;
  const offline = connectorList?.connectors.filter((c) => !c.online && !c.revokedAt) ?? [];
  const workspaceName = (id: string) => workspaces.find((w) => w.id === id)?.name;

  return (
    <section className="stack">
      <h1>Home</h1>
      <p className="muted">What needs you now, across every project you can see. Live.</p>
      {projects.map((id) => (
        <ProjectLive key={id} projectId={id} />
      ))}
      {workspaces.map((w) => (
        <ConnectorsLive key={w.id} workspaceId={w.id} />
      ))}
      <ErrorBox error={error ?? approvals.error ?? connectorError ?? runsError} />
      <GettingStarted workspaces={spaces ? workspaces : null} connectors={connectorList?.connectors ?? null} onReturn={askAgain} />
      <div className="grid-2">
        <Needs
          id="home-approvals"
          title="Approvals waiting for you"
          count={approvals.pending.length}
          loaded={approvals.loaded}
          empty="Nothing waits for a decision."
        >
          {approvals.pending.map((a) => {
            const text = describeApproval(a);
            return (
              <li key={a.id} data-approval-id={a.id}>
                <ApprovalAsk approval={a} />
                <div className="muted small">
                  {text.href ? <Link href={text.href}>{text.about}</Link> : text.about}
                  {a.run?.task.project && <> in {a.run.task.project.name}</>} · asked <When at={a.createdAt} /> · expires{" "}
                  <When at={a.expiresAt} />
                </div>
                <Link href="/approvals">Decide</Link>
              </li>
            );
          })}
        </Needs>
        <Needs id="home-running" title="Runs in progress" count={inProgress.length} loaded={runsLoaded} empty="No run is in progress.">
          {inProgress.map((run) => (
            <RunRow key={run.id} run={run} />
          ))}
        </Needs>
        <Needs id="home-failures" title="Recent failures" count={failures.length} loaded={runsLoaded} empty="No task's latest run failed.">
          {failures.map((run) => (
            <RunRow key={run.id} run={run} />
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

function RunRow({ run }: { run: HomeRunFragment }) {
  return (
    <li data-run-id={run.id}>
      <Status of={run.status} /> <Link href={`/runs/${run.id}`}>{run.task.title}</Link>{" "}
      <span className="muted">in {run.task.project?.name}</span>
      <div className="muted small">
        {run.agent && <>on {run.agent.name} · </>}
        {TERMINAL.has(run.status) ? "ended" : "started"} <When at={TERMINAL.has(run.status) ? run.updatedAt : run.createdAt} />
        {run.statusReason && <> · {run.statusReason}</>}
      </div>
    </li>
  );
}

/** A project's runs as they change; each change asks for Home's lists again (api/cache.ts). */
function ProjectLive({ projectId }: { projectId: string }) {
  useSubscription({ query: RunUpdatedSubscription, variables: { projectId } });
  return null;
}

function ConnectorsLive({ workspaceId }: { workspaceId: string }) {
  useSubscription({ query: ConnectorStatusSubscription, variables: { workspaceId } });
  return null;
}
