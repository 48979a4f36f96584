// Notifications in headless Chromium against a real `acc` and `acc-connector`: an agent asks for a
// decision, and the bell says so without a reload; opening the notification leads to the
// approvals and marks it read. A failed run of the person's own is told too.
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
