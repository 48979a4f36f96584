// Memory in the web client, in headless Chromium against a real `acc` that searches by words and
// meaning (its embedding model fetched once per machine, as the Rust tests do): a person writes
// two entries through the page; a contradicting write opens a conflict instead of replacing the
// current version, and accepting the proposal makes it current; a search finds the entry, filters
// narrow it by kind, a search as of a time before the proposal was accepted finds what the entry
// said then, and verifying it shows in its history of both versions; a change made
// against a revision that is no longer current says so and shows the entry as it now is; a
// retracted version stays in the history.
// The test fails on any Content-Security-Policy violation in its page.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  answerConfirmation,
  assertNoCspViolations,
  bootstrapThroughApi,
  embeddingModelDir,
  followMenu,
  launchBrowser,
  resetArtifacts,
  screenshot,
  signInAsOwner,
  startServer,
  until,
  watch,
} from "./harness.mjs";

const WAIT = { timeout: 30_000 };
let server, api, browser, page;

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
  await server?.stop();
});

/** Writes an entry with the page's form and waits for what the write did. */
async function write(kind, subject, content) {
  await page.getByRole("combobox", { name: /^Kind\b/ }).selectOption({ label: kind });
  await page.getByLabel("Subject").fill(subject);
  await page.getByLabel("Content").fill(content);
  await page.getByRole("button", { name: "Write", exact: true }).click();
  // The server keeps a subject normalized: lowercase, single spaces.
  const normalized = subject.trim().split(/\s+/).join(" ").toLowerCase();
  const written = page.getByTestId("memory-written").filter({ hasText: `“${normalized}”` });
  await written.waitFor(WAIT);
  return written;
}

const hits = () => page.locator(".memory-hit");

/** `at` as a date-time field holds it, in the browser's (this machine's) time zone, to the second. */
function localSecond(at) {
  const two = (n) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
}
const hit = (subject) => page.locator(".memory-hit", { has: page.getByRole("link", { name: subject, exact: true }) });

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
