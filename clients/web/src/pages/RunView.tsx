// One run: its state and attempt timeline, the actions on it, and its event stream — live,
// virtualised, following the tail, and resumed from its cursor after a reconnect or a sleep.
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery, useSubscription } from "urql";
import { useVirtualizer } from "@tanstack/react-virtual";
import { graphql } from "../gql";
import type { RunDetailFragment as Run } from "../gql/graphql";
import { followRunEvents, type StreamEvent, type StreamState } from "../api/runStream";
import { subscribeRunEvents } from "../api/runStreamSocket";
import { MAX_EVENTS, loadEvents, saveEvents } from "../api/eventArchive";
import { Action, Breadcrumbs, Confirm, ErrorBox, Loading, Status, Unavailable, When, humanize, useOnline, usePageTitle } from "../ui/components";
import { Link, navigate } from "../ui/router";
import { AgentsQuery, StartRunMutation } from "./TaskDetail";
import { TERMINAL, attemptState, cachedRunBehind, runOffer, streamShown, type StreamedStatus } from "./runState";
import { useCurrentProject } from "../notifications";

const RunQuery = graphql(`
  query Run($id: ID!) {
    node(id: $id) {
      __typename
      ... on TaskRun {
        ...RunDetail
      }
    }
  }
`);

export const RunDetailFragment = graphql(`
  fragment RunDetail on TaskRun {
    id
    status
    statusReason
    revision
    input
    maxAttempts
    createdAt
    updatedAt
    task {
      id
      title
      project {
        id
        name
        workspace {
          id
          name
        }
      }
    }
    agent {
      id
      name
      capabilities
    }
    handoffTarget {
      id
      name
    }
    requestedAgent {
      id
    }
    attempts {
      number
      kind
      status
      agent {
        id
        name
      }
      leaseExpiresAt
      endedAt
      createdAt
    }
    approvals {
      id
      action
      status
    }
    checkpoints {
      reason
      createdAt
      targetAgent {
        name
      }
    }
  }
`);

const RunLiveSubscription = graphql(`
  subscription RunLive($projectId: ID!) {
    runUpdated(projectId: $projectId) {
      ...RunDetail
    }
  }
`);

const CancelRunMutation = graphql(`
  mutation CancelRun($runId: ID!) {
    cancelRun(runId: $runId) {
      ...RunDetail
    }
  }
`);

const CheckpointMutation = graphql(`
  mutation RequestCheckpoint($runId: ID!, $reason: String) {
    requestCheckpoint(runId: $runId, reason: $reason) {
      ...RunDetail
    }
  }
`);

const HandoffMutation = graphql(`
  mutation RequestHandoff($runId: ID!, $targetAgentId: ID!, $reason: String) {
    requestHandoff(runId: $runId, targetAgentId: $targetAgentId, reason: $reason) {
      ...RunDetail
    }
  }
`);

