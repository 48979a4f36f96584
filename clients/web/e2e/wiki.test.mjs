// The wiki in headless Chromium against a real `acc`: a person makes a namespace in a project,
// writes a page with a live preview, and reads it rendered; Markdown carrying scripts, event
// handlers, frames, inline styles and `javascript:` links is rendered inert (nothing runs, no
// such element or attribute reaches the page, no Content-Security-Policy violation); an edit
// makes revision 2 and the history shows its diff; a link written to the page shows as a backlink.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { assertAccessible, assertNoCspViolations, bootstrapThroughApi, followMenu, gql, launchBrowser, screenshot, signInAsOwner, startServer, watch } from "./harness.mjs";

const WAIT = { timeout: 30_000 };
let server, api, browser, page;

before(async () => {
  server = await startServer();
  api = await bootstrapThroughApi(server);
  const { createWorkspace } = await api('mutation { createWorkspace(name: "Platform") { id } }');
  await api('mutation($w: ID!) { createProject(workspaceId: $w, name: "Website") { id } }', { w: createWorkspace.id });
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

const XSS = [
  "# Runbook",
  "",
  "Steps to [[Roll Back]].",
  "",
  "<script>window.__xss = 'script'</script>",
  '<img src="x" onerror="window.__xss = \'img\'">',
  '<iframe src="javascript:window.__xss = \'frame\'"></iframe>',
  '<p style="position:fixed;inset:0">covered</p>',
  "[click me](javascript:window.__xss='link')",
  '<a href="javascript:window.__xss=\'anchor\'" onclick="window.__xss=\'click\'">anchor</a>',
  '<svg><script>window.__xss = "svg"</script></svg>',
].join("\n");

/** What the rendered page holds that could run or restyle, and whether anything ran. */
async function dangers(where) {
  return where.evaluate((el) => ({
    ran: window.__xss ?? null,
    scripts: el.querySelectorAll("script, iframe, object, embed, style").length,
    handlers: [...el.querySelectorAll("*")].flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith("on") || a.name === "style").map((a) => a.name)),
    scriptLinks: [...el.querySelectorAll("a")].filter((a) => (a.getAttribute("href") ?? "").trim().toLowerCase().startsWith("javascript:")).length,
  }));
}

