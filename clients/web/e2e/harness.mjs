// The real things the browser tests drive: `acc serve` serving the built bundle, a TCP proxy in
// front of it (so a test can cut the browser's connections), `acc-connector` with command
// agents, and Debian's headless Chromium through playwright-core.
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { after, afterEach, before } from "node:test";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const webDir = resolve(here, "..");
const repo = resolve(webDir, "../..");
const targetDir = process.env.CARGO_TARGET_DIR ?? join(repo, "target");
export const accBin = process.env.ACC_BIN ?? join(targetDir, "debug", "acc");
export const connectorBin = process.env.ACC_CONNECTOR_BIN ?? join(targetDir, "debug", "acc-connector");
// One folder of screenshots per test file, so the files' screenshots stay apart.
export const artifacts = join(here, "artifacts", basename(process.argv[1] ?? "e2e", ".test.mjs"));
export const BOOTSTRAP_CODE = "acc_boot_e2e-browser-tests";
export const OWNER = { email: "owner@acme.test", password: "correct horse battery staple" };

const children = new Set();
process.on("exit", () => children.forEach((c) => c.kill("SIGKILL")));

function track(child) {
  children.add(child);
  child.on("exit", () => children.delete(child));
  return child;
}

/**
 * Sign-in limits for the browser tests' servers. Each test signs the same owner in from the same
 * address, and a fast machine runs more than the default ten a minute; the limits themselves are
 * tested in tests/tests/identity.rs.
 */
const LOGIN_LIMITS = {
  ACC_LIMITS__LOGIN_ATTEMPTS_PER_MINUTE_PER_ACCOUNT: "1000",
  ACC_LIMITS__LOGIN_ATTEMPTS_PER_MINUTE_PER_ADDRESS: "1000",
};

/**
 * Starts `acc serve` on a fresh data dir (or again on `dir`) and waits for the address it prints.
 * It serves the bundle in `dist`, or with `builtIn` the copy built into `acc` (api/build.rs);
 * `env` adds to its environment, `args` to its flags; `listen` is its address (by default a free port).
 */
export async function startServer(
  dir = mkdtempSync(join(tmpdir(), "acc-web-e2e-")),
  { builtIn = false, env = {}, args = [], listen = "127.0.0.1:0" } = {},
) {
  const codeFile = join(dir, "bootstrap-code");
  writeFileSync(codeFile, BOOTSTRAP_CODE);
  const log = join(dir, "acc.log");
  const web = builtIn ? [] : ["--web-dir", join(webDir, "dist")];
  const child = track(
    spawn(accBin, ["serve", "--data-dir", join(dir, "data"), "--listen", listen, ...web, "--bootstrap-code-file", codeFile, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      // The embedding model only where a test gives it: no server downloads it in the background.
      env: { ...process.env, RUST_LOG: "info,sqlx=warn", ...LOGIN_LIMITS, ACC_MEMORY__FETCH_EMBEDDING_MODEL: "false", ...env },
    }),
  );
  child.stderr.on("data", (chunk) => writeFileSync(log, chunk, { flag: "a" }));
  const url = await new Promise((done, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`acc did not start; see ${log}`)), 30_000);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const found = out.match(/on (http:\/\/127\.0\.0\.1:\d+)/);
      if (found) {
        clearTimeout(timer);
        done(found[1]);
      }
    });
    child.on("exit", (code) => fail(new Error(`acc exited with ${code}; see ${log}`)));
  });
  const exited = new Promise((done) => child.on("exit", done));
  return {
    url,
    dir,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * A TCP proxy to `target` whose open connections a test can cut, as a lost network would; it can
 * also hold back the app's WebSocket alone, so that the page misses live updates while its
 * requests still reach the server.
 */
export async function startProxy(target) {
  let upstreamUrl = new URL(target);
  const sockets = new Set();
  const webSockets = new Set();
  let holding = false;
  const server = createServer((client) => {
    client.once("data", (first) => {
      const webSocket = /^GET \/graphql\/ws\b/.test(first.toString("latin1", 0, 64));
      if (webSocket && holding) return client.destroy();
      const upstream = connect(Number(upstreamUrl.port), upstreamUrl.hostname);
      upstream.write(first);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ]) {
        sockets.add(a);
        if (webSocket) webSockets.add(a);
        a.on("close", () => {
          sockets.delete(a);
          webSockets.delete(a);
        });
        a.on("error", () => b.destroy());
        a.pipe(b);
      }
    });
    client.on("error", () => {});
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    cut: () => sockets.forEach((s) => s.destroy()),
    /** Cuts the open WebSockets and refuses new ones until `releaseSockets`. */
    holdSockets: () => {
      holding = true;
      webSockets.forEach((s) => s.destroy());
    },
    releaseSockets: () => {
      holding = false;
    },
    /** Sends new connections to another server (the same one, restarted on a new port). */
    retarget: (url) => {
      upstreamUrl = new URL(url);
    },
    stop: () => {
      sockets.forEach((s) => s.destroy());
      server.close();
    },
  };
}

