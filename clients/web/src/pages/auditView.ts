// What the Audit page says without the server: an event's details in words, and what a
// verification of the chain found.

/** An event's details as "key: value" pairs, in the order they were written; ids stay whole. */
export function detailPairs(details: unknown): [string, string][] {
  if (!details || typeof details !== "object" || Array.isArray(details)) return [];
  return Object.entries(details as Record<string, unknown>)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => [key.replace(/_/g, " "), typeof value === "string" ? value : JSON.stringify(value)]);
}

export interface VerificationResult {
  intact: boolean;
  events: number;
  checkpoints: number;
  firstBroken?: { sequence: number; problem: string } | null;
}

const PROBLEMS: Record<string, string> = {
  MISSING: "an event is missing",
  ALTERED: "an event was changed after it was written",
  UNLINKED: "an event no longer links to the one before it",
  REWRITTEN: "the chain was rewritten: a signed checkpoint disagrees",
  FORGED_CHECKPOINT: "a checkpoint's signature is not the server's",
  APPENDED: "events were added behind the chain's back",
};

/** What a verification found, in one sentence. */
export function verificationText(result: VerificationResult): string {
  const checked = `${result.events} ${result.events === 1 ? "event" : "events"} and ${result.checkpoints} signed ${
    result.checkpoints === 1 ? "checkpoint" : "checkpoints"
  } checked`;
  if (result.intact || !result.firstBroken) return `Intact: ${checked}.`;
  const { sequence, problem } = result.firstBroken;
  return `Broken at event ${sequence}: ${PROBLEMS[problem] ?? problem}. ${checked} before it.`;
}
