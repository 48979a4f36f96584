//! Set-up shared by the end-to-end test files: an owner with a workspace and a project, and the
//! queries several files make. Each file uses some of these.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use acc_tests::connector_client::RawConnector;
use acc_tests::{Client, Server, op};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

pub struct Fixture {
    pub owner: Client,
    pub workspace_id: String,
    pub project_id: String,
}

pub async fn fixture(server: &Server) -> Fixture {
    let owner = server.owner().await;
    let ws = owner.gql(op!("create_workspace"), json!({"name": "Platform"})).await;
    let workspace_id = ws.data("createWorkspace")["id"].as_str().unwrap().to_owned();
    let project = owner.gql(op!("create_project"), json!({"workspaceId": workspace_id, "name": "Control plane"})).await;
    let project_id = project.data("createProject")["id"].as_str().unwrap().to_owned();
    Fixture { owner, workspace_id, project_id }
}

pub async fn create_task(client: &Client, project_id: &str, title: &str) -> Value {
    let created = client.gql(op!("create_task"), json!({"input": {"projectId": project_id, "title": title}})).await;
    created.data("createTask").clone()
}

pub async fn enrollment_token(owner: &Client, workspace_id: &str) -> String {
    let created = owner
        .gql(
            "mutation($w: ID!) { createEnrollmentToken(workspaceId: $w, name: \"host\", expiresIn: 600) { token } }",
            json!({"w": workspace_id}),
        )
        .await;
    created.data("createEnrollmentToken")["token"].as_str().unwrap().to_owned()
}

/// Every stored event of a run, page by page.
pub async fn events(owner: &Client, run_id: &str) -> Vec<Value> {
    let mut events = Vec::new();
    let mut after = Value::Null;
    loop {
        let page = owner
            .gql(
                "query($r: ID!, $after: String) { runEvents(runId: $r, first: 100, after: $after) { \
                 edges { node { sequence kind data } } pageInfo { hasNextPage endCursor } } }",
                json!({"r": run_id, "after": after}),
            )
            .await;
        let page = page.data("runEvents");
        events.extend(page["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()));
        if page["pageInfo"]["hasNextPage"] != true {
            return events;
        }
        after = page["pageInfo"]["endCursor"].clone();
    }
}

pub async fn run_status(owner: &Client, run_id: &str) -> String {
    let node = owner
        .gql("query($id: ID!) { node(id: $id) { ... on TaskRun { status statusReason } } }", json!({"id": run_id}))
        .await;
    node.data("node")["status"].as_str().unwrap().to_owned()
}

/// A newly enrolled connector of the fixture's workspace, dialed in over the wire protocol.
pub async fn raw_connector(server: &Server, f: &Fixture) -> (RawConnector, String) {
    let token = enrollment_token(&f.owner, &f.workspace_id).await;
    let (status, enrolled) = acc_tests::connector_client::enroll(server, &token).await;
    assert_eq!(status, 200, "{enrolled}");
    let id = enrolled["connector_id"].as_str().unwrap().parse().unwrap();
    let credential = enrolled["credential"].as_str().unwrap().to_owned();
    (RawConnector::dial(server, id, &credential).await.unwrap(), credential)
}

// The real `acc-connector` binary, as end-to-end tests run it.

pub fn connector_binary() -> std::path::PathBuf {
    acc_tests::server::binary("acc-connector")
}

/// Enrolls a connector in the fixture's workspace; returns the credential path.
pub async fn enroll(server: &Server, owner: &Client, workspace_id: &str, dir: &Path) -> std::path::PathBuf {
    let token = enrollment_token(owner, workspace_id).await;
    enroll_with(server, &token, dir, &[])
}

/// `acc-connector enroll` with a token (and `extra` arguments); returns the credential path.
pub fn enroll_with(server: &Server, token: &str, dir: &Path, extra: &[&str]) -> std::path::PathBuf {
    let credential = dir.join("connector").join("credential.json");
    let output = Command::new(connector_binary())
        .args(["enroll", "--server", &server.base_url(), "--token", token, "--credential"])
        .arg(&credential)
        .args(extra)
        .output()
        .unwrap();
    assert!(output.status.success(), "enroll: {}", String::from_utf8_lossy(&output.stderr));
    let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&credential).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600, "the credential is readable by its owner only");
    credential
}

pub struct ConnectorProcess {
    pub child: Child,
}

impl Drop for ConnectorProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn run_connector(dir: &Path, credential: &Path, agents: &str) -> ConnectorProcess {
    run_connector_via(dir, credential, None, agents)
}