/**
 * The directory of memory's embedding model, fetched once per machine by `acc models fetch` (the
 * download checked against the digest built into `acc`) into the build's `acc-models`, where the
 * Rust tests keep it too. A server given it (`ACC_MEMORY__EMBEDDING_MODEL_DIR`) searches by meaning.
 */
export async function embeddingModelDir() {
  const models = join(targetDir, "acc-models");
  const dir = join(models, "all-MiniLM-L6-v2");
  await promisify(execFile)(accBin, ["models", "fetch", "--data-dir", models], {
    env: { ...process.env, ACC_MEMORY__EMBEDDING_MODEL_DIR: dir },
  });
  return dir;
}

/** The environment a command shown to the person runs in: theirs, with `acc-connector` on PATH. */
const connectorOnPath = () => ({ ...process.env, PATH: `${dirname(connectorBin)}:${process.env.PATH}` });

/**
 * Runs the enroll command exactly as the UI showed it, from `dir`, with the connector on PATH.
 * Asynchronously: the proxy it reaches the server through runs in this process.
 */
export async function enrollAsShown(command, dir) {
  mkdirSync(dir, { recursive: true });
  await promisify(execFile)("sh", ["-c", command], { cwd: dir, env: connectorOnPath() });
  return join(dir, "acc-connector", "credential.json");
}

/**
 * Starts a long-running command exactly as the UI showed it (`acc-connector run --config …`),
 * from `dir`, with the connector on PATH; its output goes to `log` in `dir`.
 */
export function startAsShown(command, dir, log = "connector.log") {
  const child = track(
    spawn("sh", ["-c", `exec ${command}`], {
      cwd: dir,
      stdio: ["ignore", "ignore", "pipe"],
      env: connectorOnPath(),
    }),
  );
  child.stderr.on("data", (chunk) => writeFileSync(join(dir, log), chunk, { flag: "a" }));
  return { stop: () => child.kill("SIGTERM"), log: () => readFileSync(join(dir, log), "utf8") };
}

/** A `command` agent running `script` with sh (TOML basic strings read JSON's escapes alike). */
export const commandAgent = (name, script, interactive = false) =>
  `\n[[agents]]\nname = "${name}"\nadapter = "command"\ncommand = "sh"\ninteractive = ${interactive}\nargs = ["-c", ${JSON.stringify(script)}]\n`;

/**
 * Thousands of lines at once: more than a page should ever hold as DOM nodes, and a long replay
 * for a page opened after the run ended.
 */
export const CHATTY = commandAgent("chatty", `seq 1 3000 | sed 's/^/chatty /'`);

/** Works until stopped, saving a checkpoint whenever asked. */
export const SAVER = commandAgent(
  "saver",
  `read input; echo ready; while read line; do case "$line" in *checkpoint_request*) echo '{"acc": "checkpoint", "state": {"step": 1}, "completed": ["setup"], "pending": ["deploy"]}';; esac; done`,
  true,
);