test("write, read, edit and compare a wiki page; hostile Markdown is inert", { timeout: 180_000 }, async () => {
  await page.goto(server.url);
  await signInAsOwner(page);
  await followMenu(page, "Wiki");
  await page.getByRole("heading", { name: "Wiki", exact: true }).waitFor(WAIT);
  await page.getByLabel("Wiki of").selectOption({ label: "Project: Platform / Website" });
  await page.getByLabel("Namespace name").fill("Runbooks");
  await page.getByRole("button", { name: "Create namespace" }).click();
  await page.getByText("No page in this namespace yet.").waitFor(WAIT);

  const editor = page.getByRole("form", { name: "New page" });
  await editor.getByLabel("Path").fill("Ops/Deploy");
  await editor.getByLabel("Title").fill("Deploy runbook");
  await editor.getByLabel("Markdown").fill(XSS);
  const preview = editor.getByLabel("Preview");
  await preview.getByRole("heading", { name: "Runbook" }).waitFor(WAIT);
  assert.deepEqual(await dangers(preview), { ran: null, scripts: 0, handlers: [], scriptLinks: 0 }, "the preview is inert");
  await editor.getByRole("button", { name: "Save" }).click();

  await page.getByRole("heading", { name: "Deploy runbook", level: 1 }).waitFor(WAIT);
  const rendered = page.getByLabel("Page", { exact: true });
  await rendered.getByRole("heading", { name: "Runbook" }).waitFor(WAIT);
  assert.ok((await rendered.textContent()).includes("<script>window.__xss"), "raw HTML shows as text");
  assert.deepEqual(await dangers(rendered), { ran: null, scripts: 0, handlers: [], scriptLinks: 0 }, "the page is inert");
  await page.getByText("roll-back (not written yet)").waitFor(WAIT);
  await page.getByTestId("wiki-revision").getByText("revision 1").waitFor(WAIT);
  await assertAccessible(page, "a wiki page");

  // The edit is revision 2, and the history compares it with revision 1.
  await page.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("form", { name: "Edit “Deploy runbook”" });
  await edit.getByLabel("Markdown").fill(`${XSS}\n\nWatch the error rate for ten minutes.`);
  await edit.getByRole("button", { name: "Save" }).click();
  await page.getByTestId("wiki-revision").getByText("revision 2").waitFor(WAIT);
  await page.getByTestId("wiki-diff").getByText("+Watch the error rate for ten minutes.").waitFor(WAIT);
  // The old last line had no line break after it: it counts as changed, beside the blank line and the new one.
  assert.equal(await page.getByTestId("wiki-diff-counts").textContent(), "3 added, 1 removed");
  const ranAfterEdit = await page.evaluate(() => window.__xss ?? null);
  assert.equal(ranAfterEdit, null, "nothing ran after the edit either");

  // A file attached to the page (a hostile one), its next version under the same name, and a
  // download of what was attached: saved as a file, never opened as a page.
  const attachments = page.getByRole("region", { name: "Attachments" });
  const attachForm = page.getByRole("form", { name: "Attach a file" });
  const svg = (n) => `<svg xmlns="http://www.w3.org/2000/svg"><script>window.__xss = ${n}</script></svg>`;
  for (const n of [1, 2]) {
    await attachForm.getByLabel("File", { exact: true }).setInputFiles({ name: "flow.svg", mimeType: "image/svg+xml", buffer: Buffer.from(svg(n)) });
    await attachForm.getByLabel("Name", { exact: true }).fill("diagrams/flow.svg");
    await attachForm.getByRole("button", { name: "Upload" }).click();
    await attachForm.getByText(`Attached version ${n} of “diagrams/flow.svg”.`).waitFor(WAIT);
  }
  const attached = attachments.locator('[data-attachment="diagrams/flow.svg"]');
  const latest = attached.getByRole("button", { name: "Download version 2 of diagrams/flow.svg" });
  await latest.waitFor(WAIT);
  assert.equal(await attachments.locator("[data-attachment]").count(), 1);
  const [download] = await Promise.all([
    page.waitForEvent("download", WAIT),
    latest.click(),
  ]);
  assert.equal(download.suggestedFilename(), "flow.svg");
  assert.equal(await readFile(await download.path(), "utf8"), svg(2));
  assert.equal(await page.evaluate(() => window.__xss ?? null), null, "nothing of the attachment ran");

  // Another page links to this one by another spelling of its path: it shows as a backlink.
  const pageUrl = page.url();
  const { wikiNamespaces } = await api('query($s: ID!) { wikiNamespaces(scopeId: $s) { id } }', {
    s: (await api("{ workspaces { nodes { projects { nodes { id } } } } }")).workspaces.nodes[0].projects.nodes[0].id,
  });
  await api("mutation($i: SaveWikiPageInput!) { saveWikiPage(input: $i) { id } }", {
    i: { namespaceId: wikiNamespaces[0].id, path: "index", title: "Index", source: "Start at [[ops/deploy]]." },
  });
  await page.goto(pageUrl);
  await page.getByRole("list", { name: "Linked from" }).getByRole("link", { name: "Index" }).waitFor(WAIT);

  // The wiki's search finds both pages by a word of each.
  await followMenu(page, "Wiki");
  await page.getByLabel("Wiki of").selectOption({ label: "Project: Platform / Website" });
  await page.getByLabel("Search the wiki").fill("error start");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const found = page.getByRole("list", { name: "Found pages" });
  await found.getByRole("link", { name: "Deploy runbook" }).waitFor(WAIT);
  await found.getByRole("link", { name: "Index" }).waitFor(WAIT);
  // This server has no embedding model: words found them.
  assert.deepEqual(await found.getByTestId("found-by").allTextContents(), ["found by words", "found by words"]);

  // The namespace kept to its owner: the others with a role here no longer read it.
  const access = page.getByTestId("namespace-access");
  await access.getByText("Read by everyone with a role here.").waitFor(WAIT);
  await access.getByText("Who may read", { exact: true }).click();
  const people = page.getByRole("form", { name: "Who may read this namespace" });
  await people.getByRole("checkbox").first().check();
  await people.getByRole("button", { name: "Save who may read" }).click();
  await access.getByText(/^Kept to .+ and the administrators\.$/).waitFor(WAIT);
});

