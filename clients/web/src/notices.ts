// What a notice says and where it leads: in the page (a toast), and while the page is hidden, as
// a system notification, which for an approval has Approve and Deny actions (a tap on the
// notification itself opens the request). An action
// never decides by itself: it opens the approval with the decision chosen, for one confirming
// tap in the app (docs/clients.md, "Approvals from a notification").
import type { ApprovalDecision, NotificationKind } from "./gql/graphql";
import { describeApproval, type ApprovalShape } from "./pages/approvalText";

export interface SystemNotification {
  title: string;
  /** `NotificationOptions`, with the `actions` TypeScript's DOM types leave out. */
  options: NotificationOptions & { actions?: { action: string; title: string }[] };
}

export interface Notice {
  text: string;
  href: string;
  /** Shown by the system while the page is hidden; absent, the text under the product's name. */
  system?: SystemNotification;
}

const DECISIONS: Record<string, ApprovalDecision> = { approve: "APPROVE", deny: "DENY" };

/** The approvals inbox with one request first, and the decision chosen in a notification. */
export function approvalHref(approvalId: string, decision?: "approve" | "deny"): string {
  const query = new URLSearchParams({ approval: approvalId });
  if (decision) query.set("decision", decision);
  return `/approvals?${query}`;
}

/** The request and decision an address made by `approvalHref` names; a decision only if valid. */
export function chosenInNotification(search: string): { approvalId: string | null; decision: ApprovalDecision | null } {
  const query = new URLSearchParams(search);
  return { approvalId: query.get("approval"), decision: DECISIONS[query.get("decision") ?? ""] ?? null };
}

/** The system notification's tag for an approval, so that one request is one notification. */
export const approvalTag = (approvalId: string) => `approval-${approvalId}`;

export function approvalNotice(approval: ApprovalShape): Notice {
  const href = approvalHref(approval.id);
  const text = describeApproval(approval);
  return {
    text: `Approval requested: ${approval.action} (${text.about})`,
    href,
    system: {
      title: "Approval requested",
      options: {
        body: `${text.who} ${text.asks} (${text.about})`,
        tag: approvalTag(approval.id),
        requireInteraction: true,
        // sw.js opens the page named for the action tapped, else `href`.
        data: { href, actions: { approve: approvalHref(approval.id, "approve"), deny: approvalHref(approval.id, "deny") } },
        // A tap on the notification itself opens the request: Chromium shows two actions at most
        // (`Notification.maxActions`), so Open is not a third.
        actions: [
          { action: "approve", title: "Approve" },
          { action: "deny", title: "Deny" },
        ],
      },
    },
  };
}

/** Where a notification of the bell leads: the approvals, the failed run, or the usage page. */
export function notificationHref(kind: NotificationKind, subjectId: string | null | undefined): string {
  if (kind === "RUN_FAILED" && subjectId) return `/runs/${subjectId}`;
  if (kind === "APPROVAL_WAITING") return "/approvals";
  return "/usage";
}
