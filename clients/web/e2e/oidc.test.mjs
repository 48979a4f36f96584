// Signing in through an identity provider in headless Chromium: a real `acc` with a real OpenID
// Connect provider (npm oidc-provider). The sign-in page offers "Sign in with Acme SSO"; the
// provider's own page takes the password; back at /sign-in/oidc the person is signed in, with an
// account made for them. A link with someone else's code, opened in another tab, signs nobody in.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  assertAccessible,
  bootstrapThroughApi,
  freePort,
  gql,
  launchBrowser,
  resetArtifacts,
  screenshot,
  startIdentityProvider,
  startServer,
  watch,
} from "./harness.mjs";

const WAIT = { timeout: 30_000 };
const state = {};

before(async () => {
  resetArtifacts();
  const port = await freePort();
  const redirect = `http://127.0.0.1:${port}/sign-in/oidc`;
  state.provider = await startIdentityProvider({
    clients: [{ client_id: "acc", client_secret: "e2e client secret", redirect_uris: [redirect] }],
    accounts: { "alice-sub": { password: "alice at the idp", email: "alice@acme.test", email_verified: true, name: "Alice Liddell" } },
  });
  const dir = mkdtempSync(join(tmpdir(), "acc-web-e2e-"));
  writeFileSync(join(dir, "oidc-secret"), "e2e client secret");
  writeFileSync(
    join(dir, "acc.toml"),
    `[[oidc]]
id = "acme"
name = "Acme SSO"
issuer = ${JSON.stringify(state.provider.issuer)}
client_id = "acc"
client_secret_file = ${JSON.stringify(join(dir, "oidc-secret"))}
redirect_urls = [${JSON.stringify(redirect)}]
organization = "Acme"
allowed_domains = ["acme.test"]
provision_users = true
new_user_role = "member"
`,
  );
  state.server = await startServer(dir, { listen: `127.0.0.1:${port}`, args: ["--config", join(dir, "acc.toml")] });
  state.api = await bootstrapThroughApi(state.server);
  state.browser = await launchBrowser();
});

after(async () => {
  await state.browser?.close();
  await state.server?.stop();
  await state.provider?.stop();
});

async function signInAtProvider(page) {
  await page.getByRole("heading", { name: "Test identity provider" }).waitFor(WAIT);
  await page.getByLabel("Account").fill("alice-sub");
  await page.getByLabel("Password").fill("alice at the idp");
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("a person signs in with the identity provider and gets an account", { timeout: 120_000 }, async () => {
  const page = await (await state.browser.newContext()).newPage();
  await watch(page);
  await page.goto(state.server.url);
  const button = page.getByRole("button", { name: "Sign in with Acme SSO" });
  await button.waitFor(WAIT);
  await assertAccessible(page, "the sign-in page with a provider");
  await screenshot(page, "sign-in-with-provider");
  await button.click();
  await signInAtProvider(page);
  await page.locator("main#main").waitFor(WAIT);
  assert.equal(new URL(page.url()).pathname, "/", "the return page leaves no code in the address");
  await screenshot(page, "signed-in-through-provider");

  const { users } = await state.api("{ users(first: 10) { edges { node { email displayName roleBindings { role } } } } }");
  const alice = users.edges.map((e) => e.node).find((u) => u.email === "alice@acme.test");
  assert.deepEqual(alice, { email: "alice@acme.test", displayName: "Alice Liddell", roleBindings: [{ role: "MEMBER" }] });
  await page.context().close();
});

test("a link with someone else's code, opened in another tab, signs nobody in", { timeout: 120_000 }, async () => {
  // The victim's tab begins a sign-in and comes back with the provider's answer, which it cannot
  // redeem (its request is cut); the address with the code leaks, and is opened in another tab.
  const victim = await (await state.browser.newContext()).newPage();
  await watch(victim);
  await victim.goto(state.server.url);
  await victim.route("**/graphql", (route) =>
    route.request().postData()?.includes("completeOidcSignIn") ? route.abort() : route.continue(),
  );
  await victim.getByRole("button", { name: "Sign in with Acme SSO" }).click();
  await signInAtProvider(victim);
  await victim.getByRole("heading", { name: "Sign-in did not finish" }).waitFor(WAIT);
  const leaked = victim.url();
  assert.match(leaked, /\/sign-in\/oidc\?code=/);

  const other = await (await state.browser.newContext()).newPage();
  await watch(other);
  await other.goto(leaked);
  await other.getByRole("heading", { name: "Sign-in did not finish" }).waitFor(WAIT);
  await other.getByText("was not begun in this tab").waitFor(WAIT);
  await screenshot(other, "foreign-sign-in-refused");
  // The API says the same without the flow secret the victim's tab holds.
  const params = new URL(leaked).searchParams;
  await assert.rejects(
    gql(state.server.url, "mutation($c: String!, $s: String!) { completeOidcSignIn(flow: \"acc_oidc_guess\", code: $c, state: $s) { accessToken } }", {
      c: params.get("code"),
      s: params.get("state"),
    }),
    /UNAUTHENTICATED/,
  );
  await victim.context().close();
  await other.context().close();
});
