// The settings the control plane reads itself, as a form: each known key with the value in force
// at the scope shown and where that value comes from, and the merge patch that changes it here.
import type { SettingType } from "../gql/graphql";

export interface Known {
  key: string;
  type: SettingType;
  default: unknown;
  /** The bounds of an integer key. */
  minimum?: number | null;
  maximum?: number | null;
  description: string;
}

export interface Entry {
  key: string;
  value: unknown;
  sourceScopeId: string;
  sourceScopeKind: string;
}

export interface KnownRow extends Known {
  /** In force at this scope. */
  value: unknown;
  /** Where the value comes from: this scope, a broader one, or the default. */
  origin: { kind: "here" } | { kind: "inherited"; scopeKind: string } | { kind: "default" };
}

export function knownRows(known: readonly Known[], entries: readonly Entry[], scopeId: string): KnownRow[] {
  return known.map((k) => {
    const entry = entries.find((e) => e.key === k.key);
    if (!entry) return { ...k, value: k.default, origin: { kind: "default" } };
    const origin = entry.sourceScopeId === scopeId ? { kind: "here" as const } : { kind: "inherited" as const, scopeKind: entry.sourceScopeKind };
    return { ...k, value: entry.value, origin };
  });
}

/** The merge patch that sets a dotted key here, or removes it here (`null`: inherit again). */
export function patchFor(key: string, value: unknown): Record<string, unknown> {
  return key
    .split(".")
    .reverse()
    .reduce<unknown>((inner, part) => ({ [part]: inner }), value) as Record<string, unknown>;
}
