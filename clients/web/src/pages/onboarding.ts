// What a new server still lacks before its first run, in the order a person sets it up:
// workspace → project → a connected agent host → a task → a run. Home shows these steps until the
// server has a run (a host that goes offline later is Home's "Connectors offline", not a step); the Agents page writes the connector's configuration the third step needs.

export interface Progress {
  workspaceId: string | null;
  projectId: string | null;
  /** Connectors of every workspace the person can see (revoked ones never count). */
  connectors: readonly { name: string; online: boolean; revokedAt?: string | null }[];
  taskId: string | null;
  anyRun: boolean;
}

/** Where a host is enrolled: the Agents page, its enrollment form focused. */
export const ENROLL_HREF = "/agents#enroll";

export type StepKey = "workspace" | "project" | "connector" | "task" | "run";

export interface Step {
  key: StepKey;
  title: string;
  /** What it is for, or what is still to do when it is half done. */
  hint: string;
  done: boolean;
  /** Where it is done. */
  href: string;
}

export function onboardingSteps(p: Progress): Step[] {
  const live = p.connectors.filter((c) => !c.revokedAt);
  const enrolled = live.find((c) => !c.online);
  const board = p.projectId ? `/projects/${p.projectId}` : "/workspaces";
  return [
    {
      key: "workspace",
      title: "Create a workspace",
      hint: "It holds your projects and the machines that run your agents.",
      done: p.workspaceId !== null,
      href: "/workspaces",
    },
    {
      key: "project",
      title: "Create a project",
      hint: "Its tasks go on a board.",
      done: p.projectId !== null,
      href: "/workspaces",
    },
    {
      key: "connector",
      title: "Connect an agent host",
      hint: enrolled
        ? `${enrolled.name} is enrolled but not running: start it with acc-connector run.`
        : "Enroll acc-connector on a machine where agents run, then start it. The Agents page gives the commands and a configuration to paste.",
      done: live.some((c) => c.online),
      href: ENROLL_HREF,
    },
    {
      key: "task",
      title: "Add a task",
      hint: "What an agent should do.",
      done: p.taskId !== null,
      href: board,
    },
    {
      key: "run",
      title: "Start a first run",
      hint: "On the task's page: pick an agent, start, and decide what it asks before it acts.",
      done: p.anyRun,
      href: p.taskId ? `/tasks/${p.taskId}` : board,
    },
  ];
}

/** The file the connector reads its configuration from on the agent host (the third step). */
export const CONFIG_FILE = "connector.toml";

/**
 * Where `acc-connector enroll` writes the credential when given no `--credential`
 * (docs/connector.md), relative to the directory both commands run in.
 */
export const DEFAULT_CREDENTIAL = "acc-connector/credential.json";

export const runCommand = `acc-connector run --config ${CONFIG_FILE}`;

/**
 * A configuration for a host enrolled with the command the Agents page shows: its credential,
 * and one example agent that asks before it acts, so that the first run shows an approval.
 */
export function connectorConfig(): string {
  return `# ${CONFIG_FILE}: what \`${runCommand}\` offers the control plane.
# The credential \`acc-connector enroll\` wrote in this directory (its default --credential).
credential = "${DEFAULT_CREDENTIAL}"

# An example agent: it asks before it acts, and says hello once approved.
# Replace it with your own: docs/connector.md and docs/runtimes.md list the adapters
# (claude-code, codex, gemini, …) and what each needs.
[[agents]]
name = "hello"
adapter = "command"
command = "sh"
interactive = true
args = ["-c", '''
read input
echo "asked: $input"
echo '{"acc": "approval_request", "action": "say hello", "reason": "a first run asks before it acts"}'
read decision
case "$decision" in
  *'"approved":true'*) echo "hello from $(hostname)" ;;
  *) echo "not approved"; exit 1 ;;
esac
''']
`;
}
