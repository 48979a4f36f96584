import { describe, expect, it } from "vitest";
import { preferenceRows } from "./notificationsView";

describe("preferenceRows", () => {
  it("puts each kind on one row with its channels, in the server's order", () => {
    const rows = preferenceRows([
      { kind: "RUN_FAILED", channel: "EMAIL", enabled: false },
      { kind: "APPROVAL_WAITING", channel: "EMAIL", enabled: true },
    ]);
    expect(rows).toEqual([
      { kind: "RUN_FAILED", label: "A run you started failed", channels: { EMAIL: false } },
      { kind: "APPROVAL_WAITING", label: "A decision waits for you", channels: { EMAIL: true } },
    ]);
  });

  it("shows nothing when the server lists nothing", () => {
    expect(preferenceRows([])).toEqual([]);
  });
});
