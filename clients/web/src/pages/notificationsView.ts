// What the notifications page shows: each kind in a person's words, and the preference rows by
// kind (one checkbox per channel), in the order the server lists the kinds.
import type { NotificationChannel, NotificationKind } from "../gql/graphql";

/** What each kind tells, as a person would put it. */
export const KIND_LABELS: Record<NotificationKind, string> = {
  APPROVAL_WAITING: "A decision waits for you",
  RUN_FAILED: "A run you started failed",
  BUDGET_WARNING: "A budget you administer is 80 % used",
  BUDGET_SPENT: "A budget you administer is spent",
};

export interface Preference {
  kind: NotificationKind;
  channel: NotificationChannel;
  enabled: boolean;
}

export interface PreferenceRow {
  kind: NotificationKind;
  label: string;
  /** Whether it comes on each channel; a channel the server did not list is absent. */
  channels: Partial<Record<NotificationChannel, boolean>>;
}

/** One row per kind, its channels' choices beside it. */
export function preferenceRows(preferences: readonly Preference[]): PreferenceRow[] {
  const rows = new Map<NotificationKind, PreferenceRow>();
  for (const p of preferences) {
    const row = rows.get(p.kind) ?? { kind: p.kind, label: KIND_LABELS[p.kind], channels: {} };
    row.channels[p.channel] = p.enabled;
    rows.set(p.kind, row);
  }
  return [...rows.values()];
}
