// What a run's page offers and shows, decided from the run's state as the server's state machine
// (api/src/runs/state.rs, mod.rs and handoff.rs) allows it, so that no button leads to
// INVALID_TRANSITION and no label disagrees with the run.
import type { RunAttemptStatus, RunStatus } from "../gql/graphql";
import type { StreamState } from "../api/runStream";

export const TERMINAL: ReadonlySet<RunStatus> = new Set<RunStatus>(["SUCCEEDED", "FAILED", "CANCELLED", "INTERRUPTED"]);

// `cancelRun` stops a running run through `cancelling` and ends these at once; a run that is
// checkpointing, handing off or already cancelling has to get there first.
const CANCELLABLE: ReadonlySet<RunStatus> = new Set<RunStatus>(["QUEUED", "DISPATCHING", "RUNNING", "WAITING_APPROVAL", "BLOCKED"]);

export interface RunOffer {
  cancel: boolean;
  /** `requestCheckpoint`: a running run whose agent declares `CHECKPOINT`. */
  checkpoint: boolean;
  /** `requestHandoff`: a running run (checkpointed first, so the same capability) or a blocked one. */
  handoff: boolean;
  /** A new run of the same task on the same agent, once this one has ended. */
  again: "Retry" | "Run again" | null;
  /** Why checkpoint and hand off are not offered while the run is live, in the user's words. */
  why: string | null;
}

interface RunLike {
  status: RunStatus;
  agent?: { name: string; capabilities: readonly string[] } | null;
}

export function runOffer(run: RunLike): RunOffer {
  if (TERMINAL.has(run.status)) {
    const failed = run.status === "FAILED" || run.status === "INTERRUPTED";
    return { cancel: false, checkpoint: false, handoff: false, again: failed ? "Retry" : "Run again", why: null };
  }
  const canCheckpoint = run.agent?.capabilities.includes("CHECKPOINT") ?? false;
  const running = run.status === "RUNNING";
  return {
    cancel: CANCELLABLE.has(run.status),
    checkpoint: running && canCheckpoint,
    handoff: (running && canCheckpoint) || run.status === "BLOCKED",
    again: null,
    why: whyNot(run.status, canCheckpoint, run.agent?.name),
  };
}

function whyNot(status: RunStatus, canCheckpoint: boolean, agent: string | undefined): string | null {
  switch (status) {
    case "RUNNING":
      return canCheckpoint
        ? null
        : `${agent ?? "Its agent"} cannot save checkpoints, so this run cannot be checkpointed or handed off while it runs.`;
    case "WAITING_APPROVAL":
      return "It waits for an approval: decide it above first; checkpoint and hand off are possible while it runs.";
    case "QUEUED":
    case "DISPATCHING":
      return "It is starting: checkpoint and hand off are possible once it runs.";
    case "CHECKPOINTING":
      return "It is saving a checkpoint.";
    case "HANDOFF_READY":
      return "It is being handed off.";
    case "CANCELLING":
      return "It is being cancelled: its agent is asked to stop.";
    default:
      return null;
  }
}

interface AttemptLike {
  status: RunAttemptStatus;
  endedAt?: string | null;
}

/**
 * What an attempt's badge says. The attempt's own status knows only that it runs or ended; the
 * latest attempt shares the run's finer state (waiting for approval, checkpointing, cancelling)
 * while it runs, and the run's outcome once both ended.
 */
export function attemptState(attempt: AttemptLike, run: { status: RunStatus }, latest: boolean): string {
  if (!latest) return attempt.status;
  if (attempt.status === "RUNNING" && !attempt.endedAt && !TERMINAL.has(run.status) && run.status !== "DISPATCHING") {
    return run.status;
  }
  if (attempt.status === "ENDED" && TERMINAL.has(run.status)) return run.status;
  return attempt.status;
}

/**
 * The event stream's state as shown: a run that has ended sends nothing more, so it is never
 * "live" — while its history still arrives it is loading, then complete.
 */
export function streamShown(state: StreamState, runEnded: boolean): StreamState | "loading" {
  return runEnded && (state === "live" || state === "connecting") ? "loading" : state;
}

/** The latest status change the event stream has shown, and when it happened. */
export interface StreamedStatus {
  status: string;
  at: string;
}

/**
 * Whether the cached run is behind its event stream: the stream's latest status change happened
 * after the run was last updated, and says otherwise. An answer read before the run moved on (a
 * mutation's, say) can arrive after the stream showed the move; a stream that is itself behind
 * (its latest change older than the run) is not a reason to ask again.
 */
export function cachedRunBehind(streamed: StreamedStatus, run: { status: string; updatedAt: string }): boolean {
  return streamed.status.toUpperCase() !== run.status && Date.parse(streamed.at) > Date.parse(run.updatedAt);
}

interface SpannedRun {
  status: RunStatus;
  createdAt: string;
  updatedAt: string;
  attempts: readonly { endedAt?: string | null }[];
}

/**
 * When the run started and, once it ended, when: its last attempt's end, or (a run cancelled
 * before any attempt ended) its last update, which for an ended run is its end.
 */
export function runSpan(run: SpannedRun): { from: string; to: string | null } {
  if (!TERMINAL.has(run.status)) return { from: run.createdAt, to: null };
  return { from: run.createdAt, to: run.attempts.at(-1)?.endedAt ?? run.updatedAt };
}
