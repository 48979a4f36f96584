// A new user, from an empty server to an approved run, guided by the pages alone, in headless
// Chromium against a real `acc` and `acc-connector`, at desktop and phone widths: Home's steps
// (workspace → project → connector → task → run) each lead to where the step is done and tick as
// it is done, live in another tab too; a task with no agent online offers the way to enroll one
// instead of a run that would only wait; the Agents page's three commands and configuration,
// run exactly as shown, bring a host online with an agent that asks before it acts; its first
// run is approved on the run's page and succeeds, and Home's steps are gone.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  WIDTHS,
  assertFitsPhone,
  assertNoCspViolations,
  bootstrapOwner,
  enrollAsShown,
  followMenu,
  launchBrowser,
  resetArtifacts,
  screenshot,
  startAsShown,
  startServer,
  watch,
} from "./harness.mjs";

const WAIT = { timeout: 30_000 };
let browser;
/** What each test started, stopped after it whether it passed or not. */
const started = [];
/** The pages each test opened, whose last state is kept as a screenshot. */
const pages = [];

before(async () => {
  resetArtifacts();
  browser = await launchBrowser();
});

afterEach(async () => {
  for (const page of pages.splice(0)) if (!page.isClosed()) await screenshot(page, "end-of-test");
  for (const stop of started.splice(0).reverse()) await stop();
  assertNoCspViolations(assert);
});

after(async () => {
  await browser?.close();
});

/** The step `key` of Home's Get started list. */
const step = (page, key) => page.locator(`[data-testid="getting-started"] [data-step="${key}"]`);