/** `acc-connector run` with `agents` (TOML `[[agents]]` tables), talking to `server` directly. */
export function startConnector(dir, credential, server, agents) {
  const config = join(dir, "connector.toml");
  writeFileSync(config, `server = ${JSON.stringify(server)}\ncredential = ${JSON.stringify(credential)}\nspool_dir = ${JSON.stringify(join(dir, "spool"))}\ncancel_grace_ms = 1000\n${agents}`);
  const log = join(dir, "connector.log");
  const child = track(spawn(connectorBin, ["run", "--config", config], { stdio: ["ignore", "ignore", "pipe"] }));
  child.stderr.on("data", (chunk) => writeFileSync(log, chunk, { flag: "a" }));
  return { stop: () => child.kill("SIGTERM"), log: () => readFileSync(log, "utf8") };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    // Containers run the tests as root, where Chromium's sandbox cannot start.
    args: ["--no-sandbox"],
  });
}

/** Content-Security-Policy violations seen in the pages being watched; a test ends with none. */
export const cspViolations = [];

/** The text of every WebSocket frame each watched page has sent. */
const framesSent = new WeakMap();

/**
 * Waits until `page` has sent the server a `subscribe` for `field`. A test that makes something
 * happen to see it arrive live must not make it happen before the page listens: an event before
 * the subscription is missed until the next reconnect, and on a fast machine a failing run ends
 * within the moment between a page's first query and its subscribing.
 */
export async function subscribedTo(page, field) {
  await until(() => framesSent.get(page)?.some((frame) => frame.includes('"subscribe"') && frame.includes(field)));
}

/**
 * Prints errors thrown inside a page, so a failing test says more than its timeout, and records
 * every Content-Security-Policy violation: the server's policy must never get in the app's way.
 */
export async function watch(page) {
  framesSent.set(page, []);
  page.on("websocket", (socket) => socket.on("framesent", ({ payload }) => framesSent.get(page).push(String(payload))));
  // A rejection with something other than an Error reaches `pageerror` as just "Object".
  await page.addInitScript(() => {
    window.addEventListener("unhandledrejection", (e) => {
      const r = e.reason;
      const what = r instanceof Error ? r.stack : `${Object.prototype.toString.call(r)} ${r?.type ?? ""} ${r?.code ?? ""} ${r?.reason ?? ""} ${JSON.stringify(r) ?? ""}`;
      console.error(`unhandled rejection: ${what}`);
    });
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`csp violation: ${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  page.on("pageerror", (e) => console.error(`page error (${page.url()}):`, e.message));
  page.on("console", (m) => {
    const text = m.text();
    if (text.startsWith("unhandled rejection")) console.error(text);
    // Chromium's own report names the policy; the event above may not fire for every kind.
    if (text.startsWith("csp violation") || text.includes("Content Security Policy")) {
      cspViolations.push(`${page.url()}: ${text}`);
      console.error(text);
    }
  });
}

/** Fails with the violations seen since the last call, and forgets them. */
export function assertNoCspViolations(assert) {
  const seen = cspViolations.splice(0);
  assert.deepEqual(seen, [], "no Content-Security-Policy violation");
}

let shot = 0;

/** Empties this test file's artifacts directory, so that the screenshots there are this run's. */
export function resetArtifacts() {
  rmSync(artifacts, { recursive: true, force: true });
  shot = 0;
}

export async function screenshot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  shot += 1;
  await page.screenshot({ path: join(artifacts, `${String(shot).padStart(2, "0")}-${name}.png`), fullPage: true });
}

/** Follows the main menu's link `label`, opening the menu first where it is folded (a phone). */
export async function followMenu(page, label) {
  const menu = page.getByRole("button", { name: "Menu" });
  if ((await menu.isVisible()) && (await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
  await page.locator("#nav").getByRole("link", { name: new RegExp(`^${label}\\b`) }).click();
}

/**
 * Answers the confirmation a destructive action asks for (`Confirm` in ui/components.tsx) with
 * the button named `choice`, and waits for the dialog to close.
 */
export async function answerConfirmation(page, choice) {
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: choice, exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
}

/** A GraphQL request to the server, as the test's own check on what the UI shows. */
export async function gql(server, query, variables = {}, token = null) {
  const response = await fetch(`${server}/graphql`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

/** The widths every page is checked at: a desktop's and a phone's. */
export const WIDTHS = {
  desktop: { viewport: { width: 1440, height: 900 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

/**
 * The visual check that the page fits the phone: nothing makes it scroll sideways (a board's
 * columns scroll inside their own strip), and no toast is drawn outside the screen.
 */
export async function assertFitsPhone(page, what) {
  const { width, wider } = await page.evaluate(() => {
    const width = window.visualViewport?.width ?? window.innerWidth;
    const clipped = (el) => {
      for (let p = el.parentElement; p; p = p.parentElement) if (getComputedStyle(p).overflowX !== "visible") return true;
      return false;
    };
    // Drawn past the edge, or spilling text past its own box (a long word that cannot wrap).
    const wider = [...document.querySelectorAll("body *")]
      .filter((el) => !clipped(el))
      .filter((el) => el.getBoundingClientRect().right > 390.5 || (getComputedStyle(el).overflowX === "visible" && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.slice(0, 30)}" (${Math.round(el.getBoundingClientRect().right)}px)`);
    return { width: Math.max(document.documentElement.scrollWidth, width), wider };
  });
  assert.ok(width <= 390, `${what}: the page is ${width}px wide on a 390px phone: ${wider.join(", ")}`);
  assert.deepEqual(wider, [], `${what}: drawn past the phone's edge`);
}


