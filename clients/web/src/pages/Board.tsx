// A project's task board: a column per status, cards dragged between columns (or moved with the
// status menu on each card, from a keyboard or a phone), live through `taskEvents`. Cards show
// priority, labels, criteria, assignee and the latest run; search and filters narrow them.
import { useEffect, useState, type DragEvent, type FormEvent } from "react";
import { useMutation, useQuery, useSubscription } from "urql";
import { graphql } from "../gql";
import type { TaskCardFragment as Card, TaskPriority, TaskStatus } from "../gql/graphql";
import { Action, Badge, Breadcrumbs, ErrorBox, Loading, Status, Unavailable, humanize, useOnline, usePageTitle } from "../ui/components";
import { Link } from "../ui/router";
import { useCurrentProject } from "../notifications";
import { RunUpdatedSubscription } from "./TaskDetail";
import { NO_FILTER, UNASSIGNED, filtering, shown, type BoardFilter } from "./boardFilter";

export const STATUSES: TaskStatus[] = ["TODO", "IN_PROGRESS", "BLOCKED", "IN_REVIEW", "DONE", "CANCELLED"];

export const TaskCardFragment = graphql(`
  fragment TaskCard on Task {
    id
    title
    status
    priority
    labels
    revision
    dependencies {
      id
      title
      status
    }
    acceptanceCriteria {
      id
      met
    }
    assignee {
      id
      displayName
      email
    }
    latestRun {
      id
      status
      # With its status always, so that an older answer does not win over a newer update (api/cache.ts).
      updatedAt
    }
  }
`);

const BoardQuery = graphql(`
  query Board($projectId: ID!) {
    node(id: $projectId) {
      __typename
      ... on Project {
        id
        name
        workspace {
          id
          name
        }
      }
    }
    tasks(projectId: $projectId, first: 100) {
      nodes {
        ...TaskCard
      }
      pageInfo {
        hasNextPage
      }
    }
  }
`);

export const TaskEventsSubscription = graphql(`
  subscription TaskEvents($projectId: ID!) {
    taskEvents(projectId: $projectId) {
      kind
      taskId
      task {
        ...TaskCard
      }
    }
  }
`);

export const UpdateTaskStatusMutation = graphql(`
  mutation UpdateTaskStatus($id: ID!, $expectedRevision: Int!, $status: TaskStatus!) {
    updateTask(input: { id: $id, expectedRevision: $expectedRevision, status: $status }) {
      ...TaskCard
    }
  }
`);

const CreateTaskMutation = graphql(`
  mutation CreateTask($input: CreateTaskInput!) {
    createTask(input: $input) {
      ...TaskCard
    }
  }
`);


