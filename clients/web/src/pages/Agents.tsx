// Connectors and their agents per workspace, online status live, and enrollment: a token with
// the exact `acc-connector enroll` command, a configuration to paste and the command that starts
// the connector on the agent host, then whether the host came online.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery, useSubscription } from "urql";
import { graphql } from "../gql";
import { serverOrigin } from "../api/platform";
import { Action, Badge, Confirm, ErrorBox, Loading, Status, Table, When, humanize, usePageTitle } from "../ui/components";
import { Link } from "../ui/router";
import { WorkspacesQuery } from "./Workspaces";
import { AgentsQuery } from "./TaskDetail";
import { CONFIG_FILE, connectorConfig, runCommand } from "./onboarding";

export const ConnectorFieldsFragment = graphql(`
  fragment ConnectorFields on Connector {
    id
    name
    online
    health
    version
    lastSeenAt
    revokedAt
  }
`);

const ConnectorsQuery = graphql(`
  query Connectors($workspaceId: ID!) {
    connectors(workspaceId: $workspaceId) {
      ...ConnectorFields
    }
  }
`);

export const ConnectorStatusSubscription = graphql(`
  subscription ConnectorStatus($workspaceId: ID!) {
    connectorStatus(workspaceId: $workspaceId) {
      ...ConnectorFields
    }
  }
`);

const RevokeConnectorMutation = graphql(`
  mutation RevokeConnector($id: ID!) {
    revokeConnector(id: $id) {
      ...ConnectorFields
    }
  }
`);

const RemoveConnectorMutation = graphql(`
  mutation RemoveConnector($id: ID!) {
    removeConnector(id: $id) {
      ...ConnectorFields
    }
  }
`);

const CreateEnrollmentTokenMutation = graphql(`
  mutation CreateEnrollmentToken($workspaceId: ID!, $name: String!, $expiresIn: Int!) {
    createEnrollmentToken(workspaceId: $workspaceId, name: $name, expiresIn: $expiresIn) {
      token
      enrollmentToken {
        id
        name
        expiresAt
      }
    }
  }
`);

/** The command docs/connector.md gives; the token goes in the environment to keep it out of `ps`. */
export function enrollCommand(server: string, token: string, name: string): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return `ACC_ENROLL_TOKEN=${quote(token)} acc-connector enroll --server ${quote(server)} --name ${quote(name)}`;
}

