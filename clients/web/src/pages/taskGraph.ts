// What the dependency graph allows, decided in the page from the project's tasks, the way the
// server decides it (api/src/projects: a dependency that closes a cycle is refused), so that the
// picker offers no task the server would refuse.
import type { TaskStatus } from "../gql/graphql";

interface Node {
  id: string;
  dependencies: readonly { id: string }[];
}

/**
 * The tasks `taskId` may wait for: not itself, not one it already waits for, and none that
 * waits for it, directly or through others (that would close a cycle).
 */
export function dependencyCandidates<T extends Node>(taskId: string, tasks: readonly T[]): T[] {
  const dependents = new Map<string, string[]>();
  for (const task of tasks) {
    for (const dependency of task.dependencies) dependents.set(dependency.id, [...(dependents.get(dependency.id) ?? []), task.id]);
  }
  const waitingForIt = new Set<string>([taskId]);
  const queue = [taskId];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const dependent of dependents.get(next) ?? []) {
      if (!waitingForIt.has(dependent)) {
        waitingForIt.add(dependent);
        queue.push(dependent);
      }
    }
  }
  const already = new Set(tasks.find((t) => t.id === taskId)?.dependencies.map((d) => d.id) ?? []);
  return tasks.filter((t) => !waitingForIt.has(t.id) && !already.has(t.id));
}

/** The dependencies of a task that are not done yet: while there are any, the task waits. */
export function openDependencies<T extends { status: TaskStatus }>(dependencies: readonly T[]): T[] {
  return dependencies.filter((d) => d.status !== "DONE");
}
