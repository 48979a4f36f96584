// The web client end to end, in headless Chromium against a real `acc` and a real
// `acc-connector` running `command` agents: bootstrap → workspace, project, connector → task →
// run → live events → approval from the inbox (live, no reload) → run completes; then a run
// whose stream is cut mid-way resumes from its cursor with no gap and no duplicate; offline, the
// last-seen project, task and run still open and writes are refused; a phone-width layout; and a
// revoked connector removed with its agents.
// Each test fails on any Content-Security-Policy violation in its pages.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CHATTY,
  OWNER,
  SAVER,
  answerConfirmation,
  assertNoCspViolations,
  bootstrapOwner,
  commandAgent,
  enrollAsShown,
  gql,
  launchBrowser,
  resetArtifacts,
  screenshot,
  startConnector,
  startProxy,
  startServer,
  watch,
} from "./harness.mjs";

// Asks before it acts, then reports the decision it got.
const CAREFUL = commandAgent(
  "careful",
  `read input; echo 'checking the site'; echo '{"acc": "approval_request", "action": "deploy the site", "reason": "the e2e test asks"}'; read decision; echo "decision: $decision"; echo deployed`,
  true,
);
// A steady stream of lines, long enough to cut the browser's connection in the middle.
const COUNTER = commandAgent("counter", `for i in $(seq 1 60); do echo "line $i"; sleep 0.1; done`);

const WAIT = { timeout: 30_000 };
let server, proxy, browser, context, page, connector;

before(async () => {
  resetArtifacts();
  server = await startServer();
  proxy = await startProxy(server.url);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  page = await context.newPage();
  await watch(page);
});

// What the page showed when a test ended, passed or not; and no test may have met the server's
// Content-Security-Policy (every page is watched for violations).
afterEach(async () => {
  if (page && !page.isClosed()) await screenshot(page, "end-of-test");
  assertNoCspViolations(assert);
});

after(async () => {
  await browser?.close();
  connector?.stop();
  proxy?.stop();
  await server?.stop();
});

