// Home and the design system, in headless Chromium against a real `acc` and `acc-connector`:
// Home lists what needs the person (an approval, with its count in the menu; runs in progress;
// failures; connectors offline) and follows it live; a destructive action asks first, and
// keeping it changes nothing (disabling a person can also be undone); the browser tab names the
// page; light and dark follow the system;
// controls are big enough to tap. The server is set up through the API; the pages are under test.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CAREFUL,
  FAILING,
  SAVER,
  WIDTHS,
  answerConfirmation,
  enrollAsShown,
  screenshot,
  serverForTests,
  subscribedTo,
  until,
} from "./harness.mjs";

const WAIT = { timeout: 30_000 };

const suite = serverForTests(CAREFUL + FAILING + SAVER, { proxy: true });
const { startRun, runStatus, runUntil } = suite;
const { signedIn } = suite;

const pendingApproval = async (runId) => until(async () => (await suite.approvalsOf(runId)).find((a) => a.status === "PENDING"));

/** The pending count the menu shows: on its Approvals link, and on a phone on the Menu button too. */
const menuCount = (page) => page.locator('#nav a[href="/approvals"] [data-testid="pending-count"]');

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: Home lists a pending approval with its count in the menu, and both follow the decision live`, { timeout: 90_000 }, async () => {
    const page = await signedIn(WIDTHS[width]);
    await page.getByRole("heading", { name: "Home" }).waitFor(WAIT);
    const approvals = page.getByTestId("home-approvals");
    await approvals.getByTestId("home-approvals-empty").waitFor(WAIT);
    assert.equal(await menuCount(page).count(), 0, "no count while nothing waits");

    // An agent asks while Home is open: it appears without a reload, counted in the menu.
    const run = await startRun(suite.ids.careful);
    const approval = await pendingApproval(run);
    const item = approvals.locator(`[data-approval-id="${approval.id}"]`);
    await item.getByText("deploy the site", { exact: true }).waitFor(WAIT);
    await item.getByText("careful").waitFor(WAIT);
    await page.locator(`[data-testid="home-running"] [data-run-id="${run}"]`).getByText("Waiting approval").waitFor(WAIT);
    assert.equal(await approvals.getAttribute("data-count"), "1");
    if (width === "phone") {
      // The menu is folded away on a phone: its button carries the count.
      await page.getByRole("button", { name: "Menu" }).getByTestId("pending-count").getByText("1").waitFor(WAIT);
      await page.getByRole("button", { name: "Menu" }).click();
    }
    await menuCount(page).getByText("1").waitFor(WAIT);
    // When it was asked, as people say it, with the exact time on hover.
    const asked = item.locator("time").first();
    assert.match(await asked.textContent(), /^(just now|\d+ min ago)$/);
    assert.ok(Date.parse(await asked.getAttribute("datetime")) > 0);
    assert.match(await asked.getAttribute("title"), /\d{1,2}:\d{2}:\d{2}/);
    await screenshot(page, `${width}-home-approval`);

    // Decided elsewhere (here: through the API): it leaves Home and the count, live.
    await suite.api('mutation($a: ID!) { decideApproval(approvalId: $a, decision: APPROVE, reason: "from the test") { id } }', {
      a: approval.id,
    });
    await item.waitFor({ state: "detached", ...WAIT });
    await approvals.getByTestId("home-approvals-empty").waitFor(WAIT);
    await menuCount(page).waitFor({ state: "detached", ...WAIT });
    // The run goes on and ends: it leaves the runs in progress too.
    await page.locator(`[data-testid="home-running"] [data-run-id="${run}"]`).waitFor({ state: "detached", ...WAIT });
    await screenshot(page, `${width}-home-decided`);
  });
}

test("Home shows a failure and an offline connector as they happen", { timeout: 90_000 }, async () => {
  const page = await signedIn(WIDTHS.desktop);
  await page.getByTestId("home-offline-empty").waitFor(WAIT);
  await subscribedTo(page, "runUpdated");
  const failed = await startRun(suite.ids.failing);
  await page.locator(`[data-testid="home-failures"] [data-run-id="${failed}"]`).getByText("Failed").waitFor(WAIT);

  // Enrolled but not started: a connector that is offline, on Home without a reload.
  const { createEnrollmentToken } = await suite.api('mutation($w: ID!) { createEnrollmentToken(workspaceId: $w, name: "spare-host") { token } }', {
    w: suite.ids.workspace,
  });
  await enrollAsShown(
    `ACC_ENROLL_TOKEN=${createEnrollmentToken.token} acc-connector enroll --server ${suite.server.url} --name spare-host`,
    join(suite.server.dir, "spare-host"),
  );
  await page.locator('[data-testid="home-offline"] [data-connector="spare-host"]').getByText("Offline").waitFor(WAIT);
  assert.equal(await page.locator('[data-testid="home-offline"] [data-connector="e2e-host"]').count(), 0, "an online connector is not listed");
  await screenshot(page, "home-failure-offline");

  // A newer run of the task that does not fail replaces the failure.
  const running = await runUntil(suite.ids.saver, "RUNNING");
  await page.locator(`[data-testid="home-failures"] [data-run-id="${failed}"]`).waitFor({ state: "detached", ...WAIT });
  await suite.api("mutation($r: ID!) { cancelRun(runId: $r) { id } }", { r: running });
});

/** Waits until the browser tab's title is `title`. */
async function titleIs(page, title) {
  await page.waitForFunction((want) => document.title === want, title, WAIT).catch(async () => {
    assert.equal(await page.title(), title);
  });
}

test("the tab's title follows the page", { timeout: 60_000 }, async () => {
  const run = await runUntil(suite.ids.failing, "FAILED");
  const page = await signedIn(WIDTHS.desktop);
  await titleIs(page, "Home · Agent Control Center");
  await page.getByRole("link", { name: "Workspaces" }).click();
  await titleIs(page, "Workspaces · Agent Control Center");
  await page.getByRole("link", { name: "Website" }).click();
  await titleIs(page, "Board · Website · Agent Control Center");
  await page.locator(".task-title", { hasText: "Deploy the site" }).click();
  await titleIs(page, "Deploy the site · Website · Agent Control Center");
  await page.locator(`a[href="/runs/${run}"]`).click();
  await titleIs(page, "Run · Deploy the site · Website · Agent Control Center");
  await page.getByRole("link", { name: "Approvals" }).click();
  await titleIs(page, "Approvals · Agent Control Center");
  await page.goto(`${suite.proxy.url}/nowhere`);
  await titleIs(page, "Page not found · Agent Control Center");
  // Going back names the page gone back to.
  await page.goBack();
  await titleIs(page, "Approvals · Agent Control Center");
});

test("a destructive action asks first, and keeping it changes nothing", { timeout: 90_000 }, async () => {
  const run = await runUntil(suite.ids.saver, "RUNNING");
  const page = await signedIn(WIDTHS.desktop, `/runs/${run}`);
  const actions = page.getByTestId("run-actions");
  await page.getByTestId("run-status").getByText("Running").waitFor(WAIT);

  // Cancel run: a dialog names the consequence; keeping the run leaves it running.
  await actions.getByRole("button", { name: "Cancel run" }).click();
  const dialog = page.getByRole("dialog", { name: "Cancel this run?" });
  await dialog.getByText(/cannot be resumed/).waitFor(WAIT);
  await screenshot(page, "confirm-cancel-run");
  await answerConfirmation(page, "Keep it running");
  // Long enough for a cancellation to have reached the server and come back.
  await page.waitForTimeout(1_500);
  assert.equal(await runStatus(run), "RUNNING", "the run still runs");
  assert.equal(await page.getByTestId("run-status").textContent(), "Running");
  // Escape is another way to keep it.
  await actions.getByRole("button", { name: "Cancel run" }).click();
  await dialog.waitFor(WAIT);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "hidden", ...WAIT });
  await page.waitForTimeout(1_000);
  assert.equal(await runStatus(run), "RUNNING", "the run still runs after Escape");

  // Revoke a connector: keeping it leaves it online and its credential working.
  await page.getByRole("link", { name: "Agents" }).click();
  const host = page.locator('[data-connector="e2e-host"]');
  await host.getByText("Online").waitFor(WAIT);
  await host.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog", { name: "Revoke the connector e2e-host?" }).waitFor(WAIT);
  await answerConfirmation(page, "Keep it");
  await page.waitForTimeout(1_500);
  const { connectors } = await suite.api("{ connectors { name online revokedAt } }");
  assert.deepEqual(
    connectors.find((c) => c.name === "e2e-host"),
    { name: "e2e-host", online: true, revokedAt: null },
    "the connector is neither revoked nor disconnected",
  );
  await host.getByText("Online").waitFor(WAIT);

  // Revoke this device's session: keeping it keeps the person signed in.
  await page.getByRole("link", { name: "Sessions" }).click();
  const mine = page.locator("tr", { hasText: "this device" });
  await mine.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog", { name: "Sign this device out?" }).waitFor(WAIT);
  await answerConfirmation(page, "Keep it");
  await page.waitForTimeout(1_000);
  await mine.getByText("Active").waitFor(WAIT);
  // Still signed in after a reload: the list answered with the session in force.
  await page.reload();
  await mine.getByText("Active").waitFor(WAIT);

  // Confirming does what the button says (reached from Home, where the run is in progress).
  await page.getByRole("link", { name: "Home" }).click();
  await page.locator(`[data-testid="home-running"] [data-run-id="${run}"] a`).click();
  await actions.getByRole("button", { name: "Cancel run" }).click();
  await answerConfirmation(page, "Cancel the run");
  await page.getByTestId("run-status").getByText("Cancelled").waitFor(WAIT);
});

test("disabling a person asks first, and can be undone", { timeout: 60_000 }, async () => {
  await suite.api('mutation { createUser(email: "bob@acme.test", password: "correct horse battery staple", role: MEMBER) { id } }');
  const page = await signedIn(WIDTHS.desktop, "/people");
  const row = page.locator("tr", { hasText: "bob@acme.test" });
  const disabled = async () => (await suite.api("{ users(first: 100) { nodes { email disabled } } }")).users.nodes.find((u) => u.email === "bob@acme.test").disabled;

  await row.getByRole("button", { name: "Disable" }).click();
  await page.getByRole("dialog", { name: "Disable bob@acme.test?" }).waitFor(WAIT);
  await answerConfirmation(page, "Keep the account");
  await page.waitForTimeout(1_000);
  assert.equal(await disabled(), false, "kept: still enabled");

  await row.getByRole("button", { name: "Disable" }).click();
  await answerConfirmation(page, "Disable the account");
  await row.getByText("Disabled", { exact: true }).waitFor(WAIT);
  assert.equal(await disabled(), true);
  await screenshot(page, "people-undo");
  await page.getByTestId("undo").getByRole("button", { name: "Undo" }).click();
  await row.getByText("Active", { exact: true }).waitFor(WAIT);
  assert.equal(await disabled(), false, "undone: enabled again");
  await page.getByTestId("undo").waitFor({ state: "detached", ...WAIT });
});

test("light and dark follow the system setting", { timeout: 60_000 }, async () => {
  const background = async (colorScheme) => {
    const page = await signedIn({ ...WIDTHS.desktop, colorScheme });
    await page.locator('[data-testid="home-running"][data-count]').waitFor(WAIT);
    const colours = await page.evaluate(() => {
      const style = getComputedStyle(document.documentElement);
      const card = getComputedStyle(document.querySelector(".card"));
      return { page: style.backgroundColor, text: style.color, card: card.backgroundColor };
    });
    await screenshot(page, `home-${colorScheme}`);
    return colours;
  };
  const light = await background("light");
  const dark = await background("dark");
  const luminance = (rgb) => {
    const [r, g, b] = rgb.match(/\d+/g).map(Number);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  assert.ok(luminance(light.page) > 200 && luminance(light.text) < 80, `light: dark text on a light page (${JSON.stringify(light)})`);
  assert.ok(luminance(dark.page) < 50 && luminance(dark.text) > 180, `dark: light text on a dark page (${JSON.stringify(dark)})`);
  assert.ok(luminance(dark.card) < 60, `dark: cards are dark too (${dark.card})`);
});

test("on a touch screen every button and menu link is at least 44 px tall", { timeout: 60_000 }, async () => {
  const run = await runUntil(suite.ids.saver, "RUNNING");
  const page = await signedIn(WIDTHS.phone, `/runs/${run}`);
  await page.getByTestId("run-status").getByText("Running").waitFor(WAIT);
  await page.getByRole("button", { name: "Menu" }).click();
  const small = await page.evaluate(() =>
    [...document.querySelectorAll("button, #nav a, .crumbs a, select")]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => ({ what: `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 30)}"`, height: el.getBoundingClientRect().height }))
      .filter((el) => el.height < 44),
  );
  assert.deepEqual(small, [], "targets smaller than 44 px");
  await suite.api("mutation($r: ID!) { cancelRun(runId: $r) { id } }", { r: run });
});

