// Skills in headless Chromium against a real `acc`: an administrator imports an unsigned package
// (a .tar.gz built here), sees it quarantined, approves it with a reason, activates it in a
// project and finds it among what applies there and on a run started there; a garbled archive is
// refused with its error.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { OWNER, assertAccessible, assertNoCspViolations, bootstrapThroughApi, followMenu, gql, launchBrowser, screenshot, signInAsOwner, startServer, until, watch } from "./harness.mjs";

const WAIT = { timeout: 30_000 };
let server, api, browser, page;

/** A .tar.gz holding `files` ({path: text}) at its root: ustar headers, then each file padded to 512 bytes. */
function tarGz(files) {
  const blocks = [];
  for (const [path, text] of Object.entries(files)) {
    const body = Buffer.from(text, "utf8");
    const header = Buffer.alloc(512);
    header.write(path, 0);
    header.write("0000644\0", 100);
    header.write("0000000\0", 108);
    header.write("0000000\0", 116);
    header.write(`${body.length.toString(8).padStart(11, "0")}\0`, 124);
    header.write("00000000000\0", 136);
    header.write("        ", 148);
    header.write("0", 156);
    header.write("ustar\0", 257);
    header.write("00", 263);
    const sum = header.reduce((a, b) => a + b, 0);
    header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    blocks.push(header, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

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

test("import a skill, approve it out of quarantine and activate it in a project", { timeout: 180_000 }, async () => {
  await page.goto(server.url);
  await signInAsOwner(page);
  await followMenu(page, "Skills");
  await page.getByRole("heading", { name: "Skills", exact: true }).waitFor(WAIT);
  await page.getByText("No skill imported yet.").waitFor(WAIT);

  const form = page.getByRole("form", { name: "Import a skill" });
  await form.getByLabel("Package (.zip or .tar.gz)").setInputFiles({ name: "broken.zip", mimeType: "application/zip", buffer: Buffer.from("not a zip") });
  await form.getByRole("button", { name: "Import" }).click();
  await form.getByRole("alert").getByText("VALIDATION").waitFor(WAIT);

  const archive = tarGz({
    "SKILL.md": "---\nname: release-notes\ndescription: Writes release notes from merged pull requests.\n---\n\n# Release notes\n",
    "references/style.md": "Short lines.\n",
  });
  await form.getByLabel("Package (.zip or .tar.gz)").setInputFiles({ name: "release-notes.tar.gz", mimeType: "application/gzip", buffer: archive });
  await form.getByRole("button", { name: "Import" }).click();
  await page.getByTestId("skill-imported").getByText("Imported release-notes version 1: quarantined.").waitFor(WAIT);

  const version = page.locator('[data-skill="release-notes"] [data-version="1"]');
  await version.getByText("Quarantined").waitFor(WAIT);
  await version.getByText("unsigned", { exact: false }).waitFor(WAIT);
  await assertAccessible(page, "the skills page");
  await version.getByLabel("Reason").fill("Read both files");
  await version.getByRole("button", { name: "Approve" }).click();
  await version.getByText("Approved").waitFor(WAIT);
  await version.getByText("Review: Read both files").waitFor(WAIT);

  await version.getByLabel("Activate in").selectOption({ label: "Project: Platform / Website" });
  await version.getByRole("button", { name: "Activate" }).click();
  await version.getByTestId("skill-activated").getByText("Active.").waitFor(WAIT);

  const applying = page.getByRole("region", { name: "What applies" });
  await applying.getByLabel("In").selectOption({ label: "Project: Platform / Website" });
  await applying.getByRole("list", { name: "Active skills" }).getByText("Writes release notes from merged pull requests. (version 1)").waitFor(WAIT);
  const { skills } = await api("{ skills { nodes { name versions { reviewState } } } }");
  assert.deepEqual(skills.nodes, [{ name: "release-notes", versions: [{ reviewState: "APPROVED" }] }]);

  // A run started in the project shows the skill it was started with.
  const { workspaces } = await api("{ workspaces { nodes { projects { nodes { id } } } } }");
  const { createTask } = await api('mutation($p: ID!) { createTask(input: { projectId: $p, title: "Release 1.2" }) { id } }', {
    p: workspaces.nodes[0].projects.nodes[0].id,
  });
  const { startRun } = await api("mutation($t: ID!) { startRun(taskId: $t) { id } }", { t: createTask.id });
  await page.goto(`${server.url}/runs/${startRun.id}`);
  await page.getByRole("list", { name: "Skills it was started with" }).getByText("release-notes 1").waitFor(WAIT);
});

test("more skills than a page holds: the rest come with Show more", { timeout: 120_000 }, async () => {
  const { login } = await gql(server.url, "mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken } }", {
    e: OWNER.email,
    p: OWNER.password,
  });
  const { skills: before } = await api("{ skills(first: 100) { nodes { id } } }");
  for (let i = 1; i <= 21; i++) {
    const name = `bulk-${String(i).padStart(2, "0")}`;
    const response = await fetch(`${server.url}/v1/skills`, {
      method: "POST",
      headers: { Authorization: `Bearer ${login.accessToken}` },
      body: tarGz({ "SKILL.md": `---\nname: ${name}\ndescription: Bulk skill ${i}.\n---\n\n# ${name}\n` }),
    });
    assert.equal(response.status, 201, await response.text());
  }
  const total = before.nodes.length + 21;
  await page.goto(`${server.url}/skills`);
  const listed = page.getByRole("list", { name: "Skills", exact: true }).locator(":scope > li[data-skill]");
  await page.getByRole("button", { name: "Show more skills" }).waitFor(WAIT);
  assert.equal(await listed.count(), 20, "one page");
  await page.getByRole("button", { name: "Show more skills" }).click();
  await until(async () => (await listed.count()) === total);
  assert.equal(await page.getByRole("button", { name: "Show more skills" }).count(), 0, "nothing more to show");
});
