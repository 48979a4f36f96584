// Stands in for the web client: uses the app's commands as the README's contract says, and sends
// what happened to the stand-in server (server.py), which judges it.
const invoke = window.__TAURI__.core.invoke;
const base = await invoke("server_url");
const report = (key, value) => fetch(`${base}/report?` + new URLSearchParams({ key, value: JSON.stringify(value) }));
const outcome = async (call) => {
  try {
    return { ok: await call() };
  } catch (e) {
    return { error: String(e) };
  }
};
// A GraphQL-like request as the web client would send it, with the headers that need a CORS preflight.
const post = (path) =>
  outcome(async () => {
    const response = await fetch(base + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer probe" },
      body: "{}",
    });
    return response.status;
  });

await report("origin", location.origin);
await report("signedOut", await invoke("credential_get"));
await invoke("credential_set", { credential: "first" });
await invoke("credential_set", { credential: "rotated" });
await report("stored", await invoke("credential_get"));
await invoke("credential_clear");
await report("cleared", await invoke("credential_get"));
await report("clearedTwice", await outcome(() => invoke("credential_clear")));
await report("empty", await outcome(() => invoke("credential_set", { credential: "" })));
await report("coreCommand", await outcome(() => invoke("plugin:window|close")));
await report("withoutCors", await post("/without-cors"));
await report("withCors", await post("/with-cors"));
await report("done", true);
