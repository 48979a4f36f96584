// The normalised cache, persisted to IndexedDB so the last-seen projects, tasks and runs open
// without a network. Lists are refetched when a mutation or a live event changes what they hold,
// and asked again when their answer is older than what was heard of a run meanwhile.
import type { Cache, KeyingConfig, UpdatesConfig } from "@urql/exchange-graphcache";
import { makeOperation, type Exchange } from "urql";
import { pipe, tap } from "wonka";
import schema from "../gql/introspection";

type Introspection = typeof schema;

export const QUERY_ROOT = schema.__schema.queryType.name;

/** Every object type without an `id` is embedded in its parent, except those with a natural key. */
export function keysFor(introspection: Introspection): KeyingConfig {
  const roots = new Set(
    [introspection.__schema.queryType, introspection.__schema.mutationType, introspection.__schema.subscriptionType]
      .filter(Boolean)
      .map((t) => t!.name),
  );
  const keys: KeyingConfig = {};
  for (const type of introspection.__schema.types) {
    if (type.kind !== "OBJECT" || roots.has(type.name)) continue;
    const fields = "fields" in type ? (type.fields as readonly { name: string }[]) : [];
    if (!fields.some((f) => f.name === "id")) keys[type.name] = () => null;
  }
  keys.RunEvent = (e) => `${e.runId}:${e.sequence}`;
  keys.EffectiveSettings = (s) => (s.scopeId as string) ?? null;
  return keys;
}

/** Drops every cached instance of `entity.field`, whatever its arguments, so watchers refetch. */
export function invalidateField(cache: Cache, entity: string | { __typename: string; id: string }, field: string) {
  for (const info of cache.inspectFields(entity)) {
    if (info.fieldName === field) cache.invalidate(entity, field, info.arguments ?? undefined);
  }
}

/**
 * Appends `entity` to `parent`'s cached list `field`, if that list is cached and lacks it. The
 * list is extended in place rather than refetched, so that it stays whole in the offline cache
 * while nobody is looking at it.
 */
function appendTo(cache: Cache, parent: { __typename: string; id: string }, field: string, entity: { __typename: string; id: string }) {
  const list = cache.resolve(parent, field);
  const key = cache.keyOfEntity(entity);
  // A resolved list of entities is a list of their keys.
  const keys = Array.isArray(list) ? (list as unknown as string[]) : null;
  if (keys && key && !keys.includes(key)) cache.link(parent, field, [...keys, key]);
  return key;
}

/** Appends a run to its task's cached run list (appendTo), and makes it the latest if newer. */
function addRun(cache: Cache, runId: string, taskId: string) {
  const task = { __typename: "Task", id: taskId };
  const key = appendTo(cache, task, "runs", { __typename: "TaskRun", id: runId });
  // The task's latest run, on its card, is the newest one the page has heard of.
  const latest = cache.resolve(task, "latestRun") as string | null | undefined;
  const created = (run: string | null | undefined) => (run ? (cache.resolve(run, "createdAt") as string | null) : null);
  const newer = created(key) !== null && (latest === null || (created(latest) ?? "") < (created(key) ?? ""));
  if (key && latest !== undefined && newer) cache.link(task, "latestRun", key);
}

const refetchRoot = (field: string) => (_result: unknown, _args: unknown, cache: Cache) =>
  invalidateField(cache, QUERY_ROOT, field);

/** A wiki page was saved or moved: lists of pages, backlinks and histories may have changed. */
const wikiChanged = (_result: unknown, _args: unknown, cache: Cache) => {
  for (const field of ["wikiPages", "wikiPage", "backlinks", "wikiRevisions", "wikiDiff"]) invalidateField(cache, QUERY_ROOT, field);
};

/** Connectors come, go and are removed, and their agents with them. */
const refetchConnectors = (_result: unknown, _args: unknown, cache: Cache) => {
  invalidateField(cache, QUERY_ROOT, "connectors");
  invalidateField(cache, QUERY_ROOT, "agents");
};

/**
 * A memory entry changed: searches may now find it elsewhere or not at all, and its cached
 * history and conflicts may lack a version or a conflict.
 */
function memoryChanged(cache: Cache, entryId: string | undefined) {
  invalidateField(cache, QUERY_ROOT, "memory");
  if (!entryId) return;
  for (const field of ["versions", "conflicts"]) invalidateField(cache, { __typename: "MemoryEntry", id: entryId }, field);
}

/**
 * When each run last changed, as heard live. A list asked again because a run changed can answer
 * after the run's next update arrived, with the state before it; and the same list asked again
 * meanwhile is not sent twice. `askAgainWhenBehind` notices such an answer and asks once more.
 */
export class HeardRuns {
  private changed = new Map<string, string>();

  hear(run: { id: string; updatedAt?: unknown }) {
    const known = this.changed.get(run.id);
    if (typeof run.updatedAt === "string" && (!known || known < run.updatedAt)) this.changed.set(run.id, run.updatedAt);
  }

