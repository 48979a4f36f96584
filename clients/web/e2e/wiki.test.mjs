// The wiki in headless Chromium against a real `acc`: a person makes a namespace in a project,
// writes a page with a live preview, and reads it rendered; Markdown carrying scripts, event
// handlers, frames, inline styles and `javascript:` links is rendered inert (nothing runs, no
// such element or attribute reaches the page, no Content-Security-Policy violation); an edit
// makes revision 2 and the history shows its diff; a link written to the page shows as a backlink.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { assertAccessible, assertNoCspViolations, bootstrapThroughApi, followMenu, launchBrowser, screenshot, signInAsOwner, startServer, watch } from "./harness.mjs";

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
});
