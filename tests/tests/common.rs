//! Set-up shared by the end-to-end test files: an owner with a workspace and a project.

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
