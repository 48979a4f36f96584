// Which cards the board shows: a search over titles and labels, and a priority and assignee to
// narrow to. Applied in the page to the tasks it has, so typing answers at once.
import type { TaskPriority } from "../gql/graphql";

export interface BoardFilter {
  search: string;
  priority: TaskPriority | "";
  /** A user's id, `UNASSIGNED`, or empty for anyone. */
  assignee: string;
}

export const UNASSIGNED = "UNASSIGNED";
export const NO_FILTER: BoardFilter = { search: "", priority: "", assignee: "" };

interface Filterable {
  title: string;
  labels: readonly string[];
  priority: TaskPriority;
  assignee?: { id: string } | null;
}

export function shown(task: Filterable, filter: BoardFilter): boolean {
  const words = filter.search.toLowerCase().split(/\s+/).filter(Boolean);
  const text = [task.title, ...task.labels].join(" ").toLowerCase();
  const assignee = task.assignee?.id ?? UNASSIGNED;
  return (
    words.every((w) => text.includes(w)) &&
    (filter.priority === "" || task.priority === filter.priority) &&
    (filter.assignee === "" || assignee === filter.assignee)
  );
}

export const filtering = (filter: BoardFilter) => filter.search.trim() !== "" || filter.priority !== "" || filter.assignee !== "";
