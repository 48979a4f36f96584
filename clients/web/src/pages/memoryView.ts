// Memory as its pages show it: the search, kept in the page's address and sent as the server's
// variables; what found a hit, where it is kept and how the server searches; each version's place
// in an entry's history; who did what; what a write did; and a change refused because the entry
// changed since it was read.
import type { CombinedError } from "urql";
import type { MemoryConflictStatus, MemoryKind, MemoryRetrievalMode, MemoryRetriever, MemoryScopeKind, MemoryVerification } from "../gql/graphql";
import type { Scope } from "./scopes";

export const KINDS: MemoryKind[] = ["FACT", "DECISION", "CONSTRAINT", "PREFERENCE", "LESSON", "ENTITY", "ARTIFACT_REFERENCE", "RUN_SUMMARY"];

export const VERIFICATIONS: MemoryVerification[] = ["UNVERIFIED", "VERIFIED", "DISPUTED", "RETRACTED"];

/** A search, as its form and the page's address hold it. */
export interface MemorySearch {
  /** Where the person stands; null: the first scope they may choose. */
  scopeId: string | null;
  query: string;
  /** Only these kinds; none: every kind. */
  kinds: MemoryKind[];
  /** Only these verification states; none: all but retracted (the server's default). */
  verification: MemoryVerification[];
  /** Memory as it stood at this local time (`YYYY-MM-DDTHH:mm`, as a date-time field holds it); empty: now. */
  asOf: string;
}

/** The search in an address's query (`?scope=…&q=…&kind=FACT`); what it does not name is unset. */
export function readSearch(query: string): MemorySearch {
  const params = new URLSearchParams(query);
  return {
    scopeId: params.get("scope"),
    query: params.get("q") ?? "",
    kinds: KINDS.filter((k) => params.getAll("kind").includes(k)),
    verification: VERIFICATIONS.filter((v) => params.getAll("verification").includes(v)),
    asOf: params.get("as-of") ?? "",
  };
}

/** The Memory page's address showing `search`. */
export function searchAddress(search: MemorySearch): string {
  const params = new URLSearchParams();
  if (search.scopeId) params.set("scope", search.scopeId);
  if (search.query.trim()) params.set("q", search.query.trim());
  for (const kind of search.kinds) params.append("kind", kind);
  for (const state of search.verification) params.append("verification", state);
  if (search.asOf) params.set("as-of", search.asOf);
  const query = params.toString();
  return query ? `/memory?${query}` : "/memory";
}

/**
 * What `memory` is asked from `scopeId`. The server searches for the letters and digits of a
 * query and refuses one without any, so such a query is no query: the most recently changed. A
 * time that is not one (a field half filled in) is no time: now.
 */
export function searchVariables(search: MemorySearch, scopeId: string) {
  return {
    scopeId,
    query: /[\p{Alphabetic}\p{N}]/u.test(search.query) ? search.query.trim() : null,
    kinds: search.kinds.length > 0 ? search.kinds : null,
    verification: search.verification.length > 0 ? search.verification : null,
    asOf: asOfInstant(search.asOf),
  };
}

/** The instant a local date-time field's value names, for the server; null for none. */
export function asOfInstant(local: string): string | null {
  if (!local) return null;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

const RETRIEVALS: Record<MemoryRetriever, string> = { FULL_TEXT: "words", VECTOR: "meaning" };

/** What found a hit ("words and meaning"); null when nothing was searched for. */
export function foundBy(retrievers: readonly MemoryRetriever[]): string | null {
  const found = (Object.keys(RETRIEVALS) as MemoryRetriever[]).filter((r) => retrievers.includes(r));
  return found.length > 0 ? found.map((r) => RETRIEVALS[r]).join(" and ") : null;
}

/**
 * Whose own memory an entry is, as the agent's scope is labelled ("Agent · builder"); null for an
 * entry of any other scope, whose kind says where it is kept, and for an agent not listed.
 */
export function agentScope(entry: { scopeKind: MemoryScopeKind; scopeId: string }, scopes: readonly Scope[]): string | null {
  if (entry.scopeKind !== "AGENT") return null;
  return scopes.find((s) => s.id === entry.scopeId)?.label ?? null;
}

/** How the server searches now. */
export function searchMode(mode: MemoryRetrievalMode): string {
  return mode === "HYBRID" ? "words and meaning" : "words only";
}

export type VersionState = "current" | "proposed" | "not accepted" | "replaced";

/**
 * A version's place in its entry's history: the one that stands; one that waits in an open
 * conflict; one a person decided against (the current version was kept); or one that stood once.
 */
export function versionState(
  version: { id: string; becameCurrentAt?: string | null },
  currentId: string,
  conflicts: readonly { proposedVersionId: string; status: MemoryConflictStatus }[],
): VersionState {
  if (version.id === currentId) return "current";
  if (version.becameCurrentAt) return "replaced";
  return conflicts.some((c) => c.proposedVersionId === version.id && c.status === "OPEN") ? "proposed" : "not accepted";
}

/** Who someone is to the person reading: "you", their name when known, or "someone else". */
export function personName(id: string | null | undefined, viewerId: string | undefined, names: ReadonlyMap<string, string>): string | null {
  if (!id) return null;
  if (id === viewerId) return "you";
  return names.get(id) ?? "someone else";
}

/** What a write did: its version stands, or it waits, proposed, in the conflict it opened. */
export function writeOutcome(write: { entry: { subject: string }; version: { number: number }; conflict: { id: string } | null }): {
  conflict: boolean;
  message: string;
} {
  const { subject } = write.entry;
  if (!write.conflict) return { conflict: false, message: `Written: version ${write.version.number} of “${subject}” is current.` };
  return {
    conflict: true,
    message: `“${subject}” already has a current version, so this write did not replace it: it waits as proposed version ${write.version.number} in a conflict, for a person to keep the current version or accept the proposal.`,
  };
}

/** Whether the server refused a change because the entry or conflict changed since it was read. */
export function changedMeanwhile(error: CombinedError | undefined): boolean {
  return error?.graphQLErrors.some((e) => e.extensions?.code === "CONFLICT") ?? false;
}
