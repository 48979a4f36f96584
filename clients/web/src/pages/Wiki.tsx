// The wiki: a workspace's or project's namespaces and their pages; a page read as sanitized
// Markdown with its links, backlinks and history; an edit with a live preview that names the
// revision it was made from, so a stale one is refused (CONFLICT) rather than lose someone's work.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useSubscription } from "urql";
import { graphql } from "../gql";
import { Action, Badge, ErrorBox, Loading, Problems, Unavailable, usePageTitle } from "../ui/components";
import { Link, navigate } from "../ui/router";
import { exactTime } from "../ui/time";
import { useScopes } from "./Memory";
import { foundBy } from "./memoryView";
import { PeopleNamesQuery } from "./MemoryEntryDetail";
import { ScopeSelect } from "./ScopeSelect";
import { attachmentPath, diffLineKind, renderMarkdown, wikiScopes, writtenByAgent } from "./wikiView";
import { Digest, DownloadButton, UploadFile, send, useDownloads, type Outcome, type UploadedFile } from "./ArtifactParts";
import { formatSize, mediaTypeOf, versionLabel } from "./artifactsView";

const NamespacesQuery = graphql(`
  query WikiNamespaces($scopeId: ID!) {
    wikiNamespaces(scopeId: $scopeId) {
      id
      name
      authoritative
      acl
    }
  }
`);

const PagesQuery = graphql(`
  query WikiPages($namespaceId: ID!) {
    wikiPages(namespaceId: $namespaceId, first: 100) {
      edges {
        node {
          id
          path
          title
          revision
          publishedRevision
        }
      }
    }
  }
`);

const PageUpdatedSubscription = graphql(`
  subscription WikiPageUpdated($namespaceId: ID!) {
    wikiPageUpdated(namespaceId: $namespaceId) {
      id
      path
      title
      revision
      publishedRevision
    }
  }
`);

const SearchQuery = graphql(`
  query WikiSearch($scopeId: ID!, $query: String!) {
    wikiSearch(scopeId: $scopeId, query: $query) {
      score
      foundBy
      page {
        id
        path
        title
      }
    }
  }
`);

const CreateNamespaceMutation = graphql(`
  mutation CreateWikiNamespace($scopeId: ID!, $name: String!, $authoritative: Boolean!) {
    createWikiNamespace(scopeId: $scopeId, name: $name, authoritative: $authoritative) {
      id
      name
      authoritative
    }
  }
`);

const SavePageMutation = graphql(`
  mutation SaveWikiPage($input: SaveWikiPageInput!) {
    saveWikiPage(input: $input) {
      id
      path
      title
      revision
      publishedRevision
      latest {
        id
        number
        source
      }
    }
  }
`);

const PageQuery = graphql(`
  query WikiPageView($id: ID!) {
    node(id: $id) {
      __typename
      ... on WikiPage {
        id
        namespaceId
        namespace {
          id
          name
          authoritative
        }
        path
        title
        revision
        publishedRevision
        latest {
          id
          number
          source
        }
        links {
          targetPath
          page {
            id
            title
          }
        }
        attachments {
          id
          name
          number
          sizeBytes
          sha256
          downloadPath
        }
      }
    }
    backlinks(pageId: $id) {
      id
      title
    }
    wikiRevisions(pageId: $id, last: 50) {
      edges {
        node {
          id
          number
          path
          title
          createdAt
          provenance
        }
      }
    }
  }
`);

const RenameMutation = graphql(`
  mutation RenameWikiPage($pageId: ID!, $path: String!, $expectedRevision: Int!) {
    renameWikiPage(pageId: $pageId, path: $path, expectedRevision: $expectedRevision) {
      id
      path
      revision
    }
  }
`);

const PublishMutation = graphql(`
  mutation PublishWikiPage($pageId: ID!, $revision: Int!) {
    publishWikiPage(pageId: $pageId, revision: $revision) {
      id
      publishedRevision
    }
  }
`);