test("bootstrap, set up, run an agent, approve from the inbox, watch it complete", { timeout: 180_000 }, async () => {
  // The browser talks to the server through the proxy, on one origin for the page and the API.
  await page.goto(`${proxy.url}/`);
  await bootstrapOwner(page, "bootstrap");
  // Signing in lands on Home; an empty server has nothing there yet.
  await page.getByRole("heading", { name: "Home" }).waitFor(WAIT);
  await page.getByRole("link", { name: "Workspaces" }).click();
  await page.getByRole("heading", { name: "Workspaces" }).waitFor(WAIT);

  await page.getByLabel("Workspace name").fill("Platform");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.getByRole("heading", { name: "Platform" }).waitFor(WAIT);
  await page.getByLabel("Project name").fill("Website");
  await page.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("link", { name: "Website" }).waitFor(WAIT);
  await screenshot(page, "workspaces");

  // Enroll a connector with the command the UI shows, then start it with two command agents.
  await page.getByRole("link", { name: "Agents" }).click();
  await page.getByLabel("Host name").fill("e2e-host");
  await page.getByRole("button", { name: "Create enrollment token" }).click();
  const command = await page.getByTestId("enroll-command").textContent(WAIT);
  assert.match(command, /^ACC_ENROLL_TOKEN=acc_\S+ acc-connector enroll --server http:\/\/127\.0\.0\.1:\d+ --name e2e-host$/);
  const hostDir = join(server.dir, "host");
  const credential = await enrollAsShown(command, hostDir);
  // The connector dials the server directly, so cutting the browser's connections spares it.
  connector = startConnector(hostDir, credential, server.url, CAREFUL + COUNTER + SAVER + CHATTY);
  await page.locator('[data-connector="e2e-host"]').getByText("online").waitFor(WAIT);
  await page.locator('[data-agent="careful"]').getByText("online").waitFor(WAIT);
  await screenshot(page, "agents");

  // A task on the board, dragged to In progress.
  await page.getByRole("link", { name: "Workspaces" }).click();
  await page.getByRole("link", { name: "Website" }).click();
  await page.getByLabel("Task title").fill("Deploy the site");
  await page.getByRole("button", { name: "Add task" }).click();
  const card = page.locator(".task-card", { hasText: "Deploy the site" });
  await card.waitFor(WAIT);
  await card.dragTo(page.locator('.column[data-status="IN_PROGRESS"]'));
  await page.locator('.column[data-status="IN_PROGRESS"] .task-card', { hasText: "Deploy the site" }).waitFor(WAIT);
  await screenshot(page, "board");

  // The approvals inbox, open in a second tab before anything asks.
  const inbox = await context.newPage();
  await watch(inbox);
  await inbox.goto(`${proxy.url}/approvals`);
  await inbox.getByTestId("approvals-empty").waitFor(WAIT);

  await card.getByRole("link", { name: "Deploy the site" }).click();
  await page.getByRole("textbox", { name: "Criterion" }).fill("The site answers on /");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  // The checkbox shows what the server stored, so it turns checked once the change is saved.
  await page.getByRole("checkbox", { name: "The site answers on /" }).click();
  await page.getByRole("checkbox", { name: "The site answers on /", checked: true }).waitFor(WAIT);
  await page.getByRole("combobox", { name: "Agent", exact: true }).selectOption({ label: "careful" });
  await page.getByLabel("Objective").fill("deploy");
  await screenshot(page, "task");
  await page.getByRole("button", { name: "Start run" }).click();

  // The run view streams events live and waits for the decision.
  await page.getByTestId("run-status").getByText("Waiting approval").waitFor(WAIT);
  await page.locator(".event", { hasText: "checking the site" }).waitFor(WAIT);
  await page.locator('[data-testid="stream-state"][data-state="live"]').waitFor(WAIT);
  await screenshot(page, "run-waiting");

  // The inbox shows the request without a reload; approving it lets the agent go on.
  const request = inbox.locator(".approval", { hasText: "deploy the site" });
  await request.waitFor(WAIT);
  await screenshot(inbox, "approvals-inbox");
  await request.getByLabel(/^Reason/).fill("looks right");
  await request.getByRole("button", { name: "Approve" }).click();
  await inbox.getByTestId("approvals-empty").waitFor(WAIT);

  await page.getByTestId("run-status").getByText("Succeeded").waitFor(WAIT);
  await page.locator(".event", { hasText: "deployed" }).waitFor(WAIT);
  await page.locator(".event", { hasText: '"approved":true' }).waitFor(WAIT);
  await page.locator('[data-testid="stream-state"][data-state="ended"]').waitFor(WAIT);
  await screenshot(page, "run-succeeded");
  await inbox.close();
});

test("a cut connection resumes the event stream from its cursor, without gaps", { timeout: 120_000 }, async () => {
  await page.goBack();
  await page.getByRole("button", { name: "Start run" }).waitFor(WAIT);
  await page.getByRole("combobox", { name: "Agent", exact: true }).selectOption({ label: "counter" });
  await page.getByRole("button", { name: "Start run" }).click();
  const summary = page.getByTestId("event-summary");
  await page.locator(".event", { hasText: "line 10" }).waitFor(WAIT);

  proxy.cut();
  await page.locator('[data-testid="stream-state"][data-state="reconnecting"]').waitFor(WAIT);
  await screenshot(page, "stream-reconnecting");
  await page.locator('[data-testid="stream-state"][data-state="ended"]').waitFor({ timeout: 60_000 });
  await page.getByTestId("run-status").getByText("Succeeded").waitFor(WAIT);
  await screenshot(page, "stream-resumed");

  const runId = new URL(page.url()).pathname.split("/").pop();
  const { login } = await gql(server.url, "mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken } }", {
    e: OWNER.email,
    p: OWNER.password,
  });
  const stored = await gql(
    server.url,
    "query($r: ID!) { runEvents(runId: $r, first: 100) { nodes { sequence } pageInfo { hasNextPage } } }",
    { r: runId },
    login.accessToken,
  );
  const sequences = stored.runEvents.nodes.map((n) => n.sequence);
  assert.equal(stored.runEvents.pageInfo.hasNextPage, false);
  assert.ok(sequences.some((_, i) => i > 0), "the run has events");
  const shown = {
    count: Number(await summary.getAttribute("data-count")),
    first: Number(await summary.getAttribute("data-first")),
    last: Number(await summary.getAttribute("data-last")),
  };
  // Every stored event shown once: the same count, the same first and last sequence.
  assert.deepEqual(shown, { count: sequences.length, first: sequences[0], last: sequences.at(-1) });
});

