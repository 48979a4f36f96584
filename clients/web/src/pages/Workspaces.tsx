// Workspaces and their projects; the way into a project's task board.
import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../gql";
import { Action, ErrorBox, Loading, usePageTitle } from "../ui/components";
import { Link } from "../ui/router";

export const WorkspacesQuery = graphql(`
  query Workspaces {
    workspaces(first: 20) {
      pageInfo {
        hasNextPage
      }
      nodes {
        id
        name
        description
        projects(first: 50) {
          nodes {
            id
            name
            description
          }
        }
      }
    }
  }
`);

const CreateWorkspaceMutation = graphql(`
  mutation CreateWorkspace($name: String!, $description: String!) {
    createWorkspace(name: $name, description: $description) {
      id
      name
    }
  }
`);

const CreateProjectMutation = graphql(`
  mutation CreateProject($workspaceId: ID!, $name: String!) {
    createProject(workspaceId: $workspaceId, name: $name) {
      id
      name
    }
  }
`);

export function Workspaces() {
  usePageTitle("Workspaces");
  const [{ data, fetching, error }] = useQuery({ query: WorkspacesQuery });
  return (
    <section className="stack">
      <h1>Workspaces</h1>
      <ErrorBox error={error} />
      {fetching && !data && <Loading what="workspaces" />}
      {data?.workspaces.nodes.length === 0 && <p className="muted">No workspaces yet. Create the first one.</p>}
      {data?.workspaces.pageInfo.hasNextPage && <p className="muted">Showing the first 20 workspaces.</p>}
      {data?.workspaces.nodes.map((workspace) => (
        <article key={workspace.id} className="card stack">
          <h2>{workspace.name}</h2>
          {workspace.description && <p className="muted">{workspace.description}</p>}
          <ul className="links">
            {workspace.projects.nodes.map((project) => (
              <li key={project.id}>
                <Link href={`/projects/${project.id}`}>{project.name}</Link>
                {project.description && <span className="muted"> — {project.description}</span>}
              </li>
            ))}
          </ul>
          <NewProject workspaceId={workspace.id} />
        </article>
      ))}
      <NewWorkspace />
    </section>
  );
}

function NewWorkspace() {
  const [{ fetching, error }, create] = useMutation(CreateWorkspaceMutation);
  const [name, setName] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ name, description: "" });
    if (result.data) setName("");
  };
  return (
    <form onSubmit={submit} className="inline" aria-label="New workspace">
      <input aria-label="Workspace name" placeholder="New workspace" data-shortcut="new" required value={name} onChange={(e) => setName(e.target.value)} />
      <Action type="submit" busy={fetching}>
        Create workspace
      </Action>
      <ErrorBox error={error} />
    </form>
  );
}

function NewProject({ workspaceId }: { workspaceId: string }) {
  const [{ fetching, error }, create] = useMutation(CreateProjectMutation);
  const [name, setName] = useState("");
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await create({ workspaceId, name });
    if (result.data) setName("");
  };
  return (
    <form onSubmit={submit} className="inline" aria-label="New project">
      <input aria-label="Project name" placeholder="New project" required value={name} onChange={(e) => setName(e.target.value)} />
      <Action type="submit" busy={fetching}>
        Create project
      </Action>
      <ErrorBox error={error} />
    </form>
  );
}
