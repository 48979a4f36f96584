//! Set-up shared by the end-to-end test files: an owner with a workspace and a project, and the
//! queries several files make. Each file uses some of these.

#![allow(dead_code)]

use acc_tests::connector_client::{RawConnector, enroll};
use acc_tests::{Client, Server, op};
use serde_json::{Value, json};

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

pub async fn events(owner: &Client, run_id: &str) -> Vec<Value> {
    let page = owner
        .gql(
            "query($r: ID!) { runEvents(runId: $r, first: 100) { edges { node { sequence kind data } } } }",
            json!({"r": run_id}),
        )
        .await;
    page.data("runEvents")["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()).collect()
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
    let (status, enrolled) = enroll(server, &token).await;
    assert_eq!(status, 200, "{enrolled}");
    let id = enrolled["connector_id"].as_str().unwrap().parse().unwrap();
    let credential = enrolled["credential"].as_str().unwrap().to_owned();
    (RawConnector::dial(server, id, &credential).await.unwrap(), credential)
}