/**
 * Runs axe-core on the page as it is now and fails on any serious or critical violation, naming
 * each rule and where it failed. axe is evaluated through the DevTools protocol rather than added
 * with `page.addScriptTag`: that adds an inline script, which the page's Content-Security-Policy
 * refuses, as it should.
 */
export async function assertAccessible(page, what) {
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.evaluate(readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8"));
  }
  const violations = await page.evaluate(async () => {
    const { violations } = await window.axe.run(document, { resultTypes: ["violations"] });
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
  });
  assert.deepEqual(violations, [], `${what}: accessibility violations`);
}

/** Polls `check` until it answers something, for what the server does on its own time. */
export async function until(check, timeout = 30_000) {
  const end = Date.now() + timeout;
  for (;;) {
    const found = await check();
    if (found) return found;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((settled) => setTimeout(settled, 250));
  }
}

/** Asks before it acts, then reports the decision it got. */
export const CAREFUL = commandAgent(
  "careful",
  `read input; echo '{"acc": "approval_request", "action": "deploy the site", "reason": "the test asks"}'; read decision; echo "decision: $decision"`,
  true,
);

/** Fails at once. */
export const FAILING = commandAgent("failing", `echo 'trying'; echo 'it broke' >&2; exit 3`);

/**
 * A page of a new browser context with `options`, watched, opened on `url` and signed in as the
 * owner; it is added to `pages`, which the test closes after each test.
 */
export async function openSignedIn(browser, pages, options, url) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  pages.push(page);
  await watch(page);
  await page.goto(url);
  await signInAsOwner(page);
  return page;
}

/**
 * Sets up a fresh server from its first page: the bootstrap code, the organization Acme and its
 * owner; the page is then signed in as the owner. `shot` is taken with the form filled in.
 */
