//! Settings layers through the real server: inheritance, explicit off, where each value comes from, revisions.

mod common;

use acc_tests::{Server, TestDb, on_both_databases, op};
use serde_json::json;

on_both_databases!(settings_inherit_override_and_are_revision_checked, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let task = common::create_task(&f.owner, &f.project_id, "Configured").await;
    let task_id = task["id"].as_str().unwrap();
    let org = f.owner.gql(op!("organization"), json!({})).await;
    let org_id = org.data("organization")["id"].as_str().unwrap().to_owned();

    let set = |scope: &str, patch: serde_json::Value, rev: i64| {
        let owner = f.owner.clone();
        let scope = scope.to_owned();
        async move {
            owner.gql(op!("set_settings"), json!({"scopeId": scope, "patch": patch, "expectedRevision": rev})).await
        }
    };
    let org_layer = set(&org_id, json!({"memory": {"enabled": true, "limit": 5}, "model": "sonnet"}), 0).await;
    assert_eq!(org_layer.data("setSettings")["revision"], 1);
    set(&f.project_id, json!({"memory": {"enabled": false}}), 0).await.data("setSettings");
    set(task_id, json!({"model": "opus"}), 0).await.data("setSettings");

    let effective = f.owner.gql(op!("effective_settings"), json!({"scopeId": task_id})).await;
    let effective = effective.data("effectiveSettings");
    let entry = |key: &str| effective["entries"].as_array().unwrap().iter().find(|e| e["key"] == key).cloned();
    let enabled = entry("memory.enabled").unwrap();
    assert_eq!(enabled["value"], false, "an explicit false is a value");
    assert_eq!(enabled["sourceScopeKind"], "project");
    assert_eq!(enabled["sourceScopeId"], f.project_id.as_str());
    assert_eq!(entry("memory.limit").unwrap()["sourceScopeKind"], "organization");
    assert_eq!(entry("model").unwrap()["value"], "opus");
    assert!(entry("absent").is_none());
    let kinds: Vec<_> = effective["layers"].as_array().unwrap().iter().map(|l| l["scopeKind"].clone()).collect();
    assert_eq!(kinds, vec!["organization", "workspace", "project", "task"]);
    assert_eq!(effective["layers"][1]["revision"], 0, "nothing written at the workspace");

    // Removing the project's override lets the organization's value through again.
    set(&f.project_id, json!({"memory": {"enabled": null}}), 1).await.data("setSettings");
    let effective = f.owner.gql(op!("effective_settings"), json!({"scopeId": f.project_id})).await;
    let entries = effective.data("effectiveSettings")["entries"].as_array().unwrap().clone();
    let enabled = entries.iter().find(|e| e["key"] == "memory.enabled").unwrap();
    assert_eq!((enabled["value"].clone(), enabled["sourceScopeKind"].clone()), (json!(true), json!("organization")));

    // A stale revision writes nothing.
    set(&org_id, json!({"model": "haiku"}), 0).await.expect_code("CONFLICT");
    set(&org_id, json!({"model": "haiku"}), 2).await.expect_code("CONFLICT");
    set(&f.workspace_id, json!({"x": 1}), 3).await.expect_code("CONFLICT");
    let effective = f.owner.gql(op!("effective_settings"), json!({"scopeId": org_id})).await;
    let entries = effective.data("effectiveSettings")["entries"].as_array().unwrap().clone();
    assert_eq!(entries.iter().find(|e| e["key"] == "model").unwrap()["value"], "sonnet");

    // Bad patches are refused.
    set(&org_id, json!([1, 2]), 1).await.expect_code("VALIDATION");
    set(&org_id, json!({"a.b": 1}), 1).await.expect_code("VALIDATION");
    let session = f.owner.gql(op!("viewer"), json!({})).await;
    let user_id = session.data("viewer")["id"].as_str().unwrap().to_owned();
    set(&user_id, json!({"a": 1}), 0).await.expect_code("VALIDATION");
});

on_both_databases!(known_settings_are_listed_with_their_type_and_a_wrong_type_is_refused, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let known = f.owner.gql("{ knownSettings { key type default description } }", json!({})).await;
    let known = known.data("knownSettings").as_array().unwrap().clone();
    let follows = known.iter().find(|k| k["key"] == "tasks.statusFollowsRuns").expect("the key is listed");
    assert_eq!((&follows["type"], &follows["default"]), (&json!("BOOLEAN"), &json!(true)));
    assert!(follows["description"].as_str().unwrap().contains("in review"));

    // A wrong type is refused and writes nothing; a right one, and other keys of any type, go in.
    let set = |patch: serde_json::Value, rev: i64| {
        f.owner.gql(op!("set_settings"), json!({"scopeId": f.project_id, "patch": patch, "expectedRevision": rev}))
    };
    let refused = set(json!({"tasks": {"statusFollowsRuns": "no", "note": 1}}), 0).await;
    refused.expect_code("VALIDATION");
    assert_eq!(refused.body["errors"][0]["extensions"]["details"]["key"], "tasks.statusFollowsRuns");
    let effective = f.owner.gql(op!("effective_settings"), json!({"scopeId": f.project_id})).await;
    assert_eq!(effective.data("effectiveSettings")["entries"], json!([]), "nothing was written");
    set(json!({"tasks": {"statusFollowsRuns": false, "note": 1}}), 0).await.data("setSettings");
    set(json!({"tasks": {"statusFollowsRuns": 0}}), 1).await.expect_code("VALIDATION");
});
