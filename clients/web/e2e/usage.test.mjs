// Usage and budgets in headless Chromium against a real `acc` and `acc-connector`: a person reads
// how the runs of a project ended and what they used, an administrator sets a budget on the page
// (a wrong one is explained, not sent), reads how much of it is used, and removes it. A budget
// holds only agents whose usage the connector measures, which a plain command agent is not.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertAccessible, commandAgent, followMenu, screenshot, serverForTests } from "./harness.mjs";

const WAIT = { timeout: 30_000 };
const suite = serverForTests(commandAgent("quick", "echo done"));

test("read a project's runs and usage, set a budget, see it used and remove it", { timeout: 120_000 }, async () => {
  await suite.runUntil(suite.ids.quick, "SUCCEEDED");
  const page = await suite.signedIn("desktop");
  await followMenu(page, "Usage");
  await page.getByRole("heading", { name: "Usage", exact: true }).waitFor(WAIT);
  await page.getByLabel("Scope").selectOption({ label: "Project: Platform / Website" });
  const runs = page.getByTestId("run-statistics");
  await runs.getByText("1 run started in this period, 1 finished", { exact: false }).waitFor(WAIT);
  await runs.getByText("Succeeded: 1").waitFor(WAIT);
  // A command agent reports no usage: nothing is made up.
  await page.getByText("Nothing used in this period.").waitFor(WAIT);
  await page.getByTestId("usage-total").getByText("unknown").first().waitFor(WAIT);
  await page.getByText("No budget holds here.").waitFor(WAIT);

  const form = page.getByRole("form", { name: "Set a budget" });
  await form.getByLabel("Period").selectOption({ label: "Daily" });
  await form.getByLabel("Most cost (US$)").fill("free");
  await form.getByRole("button", { name: "Set budget" }).click();
  await form.getByRole("alert").getByText("The cost is an amount of dollars above 0.").waitFor(WAIT);
  await form.getByLabel("Most cost (US$)").fill("");
  await form.getByLabel("Most tokens").fill("1,000");
  await form.getByRole("button", { name: "Set budget" }).click();
  const card = page.getByTestId("budgets").locator('li[data-period="DAILY"]');
  await card.getByText("0 of 1,000 tokens used", { exact: false }).waitFor(WAIT);
  assert.equal(await card.getAttribute("data-exceeded"), "false");
  assert.equal(await card.getByRole("meter").getAttribute("value"), "0");
  await assertAccessible(page, "the usage page");
  await screenshot(page, "usage");

  // Under a budget a run needs an agent whose usage is measured.
  const { budgetPolicies } = await suite.api("query($s: ID!) { budgetPolicies(scopeId: $s) { maxTokens period } }", { s: suite.ids.project });
  assert.deepEqual(budgetPolicies, [{ maxTokens: 1000, period: "DAILY" }]);
  await assert.rejects(suite.startRun(suite.ids.quick), /CAPABILITY_MISSING|usage_exact/);

  await card.getByRole("button", { name: "Remove" }).click();
  await page.getByText("No budget holds here.").waitFor(WAIT);
  assert.deepEqual((await suite.api("query($s: ID!) { budgetPolicies(scopeId: $s) { id } }", { s: suite.ids.project })).budgetPolicies, []);
});