export async function bootstrapOwner(page, shot) {
  await page.getByRole("heading", { name: "Set up this server" }).waitFor({ timeout: 30_000 });
  await page.getByLabel("Bootstrap code").fill(BOOTSTRAP_CODE);
  await page.getByLabel("Organization name").fill("Acme");
  await page.getByLabel("Your name").fill("Olive Owner");
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel(/^Password/).fill(OWNER.password);
  await screenshot(page, shot);
  await page.getByRole("button", { name: "Create owner and sign in" }).click();
}

/** Signs the page in as the owner, from the sign-in page any path shows first. */
export async function signInAsOwner(page) {
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The signed-in pages' main part (on a phone, Sign out is folded into the menu).
  await page.locator("main#main").waitFor({ timeout: 30_000 });
}

/**
 * Sets up a fresh server through the API: the organization Acme and its owner. Returns a GraphQL
 * request function (gql) that asks as the owner.
 */
export async function bootstrapThroughApi(server) {
  const { redeemBootstrap } = await gql(
    server.url,
    "mutation($c: String!, $e: String!, $p: String!) { redeemBootstrap(code: $c, organizationName: \"Acme\", email: $e, password: $p, displayName: \"Olive Owner\") { accessToken } }",
    { c: BOOTSTRAP_CODE, e: OWNER.email, p: OWNER.password },
  );
  return (query, variables) => gql(server.url, query, variables, redeemBootstrap.accessToken);
}

/**
 * A server set up through the API, for tests of what the pages show: its owner, workspace
 * Platform, project Website, task "Deploy the site", and the connector e2e-host running `agents`
 * (`[[agents]]` tables), each of them online. `ids` has the agents' ids by name; `api` asks as
 * the owner.
 */
export async function setUpServer(agents) {
  const server = await startServer();
  const api = await bootstrapThroughApi(server);
  const { createWorkspace } = await api('mutation { createWorkspace(name: "Platform") { id } }');
  const { createProject } = await api('mutation($w: ID!) { createProject(workspaceId: $w, name: "Website") { id } }', {
    w: createWorkspace.id,
  });
  const { createTask } = await api('mutation($p: ID!) { createTask(input: { projectId: $p, title: "Deploy the site" }) { id } }', {
    p: createProject.id,
  });
  const { createEnrollmentToken } = await api('mutation($w: ID!) { createEnrollmentToken(workspaceId: $w, name: "e2e-host") { token } }', {
    w: createWorkspace.id,
  });
  const hostDir = join(server.dir, "host");
  const credential = await enrollAsShown(
    `ACC_ENROLL_TOKEN=${createEnrollmentToken.token} acc-connector enroll --server ${server.url} --name e2e-host`,
    hostDir,
  );
  const connector = startConnector(hostDir, credential, server.url, agents);
  const expected = agents.split("[[agents]]").length - 1;
  const online = await until(async () => {
    const { agents } = await api("query($p: ID!) { agents(projectId: $p) { id name online } }", { p: createProject.id });
    return agents.every((a) => a.online) && agents.length === expected ? agents : null;
  });
  const ids = {
    workspace: createWorkspace.id,
    project: createProject.id,
    task: createTask.id,
    ...Object.fromEntries(online.map((a) => [a.name, a.id])),
  };
  return { server, connector, api, ids };
}

/**
 * A test file's server, set up through the API (setUpServer) with `agents`, and its browser:
 * started before the file's first test and stopped after its last. After each test the pages it
 * opened (`signedIn`) are kept as a screenshot and closed, and no Content-Security-Policy
 * violation may have been seen. With `proxy`, pages reach the server through one (startProxy),
 * whose held sockets are released after each test. The returned object is filled in before the
 * first test: `server`, `connector`, `api`, `ids`, `browser`, `proxy`, and the helpers below.
 */
