import { describe, expect, it } from "vitest";
import { formatDuration, relativeTime } from "./time";

const now = new Date("2026-12-04T12:00:00Z");
const ago = (ms: number) => relativeTime(new Date(now.getTime() - ms), now);
const s = 1000;
const min = 60 * s;
const h = 60 * min;
const day = 24 * h;

describe("relativeTime", () => {
  it("says how long ago, in the largest whole unit", () => {
    expect(ago(0)).toBe("just now");
    expect(ago(44 * s)).toBe("just now");
    expect(ago(45 * s)).toBe("1 min ago");
    expect(ago(3 * min + 40 * s)).toBe("3 min ago");
    expect(ago(59 * min + 59 * s)).toBe("59 min ago");
    expect(ago(h)).toBe("1 h ago");
    expect(ago(23 * h + 59 * min)).toBe("23 h ago");
    expect(ago(day)).toBe("1 day ago");
    expect(ago(6 * day)).toBe("6 days ago");
  });

  it("says how soon, for what lies ahead (an approval's expiry)", () => {
    expect(ago(-10 * s)).toBe("in a moment");
    expect(ago(-14 * min)).toBe("in 14 min");
    expect(ago(-2 * h)).toBe("in 2 h");
    expect(ago(-3 * day)).toBe("in 3 days");
  });

  it("gives the date itself past a week", () => {
    const then = new Date(now.getTime() - 8 * day);
    expect(relativeTime(then, now)).toBe(then.toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" }));
    expect(relativeTime(then, now)).not.toMatch(/ago/);
  });
});

describe("formatDuration", () => {
  it("reads like a clock, in the two largest units", () => {
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(42_900)).toBe("42s");
    expect(formatDuration(3 * min + 5 * s)).toBe("3m 05s");
    expect(formatDuration(2 * h + 3 * min + 59 * s)).toBe("2h 03m");
    expect(formatDuration(26 * h)).toBe("26h 00m");
  });
  it("is never negative, when the server's clock is ahead", () => {
    expect(formatDuration(-1500)).toBe("0s");
  });
});
