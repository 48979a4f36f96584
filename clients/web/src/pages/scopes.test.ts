import { describe, expect, it } from "vitest";
import { scopeChoices } from "./scopes";

describe("the scopes to choose among", () => {
  const website = { id: "p1", name: "Website" };
  const platform = { id: "w1", name: "Platform", projects: { nodes: [website] } };

  it("lists the organization, then each workspace followed by its projects", () => {
    expect(scopeChoices({ id: "o1", name: "Acme" }, [platform, { id: "w2", name: "Data", projects: { nodes: [] } }])).toEqual([
      { id: "o1", label: "Organization: Acme" },
      { id: "w1", label: "Workspace: Platform" },
      { id: "p1", label: "Project: Platform / Website" },
      { id: "w2", label: "Workspace: Data" },
    ]);
  });

  it("lists the workspaces while the organization is not known yet", () => {
    expect(scopeChoices(undefined, [platform]).map((s) => s.id)).toEqual(["w1", "p1"]);
  });
});