const RequestReviewMutation = graphql(`
  mutation RequestWikiReview($pageId: ID!, $revision: Int!) {
    requestWikiReview(pageId: $pageId, revision: $revision) {
      id
      status
    }
  }
`);

const DiffQuery = graphql(`
  query WikiDiff($pageId: ID!, $from: Int!, $to: Int!) {
    wikiDiff(pageId: $pageId, from: $from, to: $to) {
      unified
      addedLines
      removedLines
    }
  }
`);

const pageHref = (id: string) => `/wiki/pages/${id}`;

export function Wiki() {
  usePageTitle("Wiki");
  const { scopes: readable, writable, error } = useScopes();
  const scopes = wikiScopes(readable);
  const [chosen, setChosen] = useState<string | null>(null);
  const scope = scopes.find((s) => s.id === chosen) ?? scopes[0];
  return (
    <section className="stack">
      <h1>Wiki</h1>
      <ErrorBox error={error} />
      {scopes.length === 0 && !error && <p className="muted">No workspace or project to keep a wiki in yet.</p>}
      {scope && (
        <>
          <ScopeSelect label="Wiki of" scopes={scopes} value={scope.id} onChange={setChosen} />
          <Search key={`search-${scope.id}`} scopeId={scope.id} />
          <Namespaces key={scope.id} scopeId={scope.id} canWrite={wikiScopes(writable).some((s) => s.id === scope.id)} />
        </>
      )}
    </section>
  );
}

