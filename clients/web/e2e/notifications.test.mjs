// Notifications in headless Chromium against a real `acc` and `acc-connector`: an agent asks for a
// decision, and the bell says so without a reload; opening the notification leads to the
// approvals and marks it read. A failed run of the person's own is told too. On the notifications
// page a person chooses which kinds also come by email.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CAREFUL, FAILING, assertAccessible, screenshot, serverForTests, until } from "./harness.mjs";

const WAIT = { timeout: 30_000 };
const suite = serverForTests(CAREFUL + FAILING);

test("the bell tells of a decision waiting and a failed run, live, and leads to them", { timeout: 120_000 }, async () => {
  const page = await suite.signedIn("desktop");
  const bell = page.getByTestId("bell");
  await bell.waitFor(WAIT);
  await suite.startRun(suite.ids.careful);
  await bell.getByText("(1 unread)").waitFor(WAIT);
  await bell.click();
  const panel = page.getByRole("region", { name: "Notifications" });
  const waiting = panel.locator('li[data-kind="APPROVAL_WAITING"]');
  await waiting.getByText("deploy the site").waitFor(WAIT);
  assert.equal(await waiting.getAttribute("data-read"), "false");
  await assertAccessible(page, "the notifications");
  await screenshot(page, "bell");
  await waiting.getByRole("link", { name: "A decision waits for you" }).click();
  await page.getByRole("heading", { name: "Approvals", exact: true }).waitFor(WAIT);
  await bell.getByText("(0 unread)").waitFor(WAIT);

  const failed = await suite.startRun(suite.ids.failing);
  await until(async () => (await suite.runStatus(failed)) === "FAILED");
  await bell.getByText("(1 unread)").waitFor(WAIT);
  await bell.click();
  await panel.locator('li[data-kind="RUN_FAILED"]').getByRole("link", { name: "A run you started failed" }).waitFor(WAIT);
  await panel.getByRole("button", { name: "Mark all read" }).click();
  await bell.getByText("(0 unread)").waitFor(WAIT);
  const { unreadNotificationCount } = await suite.api("{ unreadNotificationCount }");
  assert.equal(unreadNotificationCount, 0);
});

test("a person chooses which kinds also come by email, and the choice stays", { timeout: 120_000 }, async () => {
  const page = await suite.signedIn("phone", "/notifications");
  await page.getByRole("heading", { name: "By email" }).waitFor(WAIT);
  // This server has no SMTP relay: it says so, and the choices still hold for when it has one.
  await page.getByText("This server sends no email yet").waitFor(WAIT);
  const decisions = page.getByRole("checkbox", { name: "Email: A decision waits for you" });
  const failures = page.getByRole("checkbox", { name: "Email: A run you started failed" });
  assert.equal(await decisions.isChecked(), true, "on by default");
  await decisions.uncheck();
  await until(async () => {
    const { notificationSettings } = await suite.api("{ notificationSettings { preferences { kind channel enabled } } }");
    return notificationSettings.preferences.some((p) => p.kind === "APPROVAL_WAITING" && p.channel === "EMAIL" && !p.enabled);
  });
  await page.reload();
  await decisions.waitFor(WAIT);
  assert.equal(await decisions.isChecked(), false, "kept across a reload");
  assert.equal(await failures.isChecked(), true, "the other kinds as they were");
  await assertAccessible(page, "the notifications page");
  await screenshot(page, "notification-settings");
});
