//! A connector's life after enrollment, with the real `acc` and `acc-connector` binaries: its
//! logs, its revocation, a new credential picked up without a restart, and removing a revoked
//! connector and its agents while their runs keep their history.

mod common;

use std::path::Path;
use std::time::Duration;

use acc_tests::{Client, Server, ServerOptions, TestDb, on_both_databases};
use common::{enroll, enroll_with, online_agents, run_connector, wait_status};
use serde_json::{Value, json};

const GREETER: &str = r#"
[[agents]]
name = "greeter"
adapter = "command"
command = "sh"
args = ["-c", "echo hello"]
"#;

/// Prints 40 numbered lines, one every 50 ms.
const TICKER: &str = r#"
[[agents]]
name = "ticker"
adapter = "command"
command = "sh"
args = ["-c", "i=1; while [ $i -le 40 ]; do echo tick $i; i=$((i+1)); sleep 0.05; done"]
"#;

/// Waits until the file at `path` contains `needle`; returns its text.
async fn wait_for_line(path: &Path, needle: &str) -> String {
    let mut text = String::new();
    for _ in 0..400 {
        text = std::fs::read_to_string(path).unwrap_or_default();
        if text.contains(needle) {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{} never said `{needle}`:\n{text}", path.display());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_written_to_a_file_carry_no_colour_codes() {
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    // Both binaries write their stderr to a file here, as under systemd or `2>log`.
    let _connector = run_connector(&dir, &credential, GREETER);
    online_agents(&f.owner, &f.project_id, 1).await;
    let logs = [
        ("acc", wait_for_line(&dir.join("acc.log"), "connector online").await),
        ("acc-connector", wait_for_line(&dir.join("connector.log"), "handshake complete").await),
    ];
    for (binary, log) in logs {
        assert!(!log.contains('\x1b'), "{binary} wrote colour codes into its log file:\n{log}");
    }
}

async fn connectors(owner: &Client) -> Vec<Value> {
    let listed = owner.gql("{ connectors { id name online revokedAt } }", json!({})).await;
    listed.data("connectors").as_array().unwrap().clone()
}

async fn agents(owner: &Client, project_id: &str) -> Vec<Value> {
    let listed =
        owner.gql("query($p: ID!) { agents(projectId: $p) { id name online } }", json!({"p": project_id})).await;
    listed.data("agents").as_array().unwrap().clone()
}

async fn start_run(owner: &Client, task_id: &Value, agent_id: &Value) -> acc_tests::GqlResponse {
    owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a) { id } }",
            json!({"t": task_id, "a": agent_id}),
        )
        .await
}

const REMOVE: &str = "mutation($id: ID!) { removeConnector(id: $id) { id name removedAt } }";

on_both_databases!(
    a_revoked_connector_and_its_agents_are_removed_and_their_runs_keep_naming_them,
    |db: TestDb| async move {
        let server = Server::start(db).await;
        let f = common::fixture(&server).await;
        let dir = server.db.dir.clone();
        let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
        let _connector = run_connector(&dir, &credential, GREETER);
        let greeter = online_agents(&f.owner, &f.project_id, 1).await[0]["id"].clone();
        let task = common::create_task(&f.owner, &f.project_id, "Greet").await;
        let run_id =
            start_run(&f.owner, &task["id"], &greeter).await.data("startRun")["id"].as_str().unwrap().to_owned();
        wait_status(&f.owner, &run_id, "SUCCEEDED").await;
        let listed = connectors(&f.owner).await;
        let (connector_id, name) = (listed[0]["id"].clone(), listed[0]["name"].clone());

        // A connector in service is not removed, and an operator may remove none.
        let refused = f.owner.gql(REMOVE, json!({"id": connector_id})).await;
        let error = refused.expect_code("VALIDATION");
        assert!(error["message"].as_str().unwrap().contains("revoke it first"), "{error}");
        assert_eq!(connectors(&f.owner).await.len(), 1);
        f.owner
            .gql(
                "mutation($p: String!) { createUser(email: \"ops@acme.test\", password: $p, role: OPERATOR) { id } }",
                json!({"p": acc_tests::PASSWORD}),
            )
            .await
            .data("createUser");
        let login = f
            .owner
            .anonymous()
            .gql(acc_tests::op!("login"), json!({"email": "ops@acme.test", "password": acc_tests::PASSWORD}))
            .await;
        let operator = f.owner.with_token(login.data("login")["accessToken"].as_str().unwrap());

        f.owner.gql("mutation($id: ID!) { revokeConnector(id: $id) { id } }", json!({"id": connector_id})).await;
        operator.gql(REMOVE, json!({"id": connector_id})).await.expect_code("FORBIDDEN");
        let removed = f.owner.gql(REMOVE, json!({"id": connector_id})).await;
        let removed = removed.data("removeConnector").clone();
        assert_eq!(removed["name"], name);
        assert!(removed["removedAt"].is_string(), "{removed}");

        // Gone from the listings, and no run can be started on its agents...
        assert_eq!(connectors(&f.owner).await, Vec::<Value>::new());
        assert_eq!(agents(&f.owner, &f.project_id).await, Vec::<Value>::new());
        start_run(&f.owner, &task["id"], &greeter).await.expect_code("NOT_FOUND");
        // ...while the run it did still names its agent and connector.
        let history = f
        .owner
        .gql(
            "query($id: ID!) { node(id: $id) { ... on TaskRun { status attempts { status agent { name connector { name removedAt } } } } } }",
            json!({"id": run_id}),
        )
        .await;
        assert_eq!(
            history.data("node"),
            &json!({
                "status": "SUCCEEDED",
                "attempts": [{"status": "ENDED", "agent": {"name": "greeter", "connector": {"name": name, "removedAt": removed["removedAt"]}}}]
            })
        );
        // Removing it again changes nothing.
        let again = f.owner.gql(REMOVE, json!({"id": connector_id})).await;
        assert_eq!(again.data("removeConnector"), &removed);
    }
);

