import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { followRunEvents, type Sink, type StreamEvent, type StreamState } from "./runStream";

const event = (sequence: number): StreamEvent => ({ sequence, kind: "output", data: { line: `line ${sequence}` }, occurredAt: "" });

/** A stand-in for the socket: records each subscription's cursor and lets the test drive it. */
function fakeServer() {
  const opened: { after: number | null; sink: Sink; closed: boolean }[] = [];
  const subscribe = (after: number | null, sink: Sink) => {
    const entry = { after, sink, closed: false };
    opened.push(entry);
    return () => {
      entry.closed = true;
    };
  };
  return { opened, subscribe, last: () => opened[opened.length - 1] };
}

describe("followRunEvents", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("resubscribes from the last sequence after the connection drops", () => {
    const server = fakeServer();
    const seen: number[] = [];
    followRunEvents(server.subscribe, { onEvents: (e) => seen.push(...e.map((x) => x.sequence)), onState: () => {} });
    expect(server.last().after).toBeNull();
    [1, 2, 3].forEach((n) => server.last().sink.next(event(n)));
    server.last().sink.error(new Error("socket closed"));
    vi.advanceTimersByTime(500);
    expect(server.opened).toHaveLength(2);
    expect(server.last().after).toBe(3);
    [4, 5].forEach((n) => server.last().sink.next(event(n)));
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it("starts after the events already shown", () => {
    const server = fakeServer();
    followRunEvents(server.subscribe, { onEvents: () => {}, onState: () => {} }, { after: 41 });
    expect(server.last().after).toBe(41);
  });

  it("never shows an event twice when a replay overlaps", () => {
    const server = fakeServer();
    const seen: number[] = [];
    const stream = followRunEvents(server.subscribe, { onEvents: (e) => seen.push(...e.map((x) => x.sequence)), onState: () => {} });
    [1, 2].forEach((n) => server.last().sink.next(event(n)));
    stream.resume();
    expect(server.opened[0].closed).toBe(true);
    [2, 3].forEach((n) => server.last().sink.next(event(n)));
    expect(seen).toEqual([1, 2, 3]);
    expect(stream.cursor()).toBe(3);
  });

  it("backs off, doubling up to the maximum", () => {
    const server = fakeServer();
    followRunEvents(server.subscribe, { onEvents: () => {}, onState: () => {} }, { baseDelayMs: 100, maxDelayMs: 300 });
    const fail = () => server.last().sink.error(new Error("down"));
    fail();
    vi.advanceTimersByTime(99);
    expect(server.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(server.opened).toHaveLength(2);
    fail();
    vi.advanceTimersByTime(200);
    expect(server.opened).toHaveLength(3);
    fail();
    vi.advanceTimersByTime(300);
    expect(server.opened).toHaveLength(4);
  });

  it("resubscribes from its cursor after an error that says to try again", () => {
    const server = fakeServer();
    followRunEvents(server.subscribe, { onEvents: () => {}, onState: () => {} });
    server.last().sink.next(event(7));
    server.last().sink.error([{ message: "fell behind", extensions: { code: "RATE_LIMITED", retryable: true } }]);
    vi.advanceTimersByTime(500);
    expect(server.opened).toHaveLength(2);
    expect(server.last().after).toBe(7);
  });

  it("stops on an error the server meant, and ends when the run completes", () => {
    const server = fakeServer();
    const states: StreamState[] = [];
    followRunEvents(server.subscribe, { onEvents: () => {}, onState: (s) => states.push(s) });
    server.last().sink.error([{ message: "not found" }]);
    vi.advanceTimersByTime(60_000);
    expect(server.opened).toHaveLength(1);
    expect(states.at(-1)).toBe("failed");

    const other = fakeServer();
    const otherStates: StreamState[] = [];
    const stream = followRunEvents(other.subscribe, { onEvents: () => {}, onState: (s) => otherStates.push(s) });
    other.last().sink.next(event(1));
    other.last().sink.next(event(2));
    other.last().sink.complete();
    stream.resume();
    expect(other.opened).toHaveLength(1);
    expect(otherStates).toEqual(["connecting", "live", "ended"]);
  });

  it("ignores what a closed subscription still delivers", () => {
    const server = fakeServer();
    const seen: number[] = [];
    const stream = followRunEvents(server.subscribe, { onEvents: (e) => seen.push(...e.map((x) => x.sequence)), onState: () => {} });
    const first = server.last();
    stream.stop();
    first.sink.next(event(1));
    first.sink.error(new Error("late"));
    vi.advanceTimersByTime(60_000);
    expect(seen).toEqual([]);
    expect(server.opened).toHaveLength(1);
  });
});