test("Home asks the server the same few questions however many tasks and runs there are", { timeout: 90_000 }, async () => {
  // A server with a run: its Get started steps are gone for good (alone, this test starts with none).
  await runUntil(suite.ids.failing, "FAILED");
  // Runs still ending would make a list ask again while it loads.
  const noRunEnding = () =>
    until(async () => {
      const { runs } = await suite.api("{ runs(filter: { status: [QUEUED, DISPATCHING, RUNNING, WAITING_APPROVAL, CANCELLING] }, last: 1) { edges { node { id } } } }");
      return runs.edges.length === 0;
    });
  await noRunEnding();
  const page = await signedIn(WIDTHS.desktop);
  /** The GraphQL requests a fresh load of Home sends until its lists are shown. */
  const requests = async () => {
    const sent = [];
    const onRequest = (request) => {
      const url = new URL(request.url());
      if (url.pathname !== "/graphql") return;
      // Queries go as GET (the operation in the URL), mutations as POST.
      const query = url.searchParams.get("query") ?? request.postDataJSON()?.query ?? "";
      sent.push(query.match(/^(?:query|mutation)\s+(\w+)/)?.[1] ?? query.slice(0, 40));
    };
    page.on("request", onRequest);
    await page.reload();
    for (const list of ["home-running", "home-failures", "home-approvals", "home-offline"]) {
      await page.locator(`[data-testid="${list}"][data-count]`).waitFor(WAIT);
    }
    await page.waitForLoadState("networkidle");
    page.off("request", onRequest);
    return sent.sort();
  };
  // The first load's own requests, still in flight, would be counted with the reload's.
  await requests();
  const before = await requests();
  for (let i = 0; i < 4; i++) {
    const { createTask } = await suite.api("mutation($i: CreateTaskInput!) { createTask(input: $i) { id } }", {
      i: { projectId: suite.ids.project, title: `One more ${i}` },
    });
    await suite.api("mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {}) { id } }", { t: createTask.id, a: suite.ids.failing });
  }
  const failures = page.getByTestId("home-failures");
  await until(async () => Number(await failures.getAttribute("data-count")) >= 4);
  // The page's own refresh after the last of them, still under way, would be counted with the reload's.
  await noRunEnding();
  let lastAsked = Date.now();
  const asked = (request) => {
    if (new URL(request.url()).pathname === "/graphql") lastAsked = Date.now();
  };
  page.on("request", asked);
  await until(async () => Date.now() - lastAsked > 1_000);
  page.off("request", asked);
  assert.deepEqual(await requests(), before, "the same requests, not one per task or run");
});
