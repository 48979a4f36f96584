//! `taskEvents` over graphql-transport-ws, as a browser client subscribes.

mod common;

use std::time::Duration;

use acc_tests::{Server, TestDb, on_both_databases, op};
use serde_json::json;

on_both_databases!(task_events_arrive_live_for_the_project_only, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let other = f.owner.gql(op!("create_project"), json!({"workspaceId": f.workspace_id, "name": "Other"})).await;
    let other_id = other.data("createProject")["id"].as_str().unwrap().to_owned();

    let mut events = f.owner.subscribe(op!("task_events"), json!({"projectId": f.project_id})).await.unwrap();
    let created = common::create_task(&f.owner, &f.project_id, "Watch me").await;
    common::create_task(&f.owner, &other_id, "Elsewhere").await;
    let id = created["id"].as_str().unwrap();

    let event = events.next().await.unwrap();
    assert_eq!(event["data"]["taskEvents"]["kind"], "CREATED");
    assert_eq!(event["data"]["taskEvents"]["taskId"], id);
    assert_eq!(event["data"]["taskEvents"]["task"]["title"], "Watch me");

    f.owner
        .gql(op!("update_task"), json!({"input": {"id": id, "expectedRevision": 1, "status": "DONE"}}))
        .await
        .data("updateTask");
    let event = events.next().await.unwrap();
    assert_eq!(event["data"]["taskEvents"]["kind"], "UPDATED");
    assert_eq!(event["data"]["taskEvents"]["task"]["status"], "DONE");
    assert_eq!(event["data"]["taskEvents"]["task"]["revision"], 2);

    f.owner.gql(op!("delete_task"), json!({"id": id})).await.data("deleteTask");
    let event = events.next().await.unwrap();
    assert_eq!(event["data"]["taskEvents"]["kind"], "DELETED");
    assert_eq!(event["data"]["taskEvents"]["taskId"], id);

    // Nothing from the other project reached this subscriber.
    events.expect_silence(Duration::from_millis(300)).await;
});

on_both_databases!(subscriptions_require_a_valid_token, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let refused =
        f.owner.with_token("not-a-token").subscribe(op!("task_events"), json!({"projectId": f.project_id})).await;
    let reason = refused.err().expect("a bad token is refused");
    assert!(reason.starts_with("closed 4401") && reason.contains("authentication required"), "{reason}");

    // Anonymous connections are accepted, but the subscription itself needs a caller.
    let mut anonymous =
        f.owner.anonymous().subscribe(op!("task_events"), json!({"projectId": f.project_id})).await.unwrap();
    let result = anonymous.next().await.unwrap();
    assert_eq!(result["errors"][0]["extensions"]["code"], "UNAUTHENTICATED", "{result}");
    assert!(result["errors"][0]["extensions"]["correlationId"].is_string(), "{result}");

    let mut bad_id = f.owner.subscribe(op!("task_events"), json!({"projectId": "nope"})).await.unwrap();
    let result = bad_id.next().await.unwrap();
    assert_eq!(result["errors"][0]["extensions"]["code"], "VALIDATION", "{result}");
});
