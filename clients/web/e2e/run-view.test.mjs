// The run page as a build log, in headless Chromium against a real `acc` and `acc-connector`, at
// desktop and phone widths: an approval is decided on the run's own page and the run goes on,
// its duration ticks while it runs and stops when it ends; the log marks stderr and errors, opens
// a tool call to its JSON, searches with a count, jumps to the first error and downloads as text
// and as JSON lines; the Context card shows what the agent was given once the run is dispatched;
// the Files card lists what the run's agent attached as soon as the run's log says so, the run's
// own versions alone, and downloads them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  CAREFUL,
  OWNER,
  WIDTHS,
  assertAccessible,
  assertFitsPhone,
  commandAgent,
  gql,
  screenshot,
  serverForTests,
  startConnector,
  subscribedTo,
  until,
} from "./harness.mjs";

/** Prints a JSON event of `kind` as a control line (printf, since sh's echo reads `\n`). */
const say = (kind, data) => `printf '%s\\n' '${JSON.stringify({ acc: "event", kind, data })}'`;

// What an agent with tools reports, around a long build whose one error is far from its end.
const BUILDER = commandAgent(
  "builder",
  [
    "read input",
    say("message", { role: "assistant", text: "I will build the site.\nThen upload it." }),
    say("tool_call", { id: "t1", name: "Bash", input: { command: "make build", timeout: 600 } }),
    say("tool_result", { tool_use_id: "t1", output: "built 12 pages", exit_code: 0, is_error: false }),
    say("file_change", { path: "public/index.html", kind: "update" }),
    say("usage", { source: "runtime", input_tokens: 1200, output_tokens: 340, tokens: "reported" }),
    "seq 1 150 | sed 's/^/building page /'",
    `echo '        an indented line, long enough to wrap on a phone and on a desktop too: ${"and on ".repeat(40)}'`,
    "echo 'warning: the cache is cold' >&2",
    say("error", { message: "the deploy key was refused" }),
    "seq 1 150 | sed 's/^/uploading file /'",
  ].join("\n"),
  true,
);

/** Does its work at once and ends. */
const READER = commandAgent("reader", "echo 'read the context'");

const WAIT = { timeout: 30_000 };

const AGENTS = CAREFUL + BUILDER + READER;
const suite = serverForTests(AGENTS);
const { runUntil } = suite;

const duration = (page) => page.getByTestId("run-duration").locator(".elapsed");

// The desktop approves and the phone denies: either way the agent is told, and the run goes on.
for (const [width, decision] of [
  ["desktop", "Approve"],
  ["phone", "Deny"],
]) {
  test(`${width}: a pending approval is decided on the run page (${decision}), and the run goes on; its duration ticks, then stops`, { timeout: 90_000 }, async () => {
    const run = await runUntil(suite.ids.careful, "WAITING_APPROVAL");
    const page = await suite.signedIn(width, `/runs/${run}`);
    await page.getByTestId("run-status").getByText("Waiting approval").waitFor(WAIT);
    await page.getByRole("heading", { name: "Deploy the site" }).waitFor(WAIT);
    assert.match(await page.getByTestId("run-attempt").textContent(), /^attempt 1 of \d+$/);
    await page.getByText("Run on careful").waitFor(WAIT);

    // While the run waits, its duration counts up.
    assert.equal(await duration(page).getAttribute("data-ticking"), "true");
    const before = await duration(page).textContent();
    await until(async () => (await duration(page).textContent()) !== before, 5_000);

    const card = page.getByTestId("run-approvals").locator(".approval", { hasText: "deploy the site" });
    await card.getByText("Because: the test asks").waitFor(WAIT);
    await screenshot(page, `${width}-run-approval-inline`);
    if (width === "phone") await assertFitsPhone(page, "the run with its approval");
    await card.getByLabel(/^Reason/).fill(`${decision.toLowerCase()}d from the run page`);
    await card.getByRole("button", { name: decision, exact: true }).click();

    // The card leaves as the decision is made, and the agent goes on with the answer it got.
    await card.waitFor({ state: "detached", ...WAIT });
    await page.getByTestId("run-status").getByText("Succeeded").waitFor(WAIT);
    const approved = decision === "Approve";
    await page.locator(".event", { hasText: `"approved":${approved}` }).waitFor(WAIT);
    const approvals = page.locator("article", { has: page.getByRole("heading", { name: "Approvals" }) });
    await approvals.locator("li", { hasText: "deploy the site" }).getByText(approved ? "Approved" : "Denied").waitFor(WAIT);
    const { node } = await suite.api("query($id: ID!) { node(id: $id) { ... on TaskRun { approvals { status decisionReason } } } }", { id: run });
    assert.deepEqual(node.approvals, [{ status: approved ? "APPROVED" : "DENIED", decisionReason: `${decision.toLowerCase()}d from the run page` }]);

    // Once it ended, the duration is what the run took, and stays so.
    await page.locator('.elapsed[data-ticking="false"]').waitFor(WAIT);
    const took = await duration(page).textContent();
    assert.equal(await page.getByTestId("run-duration").textContent(), `took ${took}`);
    await page.waitForTimeout(2_500);
    assert.equal(await duration(page).textContent(), took, "an ended run's duration does not tick");
    await screenshot(page, `${width}-run-decided`);
  });
}

