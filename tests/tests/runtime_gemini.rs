//! Gemini CLI for real behind `acc-connector`: the pinned `gemini` runs headless in a temporary
//! workdir, reaching the scripted Gemini API through the connector's model gateway, and runs a
//! shell command. The gateway measures what it used, keeps the provider's key to itself, redacts
//! the prompt, and stops a run at its budget.

mod common;

use std::path::PathBuf;

use acc_tests::model_api::{INPUT_TOKENS, ModelApi, OUTPUT_TOKENS, PROVIDER_KEY, write_hi};
use acc_tests::{Server, TestDb};
use common::{ConnectorProcess, Fixture, enroll, online_agents, run_connector, run_usage, wait_status};
use serde_json::{Value, json};

/// A secret in a prompt, in a format the connector redacts.
const SECRET: &str = "AKIAIOSFODNN7EXAMPLE";

struct Gemini {
    server: Server,
    f: Fixture,
    model: ModelApi,
    work: PathBuf,
    agent_id: Value,
    connector: ConnectorProcess,
    /// The connector's directory, credential and agents, to start it again.
    config: (PathBuf, PathBuf, String),
}

async fn gemini_agent() -> Gemini {
    gemini_agent_with(ModelApi::start(write_hi()).await).await
}

async fn gemini_agent_with(model: ModelApi) -> Gemini {
    let gemini = acc_tests::runtimes::npm_bin("gemini");
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let (home, work) = (dir.join("gemini-home"), dir.join("work"));
    common::gemini_settings(&home);
    std::fs::create_dir_all(&work).unwrap();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    // No endpoint and no key in the agent's environment: the adapter points it at the gateway.
    let agents = format!(
        "{provider}[[agents]]\nname = \"gemini\"\nadapter = \"gemini\"\ncommand = {gemini:?}\nworkdir = {work:?}\n\
         model_provider = \"google\"\nargs = [\"-m\", \"gemini-2.5-flash\", \"--approval-mode\", \"yolo\"]\n\
         env = {{ HOME = {home:?} }}\n",
        provider = model.provider("google", "gemini"),
    );
    let connector = run_connector(&dir, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 1).await;
    assert_eq!(
        online[0]["capabilities"],
        json!(["STREAM", "CANCEL", "NATIVE_RESUME", "TOOLS", "ARTIFACTS", "USAGE_EXACT", "USAGE_ESTIMATED"])
    );
    let agent_id = online[0]["id"].clone();
    Gemini { server, f, model, work, agent_id, connector, config: (dir, credential, agents) }
}

