// The browser pages' defences, in headless Chromium against a real `acc` serving the web client
// built into it: another site that frames the approvals inbox gets nothing rendered (so nobody
// can be tricked into clicking Approve inside it), and GraphiQL, built into the product, works
// with the network cut off from everything but the server, under the server's
// Content-Security-Policy.
import { after, afterEach, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import {
  BOOTSTRAP_CODE,
  OWNER,
  assertNoCspViolations,
  gql,
  launchBrowser,
  resetArtifacts,
  screenshot,
  startServer,
  watch,
} from "./harness.mjs";

const WAIT = { timeout: 30_000 };
let server, browser, other, token, projectId;

before(async () => {
  resetArtifacts();
  // The web client and GraphiQL as `acc` carries them, with no --web-dir.
  server = await startServer(undefined, { builtIn: true });
  const { redeemBootstrap } = await gql(
    server.url,
    `mutation($c: String!, $e: String!, $p: String!) {
       redeemBootstrap(code: $c, organizationName: "Acme", email: $e, password: $p) { accessToken }
     }`,
    { c: BOOTSTRAP_CODE, e: OWNER.email, p: OWNER.password },
  );
  token = redeemBootstrap.accessToken;
  const { createWorkspace } = await gql(server.url, `mutation { createWorkspace(name: "Platform") { id } }`, {}, token);
  const { createProject } = await gql(
    server.url,
    `mutation($w: ID!) { createProject(workspaceId: $w, name: "Website") { id } }`,
    { w: createWorkspace.id },
    token,
  );
  projectId = createProject.id;
  browser = await launchBrowser();
});

afterEach(() => assertNoCspViolations(assert));

after(async () => {
  await browser?.close();
  other?.close();
  await server?.stop();
});

/** Waits for `condition`, failing with `what()` after the usual wait. */
async function until(condition, what) {
  const deadline = Date.now() + WAIT.timeout;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, what());
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** A site on another origin (another port) whose page frames `target` and one of its own pages. */
async function otherSite(target) {
  const site = createServer((request, response) => {
    response.setHeader("content-type", "text/html");
    if (request.url === "/own") return response.end("<!doctype html><p id=own>a page of this site</p>");
    response.end(`<!doctype html><title>win a prize</title>
      <iframe id=theirs src="${target}" width=800 height=600></iframe>
      <iframe id=own src="/own"></iframe>`);
  });
  await new Promise((done) => site.listen(0, "127.0.0.1", done));
  return site;
}

test("another site that frames the approvals inbox gets nothing rendered", { timeout: 60_000 }, async () => {
  const inbox = `${server.url}/approvals`;
  other = await otherSite(inbox);
  const page = await browser.newPage();
  const console = [];
  page.on("console", (m) => console.push(m.text()));
  await page.goto(`http://127.0.0.1:${other.address().port}/`);
  // The site's own frame renders: the test can see a frame's content when there is some.
  const own = page.frameLocator("#own");
  await own.locator("#own").waitFor(WAIT);
  // Chromium refuses the frame, shows its error page there instead, and says why.
  await until(() => console.some((t) => t.includes("frame-ancestors 'none'")), () => console.join("\n"));
  const framed = page.frames().find((f) => f.parentFrame() && !f.url().endsWith("/own"));
  assert.ok(framed.url().startsWith("chrome-error://"), `the inbox did not load inside the other site: ${framed.url()}`);
  assert.equal(await page.frameLocator("#theirs").locator("#root").count(), 0, "nothing of the app rendered");
  await screenshot(page, "framed-inbox-refused");
  await page.close();
});

test("GraphiQL works with only the server reachable: a query and a subscription", { timeout: 90_000 }, async () => {
  const context = await browser.newContext();
  // Anything but the server is unreachable, as on an air-gapped install; a CDN would show here.
  const elsewhere = [];
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (url.origin === server.url) return route.continue();
    elsewhere.push(url.href);
    return route.abort("internetdisconnected");
  });
  const page = await context.newPage();
  await watch(page);
  // A browser asks for a page: the server answers GraphiQL at /graphql.
  await page.goto(`${server.url}/graphql`);
  const run = page.getByRole("button", { name: /^Execute query/ });
  await run.waitFor(WAIT);

  const editor = (selector, value) =>
    page.evaluate(([s, v]) => document.querySelector(s).CodeMirror.setValue(v), [selector, value]);
  const response = () => page.evaluate(() => document.querySelector(".graphiql-response .CodeMirror").CodeMirror.getValue());
  const responseShows = (text) =>
    page.waitForFunction((t) => document.querySelector(".graphiql-response .CodeMirror").CodeMirror.getValue().includes(t), text, WAIT);

  // The Headers pane, as the README's walkthrough says: the token for HTTP and for the socket.
  await page.getByRole("button", { name: "Headers", exact: true }).click();
  await page.locator(".graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror").waitFor(WAIT);
  await editor(".graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror", JSON.stringify({ Authorization: `Bearer ${token}` }));
  await editor(".graphiql-query-editor .CodeMirror", "{ viewer { email organization { name } } }");
  await run.click();
  await responseShows(OWNER.email);
  await screenshot(page, "graphiql-query");

  // What GraphiQL sends on its sockets: the subscription must go over /graphql/ws, with the
  // headers in connection_init.
  const sent = [];
  page.on("websocket", (socket) =>
    socket.on("framesent", (frame) => sent.push({ url: socket.url(), message: JSON.parse(frame.payload) })),
  );
  await editor(
    ".graphiql-query-editor .CodeMirror",
    `subscription { taskEvents(projectId: "${projectId}") { kind task { title } } }`,
  );
  await run.click();
  // The server may take the subscription a moment after GraphiQL sent it: add a task until one shows.
  const deadline = Date.now() + 30_000;
  for (let n = 1; !(await response()).includes("Seen in GraphiQL"); n++) {
    assert.ok(Date.now() < deadline, `no task event in GraphiQL: ${await response()}`);
    await gql(
      server.url,
      `mutation($p: ID!, $t: String!) { createTask(input: { projectId: $p, title: $t }) { id } }`,
      { p: projectId, t: `Seen in GraphiQL ${n}` },
      token,
    );
    await page.waitForTimeout(500);
  }
  assert.match(await response(), /"kind": "CREATED"/);
  const init = sent.find((s) => s.message.type === "connection_init");
  assert.equal(new URL(init.url).pathname, "/graphql/ws");
  assert.deepEqual(init.message.payload, { Authorization: `Bearer ${token}` });
  assert.ok(sent.some((s) => s.message.type === "subscribe" && s.message.payload.query.includes("taskEvents")));
  await screenshot(page, "graphiql-subscription");

  // Its dialogs, which would otherwise add an inline <style>, stay within the policy too.
  await page.getByRole("button", { name: "Open settings dialog" }).click();
  await page.getByRole("dialog").waitFor(WAIT);
  await page.keyboard.press("Escape");
  assert.deepEqual(elsewhere, [], "GraphiQL asked for nothing outside the server");
  await context.close();
});
