//! Notifications through the real server: people are told what waits for them or went wrong —
//! a decision they may take, a run they started that failed, a budget they administer nearly or
//! wholly spent — once each, live on their socket and in their list until they read it; nobody
//! else is told, and telling changes nothing.

mod common;

use acc_api::ids::{GlobalId, NodeKind};
use acc_protocol::{Capability, EventKind};
use acc_tests::{Server, TestDb, on_both_databases};
use serde_json::{Value, json};

const ADDED: &str = "subscription { notificationAdded { id kind title body subjectId projectId } }";

fn kinds(notifications: &[Value]) -> Vec<&str> {
    notifications.iter().map(|n| n["kind"].as_str().unwrap()).collect()
}

on_both_databases!(who_may_decide_is_told_once_live_and_reads_it, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (operator, _) = common::user_with_role(owner, "operator@acme.test", "OPERATOR").await;
    let (viewer, _) = common::user_with_role(owner, "viewer@acme.test", "VIEWER").await;
    let mut live = operator.subscribe(ADDED, json!({})).await.unwrap();
    live.listening().await.unwrap();

    let (mut connector, _) = common::raw_connector(&server, &f).await;
    connector.hello("careful", vec![Capability::Stream, Capability::Approvals]).await;
    let task = common::create_task(owner, &f.project_id, "Deploy").await;
    owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await.data("startRun");
    let (run, _) = connector.accept_start().await;
    let ask = json!({"request_id": "r1", "action": "run the migration on production"});
    assert_eq!(connector.emit(connector.event(run, 1, EventKind::ApprovalRequested, ask)).await, Ok(1));

    let told = live.next().await.unwrap();
    let told = &told["data"]["notificationAdded"];
    assert_eq!(
        (told["kind"].as_str(), told["body"].as_str()),
        (Some("APPROVAL_WAITING"), Some("run the migration on production"))
    );
    assert_eq!(told["projectId"], f.project_id.as_str());
    let approvals = owner.gql("{ approvals { edges { node { id } } } }", json!({})).await;
    assert_eq!(told["subjectId"], approvals.data("approvals")["edges"][0]["node"]["id"]);
    // The owner may decide too; a viewer may not, and is not told.
    assert_eq!(kinds(&common::notifications(owner, 1).await), ["APPROVAL_WAITING"]);
    assert_eq!(viewer.gql("{ unreadNotificationCount }", json!({})).await.data("unreadNotificationCount"), 0);

    // Read: the count goes down; the same ids again change nothing; another's ids are not theirs.
    let mine = common::notifications(&operator, 1).await;
    assert_eq!(mine.len(), 1, "told once");
    let mark = "mutation($ids: [ID!]) { markNotificationsRead(ids: $ids) }";
    assert_eq!(viewer.gql(mark, json!({"ids": [mine[0]["id"]]})).await.data("markNotificationsRead"), 0);
    assert_eq!(operator.gql(mark, json!({"ids": [mine[0]["id"]]})).await.data("markNotificationsRead"), 1);
    assert_eq!(operator.gql(mark, json!({"ids": [mine[0]["id"]]})).await.data("markNotificationsRead"), 0);
    assert_eq!(operator.gql("{ unreadNotificationCount }", json!({})).await.data("unreadNotificationCount"), 0);
    let unread = operator.gql("{ notifications(unreadOnly: true) { edges { node { id } } } }", json!({})).await;
    assert_eq!(unread.data("notifications")["edges"], json!([]));
    assert!(common::notifications(&operator, 1).await[0]["readAt"].is_string());
    operator.gql(mark, json!({"ids": ["not an id"]})).await.expect_code("VALIDATION");
    let node = viewer.gql("query($id: ID!) { node(id: $id) { id } }", json!({"id": mine[0]["id"]})).await;
    node.expect_code("NOT_FOUND");

    // Telling changed nothing: the decision still waits.
    let pending = owner.gql("{ approvals(status: PENDING) { edges { node { id } } } }", json!({})).await;
    assert_eq!(pending.data("approvals")["edges"].as_array().unwrap().len(), 1);
});

on_both_databases!(a_failed_run_and_a_budget_nearly_and_wholly_spent_are_told_once_each, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (operator, _) = common::user_with_role(owner, "operator@acme.test", "OPERATOR").await;
    let (mut connector, _) = common::raw_connector(&server, &f).await;
    connector.hello("metered", vec![Capability::Stream, Capability::UsageExact]).await;

    // The operator's run fails: they are told, with why.
    let task = common::create_task(owner, &f.project_id, "Flaky").await;
    let started = operator.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
    let run_id = started.data("startRun")["id"].clone();
    let (run, _) = connector.accept_start().await;
    let failed = connector.event(run, 1, EventKind::Result, json!({"outcome": "failed", "reason": "tests broke"}));
    assert_eq!(connector.emit(failed).await, Ok(1));
    let told = common::notifications(&operator, 1).await;
    assert_eq!(kinds(&told), ["RUN_FAILED"]);
    assert_eq!(told[0]["subjectId"], run_id);

    // A daily budget of 1,000 tokens: told at 850 (80 %), not again at 950, and at 1,050 (spent).
    let budget = owner
        .gql(
            "mutation($s: ID!) { setBudgetPolicy(scopeId: $s, period: DAILY, maxTokens: 1000) { id } }",
            json!({"s": f.project_id}),
        )
        .await;
    let policy = budget.data("setBudgetPolicy")["id"].clone();
    let task = common::create_task(owner, &f.project_id, "Spend").await;
    owner.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await.data("startRun");
    let (run, _) = connector.accept_start().await;
    for (sequence, tokens) in [(1, 850), (2, 100), (3, 100)] {
        let usage = json!({"source": "gateway", "requests": 1, "input_tokens": tokens, "output_tokens": 0});
        assert_eq!(connector.emit(connector.event(run, sequence, EventKind::Usage, usage)).await, Ok(sequence));
    }
    let told = common::notifications(owner, 2).await;
    assert_eq!(kinds(&told), ["BUDGET_WARNING", "BUDGET_SPENT"]);
    assert!(told.iter().all(|n| n["subjectId"] == policy));
    assert!(told[1]["body"].as_str().unwrap().contains("no new run starts"), "{}", told[1]);
    // The operator administers nothing: not told of budgets.
    assert_eq!(kinds(&common::notifications(&operator, 1).await), ["RUN_FAILED"]);
    let run_node = GlobalId::new(NodeKind::TaskRun, run).encode();
    assert!(told.iter().all(|n| n["subjectId"] != run_node.as_str()));
});