test("offline, the last-seen project, task and run open from the cache and writes are refused", { timeout: 60_000 }, async () => {
  const runUrl = page.url();
  // Let the cache reach IndexedDB, and the service worker take the page, before the network goes.
  await page.reload();
  await page.getByTestId("run-status").getByText("Succeeded").waitFor(WAIT);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForTimeout(1_000);

  await context.setOffline(true);
  await page.reload();
  await page.getByTestId("offline-banner").waitFor(WAIT);
  await page.getByTestId("run-status").getByText("Succeeded").waitFor(WAIT);
  assert.equal(page.url(), runUrl);
  await page.getByText("Offline: these are the events this device kept").waitFor(WAIT);
  await page.locator(".event", { hasText: "line 60" }).waitFor(WAIT);
  await screenshot(page, "offline-run");

  await page.getByRole("link", { name: "Deploy the site" }).click();
  await page.getByRole("heading", { name: "Deploy the site" }).waitFor(WAIT);
  await page.getByRole("link", { name: "Website" }).click();
  // Its run succeeded with every acceptance criterion met: the task went to review by itself.
  const card = page.locator('.column[data-status="IN_REVIEW"] .task-card', { hasText: "Deploy the site" });
  await card.waitFor(WAIT);
  // Writes are refused, visibly, rather than queued for later.
  await page.getByLabel("Task title").fill("Written offline");
  const add = page.getByRole("button", { name: "Add task" });
  assert.equal(await add.isDisabled(), true);
  assert.equal(await add.getAttribute("title"), "Unavailable offline");
  await screenshot(page, "offline-board");

  await context.setOffline(false);
  await page.getByTestId("offline-banner").waitFor({ state: "detached", ...WAIT });
  assert.equal(await add.isDisabled(), false);
});

test("a running run is cancelled from its page", { timeout: 60_000 }, async () => {
  await page.locator(".task-card").getByRole("link", { name: "Deploy the site" }).click();
  await page.getByRole("combobox", { name: "Agent", exact: true }).selectOption({ label: "counter" });
  await page.getByRole("button", { name: "Start run" }).click();
  await page.locator(".event", { hasText: "line 3" }).waitFor(WAIT);
  await page.getByRole("button", { name: "Cancel run" }).click();
  await answerConfirmation(page, "Cancel the run");
  await page.getByTestId("run-status").getByText("Cancelled").waitFor(WAIT);
  await page.locator('[data-testid="stream-state"][data-state="ended"]').waitFor(WAIT);
  await screenshot(page, "run-cancelled");
});

test("a run is checkpointed, then handed off to another agent, where it completes", { timeout: 60_000 }, async () => {
  await page.locator(".crumbs").getByRole("link", { name: "Deploy the site" }).click();
  await page.getByRole("combobox", { name: "Agent", exact: true }).selectOption({ label: "saver" });
  await page.getByRole("button", { name: "Start run" }).click();
  await page.locator(".event", { hasText: "ready" }).waitFor(WAIT);
  await page.getByRole("button", { name: "Checkpoint" }).click();
  await page.locator(".event.kind-checkpoint").waitFor(WAIT);
  await page.getByTestId("run-status").getByText("Running").waitFor(WAIT);

  await page.getByLabel("Agent to hand off to").selectOption({ label: "counter" });
  await page.getByRole("button", { name: "Hand off" }).click();
  await page.getByTestId("run-status").getByText("Succeeded").waitFor({ timeout: 45_000 });
  await page.locator(".timeline li", { hasText: "#2 Handoff" }).getByText("on counter").waitFor(WAIT);
  await page.locator(".event", { hasText: "line 60" }).waitFor(WAIT);
  await screenshot(page, "run-handed-off");
});

