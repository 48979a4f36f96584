import { describe, expect, it } from "vitest";
import { CONFIG_FILE, DEFAULT_CREDENTIAL, connectorConfig, onboardingSteps, runCommand, type Progress } from "./onboarding";

const empty: Progress = { workspaceId: null, projectId: null, connectors: [], taskId: null, anyRun: false };
const done = (p: Progress) => onboardingSteps(p).filter((s) => s.done).map((s) => s.key);

describe("the steps from an empty server to a first run", () => {
  it("are all missing on an empty server, in the order they are done", () => {
    expect(onboardingSteps(empty).map((s) => [s.key, s.done, s.href])).toEqual([
      ["workspace", false, "/workspaces"],
      ["project", false, "/workspaces"],
      ["connector", false, "/agents#enroll"],
      ["task", false, "/workspaces"],
      ["run", false, "/workspaces"],
    ]);
  });

  it("lead to the project's board for a task and to the task for its run", () => {
    const steps = onboardingSteps({ ...empty, workspaceId: "w", projectId: "p", taskId: "t" });
    expect(steps.find((s) => s.key === "task")?.href).toBe("/projects/p");
    expect(steps.find((s) => s.key === "run")?.href).toBe("/tasks/t");
    expect(done({ ...empty, workspaceId: "w", projectId: "p", taskId: "t" })).toEqual(["workspace", "project", "task"]);
  });

  it("count a host only once it is online, and say what is left when it is only enrolled", () => {
    const enrolled = { ...empty, connectors: [{ name: "build-1", online: false }] };
    const connector = onboardingSteps(enrolled).find((s) => s.key === "connector")!;
    expect(connector.done).toBe(false);
    expect(connector.hint).toMatch(/build-1 is enrolled but not running: start it with acc-connector run/);
    expect(done({ ...empty, connectors: [{ name: "build-1", online: true }] })).toEqual(["connector"]);
  });

  it("never count a revoked connector", () => {
    expect(done({ ...empty, connectors: [{ name: "old", online: true, revokedAt: "2026-01-01T00:00:00Z" }] })).toEqual([]);
  });
});

describe("the connector's configuration", () => {
  it("names the credential the enroll command writes, and the file the run command reads", () => {
    expect(connectorConfig()).toContain(`credential = "${DEFAULT_CREDENTIAL}"`);
    expect(runCommand).toBe(`acc-connector run --config ${CONFIG_FILE}`);
  });

  it("offers an example command agent that asks before it acts", () => {
    const config = connectorConfig();
    expect(config).toMatch(/\[\[agents\]\]\nname = "hello"\nadapter = "command"\ncommand = "sh"\ninteractive = true\n/);
    expect(config).toContain('"acc": "approval_request"');
    // Its script is a TOML literal string: nothing in it may end the string early.
    const script = config.slice(config.indexOf("'''") + 3, config.lastIndexOf("'''"));
    expect(script).not.toContain("'''");
  });
});
