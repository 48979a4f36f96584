import { describe, expect, it } from "vitest";
import { changesText, comparisonRows, fileChange, patchOf } from "./candidatesView";

describe("the candidates page", () => {
  it("makes a patch of the form, and refuses one that changes nothing or a budget that is no number", () => {
    expect(patchOf({ budget: " 300 ", activate: ["v1"], deactivate: [] })).toEqual({
      settings: { context: { tokenBudget: 300 } },
      activateSkillVersionIds: ["v1"],
      deactivateSkillIds: [],
    });
    expect(patchOf({ budget: "", activate: [], deactivate: ["s1"] })).toEqual({ settings: {}, activateSkillVersionIds: [], deactivateSkillIds: ["s1"] });
    expect(patchOf({ budget: "", activate: [], deactivate: [] })).toEqual({ error: "Change the context budget or the skills first." });
    expect(patchOf({ budget: "12.5", activate: [], deactivate: [] })).toHaveProperty("error");
    expect(patchOf({ budget: "-3", activate: [], deactivate: [] })).toHaveProperty("error");
  });

  it("lays both runs side by side and marks where they differ", () => {
    const rows = comparisonRows({
      baseline: { status: "succeeded", wallTimeMs: 1500, tokens: 1200, costUsd: 0.01, artifactVersions: 1 },
      candidate: { status: "succeeded", wallTimeMs: 900, tokens: null, costUsd: null, artifactVersions: 1 },
    });
    expect(rows.map((r) => [r.label, r.baseline, r.candidate, r.differs])).toEqual([
      ["Status", "succeeded", "succeeded", false],
      ["Wall time", "1.5 s", "0.9 s", true],
      ["Tokens", "1200", "unknown", true],
      ["Cost", "$0.0100", "unknown", true],
      ["Files attached", "1", "1", false],
    ]);
  });

  it("says how a file the runs attached compares", () => {
    const side = { sha256: "ab", sizeBytes: 2 };
    expect(fileChange({ name: "a", baseline: side, candidate: side, change: "same" })).toBe("the same bytes");
    expect(fileChange({ name: "a", baseline: null, candidate: side, change: "only_candidate" })).toBe("only the candidate attached it");
  });

  it("says what a candidate changes", () => {
    const names: Record<string, string> = { a: "release-notes v1", b: "changelog v2" };
    expect(changesText({ context: { tokenBudget: 300 } }, ["a"], ["b"], (id) => names[id])).toEqual([
      "context budget 300 tokens",
      "switch on changelog v2",
      "switch off release-notes v1",
    ]);
    expect(changesText({}, [], ["b"], (id) => names[id])).toEqual(["switch on changelog v2"]);
  });
});