for (const width of Object.keys(WIDTHS)) {
  test(`${width}: the log marks stderr and errors, opens a tool call to its JSON, searches, jumps to the first error and downloads`, { timeout: 90_000 }, async () => {
    const run = await runUntil(suite.ids.builder, "SUCCEEDED");
    const page = await suite.signedIn(width, `/runs/${run}`);
    await page.locator('[data-testid="stream-state"][data-state="ended"]').waitFor(WAIT);
    const summary = page.getByTestId("event-summary");
    const events = Number(await summary.getAttribute("data-count"));
    assert.ok(events > 300, `all ${events} events are in the list`);
    const log = page.locator(".event-scroller");

    // Following the tail, the first error is far above what is shown.
    await page.locator(".event", { hasText: "uploading file 150" }).waitFor(WAIT);
    const errorRow = page.locator(".event.tone-error", { hasText: "the deploy key was refused" });
    assert.equal(await errorRow.count(), 0, "the error is out of view, not drawn");
    await page.getByRole("button", { name: "Jump to first error" }).click();
    await errorRow.waitFor(WAIT);
    await until(() => errorRow.evaluate((row) => document.activeElement === row));
    const [rowBox, logBox] = [await errorRow.boundingBox(), await log.boundingBox()];
    assert.ok(rowBox.y >= logBox.y && rowBox.y + rowBox.height <= logBox.y + logBox.height, "the error row is in view");
    await errorRow.getByText("error", { exact: true }).waitFor(WAIT);
    await screenshot(page, `${width}-log-first-error`);

    // The indented line keeps its indentation when it wraps.
    const indented = page.locator(".event", { hasText: "an indented line" }).locator(".words");
    const { starts, ch } = await indented.evaluate((words) => {
      const range = document.createRange();
      range.selectNodeContents(words);
      // Where each line (each top) starts, first line first.
      const lines = new Map();
      for (const r of range.getClientRects()) lines.set(Math.round(r.top), Math.min(lines.get(Math.round(r.top)) ?? Infinity, r.left));
      const starts = [...new Set([...lines].sort(([a], [b]) => a - b).map(([, left]) => Math.round(left)))];
      const probe = words.appendChild(document.createElement("span"));
      probe.textContent = "0".repeat(10);
      const ch = probe.getBoundingClientRect().width / 10;
      probe.remove();
      return { starts, ch };
    });
    assert.equal(starts.length, 2, `the long line wraps, its first line and the rest starting apart: ${starts}`);
    // Eight spaces of its own, and the two every wrapped line hangs by.
    assert.ok(Math.abs(starts[1] - starts[0] - 10 * ch) <= 1, `wrapped lines start ${starts[1] - starts[0]}px in, not ${10 * ch}`);

    // Search: the matching lines only, highlighted, and how many.
    const search = page.getByRole("searchbox", { name: "Search the log" });
    await search.fill("building page 14");
    await page.getByTestId("search-count").getByText(`11 of ${events} lines match`).waitFor(WAIT);
    await until(async () => (await page.locator(".event").count()) === 11);
    assert.deepEqual(
      await page.locator(".event mark").allTextContents(),
      Array(11).fill("building page 14"),
      "each match highlighted",
    );
    await screenshot(page, `${width}-log-search`);
    // Stderr is marked as such (where it comes among stdout's lines is not defined).
    await search.fill("cache is cold");
    await page.locator(".event.tone-stderr", { hasText: "warning: the cache is cold" }).getByText("stderr", { exact: true }).waitFor(WAIT);
    await search.fill("");
    assert.equal(await page.getByTestId("search-count").count(), 0);

    // A tool call opens to its JSON, and closes again.
    await search.fill("make build");
    const call = page.locator(".event.kind-tool_call").getByRole("button", { name: /tool call Bash make build/ });
    await call.waitFor(WAIT);
    assert.equal(await call.getAttribute("aria-expanded"), "false");
    assert.equal(await page.locator(".event.kind-tool_call .raw").count(), 0, "no JSON until it is opened");
    await call.click();
    const raw = page.locator(".event.kind-tool_call .raw");
    await raw.waitFor(WAIT);
    assert.deepEqual(JSON.parse(await raw.textContent()), { id: "t1", name: "Bash", input: { command: "make build", timeout: 600 } });
    assert.equal(await call.getAttribute("aria-expanded"), "true");
    if (width === "phone") await assertFitsPhone(page, "the log with a tool call open");
    await screenshot(page, `${width}-log-tool-call-open`);
    await call.click();
    await raw.waitFor({ state: "detached", ...WAIT });

    // Its own rows for the rest of what the agent reported, each one that opens.
    for (const [kind, text] of [
      ["tool_result", "exit 0 · built 12 pages"],
      ["file_change", "update public/index.html"],
      ["usage", "1,200 tokens in · 340 out"],
      ["message", "assistant: I will build the site."],
    ]) {
      await search.fill(text);
      await page.locator(`.event.kind-${kind}`, { hasText: text }).getByRole("button").waitFor(WAIT);
    }
    // A message shows its first line until it is opened.
    const message = page.locator(".event.kind-message").getByRole("button");
    assert.equal(await message.getByText("Then upload it.").count(), 0);
    await message.click();
    await message.getByText("Then upload it.").waitFor(WAIT);
    await search.fill("");

    // The log downloads as text, one line an event, and as JSON lines, one event a line.
    const saved = async (button) => {
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
      return { name: download.suggestedFilename(), text: readFileSync(await download.path(), "utf8") };
    };
    const text = await saved("Download log");
    assert.equal(text.name, `run-${run}.log`);
    for (const expected of ["building page 150", "uploading file 150", "stderr: warning: the cache is cold", "error: the deploy key was refused", "tool call: Bash make build"]) {
      assert.ok(text.text.includes(expected), `the text log has "${expected}"`);
    }
    // One line an event, and one more for the message's second line.
    assert.equal(text.text.trimEnd().split("\n").length, events + 1);
    const jsonLines = await saved("Download JSON lines");
    assert.equal(jsonLines.name, `run-${run}.jsonl`);
    const read = jsonLines.text.trimEnd().split("\n").map((l) => JSON.parse(l));
    assert.equal(read.length, events);
    assert.deepEqual(read.find((e) => e.kind === "tool_call").data, { id: "t1", name: "Bash", input: { command: "make build", timeout: 600 } });
    assert.deepEqual(
      [read[0].sequence, read.at(-1).sequence],
      [Number(await summary.getAttribute("data-first")), Number(await summary.getAttribute("data-last"))],
    );
  });
}