test("a long stream stays virtualised and follows its tail", { timeout: 90_000 }, async () => {
  await page.locator(".crumbs").getByRole("link", { name: "Deploy the site" }).click();
  await page.getByRole("combobox", { name: "Agent", exact: true }).selectOption({ label: "chatty" });
  await page.getByRole("button", { name: "Start run" }).click();
  await page.getByTestId("run-status").getByText("Succeeded").waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="stream-state"][data-state="ended"]').waitFor({ timeout: 60_000 });
  const count = Number(await page.getByTestId("event-summary").getAttribute("data-count"));
  assert.ok(count > 3000, `all ${count} events are in the list`);
  const rendered = await page.locator(".event").count();
  assert.ok(rendered < 100, `only the visible rows are in the page, not ${rendered}`);
  await page.locator(".event", { hasText: "chatty 3000" }).waitFor(WAIT);
  await screenshot(page, "long-stream");
});

test("settings: a known key as a form field, any key as a patch, each with where it comes from; sessions list this device and revoke another", { timeout: 60_000 }, async () => {
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByLabel("Scope").selectOption({ label: "Organization: Acme" });
  // A key the control plane reads itself is a form field, with its default until a layer sets it.
  const follows = page.locator('[data-setting="tasks.statusFollowsRuns"]');
  const box = follows.getByRole("checkbox", { name: "tasks.statusFollowsRuns" });
  await follows.getByText("default").waitFor(WAIT);
  assert.equal(await box.isChecked(), true, "on by default");
  await box.uncheck();
  await follows.getByText("set at this scope").waitFor(WAIT);
  await page.getByLabel("Scope").selectOption({ label: "Project: Platform / Website" });
  await follows.getByText("inherited from organization").waitFor(WAIT);
  assert.equal(await box.isChecked(), false, "the project inherits the organization's value");
  await screenshot(page, "settings-form");
  await page.getByLabel("Scope").selectOption({ label: "Organization: Acme" });
  await follows.getByRole("button", { name: "Inherit instead" }).click();
  await follows.getByText("default").waitFor(WAIT);
  assert.equal(await box.isChecked(), true);

  // A whole-number key: typed, written when the field is left; out of its bounds, refused.
  const budget = page.locator('[data-setting="context.tokenBudget"]');
  const field = budget.getByRole("spinbutton", { name: "context.tokenBudget" });
  assert.equal(await field.inputValue(), "8000", "the default");
  await field.fill("4096");
  await field.press("Enter");
  await budget.getByText("set at this scope").waitFor(WAIT);
  await field.fill("12");
  await field.press("Enter");
  await page.getByText(/context\.tokenBudget` is a whole number from 256 to 200000/).waitFor(WAIT);
  await budget.getByRole("button", { name: "Inherit instead" }).click();
  await budget.getByText("default").waitFor(WAIT);

  // Any other key through the merge patch, the advanced view.
  await page.getByText("Advanced: change this scope with a merge patch").click();
  await page.getByLabel("Merge patch").fill('{"review": {"required": true}}');
  await page.getByRole("button", { name: "Apply patch" }).click();
  const row = page.locator("tr", { hasText: "review.required" });
  await row.getByText("this organization").waitFor(WAIT);
  await page.getByLabel("Scope").selectOption({ label: "Project: Platform / Website" });
  await row.getByText("inherited from organization").waitFor(WAIT);
  await screenshot(page, "settings");

  await page.getByRole("link", { name: "Sessions" }).click();
  await page.locator("tr", { hasText: "this device" }).waitFor(WAIT);
  // The test's own sign-in through the API (in the resume test) is another session: revoke it.
  const other = page.locator("tbody tr", { hasNotText: "this device" }).first();
  await other.getByRole("button", { name: "Revoke" }).click();
  await answerConfirmation(page, "Revoke the session");
  await other.getByText("revoked").waitFor(WAIT);
  await screenshot(page, "sessions");
});

test("an administrator disables a person, whose open page is signed out at once, and enables them again", { timeout: 60_000 }, async () => {
  const signIn = "mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken } }";
  const { login } = await gql(server.url, signIn, { e: OWNER.email, p: OWNER.password });
  const alice = { email: "alice@acme.test", password: "correct horse battery staple" };
  const create = "mutation($e: String!, $p: String!) { createUser(email: $e, password: $p, role: MEMBER) { id } }";
  await gql(server.url, create, { e: alice.email, p: alice.password }, login.accessToken);

  // Alice is signed in in a browser of her own, with the approvals inbox open (a live subscription).
  const hers = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const alicePage = await hers.newPage();
  await watch(alicePage);
  await alicePage.goto(`${proxy.url}/approvals`);
  await alicePage.getByLabel("Email").fill(alice.email);
  await alicePage.getByLabel("Password").fill(alice.password);
  await alicePage.getByRole("button", { name: "Sign in" }).click();
  await alicePage.getByRole("heading", { name: "Approvals" }).waitFor(WAIT);

  await page.getByRole("link", { name: "People" }).click();
  const row = page.locator("tr", { hasText: alice.email });
  await row.getByRole("button", { name: "Disable" }).click();
  await answerConfirmation(page, "Disable the account");
  await row.getByText("disabled").waitFor(WAIT);
  await screenshot(page, "people");
  // Her session ended on the server: her page goes back to signing in without a reload.
  await alicePage.getByRole("button", { name: "Sign in" }).waitFor(WAIT);

  await row.getByRole("button", { name: "Enable" }).click();
  await row.getByText("active").waitFor(WAIT);
  await hers.close();
});

test("the board and the run view fit a phone", { timeout: 60_000 }, async () => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const small = await phone.newPage();
  await watch(small);
  await small.goto(`${proxy.url}/workspaces`);
  await small.getByRole("heading", { name: "Sign in" }).waitFor(WAIT);
  await small.getByLabel("Email").fill(OWNER.email);
  // A refusal shows the server's code and the correlation id to quote.
  await small.getByLabel("Password").fill("not the password");
  await small.getByRole("button", { name: "Sign in" }).click();
  await small.getByTestId("error-code").getByText("UNAUTHENTICATED").waitFor(WAIT);
  assert.match(await small.getByTestId("correlation-id").textContent(), /^[0-9a-f-]{36}$/);
  await screenshot(small, "phone-sign-in-refused");
  await small.getByLabel("Password").fill(OWNER.password);
  await small.getByRole("button", { name: "Sign in" }).click();
  await small.getByRole("link", { name: "Website" }).click();
  await small.locator(".task-card", { hasText: "Deploy the site" }).waitFor(WAIT);
  // Against the phone's own width: a page that overflows makes a mobile browser zoom out, and then
  // window.innerWidth grows with it.
  const overflow = await small.evaluate(() => Math.max(document.documentElement.scrollWidth, window.visualViewport.width) - 390);
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the phone`);
  await screenshot(small, "phone-board");
  await small.getByRole("button", { name: "Menu" }).click();
  await small.getByRole("link", { name: "Approvals" }).click();
  await small.getByTestId("approvals-empty").waitFor(WAIT);
  await screenshot(small, "phone-approvals");
  await phone.close();
});