on_both_databases!(a_running_connector_picks_up_a_new_credential_without_a_restart, |db: TestDb| async move {
    // Short leases, so the revoked connector's attempt lapses and is retried quickly.
    let env = [
        ("ACC_RUNS__HEARTBEAT_INTERVAL_MS", "500"),
        ("ACC_RUNS__LEASE_MS", "2000"),
        ("ACC_RUNS__RETRY_BACKOFF_MS", "200"),
    ];
    let env = env.map(|(k, v)| (k.to_owned(), v.to_owned())).to_vec();
    let server = Server::start_with(db, ServerOptions { env, ..Default::default() }).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let mut connector = run_connector(&dir, &credential, TICKER);
    let old_agent = online_agents(&f.owner, &f.project_id, 1).await[0]["id"].clone();
    let old = connectors(&f.owner).await[0]["id"].clone();
    let task = common::create_task(&f.owner, &f.project_id, "Tick").await;
    // Not pinned to the agent, so its retry may go to any agent that can take it. Which agent it
    // runs on is read once it runs: on a loaded machine the connector may drop and dial again
    // before `startRun`, and the run then waits (blocked) for it rather than starting at once.
    let started = f.owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
    wait_status(&f.owner, &run_id, "RUNNING").await;
    let running = f
        .owner
        .gql("query($id: ID!) { node(id: $id) { ... on TaskRun { agent { id } } } }", json!({"id": run_id}))
        .await;
    assert_eq!(running.data("node")["agent"]["id"], old_agent);

    // Revoked mid-run, then enrolled again over the same credential file.
    f.owner.gql("mutation($id: ID!) { revokeConnector(id: $id) { id } }", json!({"id": old})).await;
    let token = common::enrollment_token(&f.owner, &f.workspace_id).await;
    enroll_with(&server, &token, &dir, &["--force"]);

    // The same process comes back as the new connector...
    let mut new = Value::Null;
    for _ in 0..600 {
        let listed = connectors(&f.owner).await;
        if let Some(c) = listed.iter().find(|c| c["id"] != old && c["online"] == true) {
            new = c["id"].clone();
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(new.is_string(), "the connector never came back with its new credential");
    assert!(connector.child.try_wait().unwrap().is_none(), "the connector kept running");
    wait_for_line(&dir.join("connector.log"), "dialing with the new credential").await;

    // ...and the run its old identity lost is retried there, from a fresh event sequence.
    common::wait_status_within(&f.owner, &run_id, "SUCCEEDED", Duration::from_secs(60)).await;
    let attempts = f
        .owner
        .gql(
            "query($id: ID!) { node(id: $id) { ... on TaskRun { attempts { status agent { connector { id } } } } } }",
            json!({"id": run_id}),
        )
        .await;
    let attempts = attempts.data("node")["attempts"].as_array().unwrap().clone();
    assert_eq!(attempts.first().unwrap()["agent"]["connector"]["id"], old);
    assert_eq!(attempts.last().unwrap()["agent"]["connector"]["id"], new);
    assert_eq!(attempts.last().unwrap()["status"], "ENDED");
    let events = common::events(&f.owner, &run_id).await;
    let last_start = events.iter().rposition(|e| e["kind"] == "started").unwrap();
    let lines: Vec<&str> = events[last_start..]
        .iter()
        .filter(|e| e["kind"] == "output")
        .map(|e| e["data"]["line"].as_str().unwrap())
        .collect();
    let expected: Vec<String> = (1..=40).map(|i| format!("tick {i}")).collect();
    assert_eq!(lines, expected, "the retry's every line, once, in order");
    let _ = connector.child.kill();
});
