// The normalised cache, persisted to IndexedDB so the last-seen projects, tasks and runs open
// without a network. Lists are refetched when a mutation or a live event changes what they hold,
// and a run shows the newest state heard of it, whatever order the answers come in.
import type { Cache, Data, KeyingConfig, ResolverConfig, UpdatesConfig } from "@urql/exchange-graphcache";
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

/** Connectors come, go and are removed, and their agents with them. */
const refetchConnectors = (_result: unknown, _args: unknown, cache: Cache) => {
  invalidateField(cache, QUERY_ROOT, "connectors");
  invalidateField(cache, QUERY_ROOT, "agents");
};

interface HeardRun {
  status: string;
  statusReason: string | null;
  updatedAt: string;
}

/**
 * The newest state each run was heard in, live. A list asked again because a run changed can
 * answer after the run's next update arrived, with the state before it: an answer older than
 * what was heard (by `updatedAt`) does not get to show the older status.
 */
export class HeardRuns {
  private runs = new Map<string, HeardRun>();

  hear(run: { id: string; status?: unknown; statusReason?: unknown; updatedAt?: unknown }) {
    if (typeof run.updatedAt !== "string" || typeof run.status !== "string") return;
    const known = this.runs.get(run.id);
    if (!known || known.updatedAt < run.updatedAt) {
      const statusReason = typeof run.statusReason === "string" ? run.statusReason : null;
      this.runs.set(run.id, { status: run.status, statusReason, updatedAt: run.updatedAt });
    }
  }

  /** Run fields read as the newer of the cached and the heard state. */
  resolvers(): ResolverConfig {
    const newest = (field: keyof HeardRun) => (parent: Data, _args: unknown, cache: Cache): string | null => {
      const heard = typeof parent.id === "string" ? this.runs.get(parent.id) : undefined;
      const storedAt = cache.resolve(parent as { __typename: string; id: string }, "updatedAt");
      const stale = heard && (typeof storedAt !== "string" || storedAt < heard.updatedAt);
      return stale ? heard[field] : (parent[field] as string | null);
    };
    return { TaskRun: { status: newest("status"), statusReason: newest("statusReason"), updatedAt: newest("updatedAt") } };
  }
}

/** What one client's cache (one session's) is told: its keys, updates and resolvers. */
export function cacheConfig() {
  const heard = new HeardRuns();
  return { keys: keysFor(schema), updates: updates(heard), resolvers: heard.resolvers() };
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
    decideApproval: refetchRoot("approvals"),
    removeConnector: refetchConnectors,
    setSettings: refetchRoot("effectiveSettings"),
    addAcceptanceCriterion: (_r, args, cache) =>
      invalidateField(cache, { __typename: "Task", id: args.taskId as string }, "acceptanceCriteria"),
  },
  [schema.__schema.subscriptionType!.name]: {
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
  },
  };
}
