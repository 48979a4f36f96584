// One task: its status, its runs, where a new run is started (first, as the page's purpose),
// its dependencies and acceptance criteria checklist, and its artifacts (the files of its work).
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useSubscription } from "urql";
import { graphql } from "../gql";
import type { TaskPriority, TaskStatus } from "../gql/graphql";
import { Action, Badge, Breadcrumbs, Confirm, ErrorBox, Loading, Status, Unavailable, When, humanize, useOnline, usePageTitle } from "../ui/components";
import { Link, navigate } from "../ui/router";
import { STATUSES, UpdateTaskStatusMutation } from "./Board";
import { useCurrentProject } from "../notifications";
import { dependencyCandidates, openDependencies } from "./taskGraph";
import { ENROLL_HREF } from "./onboarding";
import { TaskArtifacts } from "./TaskArtifacts";

const TaskQuery = graphql(`
  query Task($id: ID!) {
    node(id: $id) {
      __typename
      ... on Task {
        ...TaskCard
        description
        createdAt
        updatedAt
        runs {
          ...RunSummary
        }
        project {
          id
          name
          workspace {
            id
            name
          }
        }
        dependents {
          id
          title
          status
        }
        acceptanceCriteria {
          id
          description
          met
          revision
        }
      }
    }
  }
`);

export const RunSummaryFragment = graphql(`
  fragment RunSummary on TaskRun {
    id
    status
    statusReason
    createdAt
    updatedAt
    agent {
      id
      name
    }
  }
`);

export const ProjectTasksQuery = graphql(`
  query ProjectTaskTitles($projectId: ID!) {
    tasks(projectId: $projectId, first: 100) {
      nodes {
        id
        title
        dependencies {
          id
        }
      }
    }
  }
`);

export const AgentsQuery = graphql(`
  query Agents($projectId: ID!) {
    agents(projectId: $projectId) {
      id
      name
      adapter
      adapterVersion
      runtimeVersion
      capabilities
      online
      connector {
        id
        name
      }
    }
  }
`);

export const RunUpdatedSubscription = graphql(`
  subscription RunUpdated($projectId: ID!) {
    runUpdated(projectId: $projectId) {
      ...RunSummary
      task {
        id
        title
      }
    }
  }
`);

const SetCriterionMutation = graphql(`
  mutation SetCriterionMet($id: ID!, $met: Boolean!, $expectedRevision: Int) {
    setAcceptanceCriterionMet(id: $id, met: $met, expectedRevision: $expectedRevision) {
      id
      met
      revision
    }
  }
`);

const AddCriterionMutation = graphql(`
  mutation AddCriterion($taskId: ID!, $description: String!) {
    addAcceptanceCriterion(taskId: $taskId, description: $description) {
      id
      description
      met
      revision
    }
  }
`);

const AddDependencyMutation = graphql(`
  mutation AddDependency($taskId: ID!, $dependsOnId: ID!) {
    addTaskDependency(taskId: $taskId, dependsOnId: $dependsOnId) {
      ...TaskCard
    }
  }
`);

const RemoveDependencyMutation = graphql(`
  mutation RemoveDependency($taskId: ID!, $dependsOnId: ID!) {
    removeTaskDependency(taskId: $taskId, dependsOnId: $dependsOnId) {
      ...TaskCard
    }
  }
`);

const EditTaskMutation = graphql(`
  mutation EditTask($input: UpdateTaskInput!) {
    updateTask(input: $input) {
      ...TaskCard
      description
    }
  }
`);

const DeleteTaskMutation = graphql(`
  mutation DeleteTask($id: ID!, $expectedRevision: Int) {
    deleteTask(id: $id, expectedRevision: $expectedRevision)
  }
`);

export const StartRunMutation = graphql(`
  mutation StartRun($taskId: ID!, $agentId: ID, $input: JSON) {
    startRun(taskId: $taskId, agentId: $agentId, input: $input) {
      ...RunSummary
    }
  }
`);