impl Gemini {
    async fn start(&self, objective: &str, budget: Value) -> String {
        let task = common::create_task(&self.f.owner, &self.f.project_id, "Write a file").await;
        let started = self
            .f
            .owner
            .gql(
                "mutation($t: ID!, $a: ID!, $i: JSON, $b: RunBudgetInput) { startRun(taskId: $t, agentId: $a, input: $i, budget: $b) { id } }",
                json!({"t": task["id"], "a": self.agent_id, "i": {"objective": objective}, "b": budget}),
            )
            .await;
        started.data("startRun")["id"].as_str().unwrap().to_owned()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gemini_runs_a_shell_command_through_the_model_gateway() {
    let g = gemini_agent().await;
    let run_id = g.start(&format!("write hi to out.txt (deploy key {SECRET})"), Value::Null).await;
    wait_status(&g.f.owner, &run_id, "SUCCEEDED").await;
    assert_eq!(std::fs::read_to_string(g.work.join("out.txt")).unwrap(), "hi\n", "the real shell ran the command");

    let events = common::events(&g.f.owner, &run_id).await;
    let of =
        |kind: &str| events.iter().find(|e| e["kind"] == kind).unwrap_or_else(|| panic!("no {kind}"))["data"].clone();
    assert_eq!(of("started")["model"], "gemini-2.5-flash");
    assert_eq!(of("tool_call")["input"]["command"], "echo hi > out.txt");
    assert_eq!(of("tool_result")["is_error"], false);
    assert_eq!(of("result")["outcome"], "succeeded");
    let said: Vec<&str> =
        events.iter().filter(|e| e["kind"] == "message").filter_map(|e| e["data"]["text"].as_str()).collect();
    assert!(said.contains(&"Done: wrote out.txt."), "{said:?}");

    // Every model call reached the provider with the connector's key, and the prompt without the secret.
    let calls = g.model.model_calls();
    assert_eq!(calls.len(), 2, "a tool call, then the answer");
    assert!(calls.iter().all(|c| c.credential.as_deref() == Some(PROVIDER_KEY)), "the provider key is the connector's");
    let prompt = calls[0].body["contents"].to_string();
    assert!(prompt.contains("write hi to out.txt"), "the objective is the prompt: {prompt}");
    assert!(!prompt.contains(SECRET) && prompt.contains("[REDACTED]"), "the prompt is redacted: {prompt}");

    // What the gateway measured, next to what Gemini CLI reported of itself.
    let usage = run_usage(&g.f.owner, &run_id).await;
    let measured = &usage["measured"];
    assert_eq!(measured["requests"], 2);
    assert_eq!(measured["inputTokens"], 2 * INPUT_TOKENS);
    assert_eq!(measured["outputTokens"], 2 * OUTPUT_TOKENS);
    assert_eq!(measured["tokens"], "MEASURED");
    assert_eq!(measured["cost"], "ESTIMATED", "gemini-2.5-flash is in the price table");
    let expected_cost = (2 * INPUT_TOKENS) as f64 * 0.3e-6 + (2 * OUTPUT_TOKENS) as f64 * 2.5e-6;
    assert!((measured["costUsd"].as_f64().unwrap() - expected_cost).abs() < 1e-12, "{measured}");
    assert_eq!(measured["models"], json!(["gemini-2.5-flash"]));
    let reported = &usage["reported"];
    assert_eq!(reported["tokens"], "ESTIMATED");
    assert_eq!(reported["outputTokens"], 2 * OUTPUT_TOKENS, "Gemini CLI's own stats agree");
    assert_eq!(reported["requests"], Value::Null);
    assert!(usage["wallTimeMs"].as_i64().unwrap() > 0);
    drop(g.server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_over_its_token_budget_is_stopped_by_the_gateway() {
    let g = gemini_agent().await;
    // The first model call alone uses more than this.
    let run_id = g.start("write hi to out.txt", json!({"maxTokens": 50})).await;
    wait_status(&g.f.owner, &run_id, "FAILED").await;
    let node =
        g.f.owner
            .gql("query($id: ID!) { node(id: $id) { ... on TaskRun { statusReason } } }", json!({"id": run_id}))
            .await;
    let reason = node.data("node")["statusReason"].as_str().unwrap().to_owned();
    assert!(reason.starts_with("BUDGET_EXCEEDED"), "{reason}");
    assert_eq!(g.model.model_calls().len(), 1, "no model call after the budget was used up");
    let events = common::events(&g.f.owner, &run_id).await;
    assert!(events.iter().any(|e| e["kind"] == "error" && e["data"]["code"] == "BUDGET_EXCEEDED"), "{events:?}");
    let result = events.iter().find(|e| e["kind"] == "result").unwrap();
    assert_eq!((&result["data"]["outcome"], &result["data"]["code"]), (&json!("failed"), &json!("BUDGET_EXCEEDED")));
    let usage = run_usage(&g.f.owner, &run_id).await;
    assert_eq!(usage["budget"], json!({"maxTokens": 50, "maxCostUsd": null}));
    assert_eq!(usage["measured"]["requests"], 1);
    assert_eq!(usage["measured"]["inputTokens"], INPUT_TOKENS);

    // A budget needs an agent whose usage is measured, and positive limits: refused, nothing stored.
    let task = common::create_task(&g.f.owner, &g.f.project_id, "Bad budget").await;
    let refused =
        g.f.owner
            .gql(
                "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, budget: {maxTokens: 0}) { id } }",
                json!({"t": task["id"], "a": g.agent_id}),
            )
            .await;
    refused.expect_code("VALIDATION");
    let runs =
        g.f.owner.gql("query($t: ID!) { node(id: $t) { ... on Task { runs { id } } } }", json!({"t": task["id"]}));
    assert_eq!(runs.await.data("node")["runs"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_connector_restarts_mid_turn_resumes_its_gemini_session() {
    // The run stops in its second model call, after the shell command ran.
    let mut g = gemini_agent_with(ModelApi::holding(write_hi(), 1).await).await;
    let run_id = g.start("write hi to out.txt", Value::Null).await;
    g.model.wait_held().await;

    // The host dies mid-turn (SIGKILL) and comes back: the retry continues Gemini CLI's session.
    let _ = g.connector.child.kill();
    let _ = g.connector.child.wait();
    let (dir, credential, agents) = &g.config;
    g.connector = run_connector(dir, credential, agents);
    common::wait_first_attempt_lost(&g.f.owner, &run_id).await;
    g.model.release();
    let events = common::assert_resumed_after_restart(&g.f.owner, &run_id).await;
    let said: Vec<&str> =
        events.iter().filter(|e| e["kind"] == "message").filter_map(|e| e["data"]["text"].as_str()).collect();
    assert!(said.contains(&"Done: wrote out.txt."), "{said:?}");
    let calls = g.model.model_calls();
    common::assert_continued(&events, &g.work, &calls.last().unwrap().body["contents"], "functionResponse");
}
