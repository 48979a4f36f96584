//! Workspaces, projects and tasks through the real server: the walkthrough a new user does,
//! dependencies and cycles, criteria, optimistic writes, idempotent creates and deletion.

use acc_tests::{Client, Server, TestDb, on_both_databases, op};
use serde_json::{Value, json};

/// An owner with one workspace and project; returns (client, project id).
pub async fn project(server: &Server) -> (Client, String) {
    let owner = server.owner().await;
    let ws = owner.gql(op!("create_workspace"), json!({"name": "Platform"})).await;
    let ws_id = ws.data("createWorkspace")["id"].as_str().unwrap().to_owned();
    let project = owner.gql(op!("create_project"), json!({"workspaceId": ws_id, "name": "Control plane"})).await;
    let project_id = project.data("createProject")["id"].as_str().unwrap().to_owned();
    (owner, project_id)
}

async fn task(client: &Client, project_id: &str, title: &str) -> Value {
    let created = client.gql(op!("create_task"), json!({"input": {"projectId": project_id, "title": title}})).await;
    created.data("createTask").clone()
}

async fn task_titles(client: &Client, project_id: &str) -> Vec<String> {
    let page = client.gql(op!("tasks"), json!({"projectId": project_id, "first": 100})).await;
    page.data("tasks")["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["node"]["title"].as_str().unwrap().to_owned())
        .collect()
}

on_both_databases!(tasks_with_dependencies_criteria_and_revisions, |db: TestDb| async move {
    let server = Server::start(db).await;
    let (owner, project_id) = project(&server).await;
    let viewer = owner.gql(op!("viewer"), json!({})).await;
    let owner_id = viewer.data("viewer")["id"].as_str().unwrap().to_owned();

    let design = owner
        .gql(
            op!("create_task"),
            json!({"input": {"projectId": project_id, "title": "Design the schema", "priority": "HIGH", "labels": ["db", "db", "api"], "assigneeId": owner_id}}),
        )
        .await;
    let design = design.data("createTask").clone();
    assert_eq!(design["status"], "TODO");
    assert_eq!(design["priority"], "HIGH");
    assert_eq!(design["labels"], json!(["db", "api"]), "labels are deduplicated");
    assert_eq!(design["assignee"]["id"], owner_id.as_str());
    assert_eq!(design["revision"], 1);
    let build = task(&owner, &project_id, "Build the API").await;
    let ship = task(&owner, &project_id, "Ship it").await;
    let (design_id, build_id, ship_id) =
        (design["id"].as_str().unwrap(), build["id"].as_str().unwrap(), ship["id"].as_str().unwrap());

    // build → design, ship → build
    for (t, d) in [(build_id, design_id), (ship_id, build_id)] {
        owner.gql(op!("add_task_dependency"), json!({"taskId": t, "dependsOnId": d})).await.data("addTaskDependency");
    }
    // design → ship would close design → ship → build → design.
    let cycle = owner.gql(op!("add_task_dependency"), json!({"taskId": design_id, "dependsOnId": ship_id})).await;
    let error = cycle.expect_code("VALIDATION");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("Design the schema → Ship it → Build the API → Design the schema"), "{message}");
    assert_eq!(error["extensions"]["details"]["cycle"].as_array().unwrap().len(), 4);
    let self_loop = owner.gql(op!("add_task_dependency"), json!({"taskId": ship_id, "dependsOnId": ship_id})).await;
    self_loop.expect_code("VALIDATION");

    let page = owner.gql(op!("tasks"), json!({"projectId": project_id})).await;
    let nodes: Vec<Value> = page.data("tasks")["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()).collect();
    assert_eq!(nodes.len(), 3);
    assert_eq!(nodes[1]["dependencies"], json!([{"id": design_id, "title": "Design the schema"}]));
    assert_eq!(nodes[1]["dependents"], json!([{"id": ship_id, "title": "Ship it"}]));
    assert_eq!(nodes[0]["dependencies"], json!([]), "the failed cycle wrote nothing");

    // Criteria
    let criterion =
        owner.gql(op!("add_acceptance_criterion"), json!({"taskId": ship_id, "description": "Tests pass"})).await;
    let criterion = criterion.data("addAcceptanceCriterion").clone();
    assert_eq!(criterion["met"], false);
    let met = owner
        .gql(op!("set_acceptance_criterion_met"), json!({"id": criterion["id"], "met": true, "expectedRevision": 1}))
        .await;
    assert_eq!(met.data("setAcceptanceCriterionMet")["met"], true);
    let stale = owner
        .gql(op!("set_acceptance_criterion_met"), json!({"id": criterion["id"], "met": false, "expectedRevision": 1}))
        .await;
    stale.expect_code("CONFLICT");

    // Optimistic update: the current revision wins once, a stale one writes nothing.
    let current = owner.gql(op!("node"), json!({"id": ship_id})).await.data("node")["revision"].as_i64().unwrap();
    let updated = owner
        .gql(
            op!("update_task"),
            json!({"input": {"id": ship_id, "expectedRevision": current, "status": "IN_PROGRESS", "title": "Ship v1"}}),
        )
        .await;
    assert_eq!(updated.data("updateTask")["revision"], current + 1);
    let conflict = owner
        .gql(op!("update_task"), json!({"input": {"id": ship_id, "expectedRevision": current, "title": "Lost update"}}))
        .await;
    let error = conflict.expect_code("CONFLICT");
    assert_eq!(error["extensions"]["details"]["currentRevision"], current + 1);
    assert!(task_titles(&owner, &project_id).await.contains(&"Ship v1".to_owned()));

    // Unassign with an explicit null.
    let unassigned = owner
        .gql(op!("update_task"), json!({"input": {"id": design_id, "expectedRevision": 1, "assigneeId": null}}))
        .await;
    assert_eq!(unassigned.data("updateTask")["assignee"], Value::Null);

    // Removing and deleting.
    let removed = owner.gql(op!("remove_task_dependency"), json!({"taskId": ship_id, "dependsOnId": build_id})).await;
    assert_eq!(removed.data("removeTaskDependency")["dependencies"], json!([]));
    let gone = owner.gql(op!("remove_task_dependency"), json!({"taskId": ship_id, "dependsOnId": build_id})).await;
    gone.expect_code("NOT_FOUND");
    let deleted = owner.gql(op!("delete_task"), json!({"id": design_id})).await;
    assert_eq!(deleted.data("deleteTask"), design_id);
    assert_eq!(task_titles(&owner, &project_id).await, vec!["Build the API", "Ship v1"]);
    owner.gql(op!("node"), json!({"id": design_id})).await.expect_code("NOT_FOUND");
    let page = owner.gql(op!("tasks"), json!({"projectId": project_id})).await;
    assert_eq!(page.data("tasks")["edges"][0]["node"]["dependencies"], json!([]), "edges go with the task");
});

on_both_databases!(pagination_is_keyset_and_stable, |db: TestDb| async move {
    let server = Server::start(db).await;
    let (owner, project_id) = project(&server).await;
    for i in 0..7 {
        task(&owner, &project_id, &format!("task {i}")).await;
    }
    let mut seen = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let page = owner.gql(op!("tasks"), json!({"projectId": project_id, "first": 3, "after": after})).await;
        let tasks = page.data("tasks");
        for edge in tasks["edges"].as_array().unwrap() {
            seen.push(edge["node"]["title"].as_str().unwrap().to_owned());
        }
        if !tasks["pageInfo"]["hasNextPage"].as_bool().unwrap() {
            break;
        }
        after = tasks["pageInfo"]["endCursor"].as_str().map(str::to_owned);
    }
    assert_eq!(seen, (0..7).map(|i| format!("task {i}")).collect::<Vec<_>>());
    let filtered =
        owner.gql(op!("tasks"), json!({"projectId": project_id, "filter": {"titleContains": "task 3"}})).await;
    assert_eq!(filtered.data("tasks")["edges"].as_array().unwrap().len(), 1);
    let too_big = owner.gql(op!("tasks"), json!({"projectId": project_id, "first": 1000})).await;
    too_big.expect_code("VALIDATION");
    let bad_cursor = owner.gql(op!("tasks"), json!({"projectId": project_id, "after": "not-a-cursor"})).await;
    bad_cursor.expect_code("VALIDATION");
});