/** Pages of the scope's namespaces (and, for a project, its workspace's) by their words and meaning. */
function Search({ scopeId }: { scopeId: string }) {
  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState<string | null>(null);
  const [{ data, error }] = useQuery({ query: SearchQuery, variables: { scopeId, query: query ?? "" }, pause: query === null });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery(draft);
  };
  const hits = data?.wikiSearch ?? [];
  return (
    <form role="search" aria-label="Wiki search" className="stack" onSubmit={submit}>
      <div className="inline">
        <input type="search" className="grow" aria-label="Search the wiki" data-shortcut="search" placeholder="Words" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button type="submit">Search</button>
      </div>
      <ErrorBox error={error} />
      {data && hits.length === 0 && <p className="muted">Nothing found.</p>}
      {hits.length > 0 && (
        <ol className="plain stack" aria-label="Found pages">
          {hits.map((h) => (
            <li key={h.page.id} className="inline">
              <Link href={pageHref(h.page.id)}>{h.page.title}</Link>
              <span className="muted small">{h.page.path}</span>
              <span className="muted small" data-testid="found-by">
                found by {foundBy(h.foundBy)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </form>
  );
}

function Namespaces({ scopeId, canWrite }: { scopeId: string; canWrite: boolean }) {
  const [{ data, fetching, error }] = useQuery({ query: NamespacesQuery, variables: { scopeId } });
  const [chosen, setChosen] = useState<string | null>(null);
  const namespaces = data?.wikiNamespaces ?? [];
  const namespace = namespaces.find((n) => n.id === chosen) ?? namespaces[0];
  return (
    <div className="grid-2">
      <article className="card stack" aria-labelledby="wiki-namespaces">
        <h2 id="wiki-namespaces">Namespaces</h2>
        <ErrorBox error={error} />
        {fetching && !data && <Loading what="namespaces" />}
        {data && namespaces.length === 0 && <p className="muted">No namespace here yet.</p>}
        {namespaces.length > 0 && namespace && (
          <label>
            Namespace{" "}
            <select value={namespace.id} onChange={(e) => setChosen(e.target.value)}>
              {namespaces.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.name}
                  {n.authoritative ? " (reviewed)" : ""}
                </option>
              ))}
            </select>
          </label>
        )}
        {namespace && <NamespaceAccess key={namespace.id} namespaceId={namespace.id} acl={namespace.acl} />}
        {namespace && <Pages namespaceId={namespace.id} />}
        <NewNamespace scopeId={scopeId} onCreated={setChosen} />
      </article>
      {namespace && canWrite && <Editor key={namespace.id} namespaceId={namespace.id} />}
    </div>
  );
}

function Pages({ namespaceId }: { namespaceId: string }) {
  const [{ data, error }] = useQuery({ query: PagesQuery, variables: { namespaceId } });
  // Pages others save or rename show as they do (the cache asks for the list again).
  useSubscription({ query: PageUpdatedSubscription, variables: { namespaceId } });
  const pages = data?.wikiPages.edges.map((e) => e.node) ?? [];
  return (
    <>
      <ErrorBox error={error} />
      {data && pages.length === 0 && <p className="muted">No page in this namespace yet.</p>}
      <ul className="plain stack" aria-label="Pages">
        {pages.map((p) => (
          <li key={p.id} className="inline">
            <Link href={pageHref(p.id)}>{p.title}</Link>
            <span className="muted small">{p.path}</span>
            {p.publishedRevision === null && <Badge>Draft</Badge>}
          </li>
        ))}
      </ul>
    </>
  );
}

const SetNamespaceAclMutation = graphql(`
  mutation SetWikiNamespaceAcl($namespaceId: ID!, $userIds: [ID!]!) {
    setWikiNamespaceAcl(namespaceId: $namespaceId, userIds: $userIds) {
      id
      acl
    }
  }
`);

/**
 * Who reads the namespace: everyone with a role on its scope, or only the people its ACL names
 * (and the scope's administrators). Administrators of the organization, who see its people,
 * choose them here; the server refuses anyone else.
 */
function NamespaceAccess({ namespaceId, acl }: { namespaceId: string; acl: readonly string[] }) {
  const [{ data: people }] = useQuery({ query: PeopleNamesQuery });
  const [{ fetching, error }, save] = useMutation(SetNamespaceAclMutation);
  const [chosen, setChosen] = useState<readonly string[]>(acl);
  const users = people?.users.nodes ?? [];
  const names = new Map(users.map((u) => [u.id, u.displayName || u.email]));
  const toggle = (id: string, on: boolean) => setChosen(on ? [...chosen, id] : chosen.filter((c) => c !== id));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await save({ namespaceId, userIds: [...chosen] }, { additionalTypenames: ["WikiNamespace"] });
  };
  return (
    <div className="stack" data-testid="namespace-access">
      <p className="small muted">
        {acl.length === 0
          ? "Read by everyone with a role here."
          : `Kept to ${acl.map((id) => names.get(id) ?? "someone").join(", ")} and the administrators.`}
      </p>
      {users.length > 0 && (
        <details>
          <summary>Who may read</summary>
          <form className="stack" aria-label="Who may read this namespace" onSubmit={submit}>
            <p className="small muted">Nobody chosen: everyone with a role here. Administrators always may.</p>
            {users.map((u) => (
              <label key={u.id}>
                <input type="checkbox" checked={chosen.includes(u.id)} onChange={(e) => toggle(u.id, e.target.checked)} /> {names.get(u.id)}
              </label>
            ))}
            <Action type="submit" busy={fetching}>
              Save who may read
            </Action>
            <ErrorBox error={error} />
          </form>
        </details>
      )}
    </div>
  );
}

function NewNamespace({ scopeId, onCreated }: { scopeId: string; onCreated: (id: string) => void }) {
  const [{ fetching, error }, create] = useMutation(CreateNamespaceMutation);
  const [name, setName] = useState("");
  const [authoritative, setAuthoritative] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ scopeId, name, authoritative }, { additionalTypenames: ["WikiNamespace"] });
    if (result.data) {
      setName("");
      onCreated(result.data.createWikiNamespace.id);
    }
  };
  return (
    <form className="stack" aria-label="New namespace" onSubmit={submit}>
      <label>
        Namespace name <input required maxLength={64} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        <input type="checkbox" checked={authoritative} onChange={(e) => setAuthoritative(e.target.checked)} /> Authoritative: publishing
        needs a review
      </label>
      <Action type="submit" busy={fetching}>
        Create namespace
      </Action>
      <ErrorBox error={error} />
    </form>
  );
}

