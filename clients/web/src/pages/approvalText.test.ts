import { describe, expect, it } from "vitest";
import { describeApproval } from "./approvalText";

describe("what an approval asks", () => {
  it("names the agent, its action and the task of a run's action", () => {
    const text = describeApproval({
      id: "a1",
      subject: "RUN_ACTION",
      action: "deploy the site",
      run: { id: "r1", task: { id: "t1", title: "Website" }, agent: { name: "careful" } },
    });
    expect(text).toEqual({ who: "careful", asks: "wants to run “deploy the site”", about: "Website", href: "/tasks/t1" });
  });

  it("names the person, the revision and the page of a wiki publication", () => {
    const text = describeApproval({
      id: "a2",
      subject: "WIKI_PUBLICATION",
      action: "publish",
      requestedBy: { email: "ada@acme.test" },
      wikiRevision: { number: 3, title: "Leave policy", path: "hr/leave" },
      wikiPage: { id: "p1" },
    });
    expect(text).toEqual({
      who: "ada@acme.test",
      asks: "asks to publish revision 3 of “Leave policy”",
      about: "wiki page hr/leave",
      href: "/wiki/pages/p1",
    });
  });

  it("names the person and the activation of a skill with scripts", () => {
    const text = describeApproval({
      id: "a5",
      subject: "SKILL_ACTIVATION",
      action: "activate skill db-migrate version 1 with its scripts in this workspace",
      requestedBy: { email: "ops@acme.test" },
    });
    expect(text).toEqual({
      who: "ops@acme.test",
      asks: "asks to activate skill db-migrate version 1 with its scripts in this workspace",
      about: "skills",
      href: "/skills",
    });
  });

  it("still says something when what it is about can no longer be read", () => {
    expect(describeApproval({ id: "a3", subject: "WIKI_PUBLICATION", action: "publish" }).href).toBeNull();
    expect(describeApproval({ id: "a4", subject: "RUN_ACTION", action: "rm", run: null }).about).toBe("a run you can no longer read");
  });
});
