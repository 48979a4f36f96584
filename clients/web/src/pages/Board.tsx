// A project's task board: a column per status, cards dragged between columns (or moved with the
// status menu on each card, from a keyboard or a phone), live through `taskEvents`.
import { useState, type DragEvent, type FormEvent } from "react";
import { useMutation, useQuery, useSubscription } from "urql";
import { graphql } from "../gql";
import type { TaskCardFragment as Card, TaskStatus } from "../gql/graphql";
import { Action, Badge, Breadcrumbs, ErrorBox, Loading, Status, Unavailable, humanize, useOnline, usePageTitle } from "../ui/components";
import { Link } from "../ui/router";
import { useCurrentProject } from "../notifications";

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
  const [moving, move] = useMutation(UpdateTaskStatusMutation);
  const [over, setOver] = useState<TaskStatus | null>(null);
  const project = data?.node && data.node.__typename === "Project" ? data.node : null;
  const tasks = data?.tasks.nodes ?? [];
  usePageTitle("Board", project?.name);

  const moveTo = (task: Card, status: TaskStatus) => {
    if (task.status !== status) void move({ id: task.id, expectedRevision: task.revision, status });
  };
  const drop = (event: DragEvent, status: TaskStatus) => {
    event.preventDefault();
    setOver(null);
    const task = tasks.find((t) => t.id === event.dataTransfer.getData("text/plain"));
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
      {data?.tasks.pageInfo.hasNextPage && <p className="muted">Showing the first 100 tasks.</p>}
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
                  <TaskCard key={task.id} task={task} onMove={(s) => moveTo(task, s)} />
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
      <input aria-label="Task title" placeholder="New task" required value={title} onChange={(e) => setTitle(e.target.value)} />
      <Action type="submit" busy={fetching}>
        Add task
      </Action>
      <ErrorBox error={error} />
    </form>
  );
}