/** The Markdown of a page as the reader sees it. */
function Rendered({ source, label }: { source: string; label: string }) {
  return <div className="wiki-page" aria-label={label} data-testid="wiki-rendered" dangerouslySetInnerHTML={{ __html: renderMarkdown(source) }} />;
}

/**
 * A new page (`page` absent) or the next revision of `page`, with a live preview. The revision it
 * was made from goes with the save.
 */
function Editor({
  namespaceId,
  page,
  onSaved,
}: {
  namespaceId: string;
  page?: { path: string; title: string; revision: number; source: string };
  onSaved?: () => void;
}) {
  const [{ fetching, error }, save] = useMutation(SavePageMutation);
  const [draft, setDraft] = useState({ path: page?.path ?? "", title: page?.title ?? "", source: page?.source ?? "" });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = { namespaceId, ...draft, expectedRevision: page?.revision ?? null };
    const result = await save({ input }, { additionalTypenames: ["WikiPage"] });
    if (!result.data) return;
    if (page) onSaved?.();
    else navigate(pageHref(result.data.saveWikiPage.id));
  };
  const heading = page ? `Edit “${page.title}”` : "New page";
  return (
    <form className="card stack" aria-label={heading} onSubmit={submit}>
      <h2>{heading}</h2>
      {!page && (
        <label>
          Path <input required placeholder="guides/deploy" value={draft.path} onChange={(e) => setDraft({ ...draft, path: e.target.value })} />
        </label>
      )}
      <label>
        Title <input required maxLength={200} value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} />
      </label>
      <label>
        Markdown{" "}
        <textarea required rows={10} value={draft.source} onChange={(e) => setDraft({ ...draft, source: e.target.value })} />
      </label>
      <h3>Preview</h3>
      <Rendered source={draft.source} label="Preview" />
      <Action type="submit" busy={fetching}>
        Save
      </Action>
      <ErrorBox error={error} />
    </form>
  );
}

export function WikiPageView({ pageId }: { pageId: string }) {
  const [{ data, fetching, error }, refetch] = useQuery({ query: PageQuery, variables: { id: pageId } });
  const [editing, setEditing] = useState(false);
  const page = data?.node?.__typename === "WikiPage" ? data.node : null;
  usePageTitle(page?.title ?? "Wiki page");
  if (!page) return fetching ? <Loading what="the page" /> : <Unavailable error={error} what="This wiki page" />;
  const revisions = data?.wikiRevisions.edges.map((e) => e.node) ?? [];
  const saved = () => {
    setEditing(false);
    refetch({ requestPolicy: "network-only" });
  };
  return (
    <section className="stack">
      <p>
        <Link href="/wiki">Wiki</Link>
      </p>
      <h1>{page.title}</h1>
      <p className="inline small muted">
        <span>{page.path}</span>
        <span data-testid="wiki-revision">revision {page.revision}</span>
        {page.publishedRevision === null ? <Badge>Draft</Badge> : page.publishedRevision !== page.revision && <Badge>Unpublished changes</Badge>}
      </p>
      <ErrorBox error={error} />
      <div className="grid-2">
        <article className="card stack">
          <Rendered source={page.latest.source} label="Page" />
          <div className="inline">
            <button type="button" onClick={() => setEditing(!editing)}>
              {editing ? "Stop editing" : "Edit"}
            </button>
            <Rename key={page.revision} pageId={page.id} path={page.path} revision={page.revision} onRenamed={saved} />
            <Publication
              key={page.latest.number}
              pageId={page.id}
              latest={page.latest.number}
              published={page.publishedRevision}
              reviewed={page.namespace.authoritative}
              onPublished={saved}
            />
          </div>
        </article>
        <aside className="stack">
          <section className="card stack" aria-labelledby="wiki-links">
            <h2 id="wiki-links">Links</h2>
            {page.links.length === 0 && <p className="muted">None.</p>}
            <ul className="plain">
              {page.links.map((l) =>
                l.page ? (
                  <li key={l.targetPath}>
                    <Link href={pageHref(l.page.id)}>{l.page.title}</Link>
                  </li>
                ) : (
                  <li key={l.targetPath} className="muted">
                    {l.targetPath} (not written yet)
                  </li>
                ),
              )}
            </ul>
            <h2 id="wiki-backlinks">Linked from</h2>
            {data?.backlinks.length === 0 && <p className="muted">No page links here.</p>}
            <ul className="plain" aria-labelledby="wiki-backlinks">
              {data?.backlinks.map((b) => (
                <li key={b.id}>
                  <Link href={pageHref(b.id)}>{b.title}</Link>
                </li>
              ))}
            </ul>
          </section>
          <Attachments pageId={page.id} attachments={page.attachments} onAttached={() => refetch({ requestPolicy: "network-only" })} />
          <History key={page.revision} pageId={page.id} revisions={revisions} />
        </aside>
      </div>
      {editing && <Editor namespaceId={page.namespaceId} page={{ ...page, source: page.latest.source }} onSaved={saved} />}
    </section>
  );
}