/** Waits until Home's steps say exactly `done` are done. */
async function stepsDone(page, done) {
  for (const key of ["workspace", "project", "connector", "task", "run"]) {
    await page.locator(`[data-testid="getting-started"] [data-step="${key}"][data-done="${done.includes(key)}"]`).waitFor(WAIT);
  }
}

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: from an empty server to an approved run, following the pages`, { timeout: 180_000 }, async () => {
    const server = await startServer();
    started.push(() => server.stop());
    const context = await browser.newContext(WIDTHS[width]);
    started.push(() => context.close());
    const page = await context.newPage();
    pages.push(page);
    await watch(page);
    await page.goto(server.url);
    await bootstrapOwner(page, `${width}-bootstrap`);

    // Home on an empty server: five steps, none done, the first one the button to press.
    await stepsDone(page, []);
    assert.equal(await step(page, "workspace").getAttribute("aria-current"), "step");
    await page.getByTestId("getting-started").getByText("0 of 5 done").waitFor(WAIT);
    await screenshot(page, `${width}-home-empty`);

    await step(page, "workspace").getByRole("link", { name: "Create a workspace" }).click();
    await page.getByLabel("Workspace name").fill("Platform");
    await page.getByRole("button", { name: "Create workspace" }).click();
    await page.getByRole("heading", { name: "Platform" }).waitFor(WAIT);
    await followMenu(page, "Home");
    await stepsDone(page, ["workspace"]);
    assert.equal(await step(page, "project").getAttribute("aria-current"), "step");

    await step(page, "project").getByRole("link", { name: "Create a project" }).click();
    await page.getByLabel("Project name").fill("Website");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.getByRole("link", { name: "Website" }).waitFor(WAIT);
    await followMenu(page, "Home");
    await stepsDone(page, ["workspace", "project"]);
    await screenshot(page, `${width}-home-project`);

    // A task before any agent host: its page offers the way to connect one, not a run that waits.
    await step(page, "task").getByRole("link", { name: "Add a task" }).click();
    await page.getByLabel("Task title").fill("Say hello");
    await page.getByRole("button", { name: "Add task" }).click();
    await page.locator(".task-card", { hasText: "Say hello" }).waitFor(WAIT);
    await followMenu(page, "Home");
    await stepsDone(page, ["workspace", "project", "task"]);
    assert.equal(await step(page, "connector").getAttribute("aria-current"), "step");

    // A second tab keeps Home open: what follows ticks there without a reload.
    const home = await context.newPage();
    pages.push(home);
    await watch(home);
    await home.goto(server.url);
    await stepsDone(home, ["workspace", "project", "task"]);

    await step(page, "run").getByRole("link", { name: "Start a first run" }).click();
    await page.getByRole("heading", { name: "Say hello" }).waitFor(WAIT);
    const noAgent = page.getByTestId("no-agent-online");
    await noAgent.getByText(/A run needs an agent host/).waitFor(WAIT);
    assert.equal(await page.getByRole("button", { name: /^Start/ }).count(), 0, "no run is offered that could only wait");
    await screenshot(page, `${width}-task-no-agent`);
    await noAgent.getByRole("link", { name: "Connect an agent host" }).click();

    // The Agents page starts at the enrollment form.
    const hostName = page.getByLabel("Host name");
    await hostName.waitFor(WAIT);
    await page.waitForFunction(() => document.activeElement?.getAttribute("placeholder") === "build-host-1", null, WAIT);
    await hostName.fill("first-host");
    await page.getByRole("button", { name: "Create enrollment token" }).click();
    const enroll = await page.getByTestId("enroll-command").textContent(WAIT);
    const config = await page.getByTestId("connector-config").textContent();
    const run = await page.getByTestId("connector-run-command").textContent();
    assert.match(enroll, /^ACC_ENROLL_TOKEN=acc_\S+ acc-connector enroll --server http:\/\/127\.0\.0\.1:\d+ --name first-host$/);
    assert.equal(run, "acc-connector run --config connector.toml");
    assert.match(config, /^credential = "acc-connector\/credential\.json"$/m);
    const state = page.getByTestId("enrollment-state");
    await state.getByText("Waiting for first-host to enroll…").waitFor(WAIT);
    await screenshot(page, `${width}-agents-enroll`);
    if (width === "phone") await assertFitsPhone(page, "the enrollment steps");

    // On the host, exactly as shown: enroll, save the configuration, start the connector.
    const hostDir = join(server.dir, "first-host");
    mkdirSync(hostDir);
    await enrollAsShown(enroll, hostDir);
    await page.locator('[data-testid="enrollment-state"][data-state="enrolled"]').waitFor(WAIT);
    await step(home, "connector").getByText("first-host is enrolled but not running").waitFor(WAIT);
    writeFileSync(join(hostDir, "connector.toml"), config);
    const connector = startAsShown(run, hostDir);
    started.push(async () => connector.stop());
    await page.locator('[data-testid="enrollment-state"][data-state="online"]').waitFor(WAIT);
    await page.locator('[data-agent="hello"]').getByText("Online").waitFor(WAIT);
    await stepsDone(home, ["workspace", "project", "connector", "task"]);
    await screenshot(page, `${width}-agents-online`);
    await screenshot(home, `${width}-home-connected`);

    // The first run: started from the task, asked for an approval, approved on the run's page.
    await state.getByRole("link", { name: "Next: add a task and start a run" }).click();
    await page.locator(".task-card").getByRole("link", { name: "Say hello" }).click();
    await page.getByRole("button", { name: "Start run" }).click();
    await page.getByTestId("run-status").getByText("Waiting approval").waitFor(WAIT);
    const request = page.getByTestId("run-approvals").locator(".approval", { hasText: "say hello" });
    await request.getByText("a first run asks before it acts").waitFor(WAIT);
    await screenshot(page, `${width}-run-asks`);
    await request.getByRole("button", { name: "Approve" }).click();
    await page.getByTestId("run-status").getByText("Succeeded").waitFor(WAIT);
    await page.locator(".event", { hasText: "hello from" }).waitFor(WAIT);
    await screenshot(page, `${width}-run-approved`);

    // Everything is done: Home's steps leave, in the other tab too.
    await home.getByTestId("getting-started").waitFor({ state: "detached", ...WAIT });
    await home.locator('[data-testid="home-failures"][data-count="0"]').waitFor(WAIT);
    await screenshot(home, `${width}-home-set-up`);
  });
}
