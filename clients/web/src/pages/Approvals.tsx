// The approvals inbox: what agents ask before they act, across every project the user can
// read, live; each is approved or denied with a reason.
import { useState } from "react";
import { useMutation, useQuery, type CombinedError } from "urql";
import { graphql } from "../gql";
import type { ApprovalDecision, ApprovalItemFragment } from "../gql/graphql";
import { Action, ErrorBox, Loading, When, usePageTitle } from "../ui/components";
import { Link } from "../ui/router";

export const ApprovalItemFragmentDoc = graphql(`
  fragment ApprovalItem on Approval {
    id
    action
    reason
    details
    status
    expiresAt
    createdAt
    decisionReason
    run {
      # Not the run's status: an approval can be delivered with an older snapshot of its run
      # than the run's own updates, and the cache would take the older one.
      id
      task {
        id
        title
        project {
          id
          name
        }
      }
      agent {
        id
        name
      }
    }
  }
`);

const ApprovalsQuery = graphql(`
  query Approvals {
    approvals(first: 100) {
      nodes {
        ...ApprovalItem
      }
    }
  }
`);

const DecideMutation = graphql(`
  mutation DecideApproval($approvalId: ID!, $decision: ApprovalDecision!, $reason: String) {
    decideApproval(approvalId: $approvalId, decision: $decision, reason: $reason) {
      ...ApprovalItem
    }
  }
`);

/**
 * The status an approval was already in when a decision reached the server too late (it was
 * decided elsewhere, cancelled with its run, or expired): the server's `CONFLICT`. Null for any
 * other failure, which leaves the request open to try again.
 */
export function alreadyClosed(error: CombinedError | undefined): string | null {
  const conflict = error?.graphQLErrors.find((e) => e.extensions?.code === "CONFLICT");
  if (!conflict) return null;
  const status = (conflict.extensions.details as { status?: unknown } | undefined)?.status;
  return typeof status === "string" ? status.toLowerCase() : "decided";
}

/**
 * What waits for a decision, across every project the user can read. Live without a subscription
 * of its own: the shell's `approvalUpdated` makes the cache ask again (api/cache.ts), and a
 * decision already in the cache hides a request before that answer arrives.
 */
export function usePendingApprovals() {
  const [{ data, fetching, error }, refetch] = useQuery({ query: ApprovalsQuery });
  const pending = data?.approvals.nodes.filter((a) => a.status === "PENDING") ?? [];
  return { pending, loaded: data !== undefined, fetching, error, refetch };
}

export function Approvals() {
  usePageTitle("Approvals");
  const { pending: open, loaded, fetching, error, refetch } = usePendingApprovals();
  // Requests the server said were already closed: they leave at once, before the list's refetch.
  const [closed, setClosed] = useState<{ ids: string[]; notice: string | null }>({ ids: [], notice: null });
  const pending = open.filter((a) => !closed.ids.includes(a.id));
  const onClosed = (approval: ApprovalItemFragment, status: string) => {
    setClosed(({ ids }) => ({
      ids: [...ids, approval.id],
      notice: `“${approval.action}” (${approval.run.task.title}) was already ${status}, so your decision was not applied. It has left the list.`,
    }));
    refetch({ requestPolicy: "network-only" });
  };
  return (
    <section className="stack">
      <h1>Approvals</h1>
      <p className="muted">Live: new requests appear here as agents ask.</p>
      <ErrorBox error={error} />
      {closed.notice && (
        <p className="notice" role="status" data-testid="approval-closed">
          {closed.notice}
        </p>
      )}
      {fetching && !loaded && <Loading what="approvals" />}
      {loaded && pending.length === 0 && <p data-testid="approvals-empty">Nothing waits for a decision.</p>}
      <ul className="stack plain" aria-label="Pending approvals">
        {pending.map((approval) => (
          <ApprovalCard key={approval.id} approval={approval} onClosed={(status) => onClosed(approval, status)} />
        ))}
      </ul>
    </section>
  );
}

/**
 * One request, approved or denied here with a reason: in the inbox, and on its run's page, which
 * (`onRunPage`) leaves out where it comes from.
 */
export function ApprovalCard({
  approval,
  onClosed,
  onRunPage = false,
}: {
  approval: ApprovalItemFragment;
  onClosed: (status: string) => void;
  onRunPage?: boolean;
}) {
  const [{ fetching, error, operation }, decide] = useMutation(DecideMutation);
  const [reason, setReason] = useState("");
  const send = async (decision: ApprovalDecision) => {
    const result = await decide({ approvalId: approval.id, decision, reason: reason || null });
    const status = alreadyClosed(result.error);
    if (status) onClosed(status);
  };
  const deciding = (decision: ApprovalDecision) => fetching && operation?.variables.decision === decision;
  const task = approval.run.task;
  return (
    <li className="card stack approval" data-approval-id={approval.id}>
      <p>
        <strong>{approval.run.agent?.name ?? "An agent"}</strong> wants to run <code className="action">{approval.action}</code>
      </p>
      {approval.reason && <p>Because: {approval.reason}</p>}
      {approval.details !== null && typeof approval.details === "object" && Object.keys(approval.details).length > 0 && (
        <pre className="details">{JSON.stringify(approval.details, null, 2)}</pre>
      )}
      <p className="muted small">
        {!onRunPage && (
          <>
            {task.project?.name} / <Link href={`/tasks/${task.id}`}>{task.title}</Link> ·{" "}
            <Link href={`/runs/${approval.run.id}`}>run</Link> ·{" "}
          </>
        )}
        asked <When at={approval.createdAt} /> · expires <When at={approval.expiresAt} />
      </p>
      <label>
        Reason (sent to the agent)
        <input value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      <div className="inline">
        <Action busy={deciding("APPROVE")} disabled={fetching} onClick={() => send("APPROVE")} className="primary">
          Approve
        </Action>
        <Action busy={deciding("DENY")} disabled={fetching} onClick={() => send("DENY")} className="danger">
          Deny
        </Action>
      </div>
      <ErrorBox error={error} />
    </li>
  );
}