test("the Context card shows what the agent was given: nothing before the run's first dispatch, then each item, its tokens and the bundle", { timeout: 120_000 }, async () => {
  // A task whose description does not fit a small budget, and whose criterion holds a secret.
  const objective = "Rotate the staging database credentials before Friday";
  const { createTask } = await suite.api(
    "mutation($p: ID!, $d: String!) { createTask(input: { projectId: $p, title: \"Rotate the credentials\", description: $d }) { id } }",
    { p: suite.ids.project, d: `The runbook, step by step. ${"Check each replica before and after the switch. ".repeat(60)}` },
  );
  const task = createTask.id;
  await suite.api("mutation($t: ID!) { addAcceptanceCriterion(taskId: $t, description: \"The old password: hunter22hunter no longer works\") { id } }", { t: task });
  await suite.api("mutation($t: ID!, $p: JSON!) { setSettings(scopeId: $t, patch: $p, expectedRevision: 0) { revision } }", {
    t: task,
    p: { context: { tokenBudget: 256 } },
  });

  // With its agent offline, the run waits undispatched, and so without a context.
  const agentsOnline = async () =>
    (await suite.api("query($p: ID!) { agents(projectId: $p) { online } }", { p: suite.ids.project })).agents.map((a) => a.online);
  suite.connector.stop();
  await until(async () => (await agentsOnline()).every((online) => !online));
  const { startRun } = await suite.api("mutation($t: ID!, $a: ID!, $o: String!) { startRun(taskId: $t, agentId: $a, input: { objective: $o }) { id } }", {
    t: task,
    a: suite.ids.reader,
    o: objective,
  });
  const run = startRun.id;
  await until(async () => (await suite.runStatus(run)) === "BLOCKED");
  const page = await suite.signedIn("desktop", `/runs/${run}`);
  const card = page.getByTestId("run-context");
  await card.getByRole("heading", { name: "Context" }).waitFor(WAIT);
  await card.getByText("Built when the run is first dispatched.").waitFor(WAIT);
  const asked = "query($r: ID!) { runContext(runId: $r) { tokenBudget tokensUsed bundleHash bundle items { kind tokens included redactions } } }";
  assert.equal((await suite.api(asked, { r: run })).runContext, null);
  await screenshot(page, "desktop-run-context-not-yet");

  // Its agent comes back and the run is dispatched: the card shows what the agent got, unasked.
  const hostDir = join(suite.server.dir, "host");
  suite.connector = startConnector(hostDir, join(hostDir, "acc-connector", "credential.json"), suite.server.url, AGENTS);
  await until(async () => (await agentsOnline()).every((online) => online));
  const objectiveItem = card.locator('li[data-kind="OBJECTIVE"]');
  await objectiveItem.getByText("Objective", { exact: true }).waitFor(WAIT);
  const { runContext } = await suite.api(asked, { r: run });
  assert.ok(runContext, "the run has its context once dispatched");
  assert.equal(runContext.tokenBudget, 256);
  assert.equal(await card.getByTestId("run-context-tokens").textContent(), `${runContext.tokensUsed.toLocaleString("en")} of 256 tokens`);
  const hash = card.getByTestId("run-context-hash");
  assert.equal(await hash.textContent(), runContext.bundleHash.slice(0, 12));
  assert.equal(await hash.getAttribute("title"), runContext.bundleHash);

  // The items in their order, each with its tokens; the description that did not fit is marked.
  const items = card.locator(".context-items > li");
  assert.deepEqual(
    await items.evaluateAll((lis) => lis.map((li) => [li.dataset.kind, li.dataset.included])),
    runContext.items.map((i) => [i.kind, String(i.included)]),
  );
  assert.deepEqual(runContext.items.map((i) => [i.kind, i.included]), [
    ["OBJECTIVE", true],
    ["ACCEPTANCE_CRITERION", true],
    ["DESCRIPTION", false],
  ]);
  assert.equal(await objectiveItem.getByTestId("context-item-tokens").textContent(), `${runContext.items[0].tokens} tokens`);
  assert.match(await objectiveItem.getByTestId("context-item-tokens").textContent(), /^\d+ tokens?$/);
  await objectiveItem.getByText("included", { exact: true }).waitFor(WAIT);
  const criterion = card.locator('li[data-kind="ACCEPTANCE_CRITERION"]');
  await criterion.getByText("1 secret redacted").waitFor(WAIT);
  const description = card.locator('li[data-kind="DESCRIPTION"]');
  await description.getByText("left out for the budget").waitFor(WAIT);
  await description.getByText("Left out", { exact: true }).waitFor(WAIT);
  assert.match(await description.getAttribute("class"), /\bmuted\b/);
  await card.getByText("3 items offered, 1 left out for the budget").waitFor(WAIT);

  // Folded, the bundle exactly as the agent received it.
  const bundle = card.getByTestId("run-context-bundle");
  assert.equal(await bundle.isVisible(), false, "the bundle is folded until asked for");
  await card.getByText("Show what the agent received").click();
  await bundle.waitFor({ state: "visible", ...WAIT });
  await card.getByText(`"objective": "${objective}"`).waitFor(WAIT);
  const shown = await bundle.textContent();
  assert.deepEqual(JSON.parse(shown), runContext.bundle);
  assert.equal(JSON.parse(shown).objective, objective);
  assert.ok(!shown.includes("hunter22hunter"), "the secret was redacted before the agent got it");
  assert.ok(!shown.includes("Check each replica"), "the left-out description is not in the bundle");
  await assertAccessible(page, "the run page with its context open");
  await screenshot(page, "desktop-run-context");

  // On a phone too, with the bundle open.
  const phone = await suite.signedIn("phone", `/runs/${run}`);
  const phoneCard = phone.getByTestId("run-context");
  await phoneCard.locator('li[data-kind="OBJECTIVE"]').getByText("Objective", { exact: true }).waitFor(WAIT);
  await phoneCard.getByText("Show what the agent received").click();
  await phoneCard.getByText(`"objective": "${objective}"`).waitFor(WAIT);
  await assertFitsPhone(phone, "the run page with its context open");
  await screenshot(phone, "phone-run-context");
});

