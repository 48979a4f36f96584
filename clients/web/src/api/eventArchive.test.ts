import { describe, expect, it } from "vitest";
import { MAX_EVENTS, MAX_RUNS, clearEvents, loadEvents, saveEvents } from "./eventArchive";
import type { StreamEvent } from "./runStream";

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k) => items.get(k) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    setItem: (k, v) => void items.set(k, v),
  };
}

const events = (from: number, to: number): StreamEvent[] =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ sequence: from + i, kind: "output", data: null, occurredAt: "" }));

describe("event archive", () => {
  it("keeps the tail of each run", () => {
    const storage = memoryStorage();
    saveEvents("r1", events(1, MAX_EVENTS + 10), storage);
    const kept = loadEvents("r1", storage);
    expect(kept).toHaveLength(MAX_EVENTS);
    expect(kept[0].sequence).toBe(11);
    expect(kept.at(-1)?.sequence).toBe(MAX_EVENTS + 10);
  });

  it("forgets the runs watched longest ago, and everything when cleared", () => {
    const storage = memoryStorage();
    for (let run = 0; run <= MAX_RUNS; run++) saveEvents(`r${run}`, events(1, 2), storage);
    expect(loadEvents("r0", storage)).toEqual([]);
    expect(loadEvents(`r${MAX_RUNS}`, storage)).toHaveLength(2);
    clearEvents(storage);
    expect(storage.length).toBe(0);
  });
});
