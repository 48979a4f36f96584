import { describe, expect, it } from "vitest";
import { detailPairs, verificationText } from "./auditView";

describe("detailPairs", () => {
  it("says each detail as a pair, leaving out what is empty and writing lists as JSON", () => {
    expect(detailPairs({ name: "CI", scopes: ["read"], api_token_id: null, revision: 2 })).toEqual([
      ["name", "CI"],
      ["scopes", '["read"]'],
      ["revision", "2"],
    ]);
  });

  it("has nothing to say of what is not an object", () => {
    expect(detailPairs(null)).toEqual([]);
    expect(detailPairs(["a"])).toEqual([]);
    expect(detailPairs("text")).toEqual([]);
  });
});

describe("verificationText", () => {
  it("says an intact chain is intact, with what was checked", () => {
    expect(verificationText({ intact: true, events: 12, checkpoints: 1 })).toBe(
      "Intact: 12 events and 1 signed checkpoint checked.",
    );
  });

  it("names the first broken link and what is wrong there", () => {
    expect(
      verificationText({ intact: false, events: 2, checkpoints: 1, firstBroken: { sequence: 3, problem: "ALTERED" } }),
    ).toBe("Broken at event 3: an event was changed after it was written. 2 events and 1 signed checkpoint checked before it.");
  });
});
