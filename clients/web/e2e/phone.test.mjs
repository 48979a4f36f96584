// The pages in a hand, in headless Chromium against a real `acc` and `acc-connector`, at phone
// (390×844) and desktop (1440×900) widths: a one-line header whose menu holds the navigation and
// the account; tables that become labelled lists; a task's Start run on its first screen; notices
// that never cover a run's log; and an approval decided from its system notification — the
// service worker's handler opens the request with the decision chosen, one tap confirms it.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CAREFUL,
  SAVER,
  WIDTHS,
  assertFitsPhone,
  followMenu,
  screenshot,
  serverForTests,
  subscribedTo,
  until,
} from "./harness.mjs";

const WAIT = { timeout: 30_000 };

const suite = serverForTests(CAREFUL + SAVER);
const { startRun, runStatus, runUntil, approvalsOf, cancelRun, signedIn } = suite;

/** Where `locator` is drawn in the window. */
const box = (locator) => locator.evaluate((el) => el.getBoundingClientRect().toJSON());

test("phone: the header is one line; its menu holds the navigation and the account, and Escape folds it", { timeout: 60_000 }, async () => {
  const page = await signedIn("phone");
  await page.getByRole("heading", { name: "Home" }).waitFor(WAIT);
  const header = page.locator("header.top");
  const menu = page.getByRole("button", { name: "Menu" });
  assert.ok((await box(header)).height <= 64, `a one-line header (${(await box(header)).height}px)`);
  assert.equal(await page.getByRole("button", { name: "Sign out" }).isVisible(), false, "the account is in the menu");
  assert.equal(await page.locator("#nav").isVisible(), false, "the navigation is in the menu");
  await screenshot(page, "phone-header");

  await menu.click();
  await page.getByRole("button", { name: "Sign out" }).waitFor(WAIT);
  assert.equal(await menu.getAttribute("aria-expanded"), "true");
  await screenshot(page, "phone-menu-open");
  await page.locator("#nav").getByRole("link", { name: "Agents" }).focus();
  await page.keyboard.press("Escape");
  await page.locator("#nav").waitFor({ state: "hidden", ...WAIT });
  assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), "Menu", "the focus is back on the Menu button");

  // A link followed folds it too.
  await followMenu(page, "Agents");
  await page.getByRole("heading", { name: "Agents and connectors" }).waitFor(WAIT);
  await page.locator("#nav").waitFor({ state: "hidden", ...WAIT });
});

test("desktop: the navigation and the account are in the header, with no menu button", { timeout: 60_000 }, async () => {
  const page = await signedIn("desktop");
  await page.getByRole("heading", { name: "Home" }).waitFor(WAIT);
  await page.getByRole("button", { name: "Sign out" }).waitFor(WAIT);
  assert.equal(await page.locator("#nav").isVisible(), true);
  assert.equal(await page.getByRole("button", { name: "Menu" }).isVisible(), false);
});

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: tables are tables on a desktop and labelled lists on a phone`, { timeout: 60_000 }, async () => {
    const page = await signedIn(width, "/sessions");
    const row = page.locator("tr", { hasText: "this device" });
    await row.waitFor(WAIT);
    const header = page.getByRole("columnheader", { name: "Device" });
    const cells = row.locator("td");
    const first = await box(cells.nth(0));
    const second = await box(cells.nth(1));
    // What a person reads before each value: the column above it, or its label beside it.
    const label = await cells.nth(1).evaluate((td) => getComputedStyle(td, "::before").content);
    if (width === "phone") {
      // Left for screen readers only: a pixel, clipped.
      assert.ok((await box(page.locator(".listing thead"))).height <= 1, "no column headings on a phone");
      assert.ok(second.top >= first.bottom - 1, "cells one under the other");
      assert.equal(label, '"Address"', "each value labelled");
      await assertFitsPhone(page, "sessions");
    } else {
      assert.equal(await header.isVisible(), true);
      assert.equal(second.top, first.top, "cells side by side");
      assert.equal(label, "none");
    }
    // Still a table to assistive technology.
    await page.getByRole("cell", { name: /this device/ }).waitFor(WAIT);
    await screenshot(page, `${width}-sessions`);

    await page.goto(`${suite.server.url}/agents`);
    const agent = page.locator('tr[data-agent="careful"]');
    await agent.getByText("Online").waitFor(WAIT);
    await screenshot(page, `${width}-agents`);
    if (width === "phone") await assertFitsPhone(page, "agents");
  });

  test(`${width}: a task's Start run is on its first screen`, { timeout: 60_000 }, async () => {
    // Real tasks have a description and criteria: they must not push the action off the screen.
    const { node } = await suite.api("query($id: ID!) { node(id: $id) { ... on Task { revision } } }", { id: suite.ids.task });
    await suite.api("mutation($i: UpdateTaskInput!) { updateTask(input: $i) { id } }", {
      i: { id: suite.ids.task, expectedRevision: node.revision, description: "Build the site, upload it, and check that it answers.\n".repeat(6) },
    });
    const page = await signedIn(width, `/tasks/${suite.ids.task}`);
    const start = page.getByRole("button", { name: "Start run" });
    await start.waitFor(WAIT);
    const viewport = page.viewportSize();
    const drawn = await box(start);
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    assert.ok(drawn.bottom <= viewport.height, `Start run is on the first screen (its bottom at ${drawn.bottom}px of ${viewport.height})`);
    await screenshot(page, `${width}-task-first-screen`);
  });

  test(`${width}: a notice never covers the run's log`, { timeout: 90_000 }, async () => {
    const running = await runUntil(suite.ids.saver, "RUNNING");
    const page = await signedIn(width, `/runs/${running}`);
    const log = page.locator(".event-scroller");
    await page.locator(".event", { hasText: "ready" }).waitFor(WAIT);
    // The log right under the header, as someone reading it has it.
    const header = await box(page.locator("header.top"));
    await page.evaluate((top) => {
      const scroller = document.querySelector(".event-scroller");
      window.scrollBy(0, scroller.getBoundingClientRect().top - top);
    }, header.bottom);

    // An agent asks elsewhere: the notice shows, and the log moves down rather than under it.
    const asking = await startRun(suite.ids.careful);
    const toast = page.locator(".toast", { hasText: "Approval requested" });
    await toast.waitFor(WAIT);
    const notice = await box(toast);
    const shown = await box(log);
    assert.ok(notice.bottom <= shown.top, `the notice (to ${notice.bottom}px) ends above the log (from ${shown.top}px)`);
    const under = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest(".event-scroller") !== null, {
      x: shown.left + 20,
      y: shown.top + 10,
    });
    assert.ok(under, "the log's first line is what is drawn there");
    await screenshot(page, `${width}-run-notice`);
    if (width === "phone") await assertFitsPhone(page, "the run with a notice");
    await cancelRun(asking);
    await cancelRun(running);
  });
}

