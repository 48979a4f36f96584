// The app from a keyboard, in headless Chromium against a real `acc` and `acc-connector`:
// shortcuts go to pages, search and create (on a board, Workspaces and Memory), and `?` lists
// them; keys typed into a field stay there; the command palette (Ctrl K, or its button in the
// menu on a phone) jumps to a page, a project, a task or a run; and after an action the focus
// stays where the person was — on the next approval once one is decided, on a card moved to
// another column, on what the run offers once it is cancelled, in the Memory search once it ran.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  CAREFUL,
  SAVER,
  WIDTHS,
  screenshot,
  serverForTests,
  until,
} from "./harness.mjs";

const WAIT = { timeout: 30_000 };

const suite = serverForTests(CAREFUL + SAVER);
const { runStatus, runUntil, signedIn } = suite;

/** What has the focus, as a person would point at it. */
const focused = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return {
      tag: el?.tagName.toLowerCase(),
      text: el?.textContent?.trim().slice(0, 60),
      label: el?.getAttribute("aria-label") ?? el?.getAttribute("placeholder"),
      approval: el?.closest("[data-approval-id]")?.getAttribute("data-approval-id") ?? null,
      task: el?.closest("[data-task-id]")?.getAttribute("data-task-id") ?? null,
      column: el?.closest("[data-status]")?.getAttribute("data-status") ?? null,
      actions: el?.closest('[data-testid="run-actions"]') !== null,
    };
  });

async function focusIs(page, check, what) {
  await page.waitForFunction(() => document.activeElement && document.activeElement !== document.body, null, WAIT).catch(() => {});
  await until(async () => check(await focused(page)), 10_000).catch(async () => assert.fail(`${what}: the focus is on ${JSON.stringify(await focused(page))}`));
}

test("desktop: shortcuts go to pages, search and create; ? lists them; keys in a field stay there", { timeout: 60_000 }, async () => {
  const page = await signedIn("desktop");
  await page.getByRole("heading", { name: "Home" }).waitFor(WAIT);

  await page.keyboard.press("?");
  const list = page.getByTestId("shortcut-list");
  await list.getByText("Go to Approvals").waitFor(WAIT);
  await screenshot(page, "shortcut-list");
  await page.keyboard.press("Escape");
  await list.waitFor({ state: "detached", ...WAIT });

  await page.keyboard.type("ga");
  await page.getByRole("heading", { name: "Approvals" }).waitFor(WAIT);
  await page.keyboard.type("gw");
  await page.getByRole("heading", { name: "Workspaces" }).waitFor(WAIT);

  // n: the new workspace's name; what is typed there is a name, not a shortcut.
  await page.keyboard.press("n");
  await focusIs(page, (f) => f.label === "Workspace name", "n on Workspaces");
  await page.keyboard.type("gh?");
  assert.equal(await page.getByLabel("Workspace name").inputValue(), "gh?");
  assert.equal(new URL(page.url()).pathname, "/workspaces");
  assert.equal(await page.getByTestId("shortcut-list").count(), 0);

  // On a board, / searches its tasks.
  await page.getByRole("link", { name: "Website" }).click();
  await page.locator(".task-card").first().waitFor(WAIT);
  await page.locator("body").click({ position: { x: 5, y: 300 } });
  await page.keyboard.press("/");
  await focusIs(page, (f) => f.label === "Search tasks", "/ on the board");
  await page.keyboard.type("deploy");
  await page.getByTestId("board-filtered").waitFor(WAIT);
  await page.keyboard.press("Escape");
  await page.locator("body").click({ position: { x: 5, y: 300 } });

  // On Memory, / searches it, and the focus stays in the field once it has; n starts an entry.
  await page.keyboard.type("gm");
  await page.getByRole("heading", { name: "Memory", exact: true }).waitFor(WAIT);
  await page.keyboard.press("/");
  await focusIs(page, (f) => f.label === "Search memory", "/ on Memory");
  await page.keyboard.type("deploy");
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "Found for “deploy”" }).waitFor(WAIT);
  await focusIs(page, (f) => f.label === "Search memory", "after searching memory");
  await page.locator("body").click({ position: { x: 5, y: 300 } });
  await page.keyboard.press("n");
  await focusIs(page, (f) => f.label === "What it is about", "n on Memory");
  await page.locator("body").click({ position: { x: 5, y: 300 } });
  await page.keyboard.type("gh");
  await page.getByRole("heading", { name: "Home" }).waitFor(WAIT);
});

