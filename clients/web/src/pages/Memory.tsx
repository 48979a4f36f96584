// Memory: what people know about their work, searched from where a person stands (a scope and the
// scopes above it, or an agent's own memory), best first or the most recently changed, live; and
// written to a scope, where a write about a subject that already has a current version opens a
// conflict instead of replacing it. The search is kept in the page's address, so going back to it
// finds it again.
import { useEffect, useId, useState, type FormEvent } from "react";
import { useClient, useMutation, useQuery, useSubscription, type CombinedError, type OperationResult } from "urql";
import { pipe, subscribe } from "wonka";
import { graphql } from "../gql";
import type { AgentsQuery as Agents, MemoryKind, MemorySensitivity } from "../gql/graphql";
import { Action, Badge, ErrorBox, Loading, Status, humanize, usePageTitle } from "../ui/components";
import { Link, navigate, useSearch } from "../ui/router";
import { ViewerQuery } from "../api/viewer";
import { exactTime } from "../ui/time";
import { WorkspacesQuery } from "./Workspaces";
import { AgentsQuery } from "./TaskDetail";
import { memoryScopes, scopeChoices, type Scope } from "./scopes";
import { ScopeSelect } from "./ScopeSelect";
import {
  KINDS,
  VERIFICATIONS,
  agentScope,
  foundBy,
  readSearch,
  searchAddress,
  searchMode,
  searchVariables,
  writeOutcome,
  type MemorySearch,
} from "./memoryView";

export const MemoryEntryItemFragment = graphql(`
  fragment MemoryEntryItem on MemoryEntry {
    id
    scopeKind
    scopeId
    kind
    subject
    revision
    updatedAt
    current {
      id
      number
      content
      verification
    }
  }
`);

const MemoryRolesQuery = graphql(`
  query MemoryRoles {
    viewer {
      id
      roleBindings {
        id
        role
        scopeId
      }
    }
  }
`);

const MemorySearchQuery = graphql(`
  query MemorySearch($scopeId: ID!, $query: String, $kinds: [MemoryKind!], $verification: [MemoryVerification!], $asOf: DateTime) {
    memoryRetrievalMode
    memory(scopeId: $scopeId, query: $query, kinds: $kinds, verification: $verification, asOf: $asOf) {
      foundBy
      entry {
        ...MemoryEntryItem
      }
    }
  }
`);

const MemoryUpdatedSubscription = graphql(`
  subscription MemoryUpdated($scopeId: ID!) {
    memoryUpdated(scopeId: $scopeId) {
      ...MemoryEntryItem
    }
  }
`);

const WriteMemoryMutation = graphql(`
  mutation WriteMemory($input: WriteMemoryInput!) {
    writeMemory(input: $input) {
      entry {
        ...MemoryEntryItem
      }
      version {
        id
        number
      }
      conflict {
        id
      }
    }
  }
`);

/** Who reads what is written with each sensitivity. */
const READERS: Record<MemorySensitivity, string> = {
  INTERNAL: "anyone who can read the scope",
  CONFIDENTIAL: "members of the scope and above",
  RESTRICTED: "administrators of the scope and above",
};

/**
 * Each workspace's agents, by workspace id. `agents` lists those that can serve a project, which
 * are its workspace's, so each workspace is asked through its first project: one without a project
 * has none to list. Asked of the client, since a page cannot call a hook per workspace.
 */
function useWorkspaceAgents(workspaces: readonly { id: string; projects: { nodes: readonly { id: string }[] } }[]) {
  const client = useClient();
  const [answers, setAnswers] = useState<ReadonlyMap<string, OperationResult<Agents>>>(new Map());
  const asked = workspaces.flatMap((w) => (w.projects.nodes[0] ? [[w.id, w.projects.nodes[0].id] as const] : []));
  const key = JSON.stringify(asked);
  useEffect(() => {
    const watching = (JSON.parse(key) as [string, string][]).map(([workspaceId, projectId]) =>
      pipe(
        client.query(AgentsQuery, { projectId }),
        subscribe((answer) => setAnswers((known) => new Map(known).set(workspaceId, answer))),
      ),
    );
    return () => watching.forEach((w) => w.unsubscribe());
  }, [client, key]);
  const agents = new Map([...answers].map(([workspaceId, answer]) => [workspaceId, answer.data?.agents ?? []]));
  const pending = asked.some(([workspaceId]) => !answers.has(workspaceId));
  return { agents, pending, error: [...answers.values()].find((a) => a.error)?.error };
}

/**
 * The scopes the person may stand in (their organization, workspaces, projects and the
 * workspaces' agents, where they have a role), those of them they may write to, and whether
 * agents are still being asked for.
 */
