// The offline copy of run events: the tail of the last few runs this device watched, so a run
// opened offline shows its events, and a reopened run resumes its stream after the last one
// kept instead of replaying everything. Cleared with the rest of the offline copy at sign-out.
import type { StreamEvent } from "./runStream";

const PREFIX = "acc.runEvents.";
const INDEX = "acc.runEvents";
export const MAX_RUNS = 5;
export const MAX_EVENTS = 500;

function index(storage: Storage): string[] {
  try {
    const value = JSON.parse(storage.getItem(INDEX) ?? "[]");
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

export function loadEvents(runId: string, storage: Storage = localStorage): StreamEvent[] {
  try {
    const value = JSON.parse(storage.getItem(PREFIX + runId) ?? "[]");
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** Keeps the last `MAX_EVENTS` of a run, and forgets the runs watched longest ago. */
export function saveEvents(runId: string, events: StreamEvent[], storage: Storage = localStorage) {
  const runs = [runId, ...index(storage).filter((id) => id !== runId)];
  for (const old of runs.splice(MAX_RUNS)) storage.removeItem(PREFIX + old);
  try {
    storage.setItem(PREFIX + runId, JSON.stringify(events.slice(-MAX_EVENTS)));
    storage.setItem(INDEX, JSON.stringify(runs));
  } catch {
    // Storage is full: the offline copy of events is a convenience, the stream is the truth.
  }
}

export function clearEvents(storage: Storage = localStorage) {
  for (const id of index(storage)) storage.removeItem(PREFIX + id);
  storage.removeItem(INDEX);
}
