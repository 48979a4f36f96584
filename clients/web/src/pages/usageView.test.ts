import { describe, expect, it } from "vitest";
import { barWidths, budgetOf, budgetText, costText, formatTokens, tokensText, usedShare, windowOf } from "./usageView";

describe("usage view", () => {
  it("turns a period into whole UTC days up to the end of today", () => {
    const now = new Date("2026-12-09T15:30:00Z");
    expect(windowOf("7d", now)).toEqual({ from: "2026-12-03T00:00:00.000Z", to: "2026-12-10T00:00:00.000Z" });
    expect(windowOf("30d", now).from).toBe("2026-11-10T00:00:00.000Z");
    expect(windowOf("month", now)).toEqual({ from: "2026-12-01T00:00:00.000Z", to: "2026-12-10T00:00:00.000Z" });
  });

  it("says figures with how far they can be trusted", () => {
    expect(formatTokens(950)).toBe("950");
    expect(formatTokens(12_345)).toBe("12.3k");
    expect(formatTokens(4_500_000)).toBe("4.5M");
    expect(tokensText({ inputTokens: 900, outputTokens: 150, tokens: "MEASURED" })).toBe("1,050 (measured)");
    expect(tokensText({ inputTokens: 0, outputTokens: 0, tokens: "UNKNOWN" })).toBe("unknown");
    expect(costText({ costUsd: 0.03, cost: "ESTIMATED" })).toBe("$0.0300 (estimated)");
    expect(costText({ costUsd: null, cost: "UNKNOWN" })).toBe("unknown");
  });

  it("sizes bars against the largest", () => {
    expect(barWidths([50, 200, 0])).toEqual([25, 100, 0]);
    expect(barWidths([0, 0])).toEqual([0, 0]);
  });

  it("makes a budget of a form, or says what is wrong", () => {
    expect(budgetOf({ period: "DAILY", maxTokens: "1,000", maxCostUsd: "" })).toEqual({ period: "DAILY", maxTokens: 1000, maxCostUsd: null });
    expect(budgetOf({ period: "MONTHLY", maxTokens: "", maxCostUsd: "$12.50" })).toEqual({ period: "MONTHLY", maxTokens: null, maxCostUsd: 12.5 });
    expect(budgetOf({ period: "DAILY", maxTokens: "", maxCostUsd: "" })).toHaveProperty("error");
    expect(budgetOf({ period: "DAILY", maxTokens: "-5", maxCostUsd: "" })).toHaveProperty("error");
    expect(budgetOf({ period: "DAILY", maxTokens: "1.5", maxCostUsd: "" })).toHaveProperty("error");
    expect(budgetOf({ period: "DAILY", maxTokens: "", maxCostUsd: "free" })).toHaveProperty("error");
  });

  it("measures a budget by its tighter limit", () => {
    const budget = { maxTokens: 1000, maxCostUsd: 10, usedTokens: 250, usedCostUsd: 8 };
    expect(usedShare(budget)).toBe(80);
    expect(usedShare({ maxTokens: 1000, usedTokens: 1050, usedCostUsd: 0 })).toBe(100);
    expect(budgetText(budget)).toBe("250 of 1,000 tokens · $8.00 of $10.00");
  });
});
