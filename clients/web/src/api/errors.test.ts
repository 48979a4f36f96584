import { describe, expect, it } from "vitest";
import { CombinedError } from "urql";
import { GraphQLError } from "graphql";
import { OFFLINE_MESSAGE, describeError } from "./errors";

describe("describeError", () => {
  it("shows the code and correlation id of each GraphQL error", () => {
    const error = new CombinedError({
      graphQLErrors: [new GraphQLError("stale revision", { extensions: { code: "CONFLICT", correlationId: "c-1" } })],
    });
    expect(describeError(error)).toEqual([{ message: "stale revision", code: "CONFLICT", correlationId: "c-1" }]);
  });

  it("takes the correlation id from the response header when the error has none", () => {
    const response = new Response("", { status: 502, headers: { "X-Correlation-Id": "c-2" } });
    const error = new CombinedError({ networkError: new Error("Bad Gateway"), response });
    expect(describeError(error)[0]).toMatchObject({ code: "NETWORK", correlationId: "c-2" });
  });

  it("says plainly that an offline write was refused", () => {
    const error = new CombinedError({ networkError: new Error(OFFLINE_MESSAGE) });
    expect(describeError(error)[0]).toEqual({ message: OFFLINE_MESSAGE, code: "OFFLINE", correlationId: null });
  });

  it("says once what several fields of the request failed for alike", () => {
    const invalid = () => new GraphQLError("`nope` is not a valid id", { extensions: { code: "VALIDATION", correlationId: "c-3" } });
    const error = new CombinedError({ graphQLErrors: [invalid(), invalid()] });
    expect(describeError(error)).toEqual([{ message: "`nope` is not a valid id", code: "VALIDATION", correlationId: "c-3" }]);
  });
});
