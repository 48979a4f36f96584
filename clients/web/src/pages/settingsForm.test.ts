import { describe, expect, it } from "vitest";
import { knownRows, patchFor } from "./settingsForm";

const follows = { key: "tasks.statusFollowsRuns", type: "BOOLEAN" as const, default: true, description: "…" };

describe("the known settings as a form", () => {
  it("shows the default where no layer sets a key", () => {
    expect(knownRows([follows], [], "p1")[0]).toMatchObject({ value: true, origin: { kind: "default" } });
  });

  it("shows a value set here, or inherited from the scope it comes from", () => {
    const here = { key: follows.key, value: false, sourceScopeId: "p1", sourceScopeKind: "project" };
    expect(knownRows([follows], [here], "p1")[0]).toMatchObject({ value: false, origin: { kind: "here" } });
    const above = { ...here, sourceScopeId: "o1", sourceScopeKind: "organization" };
    expect(knownRows([follows], [above], "p1")[0]).toMatchObject({ value: false, origin: { kind: "inherited", scopeKind: "organization" } });
  });

  it("writes a dotted key as a nested merge patch, and null to inherit again", () => {
    expect(patchFor("tasks.statusFollowsRuns", false)).toEqual({ tasks: { statusFollowsRuns: false } });
    expect(patchFor("model", null)).toEqual({ model: null });
  });
});