export function TaskDetail({ taskId }: { taskId: string }) {
  const [{ data, fetching, error }] = useQuery({ query: TaskQuery, variables: { id: taskId } });
  const task = data?.node && data.node.__typename === "Task" ? data.node : null;
  const projectId = task?.project?.id ?? null;
  useCurrentProject(projectId);
  usePageTitle(task?.title ?? "Task", task?.project?.name);
  const online = useOnline();
  const [moving, move] = useMutation(UpdateTaskStatusMutation);
  const [checking, check] = useMutation(SetCriterionMutation);
  const [removing, removeDependency] = useMutation(RemoveDependencyMutation);

  if (fetching && !data) return <Loading what="the task" />;
  if (!task) return <Unavailable error={error} what="task" />;
  return (
    <section className="stack">
      <Breadcrumbs
        trail={[
          { label: "Workspaces", href: "/workspaces" },
          ...(task.project
            ? [{ label: task.project.workspace.name }, { label: task.project.name, href: `/projects/${task.project.id}` }]
            : []),
          { label: task.title },
        ]}
      />
      <h1>{task.title}</h1>
      <ErrorBox error={error ?? moving.error ?? checking.error ?? removing.error} />
      <EditTask task={task} boardHref={projectId ? `/projects/${projectId}` : "/workspaces"} />
      <div className="inline">
        <label>
          Status{" "}
          <select
            value={task.status}
            disabled={moving.fetching || !online}
            onChange={(e) => move({ id: task.id, expectedRevision: task.revision, status: e.target.value as TaskStatus })}
          >
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {humanize(s)}
              </option>
            ))}
          </select>
        </label>
        {task.priority !== "NONE" && <Badge>{humanize(task.priority)} priority</Badge>}
        {task.labels.map((l) => (
          <Badge key={l}>{l}</Badge>
        ))}
      </div>
      {/* Running the task is what this page is for: on a phone too, it is on the first screen. */}
      <article className="card stack" aria-labelledby="runs-title">
        <h2 id="runs-title">Runs</h2>
        {projectId && <RunsLive projectId={projectId} />}
        {projectId && <StartRun taskId={task.id} projectId={projectId} waitsFor={openDependencies(task.dependencies)} />}
        <ul className="runs">
          {task.runs.map((run) => (
            <li key={run.id}>
              <Link href={`/runs/${run.id}`}>
                Run started <When at={run.createdAt} />
              </Link>{" "}
              <Status of={run.status} /> {run.agent && <span className="muted">on {run.agent.name}</span>}
              {run.statusReason && <p className="muted">{run.statusReason}</p>}
            </li>
          ))}
          {task.runs.length === 0 && <li className="muted">No runs yet.</li>}
        </ul>
      </article>
      {task.description && <p className="description">{task.description}</p>}

      <div className="grid-2">
        <article className="card stack">
          <h2>Acceptance criteria</h2>
          <ul className="checklist">
            {task.acceptanceCriteria.map((c) => (
              <li key={c.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={c.met}
                    disabled={checking.fetching || !online}
                    onChange={(e) => check({ id: c.id, met: e.target.checked, expectedRevision: c.revision })}
                  />{" "}
                  {c.description}
                </label>
              </li>
            ))}
          </ul>
          <AddCriterion taskId={task.id} />
        </article>

        <article className="card stack">
          <h2>Dependencies</h2>
          <p className="muted">Waits for</p>
          <ul className="links">
            {task.dependencies.map((d) => (
              <li key={d.id}>
                <Link href={`/tasks/${d.id}`}>{d.title}</Link> <Status of={d.status} />{" "}
                <Action className="link" busy={removing.fetching} onClick={() => removeDependency({ taskId: task.id, dependsOnId: d.id })}>
                  remove
                </Action>
              </li>
            ))}
            {task.dependencies.length === 0 && <li className="muted">nothing</li>}
          </ul>
          {projectId && <AddDependency taskId={task.id} projectId={projectId} />}
          <p className="muted">Needed by</p>
          <ul className="links">
            {task.dependents.map((d) => (
              <li key={d.id}>
                <Link href={`/tasks/${d.id}`}>{d.title}</Link> <Status of={d.status} />
              </li>
            ))}
            {task.dependents.length === 0 && <li className="muted">nothing</li>}
          </ul>
        </article>
      </div>
      {projectId && <TaskArtifacts projectId={projectId} taskId={task.id} />}
    </section>
  );
}

const PRIORITIES: TaskPriority[] = ["NONE", "LOW", "MEDIUM", "HIGH", "URGENT"];

/** Labels as typed: split at commas, trimmed, empty ones dropped. */
const parseLabels = (text: string) => text.split(",").map((l) => l.trim()).filter(Boolean);