export function RunView({ runId }: { runId: string }) {
  const [{ data, fetching, error }, refetch] = useQuery({ query: RunQuery, variables: { id: runId } });
  const run = data?.node && data.node.__typename === "TaskRun" ? data.node : null;
  const projectId = run?.task.project?.id ?? null;
  useCurrentProject(projectId);
  usePageTitle("Run", run?.task.title, run?.task.project?.name);

  // The event stream is the run's history in order; a query answer or an update that crossed it
  // on the way can leave the cached run behind (`cachedRunBehind`). Then ask the server again,
  // also after an answer that was itself already behind.
  const [streamed, setStreamed] = useState<StreamedStatus | null>(null);
  const status = run?.status;
  const updatedAt = run?.updatedAt;
  useEffect(() => {
    if (!streamed || !status || !updatedAt || fetching) return;
    if (cachedRunBehind(streamed, { status, updatedAt })) refetch({ requestPolicy: "network-only" });
  }, [streamed, status, updatedAt, fetching, refetch]);

  if (fetching && !data) return <Loading what="the run" />;
  if (!run) return <Unavailable error={error} what="run" />;
  const terminal = TERMINAL.has(run.status);
  return (
    <section className="stack run-view">
      <Breadcrumbs
        trail={[
          { label: "Workspaces", href: "/workspaces" },
          ...(run.task.project
            ? [{ label: run.task.project.workspace.name }, { label: run.task.project.name, href: `/projects/${run.task.project.id}` }]
            : []),
          { label: run.task.title, href: `/tasks/${run.task.id}` },
          { label: "Run" },
        ]}
      />
      {projectId && <Live projectId={projectId} />}
      <h1>
        Run{" "}
        <Status of={run.status}>
          <span data-testid="run-status">{humanize(run.status)}</span>
        </Status>
      </h1>
      {run.statusReason && <p className="muted">{run.statusReason}</p>}
      <ErrorBox error={error} />
      {projectId && <RunActions run={run} projectId={projectId} />}
      <div className="grid-2">
        <Timeline run={run} />
        <EventStream runId={run.id} ended={terminal} onStatus={setStreamed} />
      </div>
    </section>
  );
}

function Live({ projectId }: { projectId: string }) {
  useSubscription({ query: RunLiveSubscription, variables: { projectId } });
  return null;
}

/** Only what the run's state allows (runState.ts), and in words why the rest is not offered. */
function RunActions({ run, projectId }: { run: Run; projectId: string }) {
  const [cancelling, cancel] = useMutation(CancelRunMutation);
  const [checkpointing, checkpoint] = useMutation(CheckpointMutation);
  const [handingOff, handoff] = useMutation(HandoffMutation);
  const [starting, start] = useMutation(StartRunMutation);
  // Kept here rather than in <Handoff>: hand off is not offered while a checkpoint is being
  // saved, and the agent the person chose must still be chosen when it is offered again.
  const [handoffTarget, setHandoffTarget] = useState("");
  const offer = runOffer(run);
  const again = async () => {
    // The same task, agent and input as this run: a new run, since an ended one stays ended.
    const agentId = run.requestedAgent?.id ?? run.agent?.id ?? null;
    const result = await start({ taskId: run.task.id, agentId, input: run.input });
    if (result.data) navigate(`/runs/${result.data.startRun.id}`);
  };
  const pendingApproval = run.approvals.some((a) => a.status === "PENDING");
  return (
    <div className="card stack" data-testid="run-actions">
      <div className="inline">
        {offer.again && (
          <Action busy={starting.fetching} onClick={again} className="primary">
            {offer.again}
          </Action>
        )}
        {offer.cancel && (
          <Confirm
            label="Cancel run"
            question="Cancel this run?"
            consequence={`${run.agent?.name ?? "Its agent"} is told to stop now. A cancelled run cannot be resumed; Run again starts a new one.`}
            confirm="Cancel the run"
            keep="Keep it running"
            busy={cancelling.fetching}
            onConfirm={() => cancel({ runId: run.id })}
          />
        )}
        {pendingApproval && <Link href="/approvals">Decide the approval</Link>}
        {offer.checkpoint && (
          <Action busy={checkpointing.fetching} onClick={() => checkpoint({ runId: run.id, reason: "requested from the web client" })}>
            Checkpoint
          </Action>
        )}
        {offer.handoff && (
          <Handoff
            run={run}
            projectId={projectId}
            busy={handingOff.fetching}
            target={handoffTarget}
            onTarget={setHandoffTarget}
            onHandoff={(targetAgentId) => handoff({ runId: run.id, targetAgentId, reason: "handed off from the web client" })}
          />
        )}
      </div>
      {offer.why && (
        <p className="muted small" data-testid="run-actions-why">
          {offer.why}
        </p>
      )}
      <ErrorBox error={cancelling.error ?? checkpointing.error ?? handingOff.error ?? starting.error} />
    </div>
  );
}

