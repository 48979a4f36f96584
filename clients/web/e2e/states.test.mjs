// What the pages show stays true to the server, in headless Chromium against a real `acc` and
// `acc-connector`, at desktop (1440×900) and phone (390×844) widths: lists resynchronise after the
// live connection comes back, a decision that came too late leaves the inbox with a message, no
// page is wider than a phone, a run offers only the actions its state allows and shows its real
// state, a wrong address says so with a way back, and a connector shows as soon as it enrolls.
// The server is set up through the API; the pages are what is under test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CAREFUL,
  CHATTY,
  FAILING,
  OWNER,
  SAVER,
  WIDTHS,
  answerConfirmation,
  assertFitsPhone,
  commandAgent,
  enrollAsShown,
  screenshot,
  serverForTests,
  until,
} from "./harness.mjs";

// Asks with the long, unbroken words real commands have.
const DEPLOYER = commandAgent(
  "deployer",
  `read input; echo '{"acc": "approval_request", "action": "kubectl --context=production-eu-west-1 rollout restart deployment/website-frontend-canary-2026-12-03", "reason": "https://acme.example.com/runbooks/deployments/website-frontend-canary-rollouts"}'; read decision`,
  true,
);

const WAIT = { timeout: 30_000 };

const suite = serverForTests(CAREFUL + FAILING + SAVER + DEPLOYER + CHATTY, { proxy: true });
const { runUntil, cancelRun } = suite;

const { signedIn } = suite;

