//! A connector's life after enrollment, with the real `acc` and `acc-connector` binaries: its
//! logs, and removing a revoked connector and its agents while their runs keep their history.

mod common;

use std::path::Path;
use std::time::Duration;

use acc_tests::{Client, Server, TestDb, on_both_databases};
use common::{enroll, online_agents, run_connector, wait_status};
use serde_json::{Value, json};

const GREETER: &str = r#"
[[agents]]
name = "greeter"
adapter = "command"
command = "sh"
args = ["-c", "echo hello"]
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
