// Audit: the organization's trail for its administrators (docs/audit.md), newest first: who did
// what to what, when, and from which request; narrowed to one kind of action; a check of the
// whole chain, naming its first broken link; and the chain exported as JSON lines.
import { useState } from "react";
import { useQuery } from "urql";
import { graphql } from "../gql";
import type { AuditAction } from "../gql/graphql";
import { Action, ErrorBox, Loading, Problems, Table, When, humanize, usePageTitle } from "../ui/components";
import { useDownloads } from "./ArtifactParts";
import { detailPairs, verificationText } from "./auditView";

// Fifty at a time (a literal, so the query's cost is known); "Older" reads the fifty before.
const AuditEventsQuery = graphql(`
  query AuditEvents($before: String, $actions: [AuditAction!]) {
    auditEvents(last: 50, before: $before, filter: { actions: $actions }) {
      pageInfo {
        hasPreviousPage
        startCursor
      }
      nodes {
        id
        sequence
        occurredAt
        actorKind
        actor {
          id
          email
          displayName
        }
        action
        targetKind
        correlationId
        details
      }
    }
  }
`);

const VerifyAuditQuery = graphql(`
  query VerifyAudit {
    verifyAudit {
      intact
      events
      checkpoints
      firstBroken {
        sequence
        problem
      }
    }
  }
`);

/** Where each kind of action belongs, in the order a person looks for them (every action, or this does not compile). */
const AREA_OF: Record<AuditAction, string> = {
  SIGNED_IN: "Sign-in and sessions",
  SIGN_IN_FAILED: "Sign-in and sessions",
  SIGNED_OUT: "Sign-in and sessions",
  SESSION_REVOKED: "Sign-in and sessions",
  REFRESH_TOKEN_REUSED: "Sign-in and sessions",
  API_TOKEN_CREATED: "Sign-in and sessions",
  API_TOKEN_REVOKED: "Sign-in and sessions",
  ORGANIZATION_CREATED: "People and roles",
  USER_CREATED: "People and roles",
  IDENTITY_LINKED: "People and roles",
  USER_DISABLED: "People and roles",
  USER_ENABLED: "People and roles",
  ROLE_GRANTED: "People and roles",
  ROLE_REVOKED: "People and roles",
  ENROLLMENT_TOKEN_CREATED: "Connectors",
  CONNECTOR_ENROLLED: "Connectors",
  CONNECTOR_REVOKED: "Connectors",
  CONNECTOR_REMOVED: "Connectors",
  WORKSPACE_CREATED: "Work",
  PROJECT_CREATED: "Work",
  PROJECT_UPDATED: "Work",
  TASK_CREATED: "Work",
  TASK_UPDATED: "Work",
  TASK_DELETED: "Work",
  RUN_STARTED: "Work",
  RUN_CANCELLED: "Work",
  APPROVAL_DECIDED: "Work",
  SETTINGS_WRITTEN: "Work",
  ARTIFACT_UPLOADED: "Work",
  MEMORY_WRITTEN: "Memory",
  MEMORY_VERIFIED: "Memory",
  MEMORY_RETRACTED: "Memory",
  MEMORY_CONFLICT_RESOLVED: "Memory",
  MEMORY_INDEX_REBUILT: "Memory",
  WIKI_NAMESPACE_CREATED: "Wiki",
  WIKI_NAMESPACE_ACL_SET: "Wiki",
  WIKI_PAGE_SAVED: "Wiki",
  WIKI_PAGE_RENAMED: "Wiki",
  WIKI_REVIEW_REQUESTED: "Wiki",
  WIKI_PAGE_PUBLISHED: "Wiki",
  SKILL_PUBLISHER_KEY_TRUSTED: "Skills",
  SKILL_PUBLISHER_KEY_REVOKED: "Skills",
  SKILL_IMPORTED: "Skills",
  SKILL_REVIEW_REQUESTED: "Skills",
  SKILL_REVIEWED: "Skills",
  SKILL_REVOKED: "Skills",
  SKILL_ACTIVATED: "Skills",
  SKILL_DEACTIVATED: "Skills",
  CANDIDATE_PROPOSED: "Candidates",
  CANDIDATE_PREPARED: "Candidates",
  CANDIDATE_DECIDED: "Candidates",
  CANDIDATE_APPLIED: "Candidates",
  BUDGET_POLICY_SET: "Budgets",
  BUDGET_POLICY_REMOVED: "Budgets",
  NOTIFICATION_PREFERENCE_SET: "People and roles",
  PUSH_SUBSCRIPTION_REGISTERED: "People and roles",
  PUSH_SUBSCRIPTION_REMOVED: "People and roles",
};

