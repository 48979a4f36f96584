// Memory in the web client, in headless Chromium against a real `acc` that searches by words and
// meaning (its embedding model fetched once per machine, as the Rust tests do): a person writes
// two entries through the page; a contradicting write opens a conflict instead of replacing the
// current version, and accepting the proposal makes it current; a search finds the entry, filters
// narrow it by kind, a search as of a time before the proposal was accepted finds what the entry
// said then, and verifying it shows in its history of both versions; a change made
// against a revision that is no longer current says so and shows the entry as it now is; a
// retracted version stays in the history. An agent's own memory is a scope of its own ("Agent ·
// scribe"): a member writes it and its hits say whose it is, a viewer reads it but is offered no
// write, and a write the server refuses anyway shows the server's code.
// The test fails on any Content-Security-Policy violation in its page.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  OWNER,
  answerConfirmation,
  assertNoCspViolations,
  bootstrapThroughApi,
  commandAgent,
  embeddingModelDir,
  enrollAsShown,
  followMenu,
  launchBrowser,
  resetArtifacts,
  screenshot,
  signInAsOwner,
  startConnector,
  startServer,
  until,
  watch,
} from "./harness.mjs";

const WAIT = { timeout: 30_000 };
let server, api, browser, page, connector;

before(async () => {
  resetArtifacts();
  server = await startServer(undefined, { env: { ACC_MEMORY__EMBEDDING_MODEL_DIR: await embeddingModelDir() } });
  api = await bootstrapThroughApi(server);
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await watch(page);
});

afterEach(async () => {
  if (page && !page.isClosed()) await screenshot(page, "end-of-test");
  assertNoCspViolations(assert);
});

after(async () => {
  await browser?.close();
  connector?.stop();
  await server?.stop();
});

/** Fills in the page's form to write an entry, and sends it. */
async function fillIn(on, kind, subject, content) {
  await on.getByRole("combobox", { name: /^Kind\b/ }).selectOption({ label: kind });
  await on.getByLabel("Subject").fill(subject);
  await on.getByLabel("Content").fill(content);
  await on.getByRole("button", { name: "Write", exact: true }).click();
}

/** Writes an entry with the form of the page (or `on`) and waits for what the write did. */
async function write(kind, subject, content, on = page) {
  await fillIn(on, kind, subject, content);
  // The server keeps a subject normalized: lowercase, single spaces.
  const normalized = subject.trim().split(/\s+/).join(" ").toLowerCase();
  const written = on.getByTestId("memory-written").filter({ hasText: `“${normalized}”` });
  await written.waitFor(WAIT);
  return written;
}

const hits = () => page.locator(".memory-hit");

/** `at` as a date-time field holds it, in the browser's (this machine's) time zone, to the second. */
function localSecond(at) {
  const two = (n) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
}
const hit = (subject, on = page) => on.locator(".memory-hit", { has: on.getByRole("link", { name: subject, exact: true }) });

