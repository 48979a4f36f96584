//! Usage and budgets through the real server: what runs report is summed by agent, model and day
//! for dashboards, each run counted once and each sum saying how far it can be trusted; runs are
//! counted by status and agent; a spent budget refuses new runs and changes nothing, and one
//! with something left caps what the next attempt's gateway lets it use.

mod common;

use acc_api::ids::{GlobalId, NodeKind};
use acc_protocol::{Capability, Command, EventKind};
use acc_tests::connector_client::RawConnector;
use acc_tests::{Client, Server, TestDb, on_both_databases};
use chrono::{Duration, Utc};
use serde_json::{Value, json};
use uuid::Uuid;

const SUMMARY: &str = "query($s: ID!, $from: DateTime!, $to: DateTime!, $by: UsageGrouping!) { \
    usageSummary(scopeId: $s, from: $from, to: $to, groupBy: $by) { \
    total { runs requests inputTokens outputTokens cachedInputTokens tokens costUsd cost } \
    groups { key label totals { runs inputTokens outputTokens tokens costUsd cost } } } }";

const SET_BUDGET: &str = "mutation($s: ID!, $p: BudgetPeriod!, $t: Int, $c: Float) { \
    setBudgetPolicy(scopeId: $s, period: $p, maxTokens: $t, maxCostUsd: $c) { \
    id period maxTokens usedTokens remainingTokens exceeded periodStart periodEnd revision } }";

async fn summary(client: &Client, scope: &str, by: &str) -> acc_tests::GqlResponse {
    let now = Utc::now();
    let window = json!({"s": scope, "from": now - Duration::hours(1), "to": now + Duration::hours(1), "by": by});
    client.gql(SUMMARY, window).await
}

/// Starts a run of a new task on `agent` and takes its start; returns the run and its command.
async fn started(owner: &Client, connector: &mut RawConnector, project: &str, agent: Uuid) -> (Uuid, Command) {
    let task = common::create_task(owner, project, "Spend tokens").await;
    let agent = GlobalId::new(NodeKind::Agent, agent).encode();
    let run = owner
        .gql(
            "mutation($t: ID!, $a: ID) { startRun(taskId: $t, agentId: $a) { id } }",
            json!({"t": task["id"], "a": agent}),
        )
        .await;
    run.data("startRun");
    let (command_id, command) = connector.command().await;
    let run_id = match &command {
        Command::StartRun { run_id, .. } => *run_id,
        other => panic!("expected a start, got {other:?}"),
    };
    connector.answer(command_id, acc_protocol::CommandOutcome::Accepted).await;
    (run_id, command)
}

async fn report(connector: &mut RawConnector, run: Uuid, sequence: u64, data: Value) {
    let event = connector.event(run, sequence, EventKind::Usage, data);
    assert_eq!(connector.emit(event).await, Ok(sequence));
}

fn group<'a>(summary: &'a Value, key: &str) -> &'a Value {
    summary["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["key"] == key)
        .unwrap_or_else(|| panic!("no {key} in {summary}"))
}