/** What an attachment's upload answered (201). */
interface Attached {
  attachment: { name: string; number: number; sizeBytes: number; sha256: string };
}

/** Files attached to the page: the latest version of each name, to download; and a file to attach. */
function Attachments({
  pageId,
  attachments,
  onAttached,
}: {
  pageId: string;
  attachments: readonly { id: string; name: string; number: number; sizeBytes: number; sha256: string; downloadPath: string }[];
  onAttached: () => void;
}) {
  const downloads = useDownloads();
  const attach = async (name: string, file: File): Promise<Outcome<UploadedFile>> => {
    const init = { method: "POST", headers: { "Content-Type": mediaTypeOf(file) }, body: file };
    const outcome = await send(attachmentPath(pageId, name), init, (response) => response.json() as Promise<Attached>);
    if (!outcome.ok) return outcome;
    const { attachment } = outcome.value;
    return { ok: true, value: { message: `Attached version ${attachment.number} of “${attachment.name}”.`, ...attachment } };
  };
  return (
    <section className="card stack" aria-labelledby="wiki-attachments">
      <h2 id="wiki-attachments">Attachments</h2>
      <Problems problems={downloads.problem && [downloads.problem]} />
      {attachments.length === 0 && <p className="muted">No files attached.</p>}
      <ul className="plain stack" aria-labelledby="wiki-attachments">
        {attachments.map((a) => (
          <li key={a.id} className="inline spread" data-attachment={a.name}>
            <span className="stack tight">
              <code>{a.name}</code>
              <span className="small muted">
                {versionLabel(a.number)} · {formatSize(a.sizeBytes)} · <Digest sha256={a.sha256} />
              </span>
            </span>
            <DownloadButton version={a} artifactName={a.name} downloads={downloads} />
          </li>
        ))}
      </ul>
      <UploadFile label="Attach a file" placeholder="diagrams/flow.svg" upload={attach} onUploaded={onAttached} />
    </section>
  );
}

/**
 * Moves the page to another path, as its next revision: links to the old path still reach it, and
 * a rename made from a stale revision is refused (`CONFLICT`).
 */
