// One memory entry: the version that stands, which a person verifies, disputes or retracts; the
// conflicts that contradicting writes opened, each decided by keeping the current version or
// accepting the proposed one; and every version, newest first. Each change names the revision it
// was made against: when the entry changed meanwhile, the page says so and shows it as it now is.
import { useState } from "react";
import { useMutation, useQuery, type CombinedError } from "urql";
import { graphql } from "../gql";
import type { MemoryConflictItemFragment, MemoryConflictResolution, MemoryEntryDetailQuery, MemoryVersionItemFragment } from "../gql/graphql";
import { Action, Badge, Breadcrumbs, Confirm, ErrorBox, Loading, Status, Table, Unavailable, When, humanize, usePageTitle } from "../ui/components";
import { ViewerQuery } from "../api/viewer";
import { useScopes } from "./Memory";
import { changedMeanwhile, personName, searchAddress, versionState } from "./memoryView";

export const MemoryVersionItemFragmentDoc = graphql(`
  fragment MemoryVersionItem on MemoryVersion {
    id
    number
    content
    verification
    sensitivity
    createdById
    createdAt
    becameCurrentAt
    verifiedById
    verifiedAt
  }
`);

export const MemoryConflictItemFragmentDoc = graphql(`
  fragment MemoryConflictItem on MemoryConflict {
    id
    entryId
    currentVersionId
    proposedVersionId
    status
    resolution
    resolvedById
    resolvedAt
    revision
    createdAt
  }
`);

const EntryQuery = graphql(`
  query MemoryEntryDetail($id: ID!) {
    memoryEntry(id: $id) {
      ...MemoryEntryItem
      current {
        ...MemoryVersionItem
      }
      versions {
        ...MemoryVersionItem
      }
      conflicts {
        ...MemoryConflictItem
      }
    }
  }
`);

// Names for who wrote, verified and decided; administrators of the organization read them, others
// see "someone else".
export const PeopleNamesQuery = graphql(`
  query PeopleNames {
    users(first: 100) {
      nodes {
        id
        displayName
        email
      }
    }
  }
`);

const VerifyMemoryMutation = graphql(`
  mutation VerifyMemory($entryId: ID!, $expectedRevision: Int!, $verdict: MemoryVerdict!) {
    verifyMemory(entryId: $entryId, expectedRevision: $expectedRevision, verdict: $verdict) {
      ...MemoryEntryItem
      current {
        ...MemoryVersionItem
      }
    }
  }
`);

const RetractMemoryMutation = graphql(`
  mutation RetractMemory($entryId: ID!, $expectedRevision: Int!) {
    retractMemory(entryId: $entryId, expectedRevision: $expectedRevision) {
      ...MemoryEntryItem
      current {
        ...MemoryVersionItem
      }
    }
  }
`);

const ResolveMemoryConflictMutation = graphql(`
  mutation ResolveMemoryConflict($conflictId: ID!, $expectedRevision: Int!, $resolution: MemoryConflictResolution!) {
    resolveMemoryConflict(conflictId: $conflictId, expectedRevision: $expectedRevision, resolution: $resolution) {
      ...MemoryConflictItem
    }
  }
`);

type Entry = MemoryEntryDetailQuery["memoryEntry"];
/** Sends a change; a refusal because the entry changed meanwhile is the page's to show. */
type Attempt = (change: Promise<{ error?: CombinedError }>) => Promise<void>;
type Who = (id: string | null | undefined) => string | null;

const RESOLUTIONS: Record<MemoryConflictResolution, string> = {
  KEEP_CURRENT: "kept the current version",
  ACCEPT_PROPOSED: "accepted the proposal",
};

/** An error worth showing beside an action: not the refusal the page already explains. */
const failure = (...errors: (CombinedError | undefined)[]) => errors.find((e) => e && !changedMeanwhile(e));

