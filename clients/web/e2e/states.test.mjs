// What the pages show stays true to the server, in headless Chromium against a real `acc` and
// `acc-connector`, at desktop (1440×900) and phone (390×844) widths: lists resynchronise after the
// live connection comes back, and a decision that came too late leaves the inbox with a message.
// The server is set up through the API; the pages are what is under test.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BOOTSTRAP_CODE,
  OWNER,
  assertNoCspViolations,
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

const agent = (name, script, interactive = false) =>
  `\n[[agents]]\nname = "${name}"\nadapter = "command"\ncommand = "sh"\ninteractive = ${interactive}\nargs = ["-c", ${JSON.stringify(script)}]\n`;

// Asks before it acts, then reports the decision it got.
const CAREFUL = agent(
  "careful",
  `read input; echo '{"acc": "approval_request", "action": "deploy the site", "reason": "the test asks"}'; read decision; echo "decision: $decision"`,
  true,
);
const WAIT = { timeout: 30_000 };
export const WIDTHS = {
  desktop: { viewport: { width: 1440, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

let server, proxy, browser, connector, token, ids;
const pages = [];

/** A GraphQL request as the owner. */
const api = (query, variables) => gql(server.url, query, variables, token);

before(async () => {
  resetArtifacts();
  server = await startServer();
  proxy = await startProxy(server.url);
  browser = await launchBrowser();
  const { redeemBootstrap } = await gql(
    server.url,
    "mutation($c: String!, $e: String!, $p: String!) { redeemBootstrap(code: $c, organizationName: \"Acme\", email: $e, password: $p, displayName: \"Olive Owner\") { accessToken } }",
    { c: BOOTSTRAP_CODE, e: OWNER.email, p: OWNER.password },
  );
  token = redeemBootstrap.accessToken;
  const { createWorkspace } = await api('mutation { createWorkspace(name: "Platform") { id } }');
  const { createProject } = await api('mutation($w: ID!) { createProject(workspaceId: $w, name: "Website") { id } }', {
    w: createWorkspace.id,
  });
  const { createTask } = await api('mutation($p: ID!) { createTask(input: { projectId: $p, title: "Deploy the site" }) { id } }', {
    p: createProject.id,
  });
  const { createEnrollmentToken } = await api('mutation($w: ID!) { createEnrollmentToken(workspaceId: $w, name: "e2e-host") { token } }', {
    w: createWorkspace.id,
  });
  const hostDir = join(server.dir, "host");
  const credential = await enrollAsShown(
    `ACC_ENROLL_TOKEN=${createEnrollmentToken.token} acc-connector enroll --server ${server.url} --name e2e-host`,
    hostDir,
  );
  connector = startConnector(hostDir, credential, server.url, CAREFUL);
  const agents = await until(async () => {
    const { agents } = await api("query($p: ID!) { agents(projectId: $p) { id name online } }", { p: createProject.id });
    return agents.every((a) => a.online) && agents.length === 1 ? agents : null;
  });
  const agentId = (name) => agents.find((a) => a.name === name).id;
  ids = {
    workspace: createWorkspace.id,
    project: createProject.id,
    task: createTask.id,
    careful: agentId("careful"),
  };
});

afterEach(async () => {
  proxy.releaseSockets();
  for (const page of pages.splice(0)) {
    if (!page.isClosed()) {
      await screenshot(page, "end-of-test");
      await page.context().close();
    }
  }
  assertNoCspViolations(assert);
});

after(async () => {
  await browser?.close();
  connector?.stop();
  proxy?.stop();
  await server?.stop();
});

/** Polls `check` until it answers something, for what the server does on its own time. */
async function until(check, timeout = 30_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const found = await check();
    if (found) return found;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((settled) => setTimeout(settled, 250));
  }
}

/** A signed-in page at `width`, opened on `path`. */
async function signedIn(width, path = "/") {
  const context = await browser.newContext(WIDTHS[width]);
  const page = await context.newPage();
  pages.push(page);
  await watch(page);
  await page.goto(`${proxy.url}${path}`);
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor(WAIT);
  return page;
}

/** A run of the task on `agentId`, once it reached `status`. */
async function runUntil(agentId, status) {
  const { startRun } = await api("mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {}) { id } }", {
    t: ids.task,
    a: agentId,
  });
  await until(async () => {
    const { node } = await api("query($id: ID!) { node(id: $id) { ... on TaskRun { status } } }", { id: startRun.id });
    return node.status === status;
  });
  return startRun.id;
}

const runWaitingForApproval = () => runUntil(ids.careful, "WAITING_APPROVAL");

const cancelRun = (runId) => api("mutation($r: ID!) { cancelRun(runId: $r) { id } }", { r: runId });

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
    proxy.holdSockets();
    await cancelRun(first);
    await cancelRun(second);
    await screenshot(page, `${width}-inbox-missed-updates`);

    // Approving the first reaches the server, which answers that it is already cancelled.
    await firstCard.getByRole("button", { name: "Approve" }).click();
    await page.getByTestId("approval-closed").getByText(/already cancelled/).waitFor(WAIT);
    await firstCard.waitFor({ state: "detached", ...WAIT });
    await screenshot(page, `${width}-inbox-too-late`);

    // The connection returns: the inbox asks again, and the second leaves without a reload.
    proxy.releaseSockets();
    await secondCard.waitFor({ state: "detached", timeout: 45_000 });
    await page.getByTestId("approvals-empty").waitFor(WAIT);
    await screenshot(page, `${width}-inbox-resynchronised`);
  });
}
