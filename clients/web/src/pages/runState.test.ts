import { describe, expect, it } from "vitest";
import { attemptState, cachedRunBehind, runOffer, runSpan, streamShown } from "./runState";

const saver = { name: "saver", capabilities: ["CHECKPOINT"] };
const careful = { name: "careful", capabilities: [] };

describe("runOffer", () => {
  it("offers checkpoint and hand off only while a checkpointing agent runs", () => {
    expect(runOffer({ status: "RUNNING", agent: saver })).toEqual({
      cancel: true,
      checkpoint: true,
      handoff: true,
      again: null,
      why: null,
    });
    const offer = runOffer({ status: "RUNNING", agent: careful });
    expect(offer).toMatchObject({ cancel: true, checkpoint: false, handoff: false });
    expect(offer.why).toMatch(/careful cannot save checkpoints/);
  });

  it("offers only cancel while the run waits for approval, and says why", () => {
    const offer = runOffer({ status: "WAITING_APPROVAL", agent: saver });
    expect(offer).toMatchObject({ cancel: true, checkpoint: false, handoff: false, again: null });
    expect(offer.why).toMatch(/approval/);
  });

  it("hands a blocked run off at once, whatever its agent", () => {
    expect(runOffer({ status: "BLOCKED", agent: careful })).toMatchObject({ cancel: true, handoff: true, checkpoint: false });
  });

  it("offers nothing the state machine refuses in between", () => {
    for (const status of ["CHECKPOINTING", "HANDOFF_READY", "CANCELLING"] as const) {
      expect(runOffer({ status, agent: saver })).toMatchObject({ cancel: false, checkpoint: false, handoff: false, again: null });
    }
  });

  it("offers a retry after a failure and another run after any other end", () => {
    expect(runOffer({ status: "FAILED", agent: careful }).again).toBe("Retry");
    expect(runOffer({ status: "INTERRUPTED", agent: careful }).again).toBe("Retry");
    expect(runOffer({ status: "SUCCEEDED", agent: careful }).again).toBe("Run again");
    expect(runOffer({ status: "CANCELLED", agent: careful })).toMatchObject({ cancel: false, again: "Run again" });
  });
});

describe("attemptState", () => {
  it("shows the run's finer state on the attempt that runs", () => {
    expect(attemptState({ status: "RUNNING", endedAt: null }, { status: "WAITING_APPROVAL" }, true)).toBe("WAITING_APPROVAL");
    expect(attemptState({ status: "RUNNING", endedAt: null }, { status: "RUNNING" }, true)).toBe("RUNNING");
  });

  it("shows the run's outcome on its last attempt", () => {
    expect(attemptState({ status: "ENDED", endedAt: "t" }, { status: "FAILED" }, true)).toBe("FAILED");
    expect(attemptState({ status: "ENDED", endedAt: "t" }, { status: "SUCCEEDED" }, true)).toBe("SUCCEEDED");
  });

  it("keeps what earlier attempts say of themselves", () => {
    expect(attemptState({ status: "HANDED_OFF", endedAt: "t" }, { status: "SUCCEEDED" }, false)).toBe("HANDED_OFF");
    expect(attemptState({ status: "LAPSED", endedAt: "t" }, { status: "FAILED" }, true)).toBe("LAPSED");
  });
});

describe("streamShown", () => {
  it("never calls the stream of an ended run live", () => {
    expect(streamShown("live", true)).toBe("loading");
    expect(streamShown("ended", true)).toBe("ended");
    expect(streamShown("live", false)).toBe("live");
  });
});

describe("cachedRunBehind", () => {
  const run = { status: "CHECKPOINTING", updatedAt: "2026-12-04T10:00:00.100Z" };
  it("is behind when the stream showed a later change the cache does not have", () => {
    // A checkpoint request's answer, read before the checkpoint was taken, arrived after the stream's `running`.
    expect(cachedRunBehind({ status: "running", at: "2026-12-04T10:00:00.250Z" }, run)).toBe(true);
  });
  it("is not behind when the stream says the same", () => {
    expect(cachedRunBehind({ status: "checkpointing", at: "2026-12-04T10:00:00.250Z" }, run)).toBe(false);
  });
  it("is not behind when the stream itself is behind the run", () => {
    expect(cachedRunBehind({ status: "running", at: "2026-12-04T10:00:00.050Z" }, run)).toBe(false);
  });
});

describe("runSpan", () => {
  const times = { createdAt: "2026-12-04T10:00:00Z", updatedAt: "2026-12-04T10:05:00Z" };
  it("is open while the run is live", () => {
    expect(runSpan({ status: "WAITING_APPROVAL", ...times, attempts: [{ endedAt: null }] })).toEqual({ from: times.createdAt, to: null });
  });
  it("ends with the last attempt of an ended run", () => {
    const attempts = [{ endedAt: "2026-12-04T10:01:00Z" }, { endedAt: "2026-12-04T10:04:00Z" }];
    expect(runSpan({ status: "SUCCEEDED", ...times, attempts })).toEqual({ from: times.createdAt, to: "2026-12-04T10:04:00Z" });
  });
  it("ends with the last update of a run cancelled before any attempt ended", () => {
    expect(runSpan({ status: "CANCELLED", ...times, attempts: [] }).to).toBe(times.updatedAt);
  });
});