test("write, resolve a conflict by accepting the proposal, search, verify, and read the history", { timeout: 180_000 }, async () => {
  await page.goto(server.url);
  await signInAsOwner(page);

  // A workspace and a project, made as a person makes them.
  await followMenu(page, "Workspaces");
  await page.getByLabel("Workspace name").fill("Platform");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.getByRole("heading", { name: "Platform" }).waitFor(WAIT);
  await page.getByLabel("Project name").fill("Website");
  await page.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("link", { name: "Website" }).waitFor(WAIT);

  // The server loads its model in the background; until then it searches by words alone.
  await until(async () => (await api("{ memoryRetrievalMode }")).memoryRetrievalMode === "HYBRID", 120_000);
  await followMenu(page, "Memory");
  await page.getByRole("heading", { name: "Memory", exact: true }).waitFor(WAIT);
  await page.getByLabel("Search from").selectOption({ label: "Project: Platform / Website" });
  await page.getByTestId("memory-mode").getByText("Searching by words and meaning.").waitFor(WAIT);
  await page.getByText("Nothing is known here yet.").waitFor(WAIT);

  // Two entries, each current as soon as written; the most recently changed come first.
  const first = await write("Fact", "Deploy target", "The site deploys to the eu-west-1 cluster.");
  await first.getByText("Written: version 1 of “deploy target” is current.").waitFor(WAIT);
  const second = await write("Decision", "Release day", "Releases go out on Tuesdays, never on Fridays.");
  await second.getByText("Written: version 1 of “release day” is current.").waitFor(WAIT);
  await until(async () => (await hits().count()) === 2);
  assert.deepEqual(await hits().locator(".subject").allTextContents(), ["release day", "deploy target"]);
  await screenshot(page, "two-entries");

  // A contradiction does not replace what stands: it opens a conflict.
  const contradiction = await write("Fact", "deploy   TARGET", "The site deploys to the us-east-2 cluster since the move.");
  assert.equal(await contradiction.getAttribute("data-conflict"), "true");
  await contradiction.getByText(/already has a current version, so this write did not replace it: it waits as proposed version 2/).waitFor(WAIT);
  await hit("deploy target").getByText("eu-west-1").waitFor(WAIT);
  await screenshot(page, "conflict-opened");

  await contradiction.getByRole("link", { name: "Open “deploy target”" }).click();
  await page.getByRole("heading", { name: "deploy target" }).waitFor(WAIT);
  const open = page.locator('[data-conflict-id][data-status="OPEN"]');
  await open.getByText("eu-west-1").waitFor(WAIT);
  await open.getByText("us-east-2").waitFor(WAIT);
  await page.locator('tr[data-version="2"]').getByText("proposed").waitFor(WAIT);
  await screenshot(page, "entry-with-conflict");
  // A moment that the page's time field can name (to the second) between the first version and the accepted one.
  await new Promise((done) => setTimeout(done, 1100));
  const beforeAccept = localSecond(new Date());
  await new Promise((done) => setTimeout(done, 1100));
  await open.getByRole("button", { name: "Accept proposed" }).click();
  await page.locator('[data-conflict-id][data-status="RESOLVED"]').getByText("you accepted the proposal").waitFor(WAIT);
  const current = page.getByTestId("memory-current");
  await current.getByText("The site deploys to the us-east-2 cluster since the move.").waitFor(WAIT);
  await current.getByText("Version 2").waitFor(WAIT);

  // Back to the search from the entry's scope: a question finds it first, by its words and meaning.
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Memory" }).click();
  await page.getByLabel("Search memory").fill("Which cluster does the site deploy to?");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("heading", { name: "Found for “Which cluster does the site deploy to?”" }).waitFor(WAIT);
  await hits().first().getByRole("link", { name: "deploy target" }).waitFor(WAIT);
  await hits().first().getByText("us-east-2").waitFor(WAIT);
  assert.equal(await hits().first().getByTestId("found-by").textContent(), "found by words and meaning");
  await screenshot(page, "found");

  // As of before the proposal was accepted, memory said eu-west-1, found by words alone.
  await page.getByLabel(/^As of/).fill(beforeAccept);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("heading", { name: /^Found for “Which cluster does the site deploy to\?” as of / }).waitFor(WAIT);
  await hits().first().getByText("eu-west-1").waitFor(WAIT);
  assert.equal(await hits().first().getByTestId("found-by").textContent(), "found by words");
  assert.match(new URL(page.url()).search, /as-of=/);
  await screenshot(page, "found-as-of");
  await page.getByLabel(/^As of/).fill("");

  // Kinds narrow a search: decisions only, of the most recently changed.
  await page.getByLabel("Search memory").fill("");
  await page.getByRole("group", { name: /^Kinds/ }).getByLabel("Decision").check();
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("heading", { name: "Recently changed" }).waitFor(WAIT);
  await until(async () => (await hits().locator(".subject").allTextContents()).join() === "release day");
  assert.match(new URL(page.url()).search, /kind=DECISION/);

  // Back to the question, through the browser's history; verifying the entry shows in its history.
  await page.goBack();
  await page.getByRole("heading", { name: /^Found for/ }).waitFor(WAIT);
  await hit("deploy target").getByRole("link", { name: "deploy target" }).click();
  await current.getByRole("button", { name: "Verify" }).click();
  await current.getByText("Verified", { exact: true }).waitFor(WAIT);
  await current.getByText(/^by you, /).waitFor(WAIT);
  const latest = page.locator('tr[data-version="2"]');
  await latest.getByText("current").waitFor(WAIT);
  await latest.getByText("Verified", { exact: true }).waitFor(WAIT);
  await latest.getByText("us-east-2").waitFor(WAIT);
  const earlier = page.locator('tr[data-version="1"]');
  await earlier.getByText("replaced").waitFor(WAIT);
  await earlier.getByText("Unverified").waitFor(WAIT);
  await earlier.getByText("eu-west-1").waitFor(WAIT);
  assert.equal(await page.locator("tr[data-version]").count(), 2);
  await screenshot(page, "verified-history");

  // Someone disputes it elsewhere; a change from this page, made against what it last read, is
  // refused with a message, and the page shows the entry as it now stands.
  const entryId = new URL(page.url()).pathname.split("/").pop();
  const { memoryEntry } = await api("query($id: ID!) { memoryEntry(id: $id) { revision } }", { id: entryId });
  await api("mutation($id: ID!, $r: Int!) { verifyMemory(entryId: $id, expectedRevision: $r, verdict: DISPUTED) { id } }", {
    id: entryId,
    r: memoryEntry.revision,
  });
  await current.getByRole("button", { name: "Dispute" }).click();
  await page.getByTestId("memory-changed").getByText(/changed since you opened it, so your change was not made/).waitFor(WAIT);
  await current.getByText("Disputed", { exact: true }).waitFor(WAIT);
  await current.getByRole("button", { name: "Verify" }).waitFor(WAIT);
  await screenshot(page, "changed-meanwhile");

  // Retracted, the version stays in the history, withdrawn.
  await current.getByRole("button", { name: "Retract" }).click();
  await answerConfirmation(page, "Retract the version");
  await current.getByText(/^Retracted: it stays in the history/).waitFor(WAIT);
  await latest.getByText("Retracted", { exact: true }).waitFor(WAIT);
  assert.equal(await page.locator("tr[data-version]").count(), 2);
});

