import { describe, expect, it } from "vitest";
import { dependencyCandidates, openDependencies } from "./taskGraph";

const task = (id: string, ...dependencies: string[]) => ({ id, dependencies: dependencies.map((d) => ({ id: d })) });

describe("the tasks a task may wait for", () => {
  // build ← test ← deploy, and docs alone.
  const tasks = [task("build"), task("test", "build"), task("deploy", "test"), task("docs")];
  const ids = (taskId: string) => dependencyCandidates(taskId, tasks).map((t) => t.id);

  it("leave out itself, what it already waits for, and whatever waits for it", () => {
    expect(ids("build")).toEqual(["docs"]);
    expect(ids("test")).toEqual(["docs"]);
    expect(ids("deploy")).toEqual(["build", "docs"]);
    expect(ids("docs")).toEqual(["build", "test", "deploy"]);
  });

  it("follow chains that branch and join", () => {
    const diamond = [task("a"), task("b", "a"), task("c", "a"), task("d", "b", "c"), task("e")];
    expect(dependencyCandidates("a", diamond).map((t) => t.id)).toEqual(["e"]);
    expect(dependencyCandidates("b", diamond).map((t) => t.id)).toEqual(["c", "e"]);
  });
});

describe("a task's open dependencies", () => {
  it("are those not done, cancelled ones included", () => {
    const deps = [
      { id: "1", status: "DONE" as const },
      { id: "2", status: "IN_PROGRESS" as const },
      { id: "3", status: "CANCELLED" as const },
    ];
    expect(openDependencies(deps).map((d) => d.id)).toEqual(["2", "3"]);
  });
});