/// Starts `acc-connector run`; `server` overrides the URL in the credential (to go through a proxy).
pub fn run_connector_via(dir: &Path, credential: &Path, server: Option<&str>, agents: &str) -> ConnectorProcess {
    let config = dir.join("connector.toml");
    let server = server.map(|s| format!("server = {s:?}\n")).unwrap_or_default();
    std::fs::write(
        &config,
        format!(
            "{server}credential = {:?}\nspool_dir = {:?}\ncancel_grace_ms = 1000\n{agents}",
            credential,
            dir.join("spool")
        ),
    )
    .unwrap();
    let log = std::fs::File::create(dir.join("connector.log")).unwrap();
    let child = Command::new(connector_binary())
        .args(["run", "--config"])
        .arg(&config)
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .unwrap();
    ConnectorProcess { child }
}

/// Waits until the project sees `count` online agents; returns them by name.
pub async fn online_agents(owner: &Client, project_id: &str, count: usize) -> Vec<Value> {
    for _ in 0..200 {
        let agents = owner
            .gql("query($p: ID!) { agents(projectId: $p) { id name online capabilities } }", json!({"p": project_id}))
            .await;
        let online: Vec<Value> =
            agents.data("agents").as_array().unwrap().iter().filter(|a| a["online"] == true).cloned().collect();
        if online.len() == count {
            return online;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the connector's agents did not come online");
}

/// Waits (up to a minute: real runtimes start slowly on a busy machine) for a run's status.
pub async fn wait_status(owner: &Client, run_id: &str, wanted: &str) -> Value {
    wait_status_within(owner, run_id, wanted, Duration::from_secs(60)).await
}

/// [`wait_status`] for runs slower to get there (a runtime that starts a server of its own).
pub async fn wait_status_within(owner: &Client, run_id: &str, wanted: &str, limit: Duration) -> Value {
    let deadline = tokio::time::Instant::now() + limit;
    let mut last = Value::Null;
    while tokio::time::Instant::now() < deadline {
        let node = owner
            .gql("query($id: ID!) { node(id: $id) { ... on TaskRun { status statusReason } } }", json!({"id": run_id}))
            .await;
        last = node.data("node").clone();
        if last["status"] == wanted {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("run never reached {wanted}: {last}");
}

/// The `result` event of a run, once the connector has reported it.
pub async fn wait_result(owner: &Client, run_id: &str) -> Value {
    for _ in 0..200 {
        let events = events(owner, run_id).await;
        if let Some(result) = events.into_iter().find(|e| e["kind"] == "result") {
            return result["data"].clone();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the connector did not report the end of run {run_id}");
}

/// `runUsage` of a run: both signals, the wall time and the budget.
pub async fn run_usage(client: &Client, run_id: &str) -> Value {
    let signal = "requests inputTokens outputTokens cachedInputTokens tokens costUsd cost models";
    let query = format!(
        "query($r: ID!) {{ runUsage(runId: $r) {{ measured {{ {signal} }} reported {{ {signal} }} wallTimeMs budget {{ maxTokens maxCostUsd }} }} }}"
    );
    client.gql(&query, json!({"r": run_id})).await.data("runUsage").clone()
}

/// Starts a run of `task` on `agent` (to write hi to out.txt) and waits until it asks to run its shell command.
pub async fn start_run_until_approval(owner: &Client, task: &Value, agent: &Value) -> String {
    let started = owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {objective: \"write hi to out.txt\"}) { id } }",
            json!({"t": task["id"], "a": agent["id"]}),
        )
        .await;
    let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
    wait_status(owner, &run_id, "WAITING_APPROVAL").await;
    run_id
}

/// The project's first pending approval: `{id, action, details}`.
pub async fn pending_approval(owner: &Client, f: &Fixture) -> Value {
    let pending = owner
        .gql(
            "query($p: ID) { approvals(projectId: $p) { edges { node { id action details } } } }",
            json!({"p": f.project_id}),
        )
        .await;
    pending.data("approvals")["edges"][0]["node"].clone()
}

/// A person's decision (`APPROVE` or `DENY`) on `approval`, with `reason`.
pub async fn decide_approval(owner: &Client, approval: &Value, decision: &str, reason: &str) {
    owner
        .gql(
            "mutation($a: ID!, $d: ApprovalDecision!, $r: String) { decideApproval(approvalId: $a, decision: $d, reason: $r) { status } }",
            json!({"a": approval["id"], "d": decision, "r": reason}),
        )
        .await
        .data("decideApproval");
}

/// Starts a run of `task` on `agent` and approves its shell command.
pub async fn start_and_approve(owner: &Client, f: &Fixture, task: &Value, agent: &Value) -> String {
    let run_id = start_run_until_approval(owner, task, agent).await;
    decide_approval(owner, &pending_approval(owner, f).await, "APPROVE", "reviewed").await;
    run_id
}

/// Waits until the connector restarted after a SIGKILL has reported the run's first attempt lost.
/// By then it has killed the runtime the dead connector left running. A test holding that
/// runtime's model call lets it go only after this: a runtime let go earlier carries on alone and
/// may be killed in the middle of writing its session file, which the resumed attempt then cannot read.
pub async fn wait_first_attempt_lost(owner: &Client, run_id: &str) {
    let query = "query($id: ID!) { node(id: $id) { ... on TaskRun { attempts { number status } } } }";
    let mut last = Value::Null;
    for _ in 0..1200 {
        last = owner.gql(query, json!({"id": run_id})).await.data("node")["attempts"].clone();
        if last[0]["status"] == "LOST" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the restarted connector did not report the first attempt lost: {last}");
}

/// After its connector was killed mid-run and started again: waits until the run succeeded in a
/// second attempt that resumed the first one's runtime session. Returns the run's events.
pub async fn assert_resumed_after_restart(owner: &Client, run_id: &str) -> Vec<Value> {
    // A restart, a retry backoff and a runtime start.
    wait_status_within(owner, run_id, "SUCCEEDED", Duration::from_secs(90)).await;
    let attempts = owner
        .gql(
            "query($id: ID!) { node(id: $id) { ... on TaskRun { attempts { number kind status } } } }",
            json!({"id": run_id}),
        )
        .await;
    assert_eq!(
        attempts.data("node")["attempts"],
        json!([
            {"number": 1, "kind": "START", "status": "LOST"},
            {"number": 2, "kind": "RESUME", "status": "ENDED"},
        ])
    );
    let events = events(owner, run_id).await;
    let started: Vec<&Value> = events.iter().filter(|e| e["kind"] == "started").collect();
    assert_eq!(started.len(), 2, "{events:?}");
    assert!(started[0]["data"]["session_id"].is_string(), "{:?}", started[0]);
    assert_eq!(started[1]["data"]["session_id"], started[0]["data"]["session_id"], "the same session, resumed");
    events
}

/// What a resumed attempt shows of the first one: the command ran once, in the first attempt,
/// and its file is in `work`; the last model call carries the first attempt's conversation, its
/// tool output (`tool_output`: what the model API calls it) included, then the instruction to go on.
pub fn assert_continued(events: &[Value], work: &Path, last_call: &Value, tool_output: &str) {
    let tool_calls = events.iter().filter(|e| e["kind"] == "tool_call").count();
    assert_eq!(tool_calls, 1, "the command ran once, in the first attempt");
    assert_eq!(std::fs::read_to_string(work.join("out.txt")).unwrap(), "hi\n");
    let conversation = last_call.to_string();
    assert!(conversation.contains(tool_output), "{conversation}");
    assert!(conversation.contains("write hi to out.txt") && conversation.contains("interrupted"), "{conversation}");
}

/// A proxy on loopback that records the first line of every request (a `CONNECT host:port` for
/// HTTPS) and forwards nothing.
pub async fn logging_proxy() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let mut stream = BufReader::new(stream);
            let mut first = String::new();
            let _ = stream.read_line(&mut first).await;
            log.lock().unwrap().push(first.trim().to_owned());
            let _ = stream.get_mut().write_all(b"HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n").await;
        }
    });
    (url, seen)
}

/// A user of the fixture's organization with `role` there, signed in.
pub async fn user_with_role(owner: &Client, email: &str, role: &str) -> (Client, String) {
    let created = owner
        .gql(
            "mutation($e: String!, $p: String!, $r: Role!) { createUser(email: $e, password: $p, role: $r) { id } }",
            json!({"e": email, "p": acc_tests::PASSWORD, "r": role}),
        )
        .await;
    let id = created.data("createUser")["id"].as_str().unwrap().to_owned();
    let login = owner.anonymous().gql(op!("login"), json!({"email": email, "password": acc_tests::PASSWORD})).await;
    (owner.with_token(login.data("login")["accessToken"].as_str().unwrap()), id)
}

/// A second project in `workspace_id`, for what a search from the first must never find.
pub async fn other_project(owner: &Client, workspace_id: &str, name: &str) -> String {
    let created = owner.gql(op!("create_project"), json!({"workspaceId": workspace_id, "name": name})).await;
    created.data("createProject")["id"].as_str().unwrap().to_owned()
}

/// The signed-in user's organization's id.
pub async fn organization_id(client: &Client) -> String {
    client.gql(op!("organization"), json!({})).await.data("organization")["id"].as_str().unwrap().to_owned()
}

/// The owner of a second organization ("Globex"), made by the first one's owner (the server
/// administrator), signed in.
pub async fn second_organization_owner(a_owner: &Client) -> Client {
    a_owner
        .gql(
            "mutation($p: String!) { createOrganization(name: \"Globex\", ownerEmail: \"owner@globex.test\", ownerPassword: $p) { id } }",
            json!({"p": acc_tests::PASSWORD}),
        )
        .await
        .data("createOrganization");
    let login = a_owner
        .anonymous()
        .gql(op!("login"), json!({"email": "owner@globex.test", "password": acc_tests::PASSWORD}))
        .await;
    a_owner.with_token(login.data("login")["accessToken"].as_str().unwrap())
}

/// Writes a memory entry of `scope` (a `FACT`, with `extra` fields of `WriteMemoryInput`); its id.
pub async fn write_memory(client: &Client, scope: &str, subject: &str, content: &str, extra: Value) -> String {
    let mut input = json!({"scopeId": scope, "kind": "FACT", "subject": subject, "content": content});
    for (k, v) in extra.as_object().unwrap() {
        input[k] = v.clone();
    }
    let written = client.gql(op!("write_memory"), json!({"input": input})).await;
    written.data("writeMemory")["entry"]["id"].as_str().unwrap().to_owned()
}

/// A person verifies the entry's first version.
pub async fn verify_memory(client: &Client, entry: &str) {
    let verify = "mutation($e: ID!) { verifyMemory(entryId: $e, expectedRevision: 1, verdict: VERIFIED) { id } }";
    client.gql(verify, json!({"e": entry})).await.data("verifyMemory");
}

/// Headless Gemini CLI needs its auth method chosen in its settings, and stays quiet by them.
pub fn gemini_settings(home: &Path) {
    std::fs::create_dir_all(home.join(".gemini")).unwrap();
    let settings = json!({
        "security": { "auth": { "selectedType": "gemini-api-key" } },
        "privacy": { "usageStatisticsEnabled": false },
        "telemetry": { "enabled": false },
        "general": { "disableAutoUpdate": true, "disableUpdateNag": true },
    });
    std::fs::write(home.join(".gemini/settings.json"), settings.to_string()).unwrap();
}

/// A Codex agent for `server`'s fixture with an adapter and its arguments: its connector's
/// directory and credential, the `[[agents]]` configuration (Codex reaching `model` through the
/// connector's model gateway) and the workdir.
pub async fn codex_agent(
    server: &acc_tests::Server,
    f: &Fixture,
    model: &acc_tests::model_api::ModelApi,
    (adapter, args): (&str, &str),
) -> (std::path::PathBuf, std::path::PathBuf, String, std::path::PathBuf) {
    let codex = acc_tests::runtimes::npm_bin("codex");
    let dir = server.db.dir.clone();
    // Codex does not put its sandbox helper on the PATH when its home is under the temporary
    // directory, and a system `bwrap` then cannot start a sandboxed command (`bwrap: execvp
    // codex-linux-sandbox: No such file or directory`): it gets a temporary directory beside it.
    let (codex_home, work, tmp) = (dir.join("codex-home"), dir.join("work"), dir.join("tmp"));
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::create_dir_all(&codex_home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    // Its own configuration keeps it quiet; the adapter sets its endpoint (the model gateway).
    std::fs::write(
        codex_home.join("config.toml"),
        "model = \"gpt-5-codex\"\ncheck_for_update_on_startup = false\n\
         [features]\nplugins = false\nremote_plugin = false\n[analytics]\nenabled = false\n[feedback]\nenabled = false\n",
    )
    .unwrap();
    let credential = enroll(server, &f.owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "{provider}[[agents]]\nname = \"codex\"\nadapter = {adapter:?}\ncommand = {codex:?}\nworkdir = {work:?}\n\
         args = {args}\nmodel_provider = \"openai\"\nenv = {{ CODEX_HOME = {codex_home:?}, HOME = {home:?}, TMPDIR = {tmp:?} }}\n",
        provider = model.provider("openai", "openai"),
        home = dir.join("home"),
    );
    (dir, credential, agents, work)
}

/// A Hermes Agent for `server`'s fixture: its connector's directory and credential, the
/// `[[agents]]` configuration (Hermes reaching `model` through the connector's model gateway) and
/// the workdir. Its home (`hermes-home` in the directory) holds the user's own `config.yaml`: its
/// model, quiet (no context-length lookup, no background installs), then `config`. `env` is added
/// to its environment.
pub async fn hermes_agent(
    server: &acc_tests::Server,
    f: &Fixture,
    model: &acc_tests::model_api::ModelApi,
    config: &str,
    env: &str,
) -> (std::path::PathBuf, std::path::PathBuf, String, std::path::PathBuf) {
    let hermes = acc_tests::runtimes::pip_bin("pip", "hermes");
    let dir = server.db.dir.clone();
    let (hermes_home, home, work) = (dir.join("hermes-home"), dir.join("home"), dir.join("work"));
    for path in [&hermes_home, &home, &work] {
        std::fs::create_dir_all(path).unwrap();
    }
    std::fs::write(
        hermes_home.join("config.yaml"),
        format!(
            "model:\n  default: gpt-stand-in\n  context_length: 128000\nsecurity:\n  allow_lazy_installs: false\n{config}"
        ),
    )
    .unwrap();
    let credential = enroll(server, &f.owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "{provider}[[agents]]\nname = \"hermes\"\nadapter = \"hermes\"\ncommand = {hermes:?}\nworkdir = {work:?}\n\
         model_provider = \"openai\"\nenv = {{ HOME = {home:?}, HERMES_HOME = {hermes_home:?}, TIRITH_ENABLED = \"0\"{env} }}\n",
        provider = model.provider("openai", "openai"),
    );
    (dir, credential, agents, work)
}

// Skill packages, as a publisher makes them.

pub fn skill_md(name: &str, description: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: {description}\nlicense: Apache-2.0\nallowed-tools: Read Grep\n---\n\n# {name}\n\nWrite release notes from the merged pull requests.\n"
    )
}

/// A zip of `files` under a top-level directory named `dir`.
pub fn zip(dir: &str, files: &[(&str, &str)]) -> Vec<u8> {
    use std::io::Write;
    let mut out = std::io::Cursor::new(Vec::new());
    let mut writer = zip::ZipWriter::new(&mut out);
    for (path, content) in files {
        writer.start_file(format!("{dir}/{path}"), zip::write::SimpleFileOptions::default()).unwrap();
        writer.write_all(content.as_bytes()).unwrap();
    }
    writer.finish().unwrap();
    out.into_inner()
}

/// A release-notes package with a reference file.
pub fn notes_package(description: &str) -> Vec<u8> {
    let notes = skill_md("release-notes", description);
    zip("release-notes", &[("SKILL.md", notes.as_str()), ("references/style.md", "Short lines, past tense.\n")])
}

/// Imports `archive` unsigned, approves it with a reason and activates it in `scope`: what runs
/// started there are given.
pub async fn activated_skill(owner: &Client, archive: Vec<u8>, scope: &str) {
    let (status, imported) = owner.post_bytes("/v1/skills", archive, &[]).await;
    assert_eq!(status, 201, "{imported}");
    let version = &imported["version"]["id"];
    let review =
        "mutation($v: ID!) { reviewSkillVersion(versionId: $v, decision: APPROVE, reason: \"read it\") { id } }";
    owner.gql(review, json!({"v": version})).await.data("reviewSkillVersion");
    let activate = "mutation($v: ID!, $s: ID!) { activateSkill(versionId: $v, scopeId: $s) { activation { status } } }";
    let activated = owner.gql(activate, json!({"v": version, "s": scope})).await;
    assert_eq!(activated.data("activateSkill")["activation"]["status"], "ACTIVE");
}

/// The organization's audit events of these kinds, oldest first (as its owner reads them).
pub async fn audit_events(owner: &Client, actions: &[&str]) -> Vec<Value> {
    let page = owner
        .gql(
            "query($a: [AuditAction!]) { auditEvents(filter: {actions: $a}, first: 100) { edges { node { \
             action actorKind actorId targetKind targetId workspaceId projectId details } } } }",
            json!({"a": actions}),
        )
        .await;
    page.data("auditEvents")["edges"].as_array().unwrap().iter().map(|edge| edge["node"].clone()).collect()
}

/// The caller's notifications once there are at least `at_least` (they are made in the
/// background), oldest first.
pub async fn notifications(client: &Client, at_least: usize) -> Vec<Value> {
    for _ in 0..100 {
        let page = client
            .gql(
                "{ notifications(last: 50) { edges { node { id kind title body subjectId projectId readAt } } } }",
                json!({}),
            )
            .await;
        let found: Vec<Value> =
            page.data("notifications")["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()).collect();
        if found.len() >= at_least {
            return found;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("fewer than {at_least} notifications came");
}