test("desktop: the command palette jumps to a project, a task and a run", { timeout: 60_000 }, async () => {
  const run = await runUntil(suite.ids.saver, "RUNNING");
  const page = await signedIn("desktop");
  await page.getByRole("heading", { name: "Home" }).waitFor(WAIT);
  const palette = page.getByTestId("palette");
  const input = palette.getByRole("combobox");

  await page.keyboard.press("Control+k");
  await focusIs(page, (f) => f.tag === "input" && f.label?.startsWith("Jump to"), "the palette's field");
  await input.fill("website");
  await palette.getByRole("option", { name: /Project Website/ }).waitFor(WAIT);
  await screenshot(page, "palette-project");
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "Website" }).waitFor(WAIT);
  await palette.waitFor({ state: "detached", ...WAIT });

  // Tasks are found by the server as their title is typed; arrows choose among what is found.
  await page.keyboard.press("Control+k");
  await input.fill("deploy the");
  const task = palette.getByRole("option", { name: /^Task Deploy the site/ });
  await task.waitFor(WAIT);
  const options = await palette.getByRole("option").allTextContents();
  const index = options.findIndex((o) => o.startsWith("Task"));
  for (let i = 0; i < index; i++) await page.keyboard.press("ArrowDown");
  assert.equal(await task.getAttribute("aria-selected"), "true");
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { name: "Deploy the site" }).waitFor(WAIT);
  assert.match(new URL(page.url()).pathname, new RegExp(`^/tasks/`));

  await page.keyboard.press("Control+k");
  await input.fill("run running");
  await palette.getByRole("option", { name: /^Run Deploy the site · Running/ }).click();
  await page.waitForURL((url) => url.pathname === `/runs/${run}`, WAIT);

  // Escape leaves it with the focus where it was.
  await page.getByRole("button", { name: "Checkpoint" }).focus();
  await page.keyboard.press("Control+k");
  await input.waitFor(WAIT);
  await page.keyboard.press("Escape");
  await palette.waitFor({ state: "detached", ...WAIT });
  await focusIs(page, (f) => f.text === "Checkpoint", "after the palette is closed");
  await suite.api("mutation($r: ID!) { cancelRun(runId: $r) { id } }", { r: run });
});

test("phone: the palette opens from the menu and jumps where it is tapped", { timeout: 60_000 }, async () => {
  const page = await signedIn("phone");
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("button", { name: /^Jump to/ }).click();
  const palette = page.getByTestId("palette");
  await palette.getByRole("combobox").fill("approvals");
  await screenshot(page, "phone-palette");
  await palette.getByRole("option", { name: /Page Approvals/ }).click();
  await page.getByRole("heading", { name: "Approvals" }).waitFor(WAIT);
});

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: after deciding an approval the focus is on the next one, then on the empty inbox`, { timeout: 90_000 }, async () => {
    const first = await runUntil(suite.ids.careful, "WAITING_APPROVAL");
    const second = await runUntil(suite.ids.careful, "WAITING_APPROVAL");
    const page = await signedIn(width, "/approvals");
    const cards = page.locator(".approval");
    await until(async () => (await cards.count()) === 2);
    const [one, two] = await cards.evaluateAll((els) => els.map((el) => el.getAttribute("data-approval-id")));

    await cards.first().getByRole("button", { name: "Approve" }).focus();
    await page.keyboard.press("Enter");
    await page.locator(`[data-approval-id="${one}"]`).waitFor({ state: "detached", ...WAIT });
    await focusIs(page, (f) => f.approval === two, "after the first decision");
    await screenshot(page, `${width}-focus-next-approval`);

    // From the card, on with the keyboard: the reason, then Deny.
    await page.keyboard.press("Tab");
    for (let i = 0; i < 5 && (await focused(page)).text !== "Deny"; i++) await page.keyboard.press("Tab");
    assert.equal((await focused(page)).text, "Deny");
    await page.keyboard.press("Enter");
    await page.getByTestId("approvals-empty").waitFor(WAIT);
    await focusIs(page, (f) => f.text === "Nothing waits for a decision.", "after the last decision");
    // Both decisions reached their runs.
    for (const run of [first, second]) await until(async () => (await runStatus(run)) !== "WAITING_APPROVAL");
  });
}

test("desktop: a card moved with its status menu keeps the focus in its new column", { timeout: 60_000 }, async () => {
  const page = await signedIn("desktop", `/projects/${suite.ids.project}`);
  const card = page.locator(`.task-card[data-task-id="${suite.ids.task}"]`);
  const menu = card.getByLabel(/^Status of/);
  await menu.waitFor(WAIT);
  const from = await card.evaluate((el) => el.closest("[data-status]").getAttribute("data-status"));
  const to = from === "BLOCKED" ? "TODO" : "BLOCKED";
  await menu.focus();
  await menu.selectOption(to);
  await page.locator(`.column[data-status="${to}"] .task-card[data-task-id="${suite.ids.task}"]`).waitFor(WAIT);
  await focusIs(page, (f) => f.task === suite.ids.task && f.column === to && f.tag === "select", "after moving the card");
  await screenshot(page, "focus-moved-card");
});

test("desktop: a run cancelled from the keyboard leaves the focus on what it offers next", { timeout: 60_000 }, async () => {
  const run = await runUntil(suite.ids.saver, "RUNNING");
  const page = await signedIn("desktop", `/runs/${run}`);
  await page.getByTestId("run-status").getByText("Running").waitFor(WAIT);
  await page.getByRole("button", { name: "Cancel run" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Cancel this run?" });
  await dialog.waitFor(WAIT);
  // The safe choice has the focus; the next one cancels.
  await focusIs(page, (f) => f.text === "Keep it running", "in the confirmation");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await dialog.waitFor({ state: "hidden", ...WAIT });
  await page.getByTestId("run-status").getByText("Cancelled").waitFor(WAIT);
  await page.getByRole("button", { name: "Run again" }).waitFor(WAIT);
  // Still among the run's actions, whose next is a Tab away.
  await focusIs(page, (f) => f.actions, "after cancelling");
  if ((await focused(page)).text !== "Run again") await page.keyboard.press("Tab");
  assert.equal((await focused(page)).text, "Run again");
});