for (const [width, choice] of [
  ["phone", "approve"],
  ["desktop", "deny"],
]) {
  test(`${width}: an approval is decided from its notification — ${choice}, then one confirming tap`, { timeout: 90_000 }, async () => {
    // The page notifies the system only while hidden: it is, for this test.
    const page = await signedIn(width, `/projects/${suite.ids.project}`, { permissions: ["notifications"] });
    await page.evaluate(() => {
      Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    });
    await page.evaluate(() => navigator.serviceWorker.ready);
    const worker = page.context().serviceWorkers()[0] ?? (await page.context().waitForEvent("serviceworker"));
    // The page hears of the request live: a request made before it listens is never announced.
    await subscribedTo(page, "approvalUpdated");

    const run = await startRun(suite.ids.careful);
    const shown = await until(() =>
      worker.evaluate(async () => {
        const [notification] = await self.registration.getNotifications();
        return notification && { title: notification.title, body: notification.body, actions: notification.actions.map((a) => a.title) };
      }),
    );
    assert.deepEqual(shown, {
      title: "Approval requested",
      body: "careful wants to run “deploy the site” (Deploy the site)",
      actions: ["Approve", "Deny"],
    });
    const [approval] = await approvalsOf(run);

    // The tap, through the service worker's own handler. It cannot focus the window outside a
    // real tap, which is all that fails here; the open page was asked to go to the request.
    await worker.evaluate(async (action) => {
      const [notification] = await self.registration.getNotifications();
      await openFromNotification(notification, action).catch((e) => {
        if (e.name !== "InvalidAccessError") throw e;
      });
    }, choice);
    await page.waitForURL((url) => url.pathname === "/approvals" && url.search === `?approval=${encodeURIComponent(approval.id)}&decision=${choice}`, WAIT);
    const card = page.locator(`.approval[data-approval-id="${approval.id}"]`);
    const word = choice === "approve" ? "Approve" : "Deny";
    await card.getByTestId("chosen-decision").getByText(`You chose ${word} in a notification`).waitFor(WAIT);
    // Nothing is decided until the tap in the app.
    assert.equal((await approvalsOf(run))[0].status, "PENDING");
    const confirm = card.getByRole("button", { name: word });
    await page.waitForFunction((w) => document.activeElement?.textContent === w, word, WAIT);
    await screenshot(page, `${width}-approval-from-notification`);
    await confirm.click();
    await until(async () => (await approvalsOf(run))[0].status === (choice === "approve" ? "APPROVED" : "DENIED"));
    await page.waitForURL((url) => url.pathname === "/approvals" && url.search === "", WAIT);
    await page.getByTestId("approvals-empty").waitFor(WAIT);
    // The agent got the decision and went on to its end.
    await until(async () => (await runStatus(run)) === "SUCCEEDED");
    // Decided: its notification is gone. In headless Chromium it leaves the worker's list about
    // 25 s after the decision (measured here, before and after the push handler came), so this
    // waits longer than the rest.
    await until(() => worker.evaluate(async () => (await self.registration.getNotifications()).length === 0), 60_000);
  });
}

test("a request opened from a notification after it was decided says so", { timeout: 60_000 }, async () => {
  const run = await runUntil(suite.ids.careful, "WAITING_APPROVAL");
  const [approval] = await approvalsOf(run);
  await suite.api('mutation($a: ID!) { decideApproval(approvalId: $a, decision: APPROVE, reason: "elsewhere") { id } }', { a: approval.id });
  const page = await signedIn("phone", `/approvals?approval=${encodeURIComponent(approval.id)}&decision=deny`);
  await page.getByTestId("approval-gone").getByText(/no longer waits for a decision/).waitFor(WAIT);
  assert.equal(await page.getByRole("button", { name: "Deny" }).count(), 0);
  await screenshot(page, "phone-approval-gone");
});
