// Every page passes axe-core with no serious or critical violation, at desktop (1440×900) and
// phone (390×844) widths, in headless Chromium against a real `acc` and `acc-connector`: a new
// server's first page, sign-in,
// Home (while the server is being set up, and with an approval waiting), Workspaces, a board, a
// task (its artifacts' card too), a run waiting for approval, Approvals, Agents with an
// enrollment's steps, Memory and an entry with an open conflict, Settings, People, Sessions and
// an unknown address; and the open phone menu, the command palette and the shortcut list. On the
// phone, each page also fits its width.
import { test } from "node:test";
import {
  CAREFUL,
  OWNER,
  WIDTHS,
  assertAccessible,
  assertFitsPhone,
  screenshot,
  serverForTests,
  startServer,
  watch,
} from "./harness.mjs";

const WAIT = { timeout: 30_000 };

const suite = serverForTests(CAREFUL);

/** The run waiting for approval that the run page and the inbox show, started once. */
let waiting = null;
const runWaitingForApproval = async () => (waiting ??= await suite.runUntil(suite.ids.careful, "WAITING_APPROVAL"));

/**
 * A memory entry of the organization, where the Memory page stands first, with a contradicting
 * write waiting in an open conflict; written once.
 */
let contradicted = null;
const entryInConflict = async () => {
  if (contradicted) return contradicted;
  const { viewer } = await suite.api("{ viewer { organization { id } } }");
  const write = (content) =>
    suite.api("mutation($s: ID!, $c: String!) { writeMemory(input: { scopeId: $s, kind: FACT, subject: \"Deploy target\", content: $c }) { entry { id } } }", {
      s: viewer.organization.id,
      c: content,
    });
  await write("The site deploys to the eu-west-1 cluster.");
  contradicted = (await write("The site deploys to the us-east-2 cluster.")).writeMemory.entry.id;
  return contradicted;
};

test("a new server's first page, sign-in, and Home while the server is being set up", { timeout: 60_000 }, async () => {
  const fresh = await startServer();
  for (const width of Object.keys(WIDTHS)) {
    const context = await suite.browser.newContext(WIDTHS[width]);
    const page = await context.newPage();
    suite.pages.push(page);
    await watch(page);
    await page.goto(fresh.url);
    await page.getByRole("heading", { name: "Set up this server" }).waitFor(WAIT);
    await assertAccessible(page, `${width} bootstrap`);
    await page.goto(suite.server.url);
    await page.getByRole("heading", { name: "Sign in" }).waitFor(WAIT);
    await assertAccessible(page, `${width} sign-in`);
    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByTestId("getting-started").waitFor(WAIT);
    await assertAccessible(page, `${width} Home, getting started`);
    if (width === "phone") await assertFitsPhone(page, "Home, getting started");
    await screenshot(page, `${width}-home-getting-started`);
  }
  await fresh.stop();
});

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: every page`, { timeout: 180_000 }, async () => {
    const run = await runWaitingForApproval();
    const entry = await entryInConflict();
    const page = await suite.signedIn(width);
    for (const [path, ready] of [
      ["/", () => page.locator(`[data-testid="home-approvals"][data-count="1"]`).waitFor(WAIT)],
      ["/workspaces", () => page.getByRole("link", { name: "Website" }).waitFor(WAIT)],
      [`/projects/${suite.ids.project}`, () => page.locator(".task-card").first().waitFor(WAIT)],
      [
        `/tasks/${suite.ids.task}`,
        async () => {
          await page.getByRole("button", { name: "Start run" }).waitFor(WAIT);
          await page.getByTestId("task-artifacts").getByText("No artifacts yet.").waitFor(WAIT);
        },
      ],
      [`/runs/${run}`, () => page.getByTestId("run-approvals").getByRole("button", { name: "Approve" }).waitFor(WAIT)],
      ["/approvals", () => page.locator(".approval").first().waitFor(WAIT)],
      ["/agents", () => page.locator('[data-agent="careful"]').getByText("Online").waitFor(WAIT)],
      ["/memory", () => page.locator(".memory-hit").first().waitFor(WAIT)],
      [`/memory/${entry}`, () => page.getByRole("button", { name: "Accept proposed" }).waitFor(WAIT)],
      ["/settings", () => page.getByRole("heading", { name: "What the control plane does here" }).waitFor(WAIT)],
      ["/people", () => page.getByRole("cell", { name: OWNER.email }).waitFor(WAIT)],
      ["/sessions", () => page.getByText("this device").waitFor(WAIT)],
      ["/notifications", () => page.getByRole("heading", { name: "By email and push" }).waitFor(WAIT)],
      ["/nowhere", () => page.getByTestId("not-found").waitFor(WAIT)],
    ]) {
      await page.goto(`${suite.server.url}${path}`);
      await ready();
      await assertAccessible(page, `${width} ${path}`);
      if (width === "phone") await assertFitsPhone(page, path);
      await screenshot(page, `${width}-${path.split("/")[1] || "home"}`);
    }

    // What opens on a page: an enrollment's steps, the menu on a phone, the palette, the shortcuts.
    await page.goto(`${suite.server.url}/agents`);
    await page.getByLabel("Host name").fill(`${width}-host`);
    await page.getByRole("button", { name: "Create enrollment token" }).click();
    await page.getByTestId("enrollment-state").waitFor(WAIT);
    await assertAccessible(page, `${width} /agents with an enrollment's steps`);
    if (width === "phone") await assertFitsPhone(page, "/agents with an enrollment's steps");
    if (width === "phone") {
      await page.getByRole("button", { name: "Menu" }).click();
      await page.locator("#nav").waitFor(WAIT);
      await assertAccessible(page, "phone menu open");
      await page.getByRole("button", { name: /^Jump to/ }).click();
    } else {
      await page.keyboard.press("Control+k");
    }
    await page.getByTestId("palette").getByRole("option").first().waitFor(WAIT);
    await assertAccessible(page, `${width} command palette`);
    await page.keyboard.press("Escape");
    await page.getByTestId("palette").waitFor({ state: "detached", ...WAIT });
    await page.locator("main#main").focus();
    await page.keyboard.press("?");
    await page.getByTestId("shortcut-list").waitFor(WAIT);
    await assertAccessible(page, `${width} shortcut list`);
  });
}