export function useScopes(): { scopes: Scope[]; writable: Scope[]; pending: boolean; error: CombinedError | undefined } {
  const [{ data: viewer }] = useQuery({ query: ViewerQuery });
  const [{ data: roles, error: rolesError }] = useQuery({ query: MemoryRolesQuery });
  const [{ data, error }] = useQuery({ query: WorkspacesQuery });
  const workspaces = data?.workspaces.nodes ?? [];
  const { agents, pending, error: agentsError } = useWorkspaceAgents(workspaces);
  const { readable, writable } = memoryScopes(scopeChoices(viewer?.viewer.organization, workspaces, agents), roles?.viewer.roleBindings ?? []);
  return { scopes: readable, writable, pending, error: error ?? rolesError ?? agentsError };
}

const entryHref = (id: string) => `/memory/${id}`;

export function Memory() {
  usePageTitle("Memory");
  const { scopes, writable, pending, error } = useScopes();
  const search = readSearch(useSearch());
  // A scope the address names may be an agent not listed yet: stand nowhere until it could be,
  // rather than search elsewhere meanwhile.
  const scope = scopes.find((s) => s.id === search.scopeId) ?? (search.scopeId && pending ? undefined : scopes[0]);
  const show = (next: MemorySearch) => navigate(searchAddress({ ...next, scopeId: scope?.id ?? null }));
  return (
    <section className="stack">
      <h1>Memory</h1>
      <ErrorBox error={error} />
      <ScopeSelect
        label="Search from"
        scopes={scopes}
        value={scope?.id ?? ""}
        onChange={(id) => navigate(searchAddress({ ...search, scopeId: id }), { replace: true })}
      />
      <p className="muted small">A search reads this scope and the scopes above it.</p>
      <SearchForm search={search} onSearch={show} />
      {scope && (
        <div className="grid-2">
          <Hits variables={searchVariables(search, scope.id)} scopes={scopes} />
          <WriteEntry scopes={writable} standing={scope.id} />
        </div>
      )}
    </section>
  );
}

function SearchForm({ search, onSearch }: { search: MemorySearch; onSearch: (search: MemorySearch) => void }) {
  const [draft, setDraft] = useState(search);
  // Another search in the address (back, forward) shows in the form. The form stays in place
  // rather than be drawn anew, so the focus stays where the person searched from.
  const asked = searchAddress({ ...search, scopeId: null });
  const [shown, setShown] = useState(asked);
  if (asked !== shown) {
    setShown(asked);
    setDraft(search);
  }
  const toggle = <T,>(list: T[], item: T) => (list.includes(item) ? list.filter((i) => i !== item) : [...list, item]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft);
  };
  return (
    <form role="search" aria-label="Memory search" className="stack" onSubmit={submit}>
      <div className="inline">
        <input
          type="search"
          className="grow"
          aria-label="Search memory"
          data-shortcut="search"
          placeholder="Words or a question"
          value={draft.query}
          onChange={(e) => setDraft({ ...draft, query: e.target.value })}
        />
        <button type="submit">Search</button>
      </div>
      <fieldset className="inline">
        <legend>Kinds (none ticked: every kind)</legend>
        {KINDS.map((kind) => (
          <label key={kind}>
            <input type="checkbox" checked={draft.kinds.includes(kind)} onChange={() => setDraft({ ...draft, kinds: toggle(draft.kinds, kind) })} />
            {humanize(kind)}
          </label>
        ))}
      </fieldset>
      <label>
        As of (empty: now){" "}
        <input type="datetime-local" step={1} value={draft.asOf} onChange={(e) => setDraft({ ...draft, asOf: e.target.value })} />
      </label>
      <fieldset className="inline">
        <legend>Verification (none ticked: all but retracted)</legend>
        {VERIFICATIONS.map((state) => (
          <label key={state}>
            <input
              type="checkbox"
              checked={draft.verification.includes(state)}
              onChange={() => setDraft({ ...draft, verification: toggle(draft.verification, state) })}
            />
            {humanize(state)}
          </label>
        ))}
      </fieldset>
    </form>
  );
}