function Handoff({
  run,
  projectId,
  busy,
  target,
  onTarget,
  onHandoff,
}: {
  run: Run;
  projectId: string;
  busy: boolean;
  target: string;
  onTarget: (agentId: string) => void;
  onHandoff: (targetAgentId: string) => void;
}) {
  const [{ data: agents }] = useQuery({ query: AgentsQuery, variables: { projectId } });
  const others = agents?.agents.filter((a) => a.id !== run.agent?.id) ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target) onHandoff(target);
  };
  return (
    <form className="inline" onSubmit={submit} aria-label="Hand off">
      <select aria-label="Agent to hand off to" value={target} onChange={(e) => onTarget(e.target.value)}>
        <option value="">{others.length > 0 ? "Hand off to…" : "No other agent"}</option>
        {others.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name} {a.online ? "" : "(offline)"}
          </option>
        ))}
      </select>
      <Action type="submit" busy={busy} disabled={!target} title={target ? undefined : "Choose the agent to hand off to first"}>
        Hand off
      </Action>
    </form>
  );
}

function Timeline({ run }: { run: Run }) {
  return (
    <article className="card stack">
      <h2>Attempts</h2>
      <p className="muted">
        {run.attempts.length} of at most {run.maxAttempts}
        {run.handoffTarget && <> · handing off to {run.handoffTarget.name}</>}
      </p>
      <ol className="timeline">
        {run.attempts.map((a, i) => {
          const state = attemptState(a, run, i === run.attempts.length - 1);
          return (
            <li key={a.number}>
              <strong>
                #{a.number} {humanize(a.kind)}
              </strong>{" "}
              <Status of={state} /> {a.agent && <span>on {a.agent.name}</span>}
              <div className="muted small">
                <When at={a.createdAt} />
                {a.endedAt && (
                  <>
                    {" → "}
                    <When at={a.endedAt} />
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      {run.approvals.length > 0 && (
        <>
          <h3>Approvals</h3>
          <ul className="links">
            {run.approvals.map((a) => (
              <li key={a.id}>
                <code>{a.action}</code> <Status of={a.status} />{" "}
                {a.status === "PENDING" && <Link href="/approvals">decide</Link>}
              </li>
            ))}
          </ul>
        </>
      )}
      {run.checkpoints.length > 0 && (
        <>
          <h3>Checkpoints</h3>
          <ul>
            {run.checkpoints.map((c, i) => (
              <li key={i}>
                <When at={c.createdAt} /> {c.reason}
                {c.targetAgent && <> → {c.targetAgent.name}</>}
              </li>
            ))}
          </ul>
        </>
      )}
    </article>
  );
}

const STATE_LABEL: Record<StreamState | "loading", string> = {
  loading: "run ended; loading its events…",
  connecting: "connecting…",
  live: "live",
  reconnecting: "reconnecting…",
  ended: "complete",
  failed: "stopped",
};

function EventStream({
  runId,
  ended,
  onStatus,
}: {
  runId: string;
  ended: boolean;
  onStatus: (status: StreamedStatus) => void;
}) {
  const [events, setEvents] = useState<StreamEvent[]>([]);
  const [state, setState] = useState<{ state: StreamState; detail?: string }>({ state: "connecting" });
  const [follow, setFollow] = useState(true);
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // What this device kept of the run shows at once (also offline); the stream goes on from there.
    const kept = loadEvents(runId);
    setEvents(kept);
    // A replay delivers events in bursts: render them in batches, not one render per event.
    let pending: StreamEvent[] = [];
    let flush: ReturnType<typeof setTimeout> | null = null;
    const flushNow = () => {
      if (flush !== null) clearTimeout(flush);
      flush = null;
      const batch = pending;
      pending = [];
      if (batch.length > 0) setEvents((current) => current.concat(batch));
    };
    const stream = followRunEvents(subscribeRunEvents(runId), {
      onEvents: (more) => {
        pending.push(...more);
        flush ??= setTimeout(flushNow, 50);
      },
      // Events shown before the state that follows them ("complete" after the last one).
      onState: (next, detail) => {
        flushNow();
        setState({ state: next, detail });
      },
    }, { after: kept.at(-1)?.sequence ?? null });
    // A device that slept or lost its network may hold a dead socket: resume from the cursor.
    let hiddenAt = 0;
    const onVisibility = () => {
      if (document.hidden) hiddenAt = Date.now();
      else if (Date.now() - hiddenAt > 10_000) stream.resume();
    };
    const onOnline = () => stream.resume();
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("online", onOnline);
    return () => {
      stream.stop();
      if (flush !== null) clearTimeout(flush);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("online", onOnline);
    };
  }, [runId]);

  useEffect(() => {
    if (events.length > 0) saveEvents(runId, events);
  }, [runId, events]);

  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 28,
    overscan: 12,
  });

  useEffect(() => {
    if (follow && events.length > 0) virtualizer.scrollToIndex(events.length - 1, { align: "end" });
  }, [events.length, follow, virtualizer]);

  const onScroll = () => {
    const el = scroller.current;
    if (el) setFollow(el.scrollHeight - el.scrollTop - el.clientHeight < 40);
  };
  const last = events.at(-1)?.sequence ?? null;
  const first = events[0]?.sequence ?? null;
  const summary = useMemo(() => (first === null ? "no events yet" : `sequence ${first}–${last}`), [first, last]);
  const latestStatus = useMemo(() => events.findLast((e) => e.kind === "status"), [events]);
  useEffect(() => {
    const data = latestStatus?.data as { status?: unknown } | undefined;
    if (latestStatus && typeof data?.status === "string") onStatus({ status: data.status, at: latestStatus.occurredAt });
  }, [latestStatus, onStatus]);
  const online = useOnline();
  const shown = streamShown(state.state, ended);

  return (
    <article className="card stack events">
      <div className="inline spread">
        <h2>Events</h2>
        <span className="muted" role="status" data-testid="stream-state" data-state={shown}>
          <span className={`dot ${shown}`} aria-hidden="true" /> {STATE_LABEL[shown]}
          {state.detail && shown !== "live" ? ` (${state.detail})` : ""}
        </span>
      </div>
      <p className="muted small" data-testid="event-summary" data-count={events.length} data-first={first ?? ""} data-last={last ?? ""}>
        {events.length} events, {summary}
      </p>
      {!online && (
        <p className="muted small">
          Offline: these are the events this device kept (the last {MAX_EVENTS} at most); the stream goes on when the
          connection returns.
        </p>
      )}
      <div className="event-scroller" ref={scroller} onScroll={onScroll} tabIndex={0} aria-label="Run events">
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const event = events[item.index];
            return (
              <div
                key={event.sequence}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className={`event kind-${event.kind}`}
                style={{ position: "absolute", top: 0, left: 0, right: 0, transform: `translateY(${item.start}px)` }}
              >
                <span className="seq">{event.sequence}</span> <span className="kind">{event.kind}</span>{" "}
                <span className="data">{formatData(event.data)}</span>
              </div>
            );
          })}
        </div>
      </div>
      {!follow && (
        <button type="button" onClick={() => setFollow(true)}>
          Follow the latest events
        </button>
      )}
    </article>
  );
}

/** Output lines and status changes show as text; anything else as compact JSON. */
export function formatData(data: unknown): string {
  if (data && typeof data === "object") {
    const record = data as Record<string, unknown>;
    if (typeof record.line === "string" && Object.keys(record).length <= 2) return record.line;
    if (typeof record.status === "string" && Object.keys(record).every((k) => ["from", "status", "reason"].includes(k))) {
      const from = typeof record.from === "string" ? `${record.from} → ` : "";
      return `${from}${record.status}${typeof record.reason === "string" ? ` (${record.reason})` : ""}`;
    }
  }
  return typeof data === "string" ? data : JSON.stringify(data);
}
