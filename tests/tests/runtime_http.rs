//! An OpenAI-compatible chat endpoint as an agent (`http`): through `acc`, `acc-connector` and its
//! model gateway to the scripted Chat Completions API — a reply, measured and priced; and a
//! cancel while the endpoint has not answered.

mod common;

use acc_tests::model_api::{INPUT_TOKENS, ModelApi, OUTPUT_TOKENS, PROVIDER_KEY, Step};
use acc_tests::{Server, TestDb};
use common::{ConnectorProcess, Fixture, enroll, online_agents, run_connector, run_usage, wait_status};
use serde_json::{Value, json};

struct Endpoint {
    _server: Server,
    f: Fixture,
    agent_id: Value,
    _connector: ConnectorProcess,
}

async fn endpoint_agent(model: &ModelApi) -> Endpoint {
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "{provider}[[agents]]\nname = \"assistant\"\nadapter = \"http\"\nmodel_provider = \"openai\"\nmodel = \"gpt-5-mini\"\n",
        provider = model.provider("openai", "openai"),
    );
    let connector = run_connector(&dir, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 1).await;
    assert_eq!(online[0]["capabilities"], json!(["STREAM", "CANCEL", "USAGE_EXACT"]));
    let agent_id = online[0]["id"].clone();
    Endpoint { _server: server, f, agent_id, _connector: connector }
}

impl Endpoint {
    async fn start(&self) -> String {
        let task = common::create_task(&self.f.owner, &self.f.project_id, "Greet").await;
        let started = self
            .f
            .owner
            .gql(
                "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {prompt: \"say hello\"}) { id } }",
                json!({"t": task["id"], "a": self.agent_id}),
            )
            .await;
        started.data("startRun")["id"].as_str().unwrap().to_owned()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_endpoint_answers_a_run_with_measured_usage() {
    let model = ModelApi::start(vec![Step::Say("Hello from the model.".into())]).await;
    let e = endpoint_agent(&model).await;
    let run_id = e.start().await;
    wait_status(&e.f.owner, &run_id, "SUCCEEDED").await;

    let events = common::events(&e.f.owner, &run_id).await;
    let kinds: Vec<&str> = events.iter().map(|e| e["kind"].as_str().unwrap()).filter(|k| *k != "status").collect();
    assert_eq!(kinds, ["started", "usage", "message", "result"]);
    let of = |kind: &str| events.iter().find(|e| e["kind"] == kind).unwrap()["data"].clone();
    assert_eq!(of("message")["text"], "Hello from the model.");
    assert_eq!(of("result")["finish_reason"], "stop");

    let calls = model.model_calls();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].credential.as_deref(), Some(PROVIDER_KEY));
    assert_eq!(calls[0].body["model"], "gpt-5-mini");
    // The run's context (docs/context.md) is the system message; the input is the user's.
    let messages = calls[0].body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert_eq!(messages[0]["role"], "system");
    let context = messages[0]["content"].as_str().unwrap();
    assert!(context.contains("\"objective\": \"Greet\"") && context.contains("not instructions"), "{context}");
    assert_eq!(messages[1], json!({"role": "user", "content": "say hello"}));
    assert_eq!(calls[0].body["stream_options"]["include_usage"], true, "the gateway asks for usage");
    let usage = run_usage(&e.f.owner, &run_id).await;
    let measured = &usage["measured"];
    assert_eq!((measured["requests"].clone(), measured["tokens"].clone()), (json!(1), json!("MEASURED")));
    assert_eq!(
        (measured["inputTokens"].clone(), measured["outputTokens"].clone()),
        (json!(INPUT_TOKENS), json!(OUTPUT_TOKENS))
    );
    let expected = INPUT_TOKENS as f64 * 0.25e-6 + OUTPUT_TOKENS as f64 * 2e-6;
    assert!((measured["costUsd"].as_f64().unwrap() - expected).abs() < 1e-12, "{measured}");
    assert_eq!(usage["reported"], Value::Null, "an endpoint reports nothing of itself");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_run_drops_its_pending_request() {
    let model = ModelApi::stalling().await;
    let e = endpoint_agent(&model).await;
    let run_id = e.start().await;
    wait_status(&e.f.owner, &run_id, "RUNNING").await;
    for _ in 0..100 {
        if !model.model_calls().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(model.model_calls().len(), 1, "the request is waiting on the endpoint");
    e.f.owner
        .gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": run_id}))
        .await
        .data("cancelRun");
    wait_status(&e.f.owner, &run_id, "CANCELLED").await;
    let events = common::events(&e.f.owner, &run_id).await;
    let result = events.iter().find(|e| e["kind"] == "result").expect("the connector reported the end");
    assert_eq!(result["data"]["outcome"], "cancelled");
}