export function MemoryEntryDetail({ entryId }: { entryId: string }) {
  const [{ data, fetching, error }, reload] = useQuery({ query: EntryQuery, variables: { id: entryId } });
  const [{ data: viewer }] = useQuery({ query: ViewerQuery });
  const [{ data: people }] = useQuery({ query: PeopleNamesQuery });
  const { scopes } = useScopes();
  const entry = data?.memoryEntry;
  usePageTitle(entry?.subject ?? "Memory entry", "Memory");
  const [stale, setStale] = useState(false);
  const attempt: Attempt = async (change) => {
    setStale(false);
    const { error } = await change;
    if (!changedMeanwhile(error)) return;
    setStale(true);
    reload({ requestPolicy: "network-only" });
  };
  const names = new Map((people?.users.nodes ?? []).map((u) => [u.id, u.displayName || u.email]));
  const who: Who = (id) => personName(id, viewer?.viewer.id, names);

  if (fetching && !data) return <Loading what="the memory entry" />;
  if (!entry) return <Unavailable error={error} what="memory entry" />;
  const scope = scopes.find((s) => s.id === entry.scopeId)?.label ?? humanize(entry.scopeKind);
  const conflicts = [...entry.conflicts].reverse().sort((a, b) => Number(b.status === "OPEN") - Number(a.status === "OPEN"));
  return (
    <section className="stack">
      <Breadcrumbs
        trail={[{ label: "Memory", href: searchAddress({ scopeId: entry.scopeId, query: "", kinds: [], verification: [], asOf: "" }) }, { label: entry.subject }]}
      />
      <h1>{entry.subject}</h1>
      <p className="inline small">
        <Badge>{humanize(entry.kind)}</Badge>
        <span className="muted">{scope}</span>
      </p>
      {stale && (
        <p className="notice" role="status" data-testid="memory-changed">
          This entry changed since you opened it, so your change was not made. It now shows as it stands: check it, then try again.
        </p>
      )}
      <ErrorBox error={error} />
      <CurrentVersion entry={entry} who={who} attempt={attempt} />
      <article className="card stack" aria-labelledby="memory-conflicts">
        <h2 id="memory-conflicts">Conflicts</h2>
        {conflicts.length === 0 && <p className="muted">No write has contradicted this entry.</p>}
        <ul className="plain stack">
          {conflicts.map((conflict) => (
            <Conflict key={conflict.id} conflict={conflict} versions={entry.versions} who={who} attempt={attempt} />
          ))}
        </ul>
      </article>
      <article className="card stack" aria-labelledby="memory-history">
        <h2 id="memory-history">History</h2>
        <Table
          rows={[...entry.versions].reverse()}
          rowKey={(v) => v.id}
          rowData={(v) => ({ "data-version": String(v.number) })}
          columns={[
            { head: "Version", cell: (v) => v.number },
            {
              head: "State",
              cell: (v) => {
                const state = versionState(v, entry.current.id, entry.conflicts);
                return <Badge accent={state === "current"}>{state}</Badge>;
              },
            },
            { head: "Content", cell: (v) => <span className="description">{v.content}</span> },
            { head: "Verification", cell: (v) => <Verification version={v} who={who} /> },
            {
              head: "Written",
              cell: (v) => (
                <>
                  {who(v.createdById) ?? "—"}, <When at={v.createdAt} />
                </>
              ),
            },
          ]}
        />
      </article>
    </section>
  );
}

/** A version's verification, with who verified or disputed it and when. */
function Verification({ version, who }: { version: MemoryVersionItemFragment; who: Who }) {
  const judged = version.verification === "VERIFIED" || version.verification === "DISPUTED";
  return (
    <span className="inline">
      <Status of={version.verification} />
      {judged && version.verifiedById && (
        <span className="muted small">
          by {who(version.verifiedById)}, <When at={version.verifiedAt} />
        </span>
      )}
    </span>
  );
}

