import { describe, expect, it } from "vitest";
import { CombinedError } from "urql";
import { GraphQLError } from "graphql";
import {
  agentScope,
  changedMeanwhile,
  foundBy,
  personName,
  readSearch,
  searchAddress,
  searchMode,
  searchVariables,
  versionState,
  writeOutcome,
  type MemorySearch,
} from "./memoryView";

const NONE: MemorySearch = { scopeId: null, query: "", kinds: [], verification: [], asOf: "" };

describe("a memory search", () => {
  it("is kept in the page's address and read back from it", () => {
    const search: MemorySearch = {
      scopeId: "p1",
      query: "deploy target",
      kinds: ["FACT", "DECISION"],
      verification: ["VERIFIED"],
      asOf: "2026-11-30T09:15",
    };
    const address = searchAddress(search);
    expect(address).toBe("/memory?scope=p1&q=deploy+target&kind=FACT&kind=DECISION&verification=VERIFIED&as-of=2026-11-30T09%3A15");
    expect(readSearch(address.slice("/memory".length))).toEqual(search);
  });

  it("leaves out of the address what is not set, and ignores what is not a kind or state", () => {
    expect(searchAddress({ ...NONE, query: "  " })).toBe("/memory");
    expect(readSearch("?kind=FACT&kind=GOSSIP&verification=MAYBE")).toEqual({ ...NONE, kinds: ["FACT"] });
  });

  it("asks for the words typed, of the kinds and states ticked", () => {
    expect(searchVariables({ ...NONE, query: " deploy target ", kinds: ["LESSON"], verification: ["VERIFIED", "RETRACTED"] }, "p1")).toEqual({
      scopeId: "p1",
      query: "deploy target",
      kinds: ["LESSON"],
      verification: ["VERIFIED", "RETRACTED"],
      asOf: null,
    });
  });

  it("asks for memory as it stood at the local time chosen, as an instant", () => {
    const local = "2026-11-30T09:15";
    expect(searchVariables({ ...NONE, asOf: local }, "p1").asOf).toBe(new Date(local).toISOString());
    expect(searchVariables({ ...NONE, asOf: "2026-13-45T99:99" }, "p1").asOf).toBeNull();
  });

  it("asks for the most recently changed, of every kind and all but retracted, when nothing is typed or ticked", () => {
    expect(searchVariables(NONE, "w1")).toEqual({ scopeId: "w1", query: null, kinds: null, verification: null, asOf: null });
  });

  it("treats a query without a letter or digit as none, since the server would refuse it", () => {
    expect(searchVariables({ ...NONE, query: "?! --" }, "w1").query).toBeNull();
    expect(searchVariables({ ...NONE, query: "déploiement" }, "w1").query).toBe("déploiement");
    expect(searchVariables({ ...NONE, query: "#42" }, "w1").query).toBe("#42");
  });
});

describe("a hit", () => {
  it("says what found it, words first", () => {
    expect(foundBy(["VECTOR", "FULL_TEXT"])).toBe("words and meaning");
    expect(foundBy(["FULL_TEXT"])).toBe("words");
    expect(foundBy(["VECTOR"])).toBe("meaning");
  });

  it("says nothing of it when nothing was searched for", () => {
    expect(foundBy([])).toBeNull();
  });

  it("comes from a search by words and meaning once the model is loaded, by words only before", () => {
    expect(searchMode("HYBRID")).toBe("words and meaning");
    expect(searchMode("FULL_TEXT_ONLY")).toBe("words only");
  });
});

describe("an entry's history", () => {
  const open = { proposedVersionId: "v3", status: "OPEN" as const };
  const decided = { proposedVersionId: "v2", status: "RESOLVED" as const };

  it("tells the current version, one that stood before it, and a proposal waiting in an open conflict", () => {
    expect(versionState({ id: "v4", becameCurrentAt: "2026-12-05T10:00:00Z" }, "v4", [open])).toBe("current");
    expect(versionState({ id: "v1", becameCurrentAt: "2026-12-04T10:00:00Z" }, "v4", [open])).toBe("replaced");
    expect(versionState({ id: "v3", becameCurrentAt: null }, "v4", [open, decided])).toBe("proposed");
  });

  it("tells a proposal decided against", () => {
    expect(versionState({ id: "v2", becameCurrentAt: null }, "v4", [open, decided])).toBe("not accepted");
  });

  it("names the reader as you, others by name when known", () => {
    const names = new Map([["u2", "Pat"]]);
    expect(personName("u1", "u1", names)).toBe("you");
    expect(personName("u2", "u1", names)).toBe("Pat");
    expect(personName("u3", "u1", names)).toBe("someone else");
    expect(personName(null, "u1", names)).toBeNull();
  });
});

describe("a write", () => {
  const write = { entry: { subject: "deploy target" }, version: { number: 2 }, conflict: null };

  it("says its version is current when it stands", () => {
    expect(writeOutcome(write)).toEqual({ conflict: false, message: "Written: version 2 of “deploy target” is current." });
  });

  it("says it opened a conflict instead of replacing the current version", () => {
    const outcome = writeOutcome({ ...write, conflict: { id: "c1" } });
    expect(outcome.conflict).toBe(true);
    expect(outcome.message).toMatch(/^“deploy target” already has a current version, so this write did not replace it: it waits as proposed version 2/);
  });
});

describe("a change refused", () => {
  const error = (code: string) => new CombinedError({ graphQLErrors: [new GraphQLError("revision 3 expected, 4 current", { extensions: { code } })] });

  it("is told apart when the entry changed since it was read", () => {
    expect(changedMeanwhile(error("CONFLICT"))).toBe(true);
  });

  it("and not for any other failure, nor for success", () => {
    expect(changedMeanwhile(error("INVALID_TRANSITION"))).toBe(false);
    expect(changedMeanwhile(new CombinedError({ networkError: new Error("down") }))).toBe(false);
    expect(changedMeanwhile(undefined)).toBe(false);
  });
});

describe("where a hit is kept", () => {
  const scopes = [
    { id: "w1", label: "Workspace: Platform", path: ["o1", "w1"] },
    { id: "a1", label: "Agent · builder", path: ["o1", "w1"] },
  ];

  it("is the agent's name for an agent's own memory", () => {
    expect(agentScope({ scopeKind: "AGENT", scopeId: "a1" }, scopes)).toBe("Agent · builder");
  });

  it("is left to the scope's kind otherwise, and for an agent not listed", () => {
    expect(agentScope({ scopeKind: "WORKSPACE", scopeId: "w1" }, scopes)).toBeNull();
    expect(agentScope({ scopeKind: "AGENT", scopeId: "a2" }, scopes)).toBeNull();
  });
});