/** The kinds of action to narrow the trail to, by area. */
const AREAS = Object.entries(AREA_OF).reduce<[string, AuditAction[]][]>((areas, [action, area]) => {
  const last = areas.at(-1);
  if (last && last[0] === area) last[1].push(action as AuditAction);
  else areas.push([area, [action as AuditAction]]);
  return areas;
}, []);

export function Audit() {
  usePageTitle("Audit");
  const [action, setAction] = useState<AuditAction | "">("");
  // The cursors of the pages walked back through, newest last; none: the newest page.
  const [older, setOlder] = useState<string[]>([]);
  const before = older.at(-1) ?? null;
  const [{ data, fetching, error }] = useQuery({
    query: AuditEventsQuery,
    variables: { before, actions: action ? [action] : null },
    requestPolicy: "cache-and-network",
  });
  const [verified, verify] = useQuery({ query: VerifyAuditQuery, pause: true, requestPolicy: "network-only" });
  const downloads = useDownloads();
  const page = data?.auditEvents;
  const events = [...(page?.nodes ?? [])].reverse();

  return (
    <section className="stack">
      <h1>Audit</h1>
      <p className="muted">
        Every sign-in, token, role, connector, run start and cancel, decision, settings change and write to projects,
        tasks, memory, the wiki, skills, candidates, budgets and files in this organization, in a chain of hashes that shows any
        later change to it.
      </p>
      <div className="inline">
        <Action write={false} busy={verified.fetching} onClick={() => verify()}>
          Verify the chain
        </Action>
        <Action
          write={false}
          busy={downloads.downloading !== null}
          onClick={() => void downloads.save({ id: "audit", downloadPath: "/v1/audit/events" }, "audit.jsonl")}
        >
          Download (JSON lines)
        </Action>
      </div>
      {verified.data && (
        <p
          role="status"
          data-testid="audit-verification"
          data-intact={verified.data.verifyAudit.intact}
          className={verified.data.verifyAudit.intact ? "" : "error"}
        >
          {verificationText(verified.data.verifyAudit)}
        </p>
      )}
      <ErrorBox error={verified.error} />
      <Problems problems={downloads.problem ? [downloads.problem] : null} />
      <label className="inline">
        Show
        <select
          value={action}
          onChange={(e) => {
            setAction(e.target.value as AuditAction | "");
            setOlder([]);
          }}
        >
          <option value="">every action</option>
          {AREAS.map(([area, actions]) => (
            <optgroup key={area} label={area}>
              {actions.map((a) => (
                <option key={a} value={a}>
                  {humanize(a)}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <ErrorBox error={error} />
      {fetching && !data && <Loading what="the audit trail" />}
      {page && events.length === 0 && <p className="muted">Nothing recorded{action ? " of this kind" : ""} yet.</p>}
      {events.length > 0 && (
        <Table
          rows={events}
          rowKey={(e) => e.id}
          rowData={(e) => ({ "data-action": e.action })}
          columns={[
            { head: "#", cell: (e) => e.sequence },
            { head: "When", cell: (e) => <When at={e.occurredAt} /> },
            { head: "What", cell: (e) => humanize(e.action) },
            { head: "Who", cell: (e) => e.actor?.displayName || e.actor?.email || humanize(e.actorKind) },
            { head: "To", cell: (e) => (e.targetKind ? humanize(e.targetKind) : "—") },
            {
              head: "Details",
              cell: (e) => (
                <span className="small">
                  {detailPairs(e.details)
                    .map(([key, value]) => `${key}: ${value}`)
                    .join("; ") || "—"}
                </span>
              ),
            },
            { head: "Request", cell: (e) => (e.correlationId ? <code className="small">{e.correlationId}</code> : "—") },
          ]}
        />
      )}
      <div className="inline">
        {older.length > 0 && (
          <button type="button" onClick={() => setOlder(older.slice(0, -1))}>
            Newer
          </button>
        )}
        {page?.pageInfo.hasPreviousPage && page.pageInfo.startCursor && (
          <button type="button" onClick={() => setOlder([...older, page.pageInfo.startCursor as string])}>
            Older
          </button>
        )}
      </div>
    </section>
  );
}