export function Agents() {
  usePageTitle("Agents");
  const [{ data, fetching, error }] = useQuery({ query: WorkspacesQuery });
  const [chosen, setChosen] = useState("");
  const workspaces = data?.workspaces.nodes ?? [];
  const workspace = workspaces.find((w) => w.id === chosen) ?? workspaces[0];
  return (
    <section className="stack">
      <h1>Agents and connectors</h1>
      <ErrorBox error={error} />
      {fetching && !data && <Loading what="workspaces" />}
      {workspaces.length > 1 && (
        <label>
          Workspace{" "}
          <select value={workspace?.id} onChange={(e) => setChosen(e.target.value)}>
            {workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {data && !workspace && (
        <p className="muted">
          Connectors belong to a workspace: <Link href="/workspaces">create a workspace</Link> first.
        </p>
      )}
      {workspace && (
        <WorkspaceAgents key={workspace.id} workspaceId={workspace.id} projectId={workspace.projects.nodes[0]?.id ?? null} />
      )}
    </section>
  );
}

function WorkspaceAgents({ workspaceId, projectId }: { workspaceId: string; projectId: string | null }) {
  const [{ data, error }] = useQuery({ query: ConnectorsQuery, variables: { workspaceId } });
  useSubscription({ query: ConnectorStatusSubscription, variables: { workspaceId } });
  const [revoking, revoke] = useMutation(RevokeConnectorMutation);
  const [removing, remove] = useMutation(RemoveConnectorMutation);
  return (
    <>
      <article className="card stack">
        <h2>Connectors</h2>
        <ErrorBox error={error ?? revoking.error ?? removing.error} />
        {data?.connectors.length === 0 && <p className="muted">No connector has enrolled yet.</p>}
        <ul className="plain stack">
          {data?.connectors.map((c) => (
            <li key={c.id} className="inline spread" data-connector={c.name}>
              <span>
                <strong>{c.name}</strong>{" "}
                {c.revokedAt ? (
                  <Status of="REVOKED" />
                ) : (
                  <Status of={c.online ? "ONLINE" : "OFFLINE"} />
                )}{" "}
                {c.health && <span className="muted">{c.health}</span>} {c.version && <span className="muted">v{c.version}</span>}
                <span className="muted small">
                  {" "}
                  · last seen <When at={c.lastSeenAt} />
                </span>
              </span>
              {c.revokedAt ? (
                // Its agents leave the list with it; runs that used them still name them.
                <Action busy={removing.fetching} onClick={() => remove({ id: c.id })}>
                  Remove
                </Action>
              ) : (
                <Confirm
                  label="Revoke"
                  question={`Revoke the connector ${c.name}?`}
                  consequence="It is disconnected at once, its agents stop taking runs, and its credential stops working for good: the host has to enroll again."
                  confirm="Revoke the connector"
                  keep="Keep it"
                  busy={revoking.fetching}
                  onConfirm={() => revoke({ id: c.id })}
                />
              )}
            </li>
          ))}
        </ul>
        <Enroll workspaceId={workspaceId} connectors={data?.connectors ?? []} boardHref={projectId && `/projects/${projectId}`} />
      </article>
      {projectId && <AgentList projectId={projectId} />}
    </>
  );
}

function AgentList({ projectId }: { projectId: string }) {
  const [{ data, error }] = useQuery({ query: AgentsQuery, variables: { projectId } });
  return (
    <article className="card stack">
      <h2>Agents</h2>
      <ErrorBox error={error} />
      {data?.agents.length === 0 && <p className="muted">No agents yet: they appear when a connector offers them.</p>}
      <Table
        rows={data?.agents ?? []}
        rowKey={(a) => a.id}
        rowData={(a) => ({ "data-agent": a.name })}
        columns={[
          { head: "Agent", cell: (a) => a.name },
          { head: "Connector", cell: (a) => a.connector.name },
          {
            head: "Adapter",
            cell: (a) => (
              <>
                {a.adapter} {a.adapterVersion}
                {a.runtimeVersion && <span className="muted"> · runtime {a.runtimeVersion}</span>}
              </>
            ),
          },
          { head: "Capabilities", cell: (a) => a.capabilities.map((c) => <Badge key={c}>{humanize(c)}</Badge>) },
          { head: "Status", cell: (a) => <Status of={a.online ? "ONLINE" : "OFFLINE"} /> },
        ]}
      />
    </article>
  );
}

/**
 * The three steps on the agent host, each ready to paste: enroll with a new single-use token,
 * save the connector's configuration (onboarding.ts), start it; then, live, whether it came.
 */
function Enroll({
  workspaceId,
  connectors,
  boardHref,
}: {
  workspaceId: string;
  connectors: readonly { name: string; online: boolean; revokedAt?: string | null }[];
  boardHref: string | null;
}) {
  const [{ data, fetching, error }, create] = useMutation(CreateEnrollmentTokenMutation);
  const [name, setName] = useState("");
  const [minutes, setMinutes] = useState(15);
  // Links that lead here to enroll a host (ENROLL_HREF) start at the form.
  const hostName = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (window.location.hash !== "#enroll") return;
    hostName.current?.scrollIntoView({ block: "center" });
    hostName.current?.focus();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void create({ workspaceId, name, expiresIn: minutes * 60 });
  };
  const created = data?.createEnrollmentToken;
  return (
    <div className="stack" id="enroll">
      <h3>Enroll a connector</h3>
      <p className="muted small">
        On a machine where agents run, with <code>acc-connector</code> installed: enroll it with a token made here, give it a
        configuration, and start it.
      </p>
      <form onSubmit={submit} className="inline" aria-label="Create enrollment token">
        <label>
          Host name <input ref={hostName} required value={name} onChange={(e) => setName(e.target.value)} placeholder="build-host-1" />
        </label>
        <label>
          Valid for (minutes){" "}
          <input type="number" min={1} max={1440} value={minutes} onChange={(e) => setMinutes(Number(e.target.value))} />
        </label>
        <Action type="submit" busy={fetching}>
          Create enrollment token
        </Action>
      </form>
      <ErrorBox error={error} />
      {created && (
        <ol className="stack enroll-steps" key={created.token}>
          <li className="stack">
            <p>
              Enroll the host. The token expires <When at={created.enrollmentToken.expiresAt} />, works once and is shown only
              now.
            </p>
            <Copyable testId="enroll-command" what="enroll command" text={enrollCommand(serverOrigin(), created.token, created.enrollmentToken.name)} />
          </li>
          <li className="stack">
            <p>
              In the same directory, save this as <code>{CONFIG_FILE}</code>. Its example agent asks before it acts, so your
              first run shows you an approval.
            </p>
            <Copyable testId="connector-config" what="configuration" text={connectorConfig()} file />
          </li>
          <li className="stack">
            <p>Start the connector there, and leave it running:</p>
            <Copyable testId="connector-run-command" what="run command" text={runCommand} />
          </li>
        </ol>
      )}
      {created && <EnrollmentState name={created.enrollmentToken.name} connectors={connectors} boardHref={boardHref} />}
    </div>
  );
}

/** How far the host just given a token got, as its connector appears and comes online. */
function EnrollmentState({
  name,
  connectors,
  boardHref,
}: {
  name: string;
  connectors: readonly { name: string; online: boolean; revokedAt?: string | null }[];
  boardHref: string | null;
}) {
  const connector = connectors.find((c) => c.name === name && !c.revokedAt);
  return (
    <p className="notice" role="status" data-testid="enrollment-state" data-state={connector ? (connector.online ? "online" : "enrolled") : "waiting"}>
      {!connector ? (
        <>Waiting for {name} to enroll…</>
      ) : !connector.online ? (
        <>{name} is enrolled. Waiting for it to start…</>
      ) : (
        <>
          {name} is online: its agents are listed below.{" "}
          {boardHref && <Link href={boardHref}>Next: add a task and start a run</Link>}
        </>
      )}
    </p>
  );
}

/**
 * Text to paste elsewhere, and a button that copies it. A `file` keeps its lines whole and
 * scrolls sideways instead, by keyboard too.
 */
function Copyable({ text, what, testId, file = false }: { text: string; what: string; testId: string; file?: boolean }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="stack copyable">
      <pre className={file ? "command config" : "command"} data-testid={testId} tabIndex={file ? 0 : undefined}>
        {text}
      </pre>
      <button type="button" onClick={() => navigator.clipboard.writeText(text).then(() => setCopied(true))}>
        {copied ? "Copied" : `Copy ${what}`}
      </button>
    </div>
  );
}
