import { describe, expect, it } from "vitest";
import { approvalHref, approvalNotice, chosenInNotification, notificationHref } from "./notices";

const approval = {
  id: "a1",
  subject: "RUN_ACTION" as const,
  action: "deploy the site",
  run: { id: "r1", task: { id: "t1", title: "Website" }, agent: { name: "careful" } },
};

describe("an approval's notice", () => {
  it("names the agent, the action and the task, and leads to the request", () => {
    const notice = approvalNotice(approval);
    expect(notice.text).toBe("Approval requested: deploy the site (Website)");
    expect(notice.href).toBe("/approvals?approval=a1");
    expect(notice.system?.options.body).toBe("careful wants to run “deploy the site” (Website)");
  });

  it("offers Approve and Deny, each leading to the request with that choice, and stays until answered", () => {
    const { options } = approvalNotice(approval).system!;
    expect(options.actions?.map((a) => [a.action, a.title])).toEqual([
      ["approve", "Approve"],
      ["deny", "Deny"],
    ]);
    expect(options.data).toEqual({
      href: "/approvals?approval=a1",
      actions: { approve: "/approvals?approval=a1&decision=approve", deny: "/approvals?approval=a1&decision=deny" },
    });
    expect(options.tag).toBe("approval-a1");
    expect(options.requireInteraction).toBe(true);
  });
});

describe("the choice an address carries", () => {
  it("is the request and the decision chosen", () => {
    expect(chosenInNotification(new URL(approvalHref("a 1", "approve"), "http://x").search)).toEqual({ approvalId: "a 1", decision: "APPROVE" });
    expect(chosenInNotification("?approval=a1&decision=deny")).toEqual({ approvalId: "a1", decision: "DENY" });
  });

  it("is no decision when none or an unknown one was chosen", () => {
    expect(chosenInNotification("?approval=a1")).toEqual({ approvalId: "a1", decision: null });
    expect(chosenInNotification("?approval=a1&decision=APPROVE_ALL")).toEqual({ approvalId: "a1", decision: null });
    expect(chosenInNotification("")).toEqual({ approvalId: null, decision: null });
  });
});

describe("a notification of the bell", () => {
  it("leads to what it is about", () => {
    expect(notificationHref("RUN_FAILED", "r1")).toBe("/runs/r1");
    expect(notificationHref("APPROVAL_WAITING", "a1")).toBe("/approvals");
    expect(notificationHref("BUDGET_SPENT", "b1")).toBe("/usage");
    expect(notificationHref("BUDGET_WARNING", null)).toBe("/usage");
  });
});
