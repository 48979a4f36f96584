// Times as people say them ("3 min ago", "in 12 min"), with one shared clock so every time on
// screen moves on together.
import { useSyncExternalStore } from "react";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long ago (or how soon) `at` is from `now`; past a week, the date itself. */
export function relativeTime(at: Date, now: Date): string {
  const diff = now.getTime() - at.getTime();
  const span = Math.abs(diff);
  const say = (count: number, unit: string) => (diff >= 0 ? `${count} ${unit} ago` : `in ${count} ${unit}`);
  if (span < 45_000) return diff >= 0 ? "just now" : "in a moment";
  if (span < HOUR) return say(Math.max(1, Math.floor(span / MINUTE)), "min");
  if (span < DAY) return say(Math.floor(span / HOUR), "h");
  if (span < 7 * DAY) {
    const days = Math.floor(span / DAY);
    return say(days, days === 1 ? "day" : "days");
  }
  return at.toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
}

/** The exact time, for the hover text of a relative one. */
export function exactTime(at: Date): string {
  return at.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}

// Relative times go stale by the minute: one timer for all of them, running while any is shown.
const TICK = 30_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (timer === undefined) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, TICK);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * The current time, read at each render; the component renders again every half minute. (The
 * tick's own time would be up to half a minute old, and call a time just past "in a moment".)
 */
export function useNow(): number {
  useSyncExternalStore(subscribe, () => now);
  return Date.now();
}

/** A span of time as a clock reads it: "42s", "3m 05s", "2h 03m"; never negative (clocks differ). */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor(seconds / 60) % 60, seconds % 60];
  const two = (n: number) => String(n).padStart(2, "0");
  if (h > 0) return `${h}h ${two(m)}m`;
  if (m > 0) return `${m}m ${two(s)}s`;
  return `${s}s`;
}
