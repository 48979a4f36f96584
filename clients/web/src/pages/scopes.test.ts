import { describe, expect, it } from "vitest";
import { memoryScopes, roleOn, scopeChoices } from "./scopes";

describe("the scopes to choose among", () => {
  const website = { id: "p1", name: "Website" };
  const platform = { id: "w1", name: "Platform", projects: { nodes: [website] } };
  const data = { id: "w2", name: "Data", projects: { nodes: [] } };

  it("lists the organization, then each workspace followed by its projects", () => {
    expect(scopeChoices({ id: "o1", name: "Acme" }, [platform, data])).toEqual([
      { id: "o1", label: "Organization: Acme", path: ["o1"] },
      { id: "w1", label: "Workspace: Platform", path: ["o1", "w1"] },
      { id: "p1", label: "Project: Platform / Website", path: ["o1", "w1", "p1"] },
      { id: "w2", label: "Workspace: Data", path: ["o1", "w2"] },
    ]);
  });

  it("lists each workspace's agents after its projects, each in its workspace", () => {
    const agents = new Map([
      ["w1", [{ id: "a1", name: "builder" }]],
      ["w2", [{ id: "a2", name: "reader" }]],
    ]);
    expect(scopeChoices({ id: "o1", name: "Acme" }, [platform, data], agents).slice(1)).toEqual([
      { id: "w1", label: "Workspace: Platform", path: ["o1", "w1"] },
      { id: "p1", label: "Project: Platform / Website", path: ["o1", "w1", "p1"] },
      { id: "a1", label: "Agent · builder", path: ["o1", "w1"] },
      { id: "w2", label: "Workspace: Data", path: ["o1", "w2"] },
      { id: "a2", label: "Agent · reader", path: ["o1", "w2"] },
    ]);
  });

  it("lists the workspaces while the organization is not known yet", () => {
    expect(scopeChoices(undefined, [platform]).map((s) => s.id)).toEqual(["w1", "p1"]);
  });
});

describe("what a person's roles let them do in memory", () => {
  const platform = { id: "w1", name: "Platform", projects: { nodes: [{ id: "p1", name: "Website" }] } };
  const scopes = scopeChoices({ id: "o1", name: "Acme" }, [platform, { id: "w2", name: "Data", projects: { nodes: [] } }], new Map([["w1", [{ id: "a1", name: "builder" }]]]));
  const ids = (list: { id: string }[]) => list.map((s) => s.id);

  it("is the highest of their roles on a scope or above it", () => {
    const agent = scopes.find((s) => s.id === "a1")!;
    expect(roleOn(agent, [{ role: "VIEWER", scopeId: "o1" }, { role: "ADMIN", scopeId: "w1" }])).toBe("ADMIN");
    expect(roleOn(agent, [{ role: "OWNER", scopeId: "w2" }, { role: "OWNER", scopeId: "p1" }])).toBeNull();
  });

  it("reads where they have any role and writes where they are a member or above", () => {
    // A viewer of the organization reads everywhere, an agent's own memory too, and writes nowhere.
    expect(memoryScopes(scopes, [{ role: "VIEWER", scopeId: "o1" }])).toEqual({ readable: scopes, writable: [] });
    // A member of a workspace writes there, to its projects and its agents' memory.
    const member = memoryScopes(scopes, [
      { role: "VIEWER", scopeId: "o1" },
      { role: "MEMBER", scopeId: "w1" },
    ]);
    expect(ids(member.writable)).toEqual(["w1", "p1", "a1"]);
    // A role on a project alone is not one on its workspace: its agents' memory does not exist for them.
    expect(ids(memoryScopes(scopes, [{ role: "OWNER", scopeId: "p1" }]).readable)).toEqual(["p1"]);
  });
});
