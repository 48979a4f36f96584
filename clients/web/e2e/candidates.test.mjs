// Candidates in headless Chromium against a real `acc` and `acc-connector`: an administrator
// proposes a smaller context budget for a project, starts the baseline and candidate runs of a task
// on one agent, compares them side by side once both ended, approves with a reason and applies it;
// the project's settings change only then. A proposal that changes nothing is refused on the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertAccessible, commandAgent, followMenu, screenshot, serverForTests } from "./harness.mjs";

const WAIT = { timeout: 30_000 };
// Its runs take a few seconds, so the page sees them running before they end.
const suite = serverForTests(commandAgent("quick", "sleep 4; echo done"));

const budgetOf = async (project) => {
  const { effectiveSettings } = await suite.api("query($s: ID!) { effectiveSettings(scopeId: $s) { entries { key value } } }", { s: project });
  return effectiveSettings.entries.find((e) => e.key === "context.tokenBudget")?.value ?? null;
};

test("propose a change, try it beside the project as it is, compare, approve and apply it", { timeout: 180_000 }, async () => {
  const page = await suite.signedIn("desktop");
  await followMenu(page, "Candidates");
  await page.getByRole("heading", { name: "Candidates", exact: true }).waitFor(WAIT);
  await page.getByLabel("Scope").selectOption({ label: "Project: Platform / Website" });
  await page.getByText("No candidate yet.").waitFor(WAIT);

  const form = page.getByRole("form", { name: "Propose a candidate" });
  await form.getByRole("button", { name: "Propose" }).click();
  await form.getByRole("alert").getByText("Change the context budget or the skills first.").waitFor(WAIT);
  await form.getByLabel("Context budget to try (tokens)").fill("500");
  await form.getByRole("button", { name: "Propose" }).click();
  const card = page.getByTestId("candidate").filter({ hasText: "context budget 500 tokens" });
  await card.getByText("Proposed").waitFor(WAIT);
  assert.equal(await budgetOf(suite.ids.project), null, "proposing changes nothing");
  await assertAccessible(page, "the candidates page");

  await card.getByLabel("Agent").selectOption({ label: "quick" });
  await card.getByRole("button", { name: "Start both runs" }).click();
  await card.getByRole("link", { name: "candidate" }).waitFor(WAIT);
  // The runs' status follows them live, without a reload, until both have ended.
  await card.getByTestId("candidate-runs").getByText("baseline (succeeded), candidate (succeeded)").waitFor(WAIT);
  await card.getByText("Compare once both runs have ended.").waitFor({ state: "detached", ...WAIT });
  await card.getByRole("button", { name: "Compare" }).click();
  const comparison = card.getByTestId("comparison");
  await comparison.getByRole("row", { name: /Status succeeded succeeded/ }).waitFor(WAIT);
  await screenshot(page, "candidate-compared");

  await card.getByLabel("Reason").fill("A shorter context is enough here");
  await card.getByRole("button", { name: "Approve" }).click();
  await card.getByText("Approved").waitFor(WAIT);
  assert.equal(await budgetOf(suite.ids.project), null, "approving changes nothing either");
  await card.getByRole("button", { name: "Apply" }).click();
  await card.getByTestId("receipt").getByText("settings revision 1").waitFor(WAIT);
  assert.equal(await budgetOf(suite.ids.project), 500);
  await screenshot(page, "candidate-applied");
});

test("a workspace's candidate is tried on a task of one of its projects", { timeout: 120_000 }, async () => {
  const page = await suite.signedIn("desktop", "/candidates");
  await page.getByLabel("Scope").selectOption({ label: "Workspace: Platform" });
  const form = page.getByRole("form", { name: "Propose a candidate" });
  await form.getByLabel("Context budget to try (tokens)").fill("700");
  await form.getByRole("button", { name: "Propose" }).click();
  const card = page.getByTestId("candidate").filter({ hasText: "context budget 700 tokens" });
  await card.getByLabel("Task").selectOption({ label: "Deploy the site" });
  await card.getByLabel("Agent").selectOption({ label: "quick" });
  await card.getByRole("button", { name: "Start both runs" }).click();
  await card.getByRole("link", { name: "baseline" }).waitFor(WAIT);
  const { candidates } = await suite.api("query($s: ID!) { candidates(scopeId: $s) { status task { id } } }", { s: suite.ids.workspace });
  assert.deepEqual(candidates, [{ status: "PREPARED", task: { id: suite.ids.task } }]);
});