export function Board({ projectId }: { projectId: string }) {
  useCurrentProject(projectId);
  const [{ data, fetching, error }] = useQuery({ query: BoardQuery, variables: { projectId } });
  useSubscription({ query: TaskEventsSubscription, variables: { projectId } });
  // Runs change without their tasks changing: each card's latest run follows them (api/cache.ts).
  useSubscription({ query: RunUpdatedSubscription, variables: { projectId } });
  const [moving, move] = useMutation(UpdateTaskStatusMutation);
  const [over, setOver] = useState<TaskStatus | null>(null);
  const project = data?.node && data.node.__typename === "Project" ? data.node : null;
  const all = data?.tasks.nodes ?? [];
  const [filter, setFilter] = useState<BoardFilter>(NO_FILTER);
  const tasks = all.filter((t) => shown(t, filter));
  usePageTitle("Board", project?.name);

  const moveTo = (task: Card, status: TaskStatus) => {
    if (task.status !== status) void move({ id: task.id, expectedRevision: task.revision, status });
  };
  // A card moved with its status menu is drawn again in its new column: the focus follows it
  // there, so that a keyboard stays on the card it just moved.
  const [following, setFollowing] = useState<{ id: string; status: TaskStatus } | null>(null);
  useEffect(() => {
    if (!following) return;
    const menu = document.querySelector<HTMLSelectElement>(
      `.column[data-status="${following.status}"] .task-card[data-task-id="${CSS.escape(following.id)}"] select`,
    );
    if (!menu) return;
    menu.focus();
    setFollowing(null);
  });
  const drop = (event: DragEvent, status: TaskStatus) => {
    event.preventDefault();
    setOver(null);
    const task = all.find((t) => t.id === event.dataTransfer.getData("text/plain"));
    if (task) moveTo(task, status);
  };

  if (!project && !fetching && (data || error)) return <Unavailable error={error} what="project" />;
  return (
    <section className="stack">
      <Breadcrumbs
        trail={[{ label: "Workspaces", href: "/workspaces" }, { label: project?.workspace.name ?? "…" }, { label: project?.name ?? "…" }]}
      />
      <h1>{project?.name ?? "Project"}</h1>
      <ErrorBox error={error ?? moving.error} />
      {fetching && !data && <Loading what="tasks" />}
      <NewTask projectId={projectId} />
      <Filters tasks={all} filter={filter} onChange={setFilter} />
      {data?.tasks.pageInfo.hasNextPage && <p className="muted">Showing the first 100 tasks.</p>}
      {filtering(filter) && (
        <p className="muted small" role="status" data-testid="board-filtered">
          {tasks.length} of {all.length} tasks shown.{" "}
          <button type="button" className="link" onClick={() => setFilter(NO_FILTER)}>
            Clear filters
          </button>
        </p>
      )}
      <div className="board">
        {STATUSES.map((status) => (
          <div
            key={status}
            className={`column ${over === status ? "over" : ""}`}
            data-status={status}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(status);
            }}
            onDragLeave={() => setOver(null)}
            onDrop={(e) => drop(e, status)}
          >
            <h2>
              {humanize(status)} <span className="muted">{tasks.filter((t) => t.status === status).length}</span>
            </h2>
            <ul aria-label={humanize(status)}>
              {tasks
                .filter((t) => t.status === status)
                .map((task) => (
                  <TaskCard
                    key={task.id}
                    task={task}
                    onMove={(s) => {
                      setFollowing({ id: task.id, status: s });
                      moveTo(task, s);
                    }}
                  />
                ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}

function TaskCard({ task, onMove }: { task: Card; onMove: (status: TaskStatus) => void }) {
  const online = useOnline();
  const met = task.acceptanceCriteria.filter((c) => c.met).length;
  return (
    <li
      className="task-card"
      draggable={online}
      data-task-id={task.id}
      onDragStart={(e) => {
        e.dataTransfer.setData("text/plain", task.id);
        e.dataTransfer.effectAllowed = "move";
      }}
    >
      <Link href={`/tasks/${task.id}`} className="task-title">
        {task.title}
      </Link>
      <div className="meta">
        {task.priority !== "NONE" && <Badge>{humanize(task.priority)}</Badge>}
        {task.labels.map((l) => (
          <Badge key={l}>{l}</Badge>
        ))}
        {task.acceptanceCriteria.length > 0 && (
          <Status of={met === task.acceptanceCriteria.length ? "DONE" : "TODO"}>
            ✓ {met}/{task.acceptanceCriteria.length}
          </Status>
        )}
      </div>
      {(task.assignee || task.latestRun) && (
        <div className="meta">
          {task.assignee && (
            <span className="assignee" title={task.assignee.email}>
              {task.assignee.displayName || task.assignee.email}
            </span>
          )}
          {task.latestRun && (
            <Link href={`/runs/${task.latestRun.id}`} className="latest-run" aria-label={`Latest run: ${humanize(task.latestRun.status)}`}>
              <Status of={task.latestRun.status}>Run: {humanize(task.latestRun.status)}</Status>
            </Link>
          )}
        </div>
      )}
      {task.dependencies.length > 0 && (
        <p className="deps">
          Waits for:{" "}
          {task.dependencies.map((d, i) => (
            <span key={d.id}>
              {i > 0 && ", "}
              <Link href={`/tasks/${d.id}`}>{d.title}</Link>
              {d.status !== "DONE" && <> <Status of={d.status} /></>}
            </span>
          ))}
        </p>
      )}
      <label className="move">
        <span className="sr-only">Status of {task.title}</span>
        <select value={task.status} disabled={!online} onChange={(e) => onMove(e.target.value as TaskStatus)}>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {humanize(s)}
            </option>
          ))}
        </select>
      </label>
    </li>
  );
}

const PRIORITIES: TaskPriority[] = ["URGENT", "HIGH", "MEDIUM", "LOW", "NONE"];

function Filters({ tasks, filter, onChange }: { tasks: Card[]; filter: BoardFilter; onChange: (filter: BoardFilter) => void }) {
  const people = new Map(tasks.flatMap((t) => (t.assignee ? [[t.assignee.id, t.assignee.displayName || t.assignee.email]] : [])));
  return (
    <div className="inline filters" role="search" aria-label="Filter tasks">
      <input
        type="search"
        aria-label="Search tasks"
        data-shortcut="search"
        placeholder="Search titles and labels"
        value={filter.search}
        onChange={(e) => onChange({ ...filter, search: e.target.value })}
      />
      <select aria-label="Priority" value={filter.priority} onChange={(e) => onChange({ ...filter, priority: e.target.value as TaskPriority | "" })}>
        <option value="">Any priority</option>
        {PRIORITIES.map((p) => (
          <option key={p} value={p}>
            {humanize(p)}
          </option>
        ))}
      </select>
      <select aria-label="Assignee" value={filter.assignee} onChange={(e) => onChange({ ...filter, assignee: e.target.value })}>
        <option value="">Anyone</option>
        <option value={UNASSIGNED}>Unassigned</option>
        {[...people].map(([id, name]) => (
          <option key={id} value={id}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}

function NewTask({ projectId }: { projectId: string }) {
  const [{ fetching, error }, create] = useMutation(CreateTaskMutation);
  const [title, setTitle] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ input: { projectId, title } });
    if (result.data) setTitle("");
  };
  return (
    <form onSubmit={submit} className="inline" aria-label="New task">
      <input aria-label="Task title" placeholder="New task" data-shortcut="new" required value={title} onChange={(e) => setTitle(e.target.value)} />
      <Action type="submit" busy={fetching}>
        Add task
      </Action>
      <ErrorBox error={error} />
    </form>
  );
}
