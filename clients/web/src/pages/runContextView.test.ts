import { describe, expect, it } from "vitest";
import type { ContextItemKind } from "../gql/graphql";
import {
  askAgain,
  inclusionNote,
  itemTitle,
  itemsSummary,
  kindLabel,
  noContextNote,
  prettyBundle,
  redactionNote,
  tokenCount,
  tokensOfBudget,
} from "./runContextView";

describe("an item's kind", () => {
  it("is said in words", () => {
    const kinds: ContextItemKind[] = ["OBJECTIVE", "ACCEPTANCE_CRITERION", "DESCRIPTION", "MEMORY", "EARLIER_RUN"];
    expect(kinds.map(kindLabel)).toEqual(["Objective", "Acceptance criterion", "Description", "Memory", "Earlier run"]);
  });

  it("is shown as the server named it when the client does not know it yet", () => {
    expect(kindLabel("SKILL" as ContextItemKind)).toBe("SKILL");
  });
});

describe("an item's title", () => {
  it("is left out where it only names the kind again", () => {
    expect(itemTitle({ kind: "OBJECTIVE", title: "Objective" })).toBeNull();
    expect(itemTitle({ kind: "ACCEPTANCE_CRITERION", title: "Acceptance criterion" })).toBeNull();
    expect(itemTitle({ kind: "DESCRIPTION", title: "Task description" })).toBeNull();
    expect(itemTitle({ kind: "MEMORY", title: "  " })).toBeNull();
  });

  it("is shown where it says which one", () => {
    expect(itemTitle({ kind: "MEMORY", title: "database rotation" })).toBe("database rotation");
    expect(itemTitle({ kind: "MEMORY", title: "Memory limits of the build host" })).toBe("Memory limits of the build host");
    expect(itemTitle({ kind: "EARLIER_RUN", title: "Run of 2025-03-01 10:42 UTC" })).toBe("Run of 2025-03-01 10:42 UTC");
  });
});

describe("tokens", () => {
  it("are counted with thousands separators, one in the singular", () => {
    expect(tokenCount(0)).toBe("0 tokens");
    expect(tokenCount(1)).toBe("1 token");
    expect(tokenCount(1234)).toBe("1,234 tokens");
  });

  it("of the budget say how much the context took", () => {
    expect(tokensOfBudget(1234, 8000)).toBe("1,234 of 8,000 tokens");
    expect(tokensOfBudget(0, 256)).toBe("0 of 256 tokens");
    expect(tokensOfBudget(200_000, 200_000)).toBe("200,000 of 200,000 tokens");
  });
});

describe("what went to the agent", () => {
  it("says of each item whether it was included or left out for the budget", () => {
    expect(inclusionNote({ included: true })).toBe("included");
    expect(inclusionNote({ included: false })).toBe("left out for the budget");
  });

  it("sums up the items and how many were left out", () => {
    expect(itemsSummary([{ included: true }])).toBe("1 item offered, all included");
    expect(itemsSummary([{ included: true }, { included: false }, { included: true }])).toBe("3 items offered, 1 left out for the budget");
    expect(itemsSummary([])).toBe("0 items offered, all included");
  });

  it("counts the secrets redacted, and says nothing when there were none", () => {
    expect(redactionNote(0)).toBeNull();
    expect(redactionNote(1)).toBe("1 secret redacted");
    expect(redactionNote(2)).toBe("2 secrets redacted");
  });

  it("shows the bundle as indented JSON, whatever it holds", () => {
    expect(prettyBundle({ objective: "Deploy", budget: { tokens: 8000 } })).toBe(
      '{\n  "objective": "Deploy",\n  "budget": {\n    "tokens": 8000\n  }\n}',
    );
    expect(JSON.parse(prettyBundle({ a: [1, "two"] }))).toEqual({ a: [1, "two"] });
    expect(prettyBundle(null)).toBe("null");
    expect(prettyBundle(undefined)).toBe("null");
  });
});

describe("a run without a context", () => {
  it("gets one at its first dispatch, unless it ended before", () => {
    expect(noContextNote({ ended: false, attempts: 0 })).toBe("Built when the run is first dispatched.");
    expect(noContextNote({ ended: true, attempts: 0 })).toBe("None: the run ended before it was dispatched.");
    expect(noContextNote({ ended: true, attempts: 1 })).toBe("Built when the run is first dispatched.");
  });

  it("is asked for again once its status moved on from the queue", () => {
    const none = { runContext: null };
    expect(askAgain(none, "QUEUED", "DISPATCHING")).toBe(true);
    expect(askAgain(none, "DISPATCHING", "RUNNING")).toBe(true);
    expect(askAgain(none, "BLOCKED", "HANDOFF_READY")).toBe(true);
    // Not while nothing changed, nor while it still waits in the queue.
    expect(askAgain(none, "RUNNING", "RUNNING")).toBe(false);
    expect(askAgain(none, "BLOCKED", "QUEUED")).toBe(false);
  });

  it("is not asked for again before the first answer, nor once it is there", () => {
    expect(askAgain(undefined, "QUEUED", "RUNNING")).toBe(false);
    expect(askAgain({ runContext: { runId: "r1" } }, "QUEUED", "RUNNING")).toBe(false);
  });
});