  /** The newest change heard of a run that `data` (an answer) shows older, if any. */
  behind(data: unknown): string | null {
    if (Array.isArray(data)) return data.map((item) => this.behind(item)).find((found) => found !== null) ?? null;
    if (data === null || typeof data !== "object") return null;
    const run = data as { __typename?: unknown; id?: unknown; updatedAt?: unknown };
    const heard = typeof run.id === "string" ? this.changed.get(run.id) : undefined;
    if (run.__typename === "TaskRun" && heard && typeof run.updatedAt === "string" && run.updatedAt < heard) return heard;
    return this.behind(Object.values(data));
  }
}

/**
 * Between the cache and the network: a query's answer that shows a run older than what was
 * heard of it is asked again, once for each newer change heard, after the cache took it.
 */
export function askAgainWhenBehind(heard: HeardRuns): Exchange {
  return ({ forward, client }) => {
    const askedFor = new Map<number, string>();
    return (operations$) =>
      pipe(
        forward(operations$),
        tap(({ operation, data }) => {
          if (operation.kind !== "query") return;
          const newer = heard.behind(data);
          if (!newer || askedFor.get(operation.key) === newer) return;
          askedFor.set(operation.key, newer);
          const again = makeOperation("query", operation, { ...operation.context, requestPolicy: "network-only" });
          void Promise.resolve().then(() => client.reexecuteOperation(again));
        }),
      );
  };
}

/** What one client's cache (one session's) is told, and the exchange that follows its runs. */
export function liveCache() {
  const heard = new HeardRuns();
  return { config: { keys: keysFor(schema), updates: updates(heard) }, askAgainWhenBehind: askAgainWhenBehind(heard) };
}

function updates(heard: HeardRuns): UpdatesConfig {
  return {
  [schema.__schema.mutationType!.name]: {
    createWorkspace: refetchRoot("workspaces"),
    createProject: (_r, args, cache) =>
      invalidateField(cache, { __typename: "Workspace", id: args.workspaceId as string }, "projects"),
    createTask: refetchRoot("tasks"),
    deleteTask: refetchRoot("tasks"),
    startRun: (result, args, cache) => {
      const run = result.startRun as { id: string } | null;
      if (run) addRun(cache, run.id, args.taskId as string);
      invalidateField(cache, QUERY_ROOT, "runs");
    },
    decideApproval: (result, args, cache) => {
      refetchRoot("approvals")(result, args, cache);
      // Approving a wiki review publishes its revision.
      if ((result.decideApproval as { subject?: string } | null)?.subject === "WIKI_PUBLICATION") wikiChanged(result, args, cache);
    },
    removeConnector: refetchConnectors,
    setSettings: refetchRoot("effectiveSettings"),
    addAcceptanceCriterion: (_r, args, cache) =>
      invalidateField(cache, { __typename: "Task", id: args.taskId as string }, "acceptanceCriteria"),
    writeMemory: (result, _args, cache) => memoryChanged(cache, (result.writeMemory as { entry?: { id: string } } | null)?.entry?.id),
    verifyMemory: refetchRoot("memory"),
    retractMemory: refetchRoot("memory"),
    resolveMemoryConflict: (result, _args, cache) =>
      memoryChanged(cache, (result.resolveMemoryConflict as { entryId?: string } | null)?.entryId),
    createWikiNamespace: refetchRoot("wikiNamespaces"),
    // A save may add a page, change its links (others' backlinks) and add a revision.
    saveWikiPage: wikiChanged,
    renameWikiPage: wikiChanged,
    publishWikiPage: wikiChanged,
    requestWikiReview: refetchRoot("approvals"),
  },
  [schema.__schema.subscriptionType!.name]: {
    wikiPageUpdated: wikiChanged,
    taskEvents: (result, _args, cache) => {
      const kind = (result.taskEvents as { kind: string } | null)?.kind;
      if (kind !== "UPDATED") invalidateField(cache, QUERY_ROOT, "tasks");
    },
    approvalUpdated: (result, _args, cache) => {
      // A run's page lists its approvals: a new request joins it, whichever of the run's update
      // and the request's own reaches the page first.
      const approval = result.approvalUpdated as { id: string; run?: { id: string } } | null;
      if (approval?.run) appendTo(cache, { __typename: "TaskRun", id: approval.run.id }, "approvals", { __typename: "Approval", id: approval.id });
      invalidateField(cache, QUERY_ROOT, "approvals");
    },
    runUpdated: (result, _args, cache) => {
      const run = result.runUpdated as { id: string; task?: { id: string } } | null;
      if (run) heard.hear(run);
      if (run?.task) addRun(cache, run.id, run.task.id);
      // Lists of runs by status (Home's) gain and lose runs as their statuses change.
      invalidateField(cache, QUERY_ROOT, "runs");
    },
    connectorStatus: refetchConnectors,
    memoryUpdated: (result, _args, cache) => memoryChanged(cache, (result.memoryUpdated as { id?: string } | null)?.id),
  },
  };
}
