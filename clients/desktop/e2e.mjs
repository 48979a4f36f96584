// The desktop app with the real web client against a real `acc serve`, driven over WebDriver
// (tauri-driver in front of WebKitWebDriver): a person signs in, and the app, started again, is
// still signed in — its refresh token came back from the OS keystore, the only place the app keeps
// it. Run by e2e.sh, inside a virtual display and a D-Bus session with a throwaway keyring.
import { OWNER, BOOTSTRAP_CODE, gql, startServer } from "../web/e2e/harness.mjs";

const [app, driver] = process.argv.slice(2);
// The W3C WebDriver key of an element reference.
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

async function webdriver(method, path, body) {
  const response = await fetch(`${driver}${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const { value } = await response.json();
  if (!response.ok) throw new Error(`${method} ${path}: ${value?.message ?? JSON.stringify(value)}`);
  return value;
}

/** Starts the app pointed at `server`; its page, found by XPath. */
async function launch(server) {
  const options = { application: app, args: ["--server", server] };
  const { sessionId } = await webdriver("POST", "/session", { capabilities: { alwaysMatch: { "tauri:options": options } } });
  const session = `/session/${sessionId}`;
  const find = async (xpath) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        return (await webdriver("POST", `${session}/element`, { using: "xpath", value: xpath }))[ELEMENT];
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`not on the page: ${xpath} (${error.message})`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };
  return {
    find,
    type: async (label, text) => {
      const input = await find(`//label[contains(., '${label}')]//input`);
      await webdriver("POST", `${session}/element/${input}/value`, { text });
    },
    click: async (name) => webdriver("POST", `${session}/element/${await find(`//button[normalize-space()='${name}']`)}/click`, {}),
    quit: () => webdriver("DELETE", session),
  };
}

const server = await startServer();
try {
  await gql(
    server.url,
    "mutation($c: String!, $e: String!, $p: String!) { redeemBootstrap(code: $c, organizationName: \"Acme\", email: $e, password: $p) { accessToken } }",
    { c: BOOTSTRAP_CODE, e: OWNER.email, p: OWNER.password },
  );

  const first = await launch(server.url);
  await first.type("Email", OWNER.email);
  await first.type("Password", OWNER.password);
  await first.click("Sign in");
  await first.find("//a[normalize-space()='Workspaces']");
  await first.quit();
  console.log("signed in from the app");

  // A new process: the web view's own storage never held the token, so only the keystore can
  // have kept the session.
  const second = await launch(server.url);
  await second.find("//a[normalize-space()='Workspaces']");
  await second.quit();
  console.log("still signed in after a restart: the refresh token came from the keystore");
} finally {
  await server.stop();
}