test("inside the Android app the server is named once, then signed in to, and can be changed", { timeout: 60_000 }, async () => {
  const android = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  // What Capacitor injects; the page itself is served as usual.
  await android.addInitScript(() => {
    window.Capacitor = { isNativePlatform: () => true };
  });
  const app = await android.newPage();
  await watch(app);
  await app.goto(`${proxy.url}/`);
  await app.getByRole("heading", { name: "Your server" }).waitFor(WAIT);
  await app.getByLabel("Server address").fill("ftp://acc.example.com");
  await app.getByRole("button", { name: "Connect" }).click();
  await app.getByRole("alert").getByText(/not an http\(s\) address/).waitFor(WAIT);
  await screenshot(app, "android-server-refused");
  await app.getByLabel("Server address").fill(`${proxy.url}/graphql`);
  await app.getByRole("button", { name: "Connect" }).click();
  await app.getByRole("heading", { name: "Sign in" }).waitFor(WAIT);
  assert.match(await app.locator(".signin", { hasText: "Server:" }).textContent(), new RegExp(`Server: ${proxy.url}`));
  // No server sends the app's page a policy: the page adds its own, connecting to this server only.
  const policy = await app.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
  const socket = proxy.url.replace(/^http/, "ws");
  assert.match(policy, new RegExp(`(^|; )connect-src ${proxy.url} ${socket}(;|$)`));
  assert.match(policy, /(^|; )script-src 'self'(;|$)/);
  // Kept: a reload goes straight to signing in.
  await app.reload();
  await app.getByRole("heading", { name: "Sign in" }).waitFor(WAIT);
  await app.getByLabel("Email").fill(OWNER.email);
  await app.getByLabel("Password").fill(OWNER.password);
  await app.getByRole("button", { name: "Sign in" }).click();
  // Home, with what the server answered.
  await app.locator('[data-testid="home-approvals"][data-count]').waitFor(WAIT);
  await screenshot(app, "android-signed-in");
  await android.close();

  const again = await browser.newContext();
  await again.addInitScript(() => {
    window.Capacitor = { isNativePlatform: () => true };
    // A server named on an earlier start (once: changing it reloads the page).
    if (!sessionStorage.getItem("named")) localStorage.setItem("acc.server", "https://acc.example.com");
    sessionStorage.setItem("named", "yes");
  });
  const other = await again.newPage();
  await other.goto(`${proxy.url}/`);
  await other.getByRole("button", { name: "Change" }).click();
  await other.getByRole("heading", { name: "Your server" }).waitFor(WAIT);
  // The page started again without the policy naming the old server, and connects to none yet.
  assert.equal(await other.locator('meta[http-equiv="Content-Security-Policy"]').count(), 0);
  await again.close();
});

