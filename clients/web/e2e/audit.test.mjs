// The audit trail in headless Chromium against a real `acc`: an administrator reads what was done
// in the organization, newest first and with who did it, narrows it to one kind of action, checks
// the chain, and downloads it as JSON lines whose hashes link one to the next.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { assertAccessible, commandAgent, followMenu, screenshot, serverForTests } from "./harness.mjs";

const WAIT = { timeout: 30_000 };
const suite = serverForTests(commandAgent("quick", "echo done"));

test("an administrator reads, narrows, verifies and downloads the organization's trail", { timeout: 90_000 }, async () => {
  await suite.api(`mutation { createApiToken(name: "Deploy bot", scopes: [READ]) { secret } }`);
  const page = await suite.signedIn("desktop");
  await followMenu(page, "Audit");
  await page.getByRole("heading", { name: "Audit", exact: true }).waitFor(WAIT);
  const created = page.locator('tr[data-action="API_TOKEN_CREATED"]');
  await created.getByText("name: Deploy bot").waitFor(WAIT);
  assert.match(await created.textContent(), /Api token created/);
  // Newest first: this page's own sign-in is above the token made before it.
  const actions = await page.locator("tr[data-action]").evaluateAll((rows) => rows.map((r) => r.dataset.action));
  assert.equal(actions[0], "SIGNED_IN");
  assert.ok(actions.indexOf("SIGNED_IN") < actions.indexOf("API_TOKEN_CREATED"), actions.join());
  await assertAccessible(page, "the audit page");

  await page.getByLabel("Show").selectOption({ label: "Api token created" });
  await page.locator('tr[data-action="SIGNED_IN"]').first().waitFor({ state: "detached", ...WAIT });
  await created.waitFor(WAIT);

  await page.getByRole("button", { name: "Verify the chain" }).click();
  const verification = page.getByTestId("audit-verification");
  await verification.getByText(/^Intact: \d+ events and \d+ signed checkpoints? checked\.$/).waitFor(WAIT);
  assert.equal(await verification.getAttribute("data-intact"), "true");
  await screenshot(page, "audit");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download (JSON lines)" }).click(),
  ]);
  assert.equal(download.suggestedFilename(), "audit.jsonl");
  const lines = readFileSync(await download.path(), "utf8").trim().split("\n").map((line) => JSON.parse(line));
  assert.ok(lines.some((l) => l.action === "api_token.created" && l.details.name === "Deploy bot"));
  lines.forEach((line, i) => {
    assert.equal(line.sequence, i + 1);
    assert.equal(line.previous_hash, i === 0 ? "0".repeat(64) : lines[i - 1].hash);
  });
});