function Rename({ pageId, path, revision, onRenamed }: { pageId: string; path: string; revision: number; onRenamed: () => void }) {
  const [open, setOpen] = useState(false);
  const [to, setTo] = useState(path);
  const [renaming, rename] = useMutation(RenameMutation);
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Rename
      </button>
    );
  }
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await rename({ pageId, path: to, expectedRevision: revision }, { additionalTypenames: ["WikiPage"] });
    if (result.data) onRenamed();
  };
  return (
    <form className="inline" aria-label="Rename the page" onSubmit={submit}>
      <label>
        New path <input value={to} onChange={(e) => setTo(e.target.value)} required maxLength={200} />
      </label>
      <Action type="submit" busy={renaming.fetching} disabled={to.trim() === path}>
        Move
      </Action>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      <ErrorBox error={renaming.error} />
    </form>
  );
}

/**
 * What makes the latest revision the one readers see, when it is not yet: publishing it where the
 * namespace needs no review, or asking for a review (an approval someone else decides) where it
 * is authoritative.
 */
function Publication({
  pageId,
  latest,
  published,
  reviewed,
  onPublished,
}: {
  pageId: string;
  latest: number;
  published: number | null;
  reviewed: boolean;
  onPublished: () => void;
}) {
  const [publishing, publish] = useMutation(PublishMutation);
  const [asking, ask] = useMutation(RequestReviewMutation);
  if (published !== null && published >= latest) return null;
  if (!reviewed) {
    const go = async () => {
      const result = await publish({ pageId, revision: latest }, { additionalTypenames: ["WikiPage"] });
      if (result.data) onPublished();
    };
    return (
      <>
        <Action busy={publishing.fetching} onClick={go}>
          Publish revision {latest}
        </Action>
        <ErrorBox error={publishing.error} />
      </>
    );
  }
  const asked = asking.data?.requestWikiReview;
  return (
    <>
      {asked ? (
        <p className="notice" role="status" data-testid="wiki-review-requested">
          Review requested: it waits in <Link href="/approvals">Approvals</Link> for someone other than its author to approve.
        </p>
      ) : (
        <Action busy={asking.fetching} onClick={() => ask({ pageId, revision: latest }, { additionalTypenames: ["Approval"] })}>
          Ask for a review of revision {latest}
        </Action>
      )}
      <ErrorBox error={asking.error} />
    </>
  );
}

function History({
  pageId,
  revisions,
}: {
  pageId: string;
  revisions: { id: string; number: number; title: string; createdAt: string; provenance: unknown }[];
}) {
  const latest = revisions[revisions.length - 1]?.number ?? 1;
  const [range, setRange] = useState({ from: Math.max(1, latest - 1), to: latest });
  const [{ data, error }] = useQuery({ query: DiffQuery, variables: { pageId, ...range }, pause: range.from === range.to });
  const choose = (which: "from" | "to") => (
    <select aria-label={which === "from" ? "Compare from revision" : "Compare to revision"} value={range[which]} onChange={(e) => setRange({ ...range, [which]: Number(e.target.value) })}>
      {revisions.map((r) => (
        <option key={r.id} value={r.number}>
          {r.number}
        </option>
      ))}
    </select>
  );
  return (
    <section className="card stack" aria-labelledby="wiki-history">
      <h2 id="wiki-history">History</h2>
      <ol className="plain small">
        {revisions.map((r) => (
          <li key={r.id}>
            {r.number}. {r.title} <span className="muted">{exactTime(new Date(r.createdAt))}</span>
            {writtenByAgent(r.provenance) && <Badge>Written by an agent</Badge>}
          </li>
        ))}
      </ol>
      <p className="inline">
        Compare {choose("from")} with {choose("to")}
      </p>
      <ErrorBox error={error} />
      {data && (
        <>
          <p className="small muted" data-testid="wiki-diff-counts">
            {data.wikiDiff.addedLines} added, {data.wikiDiff.removedLines} removed
          </p>
          <pre className="wiki-diff" data-testid="wiki-diff">
            {data.wikiDiff.unified.split("\n").map((line, i) => (
              <span key={i} className={`diff-${diffLineKind(line)}`}>
                {line}
                {"\n"}
              </span>
            ))}
          </pre>
        </>
      )}
    </section>
  );
}