on_both_databases!(idempotency_keys_replay_and_refuse_other_input, |db: TestDb| async move {
    let server = Server::start(db).await;
    let (owner, project_id) = project(&server).await;
    let input = json!({"input": {"projectId": project_id, "title": "Once"}, "idempotencyKey": "k-1"});
    let first = owner.gql(op!("create_task"), input.clone()).await;
    let second = owner.gql(op!("create_task"), input).await;
    assert_eq!(first.data("createTask")["id"], second.data("createTask")["id"]);
    let other = owner
        .gql(op!("create_task"), json!({"input": {"projectId": project_id, "title": "Other"}, "idempotencyKey": "k-1"}))
        .await;
    other.expect_code("IDEMPOTENCY_MISMATCH");
    // The header works like the argument.
    let vars = json!({"input": {"projectId": project_id, "title": "Header"}});
    let a = owner.gql_with_headers(op!("create_task"), vars.clone(), &[("Idempotency-Key", "h-1")]).await;
    let b = owner.gql_with_headers(op!("create_task"), vars, &[("Idempotency-Key", "h-1")]).await;
    assert_eq!(a.data("createTask")["id"], b.data("createTask")["id"]);
    assert_eq!(task_titles(&owner, &project_id).await, vec!["Once", "Header"]);
});