function CurrentVersion({ entry, who, attempt }: { entry: Entry; who: Who; attempt: Attempt }) {
  const [verifying, verify] = useMutation(VerifyMemoryMutation);
  const [retracting, retract] = useMutation(RetractMemoryMutation);
  const { current } = entry;
  const expected = { entryId: entry.id, expectedRevision: entry.revision };
  const busy = verifying.fetching || retracting.fetching;
  return (
    <article className="card stack" aria-labelledby="memory-current" data-testid="memory-current">
      <h2 id="memory-current">Current version</h2>
      <p className="description">{current.content}</p>
      <p className="facts small">
        <span>Version {current.number}</span>
        <Verification version={current} who={who} />
        <span>{humanize(current.sensitivity)}</span>
        <span>
          written by {who(current.createdById) ?? "—"}, <When at={current.createdAt} />
        </span>
      </p>
      {current.verification === "RETRACTED" ? (
        <p className="muted">Retracted: it stays in the history and is never served as true. The next write about this subject stands without a conflict.</p>
      ) : (
        <div className="inline">
          {current.verification !== "VERIFIED" && (
            <Action
              busy={verifying.fetching && verifying.operation?.variables.verdict === "VERIFIED"}
              disabled={busy}
              onClick={() => attempt(verify({ ...expected, verdict: "VERIFIED" }))}
            >
              Verify
            </Action>
          )}
          {current.verification !== "DISPUTED" && (
            <Action
              busy={verifying.fetching && verifying.operation?.variables.verdict === "DISPUTED"}
              disabled={busy}
              onClick={() => attempt(verify({ ...expected, verdict: "DISPUTED" }))}
            >
              Dispute
            </Action>
          )}
          <Confirm
            label="Retract"
            question={`Retract version ${current.number} of “${entry.subject}”?`}
            consequence="It stays in the history but is never served as true again; the next write about this subject stands without a conflict."
            confirm="Retract the version"
            keep="Keep it"
            busy={retracting.fetching}
            onConfirm={() => void attempt(retract(expected))}
          />
        </div>
      )}
      <ErrorBox error={failure(verifying.error, retracting.error)} />
    </article>
  );
}

function Conflict({
  conflict,
  versions,
  who,
  attempt,
}: {
  conflict: MemoryConflictItemFragment;
  versions: readonly MemoryVersionItemFragment[];
  who: Who;
  attempt: Attempt;
}) {
  const [resolving, resolve] = useMutation(ResolveMemoryConflictMutation);
  const current = versions.find((v) => v.id === conflict.currentVersionId);
  const proposed = versions.find((v) => v.id === conflict.proposedVersionId);
  const decide = (resolution: MemoryConflictResolution) =>
    attempt(resolve({ conflictId: conflict.id, expectedRevision: conflict.revision, resolution }));
  if (conflict.status === "RESOLVED") {
    return (
      <li data-conflict-id={conflict.id} data-status={conflict.status}>
        <Status of={conflict.status} /> Version {proposed?.number} against version {current?.number}: {who(conflict.resolvedById) ?? "someone"}{" "}
        {conflict.resolution && RESOLUTIONS[conflict.resolution]} <When at={conflict.resolvedAt} />.
      </li>
    );
  }
  return (
    <li className="stack" data-conflict-id={conflict.id} data-status={conflict.status}>
      <p>
        <Status of={conflict.status} /> A write <When at={conflict.createdAt} /> contradicts the current version.
      </p>
      <div className="grid-2">
        {[
          { title: "Current", version: current },
          { title: "Proposed", version: proposed },
        ].map(({ title, version }) => (
          <div key={title} className="stack">
            <h3>
              {title}: version {version?.number}
            </h3>
            <p className="description">{version?.content}</p>
            <p className="muted small">
              written by {who(version?.createdById) ?? "—"}, <When at={version?.createdAt} />
            </p>
          </div>
        ))}
      </div>
      <div className="inline">
        <Action busy={resolving.fetching && resolving.operation?.variables.resolution === "KEEP_CURRENT"} disabled={resolving.fetching} onClick={() => decide("KEEP_CURRENT")}>
          Keep current
        </Action>
        <Action
          className="primary"
          busy={resolving.fetching && resolving.operation?.variables.resolution === "ACCEPT_PROPOSED"}
          disabled={resolving.fetching}
          onClick={() => decide("ACCEPT_PROPOSED")}
        >
          Accept proposed
        </Action>
      </div>
      <ErrorBox error={failure(resolving.error)} />
    </li>
  );
}