on_both_databases!(runs_usage_is_summed_by_agent_model_and_day_each_run_counted_once, |db: TestDb| async move {
    let server = Server::start(db).await;
    let f = common::fixture(&server).await;
    let owner = &f.owner;
    let (mut connector, _) = common::raw_connector(&server, &f).await;
    let welcome = connector
        .hello_with(
            &[("metered", vec![Capability::Stream, Capability::UsageExact]), ("plain", vec![Capability::Stream])],
            vec![],
        )
        .await;
    let (metered, plain) = (welcome.agents[0].agent_id, welcome.agents[1].agent_id);

    // The metered agent's run: what the gateway measured counts, not what the runtime said.
    let (first, _) = started(owner, &mut connector, &f.project_id, metered).await;
    let gateway = |input: i64, cost: f64| json!({"source": "gateway", "requests": 1, "input_tokens": input, "output_tokens": 50, "cached_input_tokens": 10, "model": "claude-sonnet", "cost_usd": cost});
    report(&mut connector, first, 1, gateway(400, 0.02)).await;
    report(&mut connector, first, 2, gateway(200, 0.01)).await;
    report(&mut connector, first, 3, json!({"input_tokens": 9999, "output_tokens": 9999, "model": "claude-sonnet"}))
        .await;
    // The plain agent's run: only its runtime's word, unpriced.
    let (second, _) = started(owner, &mut connector, &f.project_id, plain).await;
    report(&mut connector, second, 1, json!({"input_tokens": 300, "output_tokens": 40})).await;

    let by_agent = summary(owner, &f.project_id, "AGENT").await;
    let by_agent = by_agent.data("usageSummary");
    let total = &by_agent["total"];
    assert_eq!(
        (total["runs"].as_i64(), total["inputTokens"].as_i64(), total["outputTokens"].as_i64()),
        (Some(2), Some(900), Some(140))
    );
    assert_eq!((total["requests"].as_i64(), total["cachedInputTokens"].as_i64()), (Some(2), Some(20)));
    assert_eq!(
        (total["tokens"].as_str(), total["cost"].as_str(), &total["costUsd"]),
        (Some("ESTIMATED"), Some("UNKNOWN"), &Value::Null)
    );
    let metered_id = GlobalId::new(NodeKind::Agent, metered).encode();
    let measured = group(by_agent, &metered_id);
    assert_eq!(measured["label"], "metered");
    assert_eq!(
        (measured["totals"]["inputTokens"].as_i64(), measured["totals"]["tokens"].as_str()),
        (Some(600), Some("MEASURED"))
    );
    assert!((measured["totals"]["costUsd"].as_f64().unwrap() - 0.03).abs() < 1e-9);
    assert_eq!(by_agent["groups"][0]["key"], metered_id.as_str(), "largest first");
    let reported = group(by_agent, &GlobalId::new(NodeKind::Agent, plain).encode());
    assert_eq!(
        (reported["totals"]["inputTokens"].as_i64(), reported["totals"]["tokens"].as_str()),
        (Some(300), Some("ESTIMATED"))
    );

    let by_model = summary(owner, &f.workspace_id, "MODEL").await;
    let by_model = by_model.data("usageSummary");
    assert_eq!(group(by_model, "claude-sonnet")["totals"]["outputTokens"], 100);
    assert_eq!(group(by_model, "")["label"], "no model named");
    let by_day = summary(owner, &f.project_id, "DAY").await;
    let today = Utc::now().date_naive().to_string();
    let by_day = by_day.data("usageSummary");
    assert_eq!(group(by_day, &today)["totals"]["runs"], 2);
    let owner_id = owner.gql("{ viewer { id } }", json!({})).await.data("viewer")["id"].as_str().unwrap().to_owned();
    let by_user = summary(owner, &f.project_id, "USER").await;
    assert_eq!(group(by_user.data("usageSummary"), &owner_id)["totals"]["runs"], 2);

    // Counts by status and agent, for the same dashboard.
    let ended = connector.event(first, 4, EventKind::Result, json!({"outcome": "succeeded"}));
    assert_eq!(connector.emit(ended).await, Ok(4));
    let statistics = owner
        .gql(
            "query($p: ID!) { runStatistics(filter: {projectId: $p}) { total { runs finished byStatus { status count } medianDurationMs } \
             byAgent { agent { name } counts { runs finished byStatus { status count } } } } }",
            json!({"p": f.project_id}),
        )
        .await;
    let statistics = statistics.data("runStatistics");
    assert_eq!(statistics["total"]["runs"], 2);
    assert_eq!(statistics["total"]["finished"], 1);
    assert_eq!(
        statistics["total"]["byStatus"],
        json!([{"status": "RUNNING", "count": 1}, {"status": "SUCCEEDED", "count": 1}])
    );
    assert!(statistics["total"]["medianDurationMs"].as_i64().is_some());
    let names: Vec<&str> =
        statistics["byAgent"].as_array().unwrap().iter().map(|a| a["agent"]["name"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"metered") && names.contains(&"plain"));

    // A window backwards, or longer than a year, is refused.
    let now = Utc::now();
    let backwards = json!({"s": f.project_id, "from": now, "to": now - Duration::hours(1), "by": "AGENT"});
    owner.gql(SUMMARY, backwards).await.expect_code("VALIDATION");
    let too_long = json!({"s": f.project_id, "from": now - Duration::days(400), "to": now, "by": "AGENT"});
    owner.gql(SUMMARY, too_long).await.expect_code("VALIDATION");
    owner
        .gql(SUMMARY, json!({"s": first.to_string(), "from": now, "to": now, "by": "AGENT"}))
        .await
        .expect_code("VALIDATION");
});