on_both_databases!(project_updates_are_revision_checked, |db: TestDb| async move {
    let server = Server::start(db).await;
    let (owner, project_id) = project(&server).await;
    let renamed =
        owner.gql(op!("update_project"), json!({"id": project_id, "expectedRevision": 1, "name": "Core"})).await;
    assert_eq!(renamed.data("updateProject")["revision"], 2);
    let stale =
        owner.gql(op!("update_project"), json!({"id": project_id, "expectedRevision": 1, "name": "Lost"})).await;
    stale.expect_code("CONFLICT");
    let node = owner.gql(op!("node"), json!({"id": project_id})).await;
    assert_eq!(node.data("node")["name"], "Core");
});

on_both_databases!(concurrent_edges_cannot_close_a_cycle_together, |db: TestDb| async move {
    let server = Server::start(db).await;
    let (owner, project_id) = project(&server).await;
    let mut stored = 0;
    for round in 0..5 {
        let a = task(&owner, &project_id, &format!("a{round}")).await;
        let b = task(&owner, &project_id, &format!("b{round}")).await;
        let (a, b) = (a["id"].as_str().unwrap(), b["id"].as_str().unwrap());
        let (ab, ba) = tokio::join!(
            owner.gql(op!("add_task_dependency"), json!({"taskId": a, "dependsOnId": b})),
            owner.gql(op!("add_task_dependency"), json!({"taskId": b, "dependsOnId": a})),
        );
        let succeeded = [&ab, &ba].iter().filter(|r| r.errors().is_empty()).count();
        for response in [&ab, &ba] {
            assert!(
                matches!(response.code(), None | Some("VALIDATION")),
                "a concurrent edit must wait, not fail: {}",
                response.body
            );
        }
        assert!(succeeded <= 1, "both halves of a cycle were stored: {} / {}", ab.body, ba.body);
        let page = owner.gql(op!("tasks"), json!({"projectId": project_id, "first": 100})).await;
        let edges: usize = page.data("tasks")["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["node"]["dependencies"].as_array().unwrap().len())
            .sum();
        stored += succeeded;
        assert_eq!(edges, stored, "only the edges that succeeded are stored: {}", page.body);
    }
});

on_both_databases!(a_response_keeps_the_order_the_query_asks_for, |db: TestDb| async move {
    let server = Server::start(db).await;
    let (owner, project_id) = project(&server).await;
    let first = task(&owner, &project_id, "Design").await;
    let second = task(&owner, &project_id, "Build").await;
    let viewer = owner.gql("{ viewer { id } }", json!({})).await.data("viewer")["id"].clone();
    let assign =
        "mutation($t: ID!, $u: ID) { updateTask(input: {id: $t, expectedRevision: 1, assigneeId: $u}) { id } }";
    owner.gql(assign, json!({"t": second["id"], "u": viewer})).await.data("updateTask");
    let depend = "mutation($t: ID!, $d: ID!) { addTaskDependency(taskId: $t, dependsOnId: $d) { id } }";
    owner.gql(depend, json!({"t": second["id"], "d": first["id"]})).await.data("addTaskDependency");

    // The fields that wait on a batch come first in the query, so a response written in the
    // order fields finish would put them last.
    let query = "query($p: ID!) { tasks(projectId: $p, first: 5) { edges { node { \
                 dependencies { title id } assignee { email } title } } } }";
    let text = owner.gql_text(query, json!({"p": project_id})).await;
    let expected = format!(
        r#"{{"node":{{"dependencies":[{{"title":"Design","id":{}}}],"assignee":{{"email":"owner@acme.test"}},"title":"Build"}}}}"#,
        first["id"]
    );
    assert!(text.contains(&expected), "{expected} in {text}");
});
