// A run's context as its page shows it (docs/context.md): what each item the broker offered is,
// how many tokens it and the whole took of the budget, which ones were left out for the budget,
// what was redacted, the bundle as the agent received it, and when the page asks for it again.
import type { ContextItemKind, RunStatus } from "../gql/graphql";

const KINDS: Record<ContextItemKind, string> = {
  OBJECTIVE: "Objective",
  ACCEPTANCE_CRITERION: "Acceptance criterion",
  DESCRIPTION: "Description",
  MEMORY: "Memory",
  WIKI_PAGE: "Wiki page",
  EARLIER_RUN: "Earlier run",
};

/** What an item is, as a person says it: "Acceptance criterion", "Earlier run". */
export function kindLabel(kind: ContextItemKind): string {
  return KINDS[kind] ?? kind;
}

const number = (n: number) => n.toLocaleString("en");

/** "1 token", "1,234 tokens". */
export function tokenCount(tokens: number): string {
  return `${number(tokens)} ${tokens === 1 ? "token" : "tokens"}`;
}

/** "1,234 of 8,000 tokens": what the context took of its budget. */
export function tokensOfBudget(used: number, budget: number): string {
  return `${number(used)} of ${tokenCount(budget)}`;
}

/**
 * An item's title, unless it only names its kind again (the broker titles the objective
 * "Objective" and the description "Task description"); a memory's subject, an earlier run's date.
 */
export function itemTitle(item: { kind: ContextItemKind; title: string }): string | null {
  const title = item.title.trim();
  const kind = kindLabel(item.kind).toLowerCase();
  const plain = title.toLowerCase();
  return title === "" || plain === kind || plain === `task ${kind}` ? null : title;
}

/** "1 secret redacted", "2 secrets redacted"; nothing when none was. */
export function redactionNote(redactions: number): string | null {
  if (redactions <= 0) return null;
  return redactions === 1 ? "1 secret redacted" : `${number(redactions)} secrets redacted`;
}

/** Whether the item went to the agent, in words; a left-out one is marked as such. */
export function inclusionNote(item: { included: boolean }): string {
  return item.included ? "included" : "left out for the budget";
}

/** "3 items offered, 1 left out for the budget". */
export function itemsSummary(items: readonly { included: boolean }[]): string {
  const offered = `${number(items.length)} ${items.length === 1 ? "item" : "items"} offered`;
  const leftOut = items.filter((i) => !i.included).length;
  return leftOut === 0 ? `${offered}, all included` : `${offered}, ${number(leftOut)} left out for the budget`;
}

/** The bundle as the agent received it, indented for reading. */
export function prettyBundle(bundle: unknown): string {
  return JSON.stringify(bundle, null, 2) ?? "null";
}

/** What the card says while there is no context: not yet built, or never to be. */
export function noContextNote(run: { ended: boolean; attempts: number }): string {
  return run.ended && run.attempts === 0 ? "None: the run ended before it was dispatched." : "Built when the run is first dispatched.";
}

/**
 * Whether to ask the server again for a context it said was not there (null): the run is built
 * one at its first dispatch, so once the run's status moved on from the one the answer was asked
 * at, and the run is no longer waiting in the queue. A context once there never changes.
 */
export function askAgain(answer: { runContext?: unknown } | undefined, askedAt: RunStatus, status: RunStatus): boolean {
  return answer !== undefined && answer.runContext === null && status !== askedAt && status !== "QUEUED";
}
