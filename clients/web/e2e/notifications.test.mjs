// Notifications in headless Chromium against a real `acc` and `acc-connector`: an agent asks for a
// decision, and the bell says so without a reload; opening the notification leads to the
// approvals and marks it read. A failed run of the person's own is told too. On the notifications
// page a person chooses which kinds also come by email and push; the service worker shows a push
// message as a notification that opens what it is about.
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

test("a person chooses which kinds also come by email and push, and the choice stays", { timeout: 120_000 }, async () => {
  const page = await suite.signedIn("phone", "/notifications");
  await page.getByRole("heading", { name: "By email and push" }).waitFor(WAIT);
  // This server has no SMTP relay: it says so, and the choices still hold for when it has one.
  await page.getByText("This server sends no email yet").waitFor(WAIT);
  await page.getByText("Push reaches 0 of your browsers.").waitFor(WAIT);
  const decisions = page.getByRole("checkbox", { name: "Email: A decision waits for you" });
  const failures = page.getByRole("checkbox", { name: "Email: A run you started failed" });
  const pushedFailures = page.getByRole("checkbox", { name: "Push: A run you started failed" });
  assert.equal(await decisions.isChecked(), true, "on by default");
  await decisions.uncheck();
  await pushedFailures.uncheck();
  const chosen = async () => {
    const { notificationSettings } = await suite.api("{ notificationSettings { preferences { kind channel enabled } } }");
    const off = notificationSettings.preferences.filter((p) => !p.enabled).map((p) => `${p.kind}:${p.channel}`);
    return off.length === 2 && off.sort().join(",") === "APPROVAL_WAITING:EMAIL,RUN_FAILED:PUSH";
  };
  await until(chosen);
  // The page first shows this device's offline copy, which may predate the last choice; what
  // counts is what it shows once the server has answered the reloaded page's question.
  await page.reload({ waitUntil: "commit" });
  await page.waitForResponse((r) => new URL(r.url()).searchParams.get("query")?.startsWith("query NotificationsPage"));
  await until(async () => (await decisions.isChecked()) === false, 5_000).catch(() => assert.fail("not kept across a reload"));
  assert.equal(await pushedFailures.isChecked(), false);
  assert.equal(await failures.isChecked(), true, "the other kinds as they were");
  await assertAccessible(page, "the notifications page");
  await screenshot(page, "notification-settings");
});

test("a push message becomes a notification that opens what it is about", { timeout: 120_000 }, async () => {
  // The browser's push service cannot be reached here: the message is handed to the service
  // worker as Chromium's push service would (DevTools protocol), shaped as acc sends it.
  const page = await suite.signedIn("desktop", "/notifications", { permissions: ["notifications"] });
  await page.evaluate(() => navigator.serviceWorker.ready);
  const worker = page.context().serviceWorkers()[0] ?? (await page.context().waitForEvent("serviceworker"));
  const devtools = await page.context().newCDPSession(page);
  const registered = new Promise((found) =>
    devtools.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const live = registrations.find((r) => !r.isDeleted);
      if (live) found(live.registrationId);
    }),
  );
  await devtools.send("ServiceWorker.enable");
  const registrationId = await registered;
  const origin = new URL(page.url()).origin;
  const message = { id: "n1", title: "A decision waits for you", body: "deploy the site", href: "/approvals", kind: "approval_waiting" };
  await devtools.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify(message) });
  const shown = await until(() =>
    worker.evaluate(async () => {
      const [notification] = await self.registration.getNotifications();
      return notification && { title: notification.title, body: notification.body, href: notification.data.href };
    }),
  );
  assert.deepEqual(shown, { title: "A decision waits for you", body: "deploy the site", href: "/approvals" });
  // A message that would send the app elsewhere opens the app's own first page instead.
  const sneaky = { ...message, id: "n2", title: "Elsewhere", href: "//evil.example/phish" };
  await devtools.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify(sneaky) });
  const elsewhere = await until(() =>
    worker.evaluate(async () => (await self.registration.getNotifications()).find((n) => n.title === "Elsewhere")?.data.href),
  );
  assert.equal(elsewhere, "/");
  // A tap opens what it is about, through the worker's own handler.
  await worker.evaluate(async () => {
    const [notification] = (await self.registration.getNotifications()).filter((n) => n.title !== "Elsewhere");
    await openFromNotification(notification, "open").catch((e) => {
      if (e.name !== "InvalidAccessError") throw e;
    });
  });
  await page.waitForURL((url) => url.pathname === "/approvals", WAIT);
});
