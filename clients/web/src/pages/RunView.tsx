// One run: what it is and how long it has taken, what waits for a decision (decided here), the
// actions on it, its attempt timeline, what its agent was given (RunContext.tsx), the files its
// agent attached (RunFiles.tsx), and its log (RunEvents.tsx).
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery, useSubscription } from "urql";
import { graphql } from "../gql";
import type { RunDetailFragment as Run } from "../gql/graphql";
import { Action, Breadcrumbs, Confirm, Elapsed, ErrorBox, Loading, Status, Unavailable, When, humanize, usePageTitle } from "../ui/components";
import { navigate } from "../ui/router";
import { AgentsQuery, StartRunMutation } from "./TaskDetail";
import { ApprovalCard } from "./Approvals";
import { RunEvents } from "./RunEvents";
import { RunContextCard } from "./RunContext";
import { RunFilesCard } from "./RunFiles";
import { TERMINAL, attemptState, cachedRunBehind, runOffer, runSpan, type StreamedStatus } from "./runState";
import { useCurrentProject } from "../notifications";

const RunQuery = graphql(`
  query Run($id: ID!) {
    node(id: $id) {
      __typename
      ... on TaskRun {
        ...RunDetail
        skills {
          name
          number
          digest
        }
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
      ...ApprovalItem
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
  // The Files card asks again when the log says a file was attached.
  const [attached, setAttached] = useState<number | null>(null);
  const status = run?.status;
  const updatedAt = run?.updatedAt;
  useEffect(() => {
    if (!streamed || !status || !updatedAt || fetching) return;
    if (cachedRunBehind(streamed, { status, updatedAt })) refetch({ requestPolicy: "network-only" });
  }, [streamed, status, updatedAt, fetching, refetch]);
  // A live status update says the run waits for a decision, but carries no approvals: when the
  // cached run has no pending one, ask once for this update's run, approvals and all.
  const askedFor = useRef<string | null>(null);
  const waitingUnseen = status === "WAITING_APPROVAL" && !run?.approvals.some((a) => a.status === "PENDING");
  useEffect(() => {
    if (!waitingUnseen || !updatedAt || fetching || askedFor.current === updatedAt) return;
    askedFor.current = updatedAt;
    refetch({ requestPolicy: "network-only" });
  }, [waitingUnseen, updatedAt, fetching, refetch]);

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
      <RunHeader run={run} />
      <ErrorBox error={error} />
      <PendingApprovals run={run} onClosed={() => refetch({ requestPolicy: "network-only" })} />
      {projectId && <RunActions run={run} projectId={projectId} />}
      <div className="grid-2">
        <div className="stack">
          <Timeline run={run} />
          {run.skills.length > 0 && (
            <section className="card stack" aria-labelledby="run-skills">
              <h2 id="run-skills">Skills</h2>
              <p className="muted small">The skill versions active in its project when it started.</p>
              <ul className="plain" aria-label="Skills it was started with">
                {run.skills.map((s) => (
                  <li key={s.digest}>
                    {s.name} {s.number} <code className="small">{s.digest.slice(0, 19)}…</code>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <RunContextCard runId={run.id} status={run.status} ended={terminal} attempts={run.attempts.length} />
          <RunFilesCard runId={run.id} status={run.status} attached={attached} />
        </div>
        <RunEvents runId={run.id} ended={terminal} onStatus={setStreamed} onAttached={setAttached} />
      </div>
    </section>
  );
}

/** The task the run works on, its agent and attempt, its status, and how long it has taken. */
function RunHeader({ run }: { run: Run }) {
  const span = runSpan(run);
  return (
    <header className="stack">
      <h1>
        {run.task.title}{" "}
        <Status of={run.status}>
          <span data-testid="run-status">{humanize(run.status)}</span>
        </Status>
      </h1>
      <p className="muted facts">
        <span>{run.agent ? `Run on ${run.agent.name}` : "No agent yet"}</span>
        <span data-testid="run-attempt">
          attempt {run.attempts.length} of {run.maxAttempts}
        </span>
        <span data-testid="run-duration">
          {span.to ? "took" : "running for"} <Elapsed from={span.from} to={span.to} />
        </span>
      </p>
      {run.statusReason && <p className="muted">{run.statusReason}</p>}
    </header>
  );
}

/** What the agent asked and waits for: approved or denied here, without leaving the run. */
function PendingApprovals({ run, onClosed }: { run: Run; onClosed: () => void }) {
  const pending = run.approvals.filter((a) => a.status === "PENDING");
  if (pending.length === 0) return null;
  return (
    <ul className="stack plain" aria-label="Waiting for your decision" data-testid="run-approvals">
      {pending.map((approval) => (
        <ApprovalCard key={approval.id} approval={approval} onClosed={onClosed} onRunPage />
      ))}
    </ul>
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
  return (
    // Focusable, so that the focus stays here while an action's outcome offers nothing (ui/focus.ts).
    <div className="card stack" data-testid="run-actions" tabIndex={-1}>
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
                <code>{a.action}</code> <Status of={a.status} />
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