on_both_databases!(
    a_spent_budget_refuses_new_runs_and_one_with_something_left_caps_the_next,
    |db: TestDb| async move {
        let server = Server::start(db).await;
        let f = common::fixture(&server).await;
        let owner = &f.owner;
        let (member, _) = common::user_with_role(owner, "member@acme.test", "OPERATOR").await;
        let (mut connector, _) = common::raw_connector(&server, &f).await;
        let agent = connector.hello("metered", vec![Capability::Stream, Capability::UsageExact]).await;
        let (run, _) = started(owner, &mut connector, &f.project_id, agent).await;
        report(
            &mut connector,
            run,
            1,
            json!({"source": "gateway", "requests": 3, "input_tokens": 900, "output_tokens": 150}),
        )
        .await;

        // Bad budgets and callers who may not set them change nothing.
        let daily = |tokens: Value| json!({"s": f.project_id, "p": "DAILY", "t": tokens});
        owner.gql(SET_BUDGET, daily(Value::Null)).await.expect_code("VALIDATION");
        owner.gql(SET_BUDGET, daily(json!(-5))).await.expect_code("VALIDATION");
        owner.gql(SET_BUDGET, json!({"s": f.project_id, "p": "DAILY", "c": -1.0})).await.expect_code("VALIDATION");
        member.gql(SET_BUDGET, daily(json!(1000))).await.expect_code("FORBIDDEN");
        let policies =
            owner.gql("query($s: ID!) { budgetPolicies(scopeId: $s) { id } }", json!({"s": f.project_id})).await;
        assert_eq!(policies.data("budgetPolicies"), &json!([]));

        // 1,050 tokens used today against 1,000: spent.
        let set = owner.gql(SET_BUDGET, daily(json!(1000))).await;
        let policy = set.data("setBudgetPolicy").clone();
        assert_eq!(
            (policy["usedTokens"].as_i64(), policy["remainingTokens"].as_i64(), policy["exceeded"].as_bool()),
            (Some(1050), Some(0), Some(true))
        );
        let today = Utc::now().date_naive().to_string();
        assert!(policy["periodStart"].as_str().unwrap().starts_with(&today), "{policy}");
        let runs_before = common::audit_events(owner, &["RUN_STARTED"]).await.len();
        let task = common::create_task(owner, &f.project_id, "One more").await;
        let refused = member.gql("mutation($t: ID!) { startRun(taskId: $t) { id } }", json!({"t": task["id"]})).await;
        refused.expect_code("BUDGET_EXCEEDED");
        let details = &refused.errors()[0]["extensions"]["details"];
        assert_eq!(
            (details["scope"].as_str(), details["period"].as_str(), details["budgetPolicyId"].as_str()),
            (Some("project"), Some("daily"), policy["id"].as_str())
        );
        let runs = owner
            .gql("query($t: ID!) { node(id: $t) { ... on Task { runs { id } } } }", json!({"t": task["id"]}))
            .await;
        assert_eq!(runs.data("node")["runs"], json!([]), "nothing was started");
        assert_eq!(common::audit_events(owner, &["RUN_STARTED"]).await.len(), runs_before);

        // Raised to 2,000 (the same policy, next revision): the next run may use the 950 left, and
        // its workspace's cost budget caps it too.
        let raised = owner.gql(SET_BUDGET, daily(json!(2000))).await;
        let raised = raised.data("setBudgetPolicy");
        assert_eq!(
            (raised["id"].as_str(), raised["revision"].as_i64(), raised["remainingTokens"].as_i64()),
            (policy["id"].as_str(), Some(2), Some(950))
        );
        let monthly = json!({"s": f.workspace_id, "p": "MONTHLY", "c": 12.5});
        owner.gql(SET_BUDGET, monthly).await.data("setBudgetPolicy");
        let held = owner
            .gql("query($s: ID!) { budgetPolicies(scopeId: $s) { period scopeId } }", json!({"s": f.project_id}))
            .await;
        assert_eq!(held.data("budgetPolicies").as_array().unwrap().len(), 2, "the project's and its workspace's");
        let (_, command) = started(owner, &mut connector, &f.project_id, agent).await;
        let Command::StartRun { budget, .. } = command else { unreachable!() };
        let budget = budget.expect("a capped run");
        assert_eq!((budget.max_tokens, budget.max_cost_usd), (Some(950), Some(12.5)));

        // Removed: no cap from it any more, and the trail has each change.
        let removed =
            owner.gql("mutation($id: ID!) { removeBudgetPolicy(id: $id) }", json!({"id": policy["id"]})).await;
        assert_eq!(removed.data("removeBudgetPolicy"), &policy["id"]);
        let kinds: Vec<String> = common::audit_events(owner, &["BUDGET_POLICY_SET", "BUDGET_POLICY_REMOVED"])
            .await
            .iter()
            .map(|e| e["action"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(kinds, ["BUDGET_POLICY_SET", "BUDGET_POLICY_SET", "BUDGET_POLICY_SET", "BUDGET_POLICY_REMOVED"]);
        let node = owner.gql("query($id: ID!) { node(id: $id) { id } }", json!({"id": policy["id"]})).await;
        node.expect_code("NOT_FOUND");
    }
);
