// Artifacts on the task page, in headless Chromium against a real `acc`: a person uploads a file
// through the page and sees it listed as version 1; the same name again makes version 2; the
// latest and an earlier version download through the page with the bytes that were uploaded; a
// name that is not a relative path, and a file over the server's limit, are refused with the
// server's reason and nothing is added; nothing can be uploaded while the browser is offline; a name with
// folders downloads as its last part. The card passes axe and fits a phone.
// The test fails on any Content-Security-Policy violation in its pages.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  WIDTHS,
  assertAccessible,
  assertFitsPhone,
  assertNoCspViolations,
  bootstrapThroughApi,
  followMenu,
  launchBrowser,
  resetArtifacts,
  screenshot,
  signInAsOwner,
  startServer,
  watch,
} from "./harness.mjs";

const WAIT = { timeout: 30_000 };
// Small, so that a test file can be over it.
const MAX_UPLOAD_BYTES = 64 * 1024;
let server, api, browser, page;

before(async () => {
  resetArtifacts();
  server = await startServer(undefined, { env: { ACC_ARTIFACTS__MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES) } });
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

const card = () => page.getByTestId("task-artifacts");
const form = () => page.getByRole("form", { name: "Upload an artifact" });
const listed = () => card().locator("[data-artifact]");
const artifact = (name) => card().locator(`[data-artifact="${name}"]`);

/** Chooses a file of `content` named `file` in the upload form, names it `name` if given, and uploads it. */
async function upload(file, content, name) {
  await form().getByLabel("File", { exact: true }).setInputFiles({ name: file, mimeType: "text/plain", buffer: Buffer.from(content) });
  // The name follows the chosen file until the person types another.
  assert.equal(await form().getByLabel("Name", { exact: true }).inputValue(), file);
  if (name !== undefined) await form().getByLabel("Name", { exact: true }).fill(name);
  await form().getByRole("button", { name: "Upload" }).click();
}

/** Clicks `button` and returns the file the browser saved: its name and bytes. */
async function downloadBy(button) {
  const [download] = await Promise.all([page.waitForEvent("download", WAIT), button.click()]);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

test("upload versions, download them, and see refusals with the server's reason", { timeout: 180_000 }, async () => {
  await page.goto(server.url);
  await signInAsOwner(page);

  // A workspace, a project and a task, made as a person makes them.
  await followMenu(page, "Workspaces");
  await page.getByLabel("Workspace name").fill("Platform");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.getByRole("heading", { name: "Platform" }).waitFor(WAIT);
  await page.getByLabel("Project name").fill("Website");
  await page.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("link", { name: "Website" }).click();
  await page.getByLabel("Task title").fill("Write the release notes");
  await page.getByRole("button", { name: "Add task" }).click();
  await page.locator(".task-card").getByRole("link", { name: "Write the release notes" }).click();
  await page.getByRole("heading", { name: "Write the release notes", level: 1 }).waitFor(WAIT);
  await card().getByText("No artifacts yet.").waitFor(WAIT);
  const taskId = new URL(page.url()).pathname.split("/").pop();

  // The first upload makes the artifact, version 1.
  const first = "Release 1.4\n- faster boards\n";
  await upload("notes.txt", first);
  await form().getByTestId("artifact-uploaded").getByText("Uploaded version 1 of “notes.txt”.").waitFor(WAIT);
  await artifact("notes.txt").getByTestId("artifact-version").getByText("Version 1").waitFor(WAIT);
  const facts = artifact("notes.txt").locator(".facts");
  await facts.getByText(`${first.length} B`, { exact: true }).waitFor(WAIT);
  await facts.getByText("updated just now").waitFor(WAIT);
  // The form is empty again, for the next file.
  assert.equal(await form().getByLabel("Name", { exact: true }).inputValue(), "");

  // The same name again adds version 2, with other bytes.
  const second = "Release 1.4\n- faster boards\n- artifacts on the task page\n";
  await upload("notes.txt", second);
  await form().getByTestId("artifact-uploaded").getByText("Uploaded version 2 of “notes.txt”.").waitFor(WAIT);
  await artifact("notes.txt").getByTestId("artifact-version").getByText("Version 2").waitFor(WAIT);
  assert.equal(await listed().count(), 1);

  // Every version, newest first, in the artifact's history.
  await artifact("notes.txt").getByText("All 2 versions").click();
  const versions = artifact("notes.txt").locator("tr[data-version]");
  await versions.nth(1).waitFor(WAIT);
  assert.deepEqual(await versions.evaluateAll((rows) => rows.map((r) => r.dataset.version)), ["2", "1"]);
  assert.match(await versions.first().getByTestId("version-digest").textContent(), /^[0-9a-f]{12}$/);
  await screenshot(page, "two-versions");

  // The latest downloads through the page, with the bytes uploaded; so does the earlier one.
  const latest = await downloadBy(artifact("notes.txt").getByRole("button", { name: "Download version 2 of notes.txt" }).first());
  assert.equal(latest.name, "notes.txt");
  assert.equal(latest.bytes.toString(), second);
  const earlier = await downloadBy(artifact("notes.txt").locator('tr[data-version="1"]').getByRole("button", { name: /^Download/ }));
  assert.equal(earlier.bytes.toString(), first);

  // A name that climbs out of its folder is refused with the server's reason; nothing is added.
  await upload("escape.txt", "out", "../escape.txt");
  const refused = form().getByRole("alert");
  await refused.getByText("an artifact's name has no `.` or `..` part").waitFor(WAIT);
  assert.equal(await refused.getByTestId("error-code").textContent(), "VALIDATION");
  await refused.getByTestId("correlation-id").waitFor(WAIT);
  assert.equal(await form().getByTestId("artifact-uploaded").count(), 0);
  assert.equal(await listed().count(), 1);
  await screenshot(page, "bad-name");

  // So is a file over the server's limit, which the page tells as a size.
  await form().getByLabel("Name", { exact: true }).fill("");
  await upload("big.bin", "x".repeat(MAX_UPLOAD_BYTES + 1));
  await form().getByRole("alert").getByText("The file is too large: an artifact is at most 64 KB. Nothing was kept.").waitFor(WAIT);
  assert.equal(await listed().count(), 1);

  // Offline, nothing can be uploaded; back online, it can.
  await page.context().setOffline(true);
  await form().getByRole("button", { name: "Upload" }).and(page.locator("[disabled]")).waitFor(WAIT);
  await card().getByText("Offline: uploading and downloading need the server.").waitFor(WAIT);
  await page.context().setOffline(false);
  await form().getByRole("button", { name: "Upload" }).and(page.locator(":not([disabled])")).waitFor(WAIT);

  // A name with folders is kept whole, and its download is saved as its last part.
  await form().getByLabel("Name", { exact: true }).fill("");
  await upload("summary.md", "# Summary\n", "reports/summary.md");
  await form().getByTestId("artifact-uploaded").getByText("Uploaded version 1 of “reports/summary.md”.").waitFor(WAIT);
  const summary = await downloadBy(artifact("reports/summary.md").getByRole("button", { name: "Download version 1 of reports/summary.md" }).first());
  assert.equal(summary.name, "summary.md");
  assert.equal(summary.bytes.toString(), "# Summary\n");

  // The server holds what the page shows.
  const { node } = await api("query($id: ID!) { node(id: $id) { ... on Task { project { id } } } }", { id: taskId });
  const { artifacts } = await api("query($p: ID!, $t: ID) { artifacts(projectId: $p, taskId: $t) { nodes { name revision } } }", {
    p: node.project.id,
    t: taskId,
  });
  assert.deepEqual(artifacts.nodes, [
    { name: "notes.txt", revision: 2 },
    { name: "reports/summary.md", revision: 1 },
  ]);

  await artifact("reports/summary.md").getByText("1 version", { exact: true }).click();
  await assertAccessible(page, "desktop task with artifacts");
  await screenshot(page, "artifacts");

  // On a phone the card fits, its versions a list of cards.
  const phone = await (await browser.newContext(WIDTHS.phone)).newPage();
  await watch(phone);
  await phone.goto(`${server.url}/tasks/${taskId}`);
  await signInAsOwner(phone);
  const onPhone = phone.getByTestId("task-artifacts");
  await onPhone.locator('[data-artifact="notes.txt"]').getByText("All 2 versions").click();
  await onPhone.locator('[data-artifact="notes.txt"] tr[data-version="1"]').waitFor(WAIT);
  await assertAccessible(phone, "phone task with artifacts");
  await assertFitsPhone(phone, "task with artifacts");
  await screenshot(phone, "phone-artifacts");
  await phone.context().close();
});
