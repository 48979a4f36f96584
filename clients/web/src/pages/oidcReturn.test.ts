import { describe, expect, it } from "vitest";
import { oidcReturn } from "./oidcReturn";

describe("the return from an identity provider", () => {
  it("finishes with the provider's code, state and issuer and the tab's flow", () => {
    const back = oidcReturn("?code=c1&state=s1&iss=https%3A%2F%2Fidp.test", "acc_oidc_x");
    expect(back).toEqual({
      kind: "callback",
      callback: { flow: "acc_oidc_x", code: "c1", state: "s1", issuer: "https://idp.test" },
    });
  });

  it("says what the provider refused", () => {
    const back = oidcReturn("?error=access_denied&error_description=The+user+said+no&state=s1", "acc_oidc_x");
    expect(back).toEqual({ kind: "refused", reason: "The identity provider said: The user said no" });
  });

  it("does not finish a sign-in this tab did not begin", () => {
    const back = oidcReturn("?code=c1&state=s1", null);
    expect(back.kind).toBe("refused");
  });

  it("does not finish without a code", () => {
    expect(oidcReturn("?state=s1", "acc_oidc_x").kind).toBe("refused");
  });
});
