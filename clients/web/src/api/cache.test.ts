import { describe, expect, it } from "vitest";
import schema from "../gql/introspection";
import { QUERY_ROOT, keysFor } from "./cache";

describe("cache keys", () => {
  const keys = keysFor(schema);

  it("embeds every object type without an id", () => {
    for (const name of ["PageInfo", "TaskConnection", "RunAttempt", "Checkpoint", "AuthPayload", "EffectiveSetting"]) {
      expect(keys[name]?.({ __typename: name })).toBeNull();
    }
  });

  it("leaves types with an id to the default key, and gives events and settings their natural keys", () => {
    expect(keys.Task).toBeUndefined();
    expect(keys.TaskRun).toBeUndefined();
    expect(keys.RunEvent?.({ __typename: "RunEvent", runId: "r1", sequence: 7 })).toBe("r1:7");
    expect(keys.EffectiveSettings?.({ __typename: "EffectiveSettings", scopeId: "p1" })).toBe("p1");
  });

  it("knows the server's root type names", () => {
    expect(QUERY_ROOT).toBe("QueryRoot");
    expect(keys.QueryRoot).toBeUndefined();
  });
});