/** Edit a task's title, description, priority and labels, or delete it (asked first). */
function EditTask({
  task,
  boardHref,
}: {
  task: { id: string; title: string; description: string; priority: TaskPriority; labels: readonly string[]; revision: number };
  boardHref: string;
}) {
  const [editing, setEditing] = useState(false);
  const [saving, save] = useMutation(EditTaskMutation);
  const [deleting, remove] = useMutation(DeleteTaskMutation);
  const [draft, setDraft] = useState({ title: "", description: "", priority: "NONE" as TaskPriority, labels: "" });
  const open = () => {
    setDraft({ title: task.title, description: task.description, priority: task.priority, labels: task.labels.join(", ") });
    setEditing(true);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const input = { id: task.id, expectedRevision: task.revision, ...draft, labels: parseLabels(draft.labels) };
    const result = await save({ input });
    if (result.data) setEditing(false);
  };
  const erase = async () => {
    const result = await remove({ id: task.id, expectedRevision: task.revision });
    if (result.data) navigate(boardHref);
  };
  if (!editing) {
    return (
      <div className="inline">
        <Action onClick={open}>Edit task</Action>
        <Confirm
          label="Delete task"
          question={`Delete the task ${task.title}?`}
          consequence="Its acceptance criteria and dependency links go with it; its runs stay in the runs' history."
          confirm="Delete the task"
          keep="Keep it"
          busy={deleting.fetching}
          onConfirm={() => void erase()}
        />
        <ErrorBox error={deleting.error} />
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="card stack" aria-label="Edit task">
      <label>
        Title <input required value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} />
      </label>
      <label>
        Description <textarea rows={4} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
      </label>
      <div className="inline">
        <label>
          Priority{" "}
          <select value={draft.priority} onChange={(e) => setDraft({ ...draft, priority: e.target.value as TaskPriority })}>
            {PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {humanize(p)}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          Labels <input value={draft.labels} placeholder="web, ops" onChange={(e) => setDraft({ ...draft, labels: e.target.value })} />
        </label>
      </div>
      <div className="inline">
        <Action type="submit" busy={saving.fetching}>
          Save
        </Action>
        <button type="button" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
      <ErrorBox error={saving.error} />
    </form>
  );
}

function RunsLive({ projectId }: { projectId: string }) {
  useSubscription({ query: RunUpdatedSubscription, variables: { projectId } });
  return null;
}

function AddCriterion({ taskId }: { taskId: string }) {
  const [{ fetching, error }, add] = useMutation(AddCriterionMutation);
  const [description, setDescription] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await add({ taskId, description });
    if (result.data) setDescription("");
  };
  return (
    <form onSubmit={submit} className="inline" aria-label="New acceptance criterion">
      <input aria-label="Criterion" placeholder="New criterion" required value={description} onChange={(e) => setDescription(e.target.value)} />
      <Action type="submit" busy={fetching}>
        Add
      </Action>
      <ErrorBox error={error} />
    </form>
  );
}

function AddDependency({ taskId, projectId }: { taskId: string; projectId: string }) {
  const [{ data }] = useQuery({ query: ProjectTasksQuery, variables: { projectId } });
  const [{ fetching, error }, add] = useMutation(AddDependencyMutation);
  const [dependsOnId, setDependsOnId] = useState("");
  const candidates = dependencyCandidates(taskId, data?.tasks.nodes ?? []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await add({ taskId, dependsOnId });
    if (result.data) setDependsOnId("");
  };
  return (
    <form onSubmit={submit} className="inline" aria-label="Add dependency">
      <select aria-label="Task to wait for" required value={dependsOnId} onChange={(e) => setDependsOnId(e.target.value)}>
        <option value="">Wait for…</option>
        {candidates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.title}
          </option>
        ))}
      </select>
      <Action type="submit" busy={fetching}>
        Add dependency
      </Action>
      <ErrorBox error={error} />
    </form>
  );
}

function StartRun({ taskId, projectId, waitsFor }: { taskId: string; projectId: string; waitsFor: { id: string; title: string }[] }) {
  const [{ data }] = useQuery({ query: AgentsQuery, variables: { projectId } });
  const [{ fetching, error }, start] = useMutation(StartRunMutation);
  const [agentId, setAgentId] = useState("");
  const [objective, setObjective] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await start({ taskId, agentId: agentId || null, input: objective ? { objective } : null });
    if (result.data) navigate(`/runs/${result.data.startRun.id}`);
  };
  // A run with no agent to take it would only wait (blocked): the way forward is an agent.
  if (data && !data.agents.some((a) => a.online)) {
    return (
      <div className="notice stack" data-testid="no-agent-online">
        <p>
          {data.agents.length === 0 ? "No agent can take a run of this project yet." : "None of this project's agents is online."} A run
          needs an agent host connected to the workspace.
        </p>
        <p>
          <Link href={ENROLL_HREF} className="button primary">
            Connect an agent host
          </Link>
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="stack" aria-label="Start a run">
      <div className="inline">
        <label>
          Agent{" "}
          <select aria-label="Agent" value={agentId} onChange={(e) => setAgentId(e.target.value)}>
            <option value="">Any online agent</option>
            {data?.agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} {a.online ? "" : "(offline)"}
              </option>
            ))}
          </select>
        </label>
        <label className="grow">
          Objective <input value={objective} onChange={(e) => setObjective(e.target.value)} placeholder="What should the agent do?" />
        </label>
        <Action type="submit" busy={fetching}>
          {waitsFor.length > 0 ? "Start anyway" : "Start run"}
        </Action>
      </div>
      {waitsFor.length > 0 && (
        <p className="warning" role="note" data-testid="waits-for">
          {waitsFor.length === 1 ? "A task it depends on is" : `${waitsFor.length} tasks it depends on are`} not done yet:{" "}
          {waitsFor.map((d, i) => (
            <span key={d.id}>
              {i > 0 && ", "}
              <Link href={`/tasks/${d.id}`}>{d.title}</Link>
            </span>
          ))}
          . A run now may work on what is not there yet.
        </p>
      )}
      <ErrorBox error={error} />
    </form>
  );
}
