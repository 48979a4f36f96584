// The approvals inbox: what agents ask before they act, and wiki revisions people ask to publish
// into authoritative namespaces, across everything the user can read, live; each is approved or
// denied with a reason, and the focus moves on to the next. A request opened from its
// notification comes first, with the decision tapped there to confirm.
import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, type CombinedError } from "urql";
import { graphql } from "../gql";
import type { ApprovalDecision, ApprovalItemFragment } from "../gql/graphql";
import { Action, ErrorBox, Loading, When, usePageTitle } from "../ui/components";
import { Link, navigate, useSearch } from "../ui/router";
import { chosenInNotification } from "../notices";
import { describeApproval } from "./approvalText";

export const ApprovalItemFragmentDoc = graphql(`
  fragment ApprovalItem on Approval {
    id
    subject
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
    requestedBy {
      id
      email
    }
    wikiRevision {
      id
      number
      title
      path
    }
    wikiPage {
      id
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
  // A request opened from its notification (notices.ts): first, with the decision chosen there.
  const { approvalId: opened, decision: chosen } = chosenInNotification(useSearch());
  // Requests the server said were already closed: they leave at once, before the list's refetch.
  const [closed, setClosed] = useState<{ ids: string[]; notice: string | null }>({ ids: [], notice: null });
  const pending = open.filter((a) => !closed.ids.includes(a.id)).sort((a, b) => Number(b.id === opened) - Number(a.id === opened));
  const onClosed = (approval: ApprovalItemFragment, status: string) => {
    setClosed(({ ids }) => ({
      ids: [...ids, approval.id],
      notice: `“${approval.action}” (${describeApproval(approval).about}) was already ${status}, so your decision was not applied. It has left the list.`,
    }));
    refetch({ requestPolicy: "network-only" });
  };
  // The card that was decided leaves; the focus goes to the one that takes its place, so that a
  // keyboard goes on down the list instead of starting again from the top of the page.
  const [leaving, setLeaving] = useState<{ id: string; index: number } | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const empty = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (!leaving || pending.some((a) => a.id === leaving.id)) return;
    const cards = list.current?.querySelectorAll<HTMLElement>(":scope > li") ?? [];
    (cards[Math.min(leaving.index, cards.length - 1)] ?? empty.current)?.focus();
    setLeaving(null);
  });
  const decided = (approval: ApprovalItemFragment, index: number) => {
    setLeaving({ id: approval.id, index });
    // Decided: a reload of this address must not offer the notification's choice again.
    if (approval.id === opened) navigate("/approvals", { replace: true });
  };
  return (
    <section className="stack">
      <h1>Approvals</h1>
      <p className="muted">Live: new requests appear here as agents ask, and as people ask to publish wiki revisions.</p>
      <ErrorBox error={error} />
      {closed.notice && (
        <p className="notice" role="status" data-testid="approval-closed">
          {closed.notice}
        </p>
      )}
      {opened && loaded && !leaving && !pending.some((a) => a.id === opened) && (
        <p className="notice" role="status" data-testid="approval-gone">
          The request you opened no longer waits for a decision: it was decided, cancelled or it expired.
        </p>
      )}
      {fetching && !loaded && <Loading what="approvals" />}
      {loaded && pending.length === 0 && (
        <p data-testid="approvals-empty" tabIndex={-1} ref={empty}>
          Nothing waits for a decision.
        </p>
      )}
      <ul className="stack plain" aria-label="Pending approvals" ref={list}>
        {pending.map((approval, index) => (
          <ApprovalCard
            key={approval.id}
            approval={approval}
            chosen={approval.id === opened ? (chosen ?? "OPEN") : null}
            onDecided={() => decided(approval, index)}
            onClosed={(status) => {
              decided(approval, index);
              onClosed(approval, status);
            }}
          />
        ))}
      </ul>
    </section>
  );
}

/** Who asks what: an agent's action shown as the command it names, a publication in words. */
export function ApprovalAsk({ approval }: { approval: ApprovalItemFragment }) {
  const text = describeApproval(approval);
  return approval.run ? (
    <>
      <strong>{text.who}</strong> wants to run <code className="action">{approval.action}</code>
    </>
  ) : (
    <>
      <strong>{text.who}</strong> {text.asks}
    </>
  );
}

const DECISIONS: { decision: ApprovalDecision; label: string; tone: string }[] = [
  { decision: "APPROVE", label: "Approve", tone: "primary" },
  { decision: "DENY", label: "Deny", tone: "danger" },
];

/**
 * One request, approved or denied here with a reason: in the inbox, and on its run's page, which
 * (`onRunPage`) leaves out where it comes from. A request opened from its notification is
 * `chosen`: in view and focused, and with the decision tapped there, that decision's button is the
 * one confirming tap.
 */
export function ApprovalCard({
  approval,
  onClosed,
  onDecided,
  onRunPage = false,
  chosen = null,
}: {
  approval: ApprovalItemFragment;
  onClosed: (status: string) => void;
  onDecided?: () => void;
  onRunPage?: boolean;
  chosen?: ApprovalDecision | "OPEN" | null;
}) {
  const [{ fetching, error, operation }, decide] = useMutation(DecideMutation);
  const [reason, setReason] = useState("");
  const send = async (decision: ApprovalDecision) => {
    const result = await decide({ approvalId: approval.id, decision, reason: reason || null });
    const status = alreadyClosed(result.error);
    if (status) onClosed(status);
    else if (result.data) onDecided?.();
  };
  const card = useRef<HTMLLIElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!chosen) return;
    card.current?.scrollIntoView({ block: "center" });
    (chosen === "OPEN" ? card.current : confirm.current)?.focus({ preventScroll: true });
  }, [chosen]);
  const run = approval.run;
  const text = describeApproval(approval);
  const chosenDecision = DECISIONS.find((d) => d.decision === chosen);
  return (
    <li className="card stack approval" data-approval-id={approval.id} data-subject={approval.subject} tabIndex={-1} ref={card} data-chosen={chosen ?? undefined}>
      <p>
        <ApprovalAsk approval={approval} />
      </p>
      {approval.reason && <p>Because: {approval.reason}</p>}
      {approval.subject !== "WIKI_PUBLICATION" && approval.details !== null && typeof approval.details === "object" && Object.keys(approval.details).length > 0 && (
        <pre className="details">{JSON.stringify(approval.details, null, 2)}</pre>
      )}
      <p className="muted small">
        {!onRunPage && run && (
          <>
            {run.task.project?.name} / <Link href={`/tasks/${run.task.id}`}>{run.task.title}</Link> ·{" "}
            <Link href={`/runs/${run.id}`}>run</Link> ·{" "}
          </>
        )}
        {!run && text.href && (
          <>
            <Link href={text.href}>{text.about}</Link> ·{" "}
          </>
        )}
        asked <When at={approval.createdAt} /> · expires <When at={approval.expiresAt} />
      </p>
      <label>
        {run ? "Reason (sent to the agent)" : "Reason (shown to the requester)"}
        <input value={reason} onChange={(e) => setReason(e.target.value)} />
      </label>
      {chosenDecision && (
        <p className="notice" data-testid="chosen-decision">
          You chose <strong>{chosenDecision.label}</strong> in a notification. Tap it below to confirm.
        </p>
      )}
      <div className="inline">
        {DECISIONS.map((d) => (
          <Action
            key={d.decision}
            busy={fetching && operation?.variables.decision === d.decision}
            disabled={fetching}
            onClick={() => send(d.decision)}
            className={chosen === d.decision ? `${d.tone} chosen` : d.tone}
            ref={chosen === d.decision ? confirm : undefined}
          >
            {d.label}
          </Action>
        ))}
      </div>
      <ErrorBox error={error} />
    </li>
  );
}
