import { describe, expect, it } from "vitest";
import { NO_FILTER, UNASSIGNED, filtering, shown } from "./boardFilter";

const task = { title: "Deploy the site", labels: ["web", "ops"], priority: "HIGH" as const, assignee: { id: "ada" } };

describe("the board's filter", () => {
  it("shows everything when empty", () => {
    expect(shown(task, NO_FILTER)).toBe(true);
    expect(filtering(NO_FILTER)).toBe(false);
    expect(filtering({ ...NO_FILTER, search: "  " })).toBe(false);
  });

  it("finds every word of the search in the title or the labels, in any case", () => {
    expect(shown(task, { ...NO_FILTER, search: "deploy OPS" })).toBe(true);
    expect(shown(task, { ...NO_FILTER, search: "site" })).toBe(true);
    expect(shown(task, { ...NO_FILTER, search: "deploy docs" })).toBe(false);
  });

  it("narrows to a priority and an assignee, or to the unassigned", () => {
    expect(shown(task, { ...NO_FILTER, priority: "HIGH" })).toBe(true);
    expect(shown(task, { ...NO_FILTER, priority: "LOW" })).toBe(false);
    expect(shown(task, { ...NO_FILTER, assignee: "ada" })).toBe(true);
    expect(shown(task, { ...NO_FILTER, assignee: UNASSIGNED })).toBe(false);
    expect(shown({ ...task, assignee: null }, { ...NO_FILTER, assignee: UNASSIGNED })).toBe(true);
  });
});