function Hits({ variables, scopes }: { variables: ReturnType<typeof searchVariables>; scopes: Scope[] }) {
  const [{ data, fetching, error }] = useQuery({ query: MemorySearchQuery, variables });
  useSubscription({ query: MemoryUpdatedSubscription, variables: { scopeId: variables.scopeId } });
  const searching = variables.query !== null;
  const hits = data?.memory ?? [];
  const asOf = variables.asOf ? ` as of ${exactTime(new Date(variables.asOf))}` : "";
  return (
    <article className="card stack" aria-labelledby="memory-hits">
      <h2 id="memory-hits">{searching ? `Found for “${variables.query}”${asOf}` : asOf ? `Memory${asOf}` : "Recently changed"}</h2>
      {data && !asOf && (
        <p className="muted small" data-testid="memory-mode">
          Searching by {searchMode(data.memoryRetrievalMode)}
          {data.memoryRetrievalMode === "FULL_TEXT_ONLY" && ": by meaning too once the server has loaded its model"}.
        </p>
      )}
      {asOf && (
        <p className="muted small" data-testid="memory-mode">
          Each entry as it stood then, found by words only: meaning is kept for current versions. Verification is today's.
        </p>
      )}
      <ErrorBox error={error} />
      {fetching && !data && <Loading what="memory" />}
      {data && hits.length === 0 && <p className="muted">{searching ? "Nothing found." : "Nothing is known here yet."}</p>}
      <ol className="plain stack">
        {hits.map(({ entry, foundBy: retrievers }) => {
          const found = foundBy(retrievers);
          return (
            <li key={entry.id} className="stack memory-hit" data-entry-id={entry.id}>
              <Link href={entryHref(entry.id)} className="subject">
                {entry.subject}
              </Link>
              <p className="description">{entry.current.content}</p>
              <p className="inline small">
                <Badge>{humanize(entry.kind)}</Badge>
                <Badge>{agentScope(entry, scopes) ?? humanize(entry.scopeKind)}</Badge>
                <Status of={entry.current.verification} />
                {found && <span className="muted" data-testid="found-by">found by {found}</span>}
              </p>
            </li>
          );
        })}
      </ol>
    </article>
  );
}

const EMPTY_DRAFT = { kind: "FACT" as MemoryKind, subject: "", content: "", sensitivity: "INTERNAL" as MemorySensitivity };

/**
 * Writes an entry to the scope the person stands in, or another they choose, among those they may
 * write to: where they stand only when they may write there.
 */
function WriteEntry({ scopes, standing }: { scopes: Scope[]; standing: string }) {
  const [{ data, fetching, error }, write] = useMutation(WriteMemoryMutation);
  const [chosen, setChosen] = useState<string | null>(null);
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const readersId = useId();
  const scopeId = [chosen, standing].find((id) => scopes.some((s) => s.id === id)) ?? scopes[0]?.id;
  if (!scopeId) {
    return (
      <article className="card stack" aria-labelledby="memory-write">
        <h2 id="memory-write">Write what you know</h2>
        <p className="muted" data-testid="memory-read-only">
          Your role lets you read memory here, not write it: writing takes a member or above.
        </p>
      </article>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await write({ input: { scopeId, ...draft } });
    if (result.data) setDraft({ ...draft, subject: "", content: "" });
  };
  const written = data?.writeMemory;
  const outcome = written && writeOutcome(written);
  return (
    <form className="card stack" aria-labelledby="memory-write" onSubmit={submit}>
      <h2 id="memory-write">Write what you know</h2>
      <ScopeSelect label="Write to" scopes={scopes} value={scopeId} onChange={setChosen} />
      <label>
        Kind{" "}
        <select value={draft.kind} onChange={(e) => setDraft({ ...draft, kind: e.target.value as MemoryKind })}>
          {KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {humanize(kind)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Subject{" "}
        <input
          required
          maxLength={200}
          data-shortcut="new"
          placeholder="What it is about"
          value={draft.subject}
          onChange={(e) => setDraft({ ...draft, subject: e.target.value })}
        />
      </label>
      <label>
        Content <textarea required rows={4} value={draft.content} onChange={(e) => setDraft({ ...draft, content: e.target.value })} />
      </label>
      <label>
        Sensitivity{" "}
        <select
          value={draft.sensitivity}
          aria-describedby={readersId}
          onChange={(e) => setDraft({ ...draft, sensitivity: e.target.value as MemorySensitivity })}
        >
          {(Object.keys(READERS) as MemorySensitivity[]).map((sensitivity) => (
            <option key={sensitivity} value={sensitivity}>
              {humanize(sensitivity)}
            </option>
          ))}
        </select>
      </label>
      <p className="muted small" id={readersId}>
        Read by {READERS[draft.sensitivity]}.
      </p>
      <Action type="submit" busy={fetching}>
        Write
      </Action>
      {written && outcome && (
        <p className={outcome.conflict ? "notice" : "muted"} role="status" data-testid="memory-written" data-conflict={outcome.conflict}>
          {outcome.message} <Link href={entryHref(written.entry.id)}>Open “{written.entry.subject}”</Link>
        </p>
      )}
      <ErrorBox error={error} />
    </form>
  );
}
