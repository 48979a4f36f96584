import { describe, expect, it } from "vitest";
import { CombinedError } from "urql";
import { GraphQLError } from "graphql";
import { alreadyClosed } from "./Approvals";
import { enrollCommand } from "./Agents";

describe("enrollCommand", () => {
  it("is the connector's documented enroll command with the token in the environment", () => {
    expect(enrollCommand("https://acc.example.com", "acc_enroll_abc", "build-host-1")).toBe(
      "ACC_ENROLL_TOKEN=acc_enroll_abc acc-connector enroll --server https://acc.example.com --name build-host-1",
    );
  });
  it("quotes what the shell would split", () => {
    expect(enrollCommand("http://127.0.0.1:8080", "t", "Jo's laptop")).toBe(
      "ACC_ENROLL_TOKEN=t acc-connector enroll --server http://127.0.0.1:8080 --name 'Jo'\\''s laptop'",
    );
  });
});

describe("alreadyClosed", () => {
  const error = (code: string, details?: unknown) =>
    new CombinedError({ graphQLErrors: [new GraphQLError("the approval is already cancelled", { extensions: { code, details } })] });

  it("names the status a too-late decision found the approval in", () => {
    expect(alreadyClosed(error("CONFLICT", { status: "cancelled" }))).toBe("cancelled");
    expect(alreadyClosed(error("CONFLICT"))).toBe("decided");
  });

  it("leaves any other failure, and success, to the card", () => {
    expect(alreadyClosed(error("FORBIDDEN"))).toBeNull();
    expect(alreadyClosed(new CombinedError({ networkError: new Error("down") }))).toBeNull();
    expect(alreadyClosed(undefined)).toBeNull();
  });
});