export function serverForTests(agents, { proxy = false } = {}) {
  const suite = {
    pages: [],
    /**
     * A signed-in page on `path`, in a new browser context at `width` (a WIDTHS name, or its own
     * options) with `more` options.
     */
    signedIn: (width, path = "/", more = {}) =>
      openSignedIn(suite.browser, suite.pages, { ...(WIDTHS[width] ?? width), ...more }, `${(suite.proxy ?? suite.server).url}${path}`),
    /** Starts a run of the set-up task (or `task`) on `agentId`; its id. */
    startRun: async (agentId, task = suite.ids.task) => {
      const { startRun } = await suite.api("mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {}) { id } }", { t: task, a: agentId });
      return startRun.id;
    },
    runStatus: async (runId) => (await suite.api("query($id: ID!) { node(id: $id) { ... on TaskRun { status } } }", { id: runId })).node.status,
    /** A run on `agentId`, once it reached `status`. */
    runUntil: async (agentId, status) => {
      const runId = await suite.startRun(agentId);
      await until(async () => (await suite.runStatus(runId)) === status);
      return runId;
    },
    approvalsOf: async (runId) =>
      (await suite.api("query($id: ID!) { node(id: $id) { ... on TaskRun { approvals { id status } } } }", { id: runId })).node.approvals,
    cancelRun: (runId) => suite.api("mutation($r: ID!) { cancelRun(runId: $r) { id } }", { r: runId }),
  };
  before(async () => {
    resetArtifacts();
    Object.assign(suite, await setUpServer(agents));
    if (proxy) suite.proxy = await startProxy(suite.server.url);
    suite.browser = await launchBrowser();
  });
  afterEach(async () => {
    suite.proxy?.releaseSockets();
    for (const page of suite.pages.splice(0)) {
      if (!page.isClosed()) {
        await screenshot(page, "end-of-test");
        await page.context().close();
      }
    }
    assertNoCspViolations(assert);
  });
  after(async () => {
    await suite.browser?.close();
    suite.connector?.stop();
    suite.proxy?.stop();
    await suite.server?.stop();
  });
  return suite;
}

/** A free loopback port, for a server whose address must be known before it starts. */
export async function freePort() {
  const probe = createServer();
  await new Promise((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address();
  await new Promise((done) => probe.close(done));
  return port;
}

/**
 * A real OpenID Connect provider (npm `oidc-provider`, pinned in runtimes/npm-oidc and run by
 * tests/data/oidc/provider.mjs under its Node.js 24), installed into the same cache the Rust tests
 * use. `config` has its `clients` and `accounts`. Resolves to its issuer and `stop`, which a test
 * file must call when done: the running provider keeps the test process from ending.
 */
export async function startIdentityProvider(config) {
  const repo = resolve(webDir, "../..");
  const pins = join(repo, "runtimes", "npm-oidc");
  const cache = join(process.env.ACC_RUNTIMES_DIR ?? join(process.env.HOME, ".cache", "acc-runtimes"), "npm-oidc");
  mkdirSync(cache, { recursive: true });
  const lock = readFileSync(join(pins, "package-lock.json"));
  let installed = null;
  try {
    installed = readFileSync(join(cache, "package-lock.json"));
  } catch {}
  if (!installed?.equals(lock) || !existsSync(join(cache, "node_modules"))) {
    for (const file of ["package.json", "package-lock.json"]) writeFileSync(join(cache, file), readFileSync(join(pins, file)));
    await promisify(execFile)("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: cache });
  }
  // Resolved from where the script is: a copy beside its node_modules.
  const script = join(cache, "provider.mjs");
  writeFileSync(script, readFileSync(join(repo, "tests", "data", "oidc", "provider.mjs")));
  const child = track(spawn(join(cache, "node_modules", ".bin", "node"), [script, JSON.stringify(config)], { stdio: ["ignore", "pipe", "ignore"] }));
  const started = await new Promise((done, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error("the identity provider did not start")), 60_000);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (out.includes("\n")) {
        clearTimeout(timer);
        done(JSON.parse(out.split("\n")[0]));
      }
    });
    child.on("exit", (code) => fail(new Error(`the identity provider exited with ${code}`)));
  });
  const exited = new Promise((done) => child.on("exit", done));
  return {
    issuer: started.issuer,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