// An authoritative namespace publishes only through a review someone other than the author
// approves: a member's draft waits in the owner's inbox, and approving it publishes the page; the
// owner's own draft is sent for review from its page, and the owner cannot approve it.
test("a review in the approvals inbox publishes a draft; an author cannot approve their own", { timeout: 180_000 }, async () => {
  const { workspaces } = await api("{ workspaces { nodes { id } } }");
  const { createWikiNamespace: handbook } = await api(
    'mutation($s: ID!) { createWikiNamespace(scopeId: $s, name: "Handbook", authoritative: true) { id } }',
    { s: workspaces.nodes[0].id },
  );
  await api('mutation { createUser(email: "rita@acme.test", password: "correct horse battery staple", role: MEMBER) { id } }');
  const { login } = await gql(server.url, 'mutation { login(email: "rita@acme.test", password: "correct horse battery staple") { accessToken } }');
  const asRita = (query, variables) => gql(server.url, query, variables, login.accessToken);
  const save = "mutation($i: SaveWikiPageInput!) { saveWikiPage(input: $i) { id } }";
  const { saveWikiPage: leave } = await asRita(save, { i: { namespaceId: handbook.id, path: "leave", title: "Leave policy", source: "25 days." } });
  await asRita("mutation($p: ID!) { requestWikiReview(pageId: $p) { id } }", { p: leave.id });
  const { saveWikiPage: travel } = await api(save, { i: { namespaceId: handbook.id, path: "travel", title: "Travel policy", source: "Book by train." } });

  // The owner's own draft: sent for review from its page.
  await page.goto(`${server.url}/wiki/pages/${travel.id}`);
  await page.getByRole("heading", { name: "Travel policy", level: 1 }).waitFor(WAIT);
  await page.getByRole("button", { name: "Ask for a review of revision 1" }).click();
  await page.getByTestId("wiki-review-requested").waitFor(WAIT);

  await followMenu(page, "Approvals");
  const inbox = page.getByRole("list", { name: "Pending approvals" });
  const ritas = inbox.locator("li", { hasText: "Leave policy" });
  await ritas.getByText("rita@acme.test").waitFor(WAIT);
  await ritas.getByText("asks to publish revision 1 of “Leave policy”").waitFor(WAIT);
  const own = inbox.locator("li", { hasText: "Travel policy" });
  await own.getByRole("button", { name: "Approve" }).click();
  await own.getByText("another person must review it").waitFor(WAIT);
  await assertAccessible(page, "the approvals inbox with wiki reviews");

  await ritas.getByLabel("Reason (shown to the requester)").fill("Matches the contract");
  await ritas.getByRole("button", { name: "Approve" }).click();
  await ritas.waitFor({ state: "detached", ...WAIT });
  await page.goto(`${server.url}/wiki/pages/${leave.id}`);
  await page.getByRole("heading", { name: "Leave policy", level: 1 }).waitFor(WAIT);
  await page.getByTestId("wiki-revision").getByText("revision 1").waitFor(WAIT);
  assert.equal(await page.getByText("Draft", { exact: true }).count(), 0, "published: no longer a draft");
  const { node } = await api("query($p: ID!) { node(id: $p) { ... on WikiPage { publishedRevision } } }", { p: leave.id });
  assert.equal(node.publishedRevision, 1);
});

test("a page moved to another path keeps its links and backlinks", { timeout: 120_000 }, async () => {
  const { workspaces } = await api("{ workspaces { nodes { id } } }");
  const { createWikiNamespace: notes } = await api(
    'mutation($s: ID!) { createWikiNamespace(scopeId: $s, name: "Notes", authoritative: false) { id } }',
    { s: workspaces.nodes[0].id },
  );
  const save = "mutation($i: SaveWikiPageInput!) { saveWikiPage(input: $i) { id } }";
  const { saveWikiPage: deploy } = await api(save, { i: { namespaceId: notes.id, path: "deploy", title: "Deploy", source: "Ship it." } });
  const { saveWikiPage: runbook } = await api(save, { i: { namespaceId: notes.id, path: "runbook", title: "Runbook", source: "First [[deploy]]." } });

  await page.goto(`${server.url}/wiki/pages/${deploy.id}`);
  await page.getByRole("heading", { name: "Deploy", level: 1 }).waitFor(WAIT);
  await page.getByRole("button", { name: "Rename" }).click();
  const form = page.getByRole("form", { name: "Rename the page" });
  await form.getByLabel("New path").fill("guides/deploy");
  await form.getByRole("button", { name: "Move" }).click();
  await page.getByTestId("wiki-revision").getByText("revision 2").waitFor(WAIT);
  await page.getByText("guides/deploy", { exact: true }).waitFor(WAIT);
  await page.getByRole("list", { name: "Linked from" }).getByRole("link", { name: "Runbook" }).waitFor(WAIT);

  // The page that links to the old path still reaches it.
  await page.goto(`${server.url}/wiki/pages/${runbook.id}`);
  await page.getByRole("heading", { name: "Runbook", level: 1 }).waitFor(WAIT);
  await page.getByRole("link", { name: "Deploy", exact: true }).click();
  await page.getByRole("heading", { name: "Deploy", level: 1 }).waitFor(WAIT);
});
