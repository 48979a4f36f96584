// What the Usage page computes without the server: the window a choice of period means, how
// figures are said (with how far they can be trusted), the length of each bar, what a budget form
// sends, and how much of a budget is used.

export type WindowChoice = "7d" | "30d" | "month";

export const WINDOWS: { value: WindowChoice; label: string }[] = [
  { value: "7d", label: "Last 7 days" },
  { value: "30d", label: "Last 30 days" },
  { value: "month", label: "This month (UTC)" },
];

/** The `[from, to)` of a choice at `now`: whole UTC days up to the end of today. */
export function windowOf(choice: WindowChoice, now: Date): { from: string; to: string } {
  const endOfToday = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const day = 86_400_000;
  const from =
    choice === "month" ? Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) : endOfToday - (choice === "7d" ? 7 : 30) * day;
  return { from: new Date(from).toISOString(), to: new Date(endOfToday).toISOString() };
}

const QUALITY: Record<string, string> = { MEASURED: "measured", ESTIMATED: "estimated", UNKNOWN: "unknown" };

/** A count of tokens as people read it: 1,234 · 12.3k · 4.5M. */
export function formatTokens(n: number): string {
  if (n < 10_000) return n.toLocaleString("en-US");
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 100_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** Tokens in and out, and how far they can be trusted. */
export function tokensText(totals: { inputTokens: number; outputTokens: number; tokens: string }): string {
  if (totals.tokens === "UNKNOWN") return "unknown";
  return `${formatTokens(totals.inputTokens + totals.outputTokens)} (${QUALITY[totals.tokens] ?? totals.tokens})`;
}

/** A cost, which is at best an estimate; unknown where something was not priced. */
export function costText(totals: { costUsd?: number | null; cost: string }): string {
  if (totals.costUsd === null || totals.costUsd === undefined) return "unknown";
  return `$${totals.costUsd.toFixed(totals.costUsd < 1 ? 4 : 2)} (${QUALITY[totals.cost] ?? totals.cost})`;
}

/** Each value's share of the largest, in percent (0 when all are 0), for bars. */
export function barWidths(values: readonly number[]): number[] {
  const largest = Math.max(0, ...values);
  return values.map((v) => (largest === 0 ? 0 : Math.round((v / largest) * 1000) / 10));
}

export interface BudgetForm {
  period: "DAILY" | "WEEKLY" | "MONTHLY";
  maxTokens: string;
  maxCostUsd: string;
}

/** The `setBudgetPolicy` variables a form makes, or why there are none. */
export function budgetOf(form: BudgetForm): { period: BudgetForm["period"]; maxTokens: number | null; maxCostUsd: number | null } | { error: string } {
  const tokens = form.maxTokens.trim();
  const cost = form.maxCostUsd.trim();
  if (tokens === "" && cost === "") return { error: "Give a limit of tokens, of cost, or both." };
  const maxTokens = tokens === "" ? null : Number(tokens.replace(/[,_\s]/g, ""));
  if (maxTokens !== null && (!Number.isInteger(maxTokens) || maxTokens <= 0)) return { error: "Tokens are a whole number above 0." };
  const maxCostUsd = cost === "" ? null : Number(cost.replace(/^\$/, ""));
  if (maxCostUsd !== null && (!Number.isFinite(maxCostUsd) || maxCostUsd <= 0)) return { error: "The cost is an amount of dollars above 0." };
  return { period: form.period, maxTokens, maxCostUsd };
}

export interface BudgetState {
  maxTokens?: number | null;
  maxCostUsd?: number | null;
  usedTokens: number;
  usedCostUsd: number;
}

/** How much of a budget is used, in percent of its tighter limit (at most 100). */
export function usedShare(budget: BudgetState): number {
  const shares: number[] = [];
  if (budget.maxTokens) shares.push(budget.usedTokens / budget.maxTokens);
  if (budget.maxCostUsd) shares.push(budget.usedCostUsd / budget.maxCostUsd);
  return Math.min(100, Math.round(Math.max(0, ...shares) * 1000) / 10);
}

/** What a budget has used of each of its limits, in words. */
export function budgetText(budget: BudgetState): string {
  const parts: string[] = [];
  if (budget.maxTokens) parts.push(`${formatTokens(budget.usedTokens)} of ${formatTokens(budget.maxTokens)} tokens`);
  if (budget.maxCostUsd) parts.push(`$${budget.usedCostUsd.toFixed(2)} of $${budget.maxCostUsd.toFixed(2)}`);
  return parts.join(" · ");
}