/** The UUID a global id names (`Kind:uuid`, base64url), as the connector's endpoints take it. */
const uuidOf = (id) => Buffer.from(id, "base64url").toString("utf8").split(":")[1];

test("the Files card lists what the run's agent attached as the run's log says so, its own versions alone, and downloads them", { timeout: 120_000 }, async () => {
  // A task of its own, so that its artifacts are this test's.
  const { createTask } = await suite.api('mutation($p: ID!) { createTask(input: { projectId: $p, title: "Write the release notes" }) { id } }', {
    p: suite.ids.project,
  });
  const task = createTask.id;
  const run = await suite.startRun(suite.ids.careful, task);
  await until(async () => (await suite.runStatus(run)) === "WAITING_APPROVAL");
  const page = await suite.signedIn("desktop", `/runs/${run}`);
  const card = page.getByTestId("run-files");
  await card.getByRole("heading", { name: "Files" }).waitFor(WAIT);
  await card.getByText("No files attached by this run.").waitFor(WAIT);
  await screenshot(page, "desktop-run-files-none");
  // The card hears of a file through the run's log: the page listens before anything is attached.
  await subscribedTo(page, "runEvents");

  // While the run waits, its connector attaches two files, as the `attach_artifact` run tool has it
  // do (a command agent has no MCP client to call the tool with): with its own credential.
  const hostDir = join(suite.server.dir, "host");
  const { credential } = JSON.parse(readFileSync(join(hostDir, "acc-connector", "credential.json"), "utf8"));
  const attach = async (name, content, mediaType) => {
    const response = await fetch(`${suite.server.url}/v1/connectors/runs/${uuidOf(run)}/artifacts?name=${encodeURIComponent(name)}`, {
      method: "PUT",
      headers: { Authorization: `Bearer ${credential}`, "Content-Type": mediaType },
      body: content,
    });
    assert.equal(response.status, 201, await response.clone().text());
    return (await response.json()).version;
  };
  const summary = "# Release 1.4\n\n- faster boards\n- files on the run page\n";
  const log = `${"compiling page\n".repeat(200)}done\n`;
  const attachedSummary = await attach("reports/summary.md", summary, "text/markdown");
  assert.equal(attachedSummary.number, 1);
  const file = (name) => card.locator(`li[data-artifact="${name}"]`);
  // The run's log notes the file, and the card lists it at once, while the run still waits.
  await file("reports/summary.md").locator('li[data-version="1"]').waitFor(WAIT);
  assert.equal(await suite.runStatus(run), "WAITING_APPROVAL");

  // Then a person uploads the next version of the summary: not the run's, so not on its card.
  const { login } = await gql(suite.server.url, "mutation($e: String!, $p: String!) { login(email: $e, password: $p) { accessToken } }", {
    e: OWNER.email,
    p: OWNER.password,
  });
  const params = new URLSearchParams({ projectId: suite.ids.project, taskId: task, name: "reports/summary.md" });
  const byPerson = await fetch(`${suite.server.url}/v1/artifacts?${params}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${login.accessToken}`, "Content-Type": "text/markdown" },
    body: "# Release 1.4, edited by a person\n",
  });
  assert.equal(byPerson.status, 201, await byPerson.clone().text());
  assert.equal((await byPerson.json()).version.number, 2);
  const attachedLog = await attach("build.log", log, "text/plain");
  await file("build.log").waitFor(WAIT);

  // The run goes on once approved and ends; the card still lists both.
  const approval = page.getByTestId("run-approvals").locator(".approval", { hasText: "deploy the site" });
  await approval.getByRole("button", { name: "Approve", exact: true }).click();
  await page.getByTestId("run-status").getByText("Succeeded").waitFor(WAIT);
  await file("reports/summary.md").waitFor(WAIT);
  assert.equal(await card.getByTestId("run-files-empty").count(), 0);
  assert.deepEqual(await card.locator("li[data-artifact]").evaluateAll((lis) => lis.map((li) => li.dataset.artifact)), ["build.log", "reports/summary.md"]);

  // Each file by name, with the run's version alone: its number, size and digest.
  const sha256 = (text) => createHash("sha256").update(text).digest("hex");
  const summaryVersions = file("reports/summary.md").locator("li[data-version]");
  assert.deepEqual(await summaryVersions.evaluateAll((lis) => lis.map((li) => li.dataset.version)), ["1"]);
  const summaryVersion = summaryVersions.first();
  assert.equal(await summaryVersion.getByTestId("artifact-version").textContent(), "Version 1");
  assert.equal(await summaryVersion.getByTestId("version-size").textContent(), `${Buffer.byteLength(summary)} B`);
  const digest = summaryVersion.getByTestId("version-digest");
  assert.equal(await digest.textContent(), sha256(summary).slice(0, 12));
  assert.equal(await digest.getAttribute("title"), sha256(summary));
  assert.equal(attachedSummary.sha256, sha256(summary));
  await file("reports/summary.md").getByText("Since replaced: the latest is version 2, not from this run.").waitFor(WAIT);
  const logVersion = file("build.log").locator('li[data-version="1"]');
  assert.equal(await logVersion.getByTestId("version-size").textContent(), "2.9 KB");
  assert.equal(await logVersion.getByTestId("version-digest").textContent(), attachedLog.sha256.slice(0, 12));
  assert.equal(await file("build.log").getByTestId("run-file-replaced").count(), 0);

  // Download saves the run's bytes, under the name's last part.
  const saved = async (button) => {
    const [download] = await Promise.all([page.waitForEvent("download", WAIT), button.click()]);
    return { name: download.suggestedFilename(), text: readFileSync(await download.path(), "utf8") };
  };
  const gotSummary = await saved(card.getByRole("button", { name: "Download version 1 of reports/summary.md" }));
  assert.deepEqual(gotSummary, { name: "summary.md", text: summary });
  const gotLog = await saved(card.getByRole("button", { name: "Download version 1 of build.log" }));
  assert.deepEqual(gotLog, { name: "build.log", text: log });
  await assertAccessible(page, "the run page with its files");
  await screenshot(page, "desktop-run-files");

  // A page opened once the run ended shows them at once; on a phone too, fitting it.
  const phone = await suite.signedIn("phone", `/runs/${run}`);
  const phoneCard = phone.getByTestId("run-files");
  await phoneCard.locator('li[data-artifact="reports/summary.md"] li[data-version="1"]').waitFor(WAIT);
  await phoneCard.locator('li[data-artifact="build.log"]').waitFor(WAIT);
  await assertAccessible(phone, "the run page with its files on a phone");
  await assertFitsPhone(phone, "the run page with its files");
  await screenshot(phone, "phone-run-files");
});