/** A page of its own on the Memory page, signed in as `person`. */
async function memoryAs(person) {
  const own = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await watch(own);
  await own.goto(`${server.url}/memory`);
  await own.getByLabel("Email").fill(person.email);
  await own.getByLabel("Password").fill(person.password);
  await own.getByRole("button", { name: "Sign in" }).click();
  await own.getByRole("heading", { name: "Memory", exact: true }).waitFor(WAIT);
  return own;
}

test("an agent's own memory: a member writes it, a viewer reads it, and a refused write says why", { timeout: 180_000 }, async () => {
  // A workspace whose connector offers the agent scribe; agents are listed through a project.
  const { createWorkspace } = await api('mutation { createWorkspace(name: "Agents") { id } }');
  const workspace = createWorkspace.id;
  const { createProject } = await api('mutation($w: ID!) { createProject(workspaceId: $w, name: "Notes") { id } }', { w: workspace });
  const { createEnrollmentToken } = await api('mutation($w: ID!) { createEnrollmentToken(workspaceId: $w, name: "memory-host") { token } }', {
    w: workspace,
  });
  const hostDir = join(server.dir, "host");
  const credential = await enrollAsShown(
    `ACC_ENROLL_TOKEN=${createEnrollmentToken.token} acc-connector enroll --server ${server.url} --name memory-host`,
    hostDir,
  );
  connector = startConnector(hostDir, credential, server.url, commandAgent("scribe", "read input"));
  const scribe = await until(async () => {
    const { agents } = await api("query($p: ID!) { agents(projectId: $p) { id name } }", { p: createProject.id });
    return agents.find((a) => a.name === "scribe");
  });

  // The owner stands in scribe's memory, empty so far, and writes there by default.
  const owner = await memoryAs(OWNER);
  await owner.getByLabel("Search from").selectOption({ label: "Agent · scribe" });
  await owner.getByText("Nothing is known here yet.").waitFor(WAIT);
  assert.equal(await owner.getByLabel("Write to").inputValue(), scribe.id);
  const written = await write("Preference", "Preferred shell", "Use bash in this repository, never zsh.", owner);
  await written.getByText("Written: version 1 of “preferred shell” is current.").waitFor(WAIT);
  const entry = hit("preferred shell", owner);
  await entry.locator(".badge", { hasText: "Agent · scribe" }).waitFor(WAIT);
  await screenshot(owner, "agent-memory");
  // The server keeps it to the agent's scope: searching from its workspace does not list it.
  await owner.getByLabel("Search from").selectOption({ label: "Workspace: Agents" });
  await owner.getByText("Nothing is known here yet.").waitFor(WAIT);
  await owner.getByLabel("Search from").selectOption({ label: "Agent · scribe" });
  await entry.getByRole("link", { name: "preferred shell" }).click();
  await owner.getByRole("heading", { name: "preferred shell" }).waitFor(WAIT);
  await owner.getByText("Agent · scribe", { exact: true }).waitFor(WAIT);
  // Its breadcrumb leads back to the agent's memory.
  await owner.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Memory" }).click();
  await hit("preferred shell", owner).waitFor(WAIT);
  assert.equal(await owner.getByLabel("Search from").inputValue(), scribe.id);
  await owner.context().close();

  // A viewer of the organization reads the agent's memory; nothing is offered to write to.
  const organization = (await api("{ viewer { organization { id } } }")).viewer.organization.id;
  const viewer = { email: "viola@acme.test", password: "correct horse battery staple" };
  await api("mutation($e: String!, $p: String!) { createUser(email: $e, password: $p, role: VIEWER) { id } }", { e: viewer.email, p: viewer.password });
  const viewing = await memoryAs(viewer);
  await viewing.getByLabel("Search from").selectOption({ label: "Agent · scribe" });
  await hit("preferred shell", viewing).getByText("never zsh").waitFor(WAIT);
  await viewing.getByTestId("memory-read-only").getByText("writing takes a member or above").waitFor(WAIT);
  assert.equal(await viewing.getByLabel("Write to").count(), 0);
  await screenshot(viewing, "agent-memory-viewer");
  await viewing.context().close();

  // A member may write there, until the owner makes them a viewer behind the page's back: the
  // write is then refused, and the page says so with the server's code.
  const member = { email: "milo@acme.test", password: "correct horse battery staple" };
  const { createUser } = await api("mutation($e: String!, $p: String!) { createUser(email: $e, password: $p, role: MEMBER) { id } }", {
    e: member.email,
    p: member.password,
  });
  const writing = await memoryAs(member);
  await writing.getByLabel("Search from").selectOption({ label: "Agent · scribe" });
  assert.equal(await writing.getByLabel("Write to").inputValue(), scribe.id);
  await api("mutation($u: ID!, $o: ID!) { revokeRole(subjectId: $u, role: MEMBER, scopeId: $o) grantRole(subjectId: $u, role: VIEWER, scopeId: $o) { id } }", {
    u: createUser.id,
    o: organization,
  });
  await fillIn(writing, "Fact", "Build command", "make all");
  const refused = writing.getByRole("alert");
  await refused.getByTestId("error-code").getByText("FORBIDDEN").waitFor(WAIT);
  assert.equal(await writing.getByTestId("memory-written").count(), 0);
  await screenshot(writing, "agent-memory-refused");
  await writing.context().close();
});
