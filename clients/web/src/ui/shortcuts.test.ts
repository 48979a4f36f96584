import { describe, expect, it } from "vitest";
import { PAGES, SHORTCUTS, findDestinations, interpret, type Destination } from "./shortcuts";

/** Types `keys` one after another; the commands they gave. */
const type = (...keys: string[]) => {
  let pending = "";
  return keys.flatMap((key) => {
    const next = interpret(pending, key);
    pending = next.pending;
    return next.command ? [next.command] : [];
  });
};

describe("keyboard shortcuts", () => {
  it("go to a page with g and its key", () => {
    expect(type("g", "h")).toEqual([{ go: "/" }]);
    expect(type("g", "a")).toEqual([{ go: "/approvals" }]);
    expect(type("g", "c")).toEqual([{ go: "/agents" }]);
  });

  it("forget an unfinished sequence at a key that does not continue it", () => {
    expect(type("g", "x", "h")).toEqual([]);
    expect(type("g", "x", "g", "w")).toEqual([{ go: "/workspaces" }]);
  });

  it("search, create and show the list with one key", () => {
    expect(type("/")).toEqual([{ focus: "search" }]);
    expect(type("n")).toEqual([{ focus: "new" }]);
    expect(type("?")).toEqual([{ help: true }]);
    expect(type("h")).toEqual([]);
  });

  it("give every page its own key, and list each", () => {
    expect(new Set(PAGES.map((p) => p.key)).size).toBe(PAGES.length);
    for (const page of PAGES) expect(SHORTCUTS.some((s) => s.what === `Go to ${page.label}`)).toBe(true);
  });
});

describe("the command palette", () => {
  const all: Destination[] = [
    { kind: "Page", label: "Approvals", href: "/approvals" },
    { kind: "Project", label: "Website", context: "Platform", href: "/projects/p1" },
    { kind: "Task", label: "Deploy the site", context: "Website", href: "/tasks/t1" },
    { kind: "Run", label: "Deploy the site", context: "Failed · 3 min ago", href: "/runs/r1" },
  ];

  it("finds what has every word typed, in any case and order, pages first", () => {
    expect(findDestinations(all, "deploy").map((d) => d.href)).toEqual(["/tasks/t1", "/runs/r1"]);
    expect(findDestinations(all, "SITE run").map((d) => d.href)).toEqual(["/runs/r1"]);
    expect(findDestinations(all, "platform").map((d) => d.href)).toEqual(["/projects/p1"]);
    expect(findDestinations(all, "nothing like it")).toEqual([]);
  });

  it("offers everything, up to its limit, before anything is typed", () => {
    expect(findDestinations(all, "  ")).toEqual(all);
    expect(findDestinations(all, "", 2)).toEqual(all.slice(0, 2));
  });
});
