// What the Candidates page computes without the server: the patch a proposal form makes, the
// side-by-side rows of a comparison, and what a candidate changes in words.

export interface ProposalForm {
  /** The context budget to try, as typed; empty: unchanged. */
  budget: string;
  /** Skill versions to switch on. */
  activate: string[];
  /** Skills to switch off. */
  deactivate: string[];
}

export interface CandidatePatch {
  settings: Record<string, unknown>;
  activateSkillVersionIds: string[];
  deactivateSkillIds: string[];
}

/** The `proposeCandidate` patch of a form, or why there is none. */
export function patchOf(form: ProposalForm): CandidatePatch | { error: string } {
  const settings: Record<string, unknown> = {};
  const budget = form.budget.trim();
  if (budget !== "") {
    const tokens = Number(budget);
    if (!Number.isInteger(tokens) || tokens <= 0) return { error: "The context budget is a whole number of tokens." };
    settings.context = { tokenBudget: tokens };
  }
  if (budget === "" && form.activate.length === 0 && form.deactivate.length === 0) {
    return { error: "Change the context budget or the skills first." };
  }
  return { settings, activateSkillVersionIds: form.activate, deactivateSkillIds: form.deactivate };
}

/** One side's observations, as `compareCandidate` recorded them. */
export interface Observed {
  status?: string;
  wallTimeMs?: number;
  tokens?: number | null;
  costUsd?: number | null;
  artifactVersions?: number;
}

export interface ComparisonRow {
  label: string;
  baseline: string;
  candidate: string;
  /** The two sides differ here. */
  differs: boolean;
}

const seconds = (ms: number | undefined) => (ms === undefined ? "—" : `${(ms / 1000).toFixed(1)} s`);
const count = (n: number | null | undefined) => (n === null || n === undefined ? "unknown" : String(n));
const dollars = (n: number | null | undefined) => (n === null || n === undefined ? "unknown" : `$${n.toFixed(4)}`);

/** A file the runs attached, each side's last version of it, and how the two compare. */
export interface ComparedFile {
  name: string;
  baseline: { sha256: string; sizeBytes: number } | null;
  candidate: { sha256: string; sizeBytes: number } | null;
  change: "same" | "differs" | "only_baseline" | "only_candidate";
}

const CHANGES: Record<ComparedFile["change"], string> = {
  same: "the same bytes",
  differs: "different bytes",
  only_baseline: "only the baseline attached it",
  only_candidate: "only the candidate attached it",
};

/** How a file the runs attached compares, in words. */
export function fileChange(file: ComparedFile): string {
  return CHANGES[file.change] ?? file.change;
}

/** What `compareCandidate` recorded. */
export interface ComparisonData {
  baseline?: Observed;
  candidate?: Observed;
  files?: ComparedFile[];
  criteriaMet?: number;
  criteriaTotal?: number;
}

/** What `applyCandidate` recorded. */
export interface Receipt {
  appliedAt: string;
  settingsRevision: number;
}

/** The comparison's rows: what each run came to, side by side. */
export function comparisonRows(comparison: ComparisonData): ComparisonRow[] {
  const b = comparison.baseline ?? {};
  const c = comparison.candidate ?? {};
  const rows: [string, (o: Observed) => string][] = [
    ["Status", (o) => (o.status ?? "—").replace(/_/g, " ")],
    ["Wall time", (o) => seconds(o.wallTimeMs)],
    ["Tokens", (o) => count(o.tokens)],
    ["Cost", (o) => dollars(o.costUsd)],
    ["Files attached", (o) => count(o.artifactVersions)],
  ];
  return rows.map(([label, show]) => ({ label, baseline: show(b), candidate: show(c), differs: show(b) !== show(c) }));
}

/** What a candidate changes, in words: its settings patch and the skills switched on and off. */
export function changesText(
  settingsPatch: unknown,
  baseline: readonly string[],
  candidate: readonly string[],
  nameOf: (versionId: string) => string,
): string[] {
  const changes: string[] = [];
  const budget = (settingsPatch as { context?: { tokenBudget?: unknown } } | null)?.context?.tokenBudget;
  if (budget !== undefined) changes.push(`context budget ${String(budget)} tokens`);
  else if (settingsPatch && Object.keys(settingsPatch as object).length > 0) changes.push(`settings ${JSON.stringify(settingsPatch)}`);
  for (const id of candidate.filter((v) => !baseline.includes(v))) changes.push(`switch on ${nameOf(id)}`);
  for (const id of baseline.filter((v) => !candidate.includes(v))) changes.push(`switch off ${nameOf(id)}`);
  return changes;
}