const runWaitingForApproval = () => runUntil(suite.ids.careful, "WAITING_APPROVAL");

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: after a reconnect the inbox shows only what still waits, and a decision that came too late leaves it`, { timeout: 120_000 }, async () => {
    const page = await signedIn(width, "/approvals");
    const first = await runWaitingForApproval();
    const second = await runWaitingForApproval();
    const cards = page.locator(".approval", { hasText: "deploy the site" });
    await until(async () => (await cards.count()) === 2);
    const [firstCard, secondCard] = [
      page.locator(`.approval:has(a[href="/runs/${first}"])`),
      page.locator(`.approval:has(a[href="/runs/${second}"])`),
    ];

    // The live connection drops; meanwhile both runs are cancelled, and with them their approvals.
    suite.proxy.holdSockets();
    await cancelRun(first);
    await cancelRun(second);
    await screenshot(page, `${width}-inbox-missed-updates`);

    // Approving the first reaches the server, which answers that it is already cancelled.
    await firstCard.getByRole("button", { name: "Approve" }).click();
    await page.getByTestId("approval-closed").getByText(/already cancelled/).waitFor(WAIT);
    await firstCard.waitFor({ state: "detached", ...WAIT });
    await screenshot(page, `${width}-inbox-too-late`);

    // The connection returns: the inbox asks again, and the second leaves without a reload.
    suite.proxy.releaseSockets();
    await secondCard.waitFor({ state: "detached", timeout: 45_000 });
    await page.getByTestId("approvals-empty").waitFor(WAIT);
    await screenshot(page, `${width}-inbox-resynchronised`);
  });
}

test("no page is wider than a phone, with an approval's alert showing", { timeout: 120_000 }, async () => {
  // Real content has long words: addresses, commands, labels.
  const long = "https://acme.example.com/docs/getting-started/installation/troubleshooting-network-errors";
  const { createTask } = await suite.api(
    'mutation($p: ID!, $t: String!) { createTask(input: { projectId: $p, title: $t, labels: ["infrastructure-migration-2026", "customer-escalation"] }) { id } }',
    { p: suite.ids.project, t: `Fix ${long}` },
  );
  await suite.api("mutation($t: ID!, $d: ID!) { addTaskDependency(taskId: $t, dependsOnId: $d) { id } }", { t: createTask.id, d: suite.ids.task });
  const page = await signedIn("phone", `/projects/${suite.ids.project}`);
  await page.locator(`.task-card[data-task-id="${createTask.id}"]`).waitFor(WAIT);
  // An agent asks while the board is open: the alert must be on the screen.
  const run = await runUntil(suite.ids.deployer, "WAITING_APPROVAL");
  const toast = page.locator(".toast", { hasText: "Approval requested" });
  await toast.waitFor(WAIT);
  await screenshot(page, "phone-board-alert");
  await assertFitsPhone(page, "the board");
  const box = await toast.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, `the alert is on the screen (${box.x}..${box.x + box.width})`);

  for (const [path, ready] of [
    ["/", () => page.locator(`[data-testid="home-running"] [data-run-id="${run}"]`).waitFor(WAIT)],
    ["/workspaces", () => page.getByRole("link", { name: "Website" }).waitFor(WAIT)],
    [`/tasks/${createTask.id}`, () => page.getByRole("button", { name: "Start anyway" }).waitFor(WAIT)],
    [`/runs/${run}`, () => page.getByTestId("run-status").getByText("Waiting approval").waitFor(WAIT)],
    ["/approvals", () => page.locator(".approval").first().waitFor(WAIT)],
    ["/agents", () => page.locator('[data-connector="e2e-host"]').waitFor(WAIT)],
    ["/settings", () => page.getByRole("heading", { name: "What the control plane does here" }).waitFor(WAIT)],
    ["/people", () => page.getByRole("cell", { name: OWNER.email }).waitFor(WAIT)],
    ["/sessions", () => page.getByText("this device").waitFor(WAIT)],
    ["/nowhere", () => page.getByTestId("not-found").waitFor(WAIT)],
  ]) {
    await page.goto(`${suite.proxy.url}${path}`);
    await ready();
    await screenshot(page, `phone-${path.split("/")[1] || "home"}`);
    await assertFitsPhone(page, path);
  }
  await cancelRun(run);
});

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: a run offers only what its state allows, and shows its real state`, { timeout: 120_000 }, async () => {
    // Waiting for approval: cancel it or decide the approval; nothing else, and the page says why.
    const waiting = await runWaitingForApproval();
    const page = await signedIn(width, `/runs/${waiting}`);
    const actions = page.getByTestId("run-actions");
    await page.getByTestId("run-status").getByText("Waiting approval").waitFor(WAIT);
    await actions.getByRole("button", { name: "Cancel run" }).waitFor(WAIT);
    await page.getByTestId("run-approvals").getByRole("button", { name: "Approve" }).waitFor(WAIT);
    assert.equal(await actions.getByRole("button", { name: "Hand off" }).count(), 0, "no hand off while waiting");
    assert.equal(await actions.getByRole("button", { name: "Checkpoint" }).count(), 0, "no checkpoint while waiting");
    await page.getByTestId("run-actions-why").getByText(/waits for an approval/).waitFor(WAIT);
    // Its attempt waits with it, rather than claiming to run.
    await page.locator(".timeline li", { hasText: "#1 Start" }).getByText("Waiting approval").waitFor(WAIT);
    await screenshot(page, `${width}-run-waiting-actions`);
    await actions.getByRole("button", { name: "Cancel run" }).click();
    await answerConfirmation(page, "Cancel the run");
    await page.getByTestId("run-status").getByText("Cancelled").waitFor(WAIT);
    await page.locator(".timeline li", { hasText: "#1 Start" }).getByText("Cancelled").waitFor(WAIT);
    await actions.getByRole("button", { name: "Run again" }).waitFor(WAIT);

    // A failed run: its attempt says it failed, the stream is not live, and Retry starts it again.
    const failed = await runUntil(suite.ids.failing, "FAILED");
    await page.goto(`${suite.proxy.url}/runs/${failed}`);
    await page.getByTestId("run-status").getByText("Failed").waitFor(WAIT);
    await page.locator('[data-testid="stream-state"][data-state="ended"]').waitFor(WAIT);
    await page.locator(".timeline li", { hasText: "#1 Start" }).getByText("Failed").waitFor(WAIT);
    assert.equal(await page.locator(".timeline").getByText("Ended").count(), 0, "an outcome, not just ended");
    assert.equal(await page.getByTestId("stream-state").getByText("live").count(), 0, "an ended run is not live");
    await screenshot(page, `${width}-run-failed`);
    await actions.getByRole("button", { name: "Retry" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/runs/") && !url.pathname.endsWith(failed), WAIT);
    await page.getByTestId("run-status").getByText("Failed").waitFor(WAIT);
    await page.locator(".timeline li", { hasText: "on failing" }).waitFor(WAIT);

    // Running on an agent that checkpoints: checkpoint, and hand off once a target is chosen.
    const running = await runUntil(suite.ids.saver, "RUNNING");
    await page.goto(`${suite.proxy.url}/runs/${running}`);
    await page.getByTestId("run-status").getByText("Running").waitFor(WAIT);
    await actions.getByRole("button", { name: "Checkpoint" }).waitFor(WAIT);
    const handOff = actions.getByRole("button", { name: "Hand off" });
    assert.equal(await handOff.isDisabled(), true, "no hand off before a target is chosen");
    assert.equal(await handOff.getAttribute("title"), "Choose the agent to hand off to first");
    await actions.getByLabel("Agent to hand off to").selectOption({ label: "careful" });
    assert.equal(await handOff.isDisabled(), false);
    await screenshot(page, `${width}-run-running-actions`);
    await actions.getByRole("button", { name: "Cancel run" }).click();
    await answerConfirmation(page, "Cancel the run");
    await page.getByTestId("run-status").getByText("Cancelled").waitFor(WAIT);
  });
}

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: an unknown address and a wrong id say so once, with a way back`, { timeout: 60_000 }, async () => {
    const page = await signedIn(width, "/no/such/page");
    await page.getByRole("heading", { name: "Page not found" }).waitFor(WAIT);
    assert.equal(await page.getByRole("heading", { name: "Workspaces" }).count(), 0, "not the workspaces");
    await screenshot(page, `${width}-not-found`);
    await page.getByRole("link", { name: "Back to Workspaces" }).click();
    await page.getByRole("heading", { name: "Workspaces" }).waitFor(WAIT);

    for (const [path, what] of [
      ["/tasks/nope", "task"],
      ["/runs/nope", "run"],
      ["/projects/nope", "project"],
    ]) {
      await page.goto(`${suite.proxy.url}${path}`);
      await page.getByRole("heading", { name: `No such ${what}` }).waitFor(WAIT);
      assert.equal(await page.getByText("`nope` is not a valid id").count(), 1, `${path}: the server's reason once`);
      await screenshot(page, `${width}-no-such-${what}`);
    }
    await page.getByRole("link", { name: "Back to Workspaces" }).click();
    await page.getByRole("heading", { name: "Workspaces" }).waitFor(WAIT);
  });
}

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: a connector shows on the Agents page as soon as it enrolls`, { timeout: 60_000 }, async () => {
    const page = await signedIn(width, "/agents");
    await page.locator('[data-connector="e2e-host"]').waitFor(WAIT);
    const name = `${width}-host`;
    await page.getByLabel("Host name").fill(name);
    await page.getByRole("button", { name: "Create enrollment token" }).click();
    const command = await page.getByTestId("enroll-command").textContent(WAIT);
    await enrollAsShown(command, join(suite.server.dir, name));
    // Enrolled but not yet running: listed, offline, without a reload.
    await page.locator(`[data-connector="${name}"]`).getByText("offline").waitFor(WAIT);
    await screenshot(page, `${width}-agents-enrolled`);
  });
}

test("an ended run's event stream is never called live, even while its history arrives", { timeout: 90_000 }, async () => {
  const run = await runUntil(suite.ids.chatty, "SUCCEEDED");
  const page = await signedIn("desktop", "/workspaces");
  // Every state the stream's label takes, from the page's first render on.
  await page.evaluate(() => {
    window.streamStates = [];
    new MutationObserver(() => {
      const state = document.querySelector('[data-testid="stream-state"]')?.getAttribute("data-state");
      if (state && window.streamStates.at(-1) !== state) window.streamStates.push(state);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });
  });
  await page.getByRole("link", { name: "Website" }).click();
  await page.locator(".task-title", { hasText: /^Deploy the site$/ }).click();
  await page.locator(`a[href="/runs/${run}"]`).click();
  await page.getByTestId("run-status").getByText("Succeeded").waitFor(WAIT);
  await page.locator('[data-testid="stream-state"][data-state="ended"]').waitFor({ timeout: 60_000 });
  const seen = await page.evaluate(() => window.streamStates);
  assert.ok(!seen.includes("live"), `the stream of a finished run was shown as ${seen.join(" → ")}`);
  await screenshot(page, "finished-run-complete");
});

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: the dependency picker offers no task that would close a cycle, and a run of a waiting task is started knowingly`, { timeout: 60_000 }, async () => {
    const task = async (title) =>
      (await suite.api("mutation($i: CreateTaskInput!) { createTask(input: $i) { id } }", { i: { projectId: suite.ids.project, title } })).createTask.id;
    const waitFor = (t, d) => suite.api("mutation($t: ID!, $d: ID!) { addTaskDependency(taskId: $t, dependsOnId: $d) { id } }", { t, d });
    // Build ← Test ← Release.
    const [build, check, release] = [await task(`Build ${width}`), await task(`Test ${width}`), await task(`Release ${width}`)];
    await waitFor(check, build);
    await waitFor(release, check);

    const page = await signedIn(width, `/tasks/${build}`);
    const picker = page.getByLabel("Task to wait for");
    await picker.locator("option", { hasText: "Deploy the site" }).waitFor({ state: "attached", ...WAIT });
    const offered = await picker.locator("option").allTextContents();
    for (const title of [`Build ${width}`, `Test ${width}`, `Release ${width}`]) {
      assert.ok(!offered.includes(title), `${title} is not offered to Build: ${offered}`);
    }
    assert.equal(await page.getByTestId("waits-for").count(), 0, "Build waits for nothing");
    await page.getByRole("button", { name: "Start run" }).waitFor(WAIT);

    await page.goto(`${suite.proxy.url}/tasks/${release}`);
    const warning = page.getByTestId("waits-for");
    await warning.getByRole("link", { name: `Test ${width}` }).waitFor(WAIT);
    await page.getByRole("button", { name: "Start anyway" }).waitFor(WAIT);
    await screenshot(page, `${width}-task-waits-for`);
    if (width === "phone") await assertFitsPhone(page, "a waiting task");
  });
}

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: a card shows who has the task and how its latest run went, live; search and filters narrow the board; a task is edited and deleted`, { timeout: 90_000 }, async () => {
    const { viewer } = await suite.api("{ viewer { id } }");
    const title = `Card ${width}`;
    const { createTask } = await suite.api("mutation($i: CreateTaskInput!) { createTask(input: $i) { id } }", {
      i: { projectId: suite.ids.project, title, priority: "HIGH", labels: ["web"], assigneeId: viewer.id },
    });
    const page = await signedIn(width, `/projects/${suite.ids.project}`);
    const card = page.locator(`.task-card[data-task-id="${createTask.id}"]`);
    await card.getByText("Olive Owner").waitFor(WAIT);
    await card.getByText("High").waitFor(WAIT);
    await card.getByText("web", { exact: true }).waitFor(WAIT);
    assert.equal(await card.locator(".latest-run").count(), 0, "no run yet");

    // A run starts and fails while the board is open: the card says so, and moved to In progress.
    const { startRun } = await suite.api("mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {}) { id } }", {
      t: createTask.id,
      a: suite.ids.failing,
    });
    const latest = card.getByRole("link", { name: "Latest run: Failed" });
    await latest.waitFor(WAIT);
    assert.ok((await latest.getAttribute("href")).endsWith(`/runs/${startRun.id}`));
    await page.locator(`.column[data-status="IN_PROGRESS"] .task-card[data-task-id="${createTask.id}"]`).waitFor(WAIT);
    await screenshot(page, `${width}-board-card`);

    // Search and filters.
    await page.getByLabel("Search tasks").fill(`card ${width.toUpperCase()}`);
    await page.getByTestId("board-filtered").getByText(/^1 of \d+ tasks shown/).waitFor(WAIT);
    assert.equal(await page.locator(".task-card").count(), 1);
    await page.getByLabel("Priority", { exact: true }).selectOption("LOW");
    await page.getByTestId("board-filtered").getByText(/^0 of/).waitFor(WAIT);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.getByTestId("board-filtered").waitFor({ state: "detached", ...WAIT });
    await page.getByLabel("Assignee", { exact: true }).selectOption("UNASSIGNED");
    await card.waitFor({ state: "detached", ...WAIT });
    await page.getByLabel("Assignee", { exact: true }).selectOption({ label: "Olive Owner" });
    await card.waitFor(WAIT);
    if (width === "phone") await assertFitsPhone(page, "the filtered board");

    // Edited, then deleted (asked first).
    await card.getByRole("link", { name: title }).click();
    await page.getByRole("button", { name: "Edit task" }).click();
    const form = page.getByRole("form", { name: "Edit task" });
    await form.getByLabel("Title").fill(`${title} renamed`);
    await form.getByLabel("Labels").fill("web, urgent-fix");
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByRole("heading", { name: `${title} renamed` }).waitFor(WAIT);
    await page.getByText("urgent-fix").waitFor(WAIT);
    await page.getByRole("button", { name: "Delete task" }).click();
    await answerConfirmation(page, "Delete the task");
    await page.waitForURL((url) => url.pathname === `/projects/${suite.ids.project}`, WAIT);
    await page.locator(".task-card").first().waitFor(WAIT);
    assert.equal(await page.locator(`.task-card[data-task-id="${createTask.id}"]`).count(), 0, "the card is gone");
  });
}