test("a dependency shows on the waiting task's card", { timeout: 60_000 }, async () => {
  await page.getByRole("link", { name: "Workspaces" }).click();
  await page.getByRole("link", { name: "Website" }).click();
  await page.getByLabel("Task title").fill("Announce the launch");
  await page.getByRole("button", { name: "Add task" }).click();
  await page.locator(".task-card").getByRole("link", { name: "Announce the launch" }).click();
  await page.getByLabel("Task to wait for").selectOption({ label: "Deploy the site" });
  await page.getByRole("button", { name: "Add dependency" }).click();
  await page.locator(".card", { hasText: "Waits for" }).getByRole("link", { name: "Deploy the site" }).waitFor(WAIT);
  await page.locator(".crumbs").getByRole("link", { name: "Website" }).click();
  const card = page.locator(".task-card", { hasText: "Announce the launch" });
  await card.locator(".deps").getByRole("link", { name: "Deploy the site" }).waitFor(WAIT);
  await screenshot(page, "board-dependencies");
});

test("a server restart does not sign the browser out", { timeout: 90_000 }, async () => {
  connector.stop();
  await server.stop();
  // Reloading while the server is down: no access token in memory, and the refresh cannot reach
  // the server. That is not a refused session, so the app stays signed in on its offline copy.
  await page.reload();
  await page.getByRole("button", { name: "Sign out" }).waitFor(WAIT);
  await page.getByRole("heading", { name: "Website" }).waitFor(WAIT);
  assert.equal(await page.getByRole("heading", { name: "Sign in" }).count(), 0);
  await screenshot(page, "server-down");

  server = await startServer(server.dir);
  proxy.retarget(server.url);
  await page.reload();
  await page.getByRole("link", { name: "Approvals" }).click();
  await page.getByTestId("approvals-empty").waitFor(WAIT);
});

test("a revoked connector is removed with its agents", { timeout: 60_000 }, async () => {
  await page.getByRole("link", { name: "Agents" }).click();
  const host = page.locator('[data-connector="e2e-host"]');
  await page.locator('[data-agent="careful"]').waitFor(WAIT);
  await host.getByRole("button", { name: "Revoke" }).click();
  await answerConfirmation(page, "Revoke the connector");
  await host.getByText("revoked").waitFor(WAIT);
  await host.getByRole("button", { name: "Remove" }).click();
  await host.waitFor({ state: "detached", ...WAIT });
  await page.locator('[data-agent="careful"]').waitFor({ state: "detached", ...WAIT });
  await page.getByText("No connector has enrolled yet.").waitFor(WAIT);
  await screenshot(page, "connector-removed");
});
