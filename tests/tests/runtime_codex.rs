//! Codex CLI for real behind `acc-connector`: the pinned `codex` runs in a temporary workdir, with
//! its model provider pointed at the scripted Responses API, and runs a shell command — through
//! `codex exec` on its own, through `codex app-server` only once a person approves it.

mod common;

use acc_tests::model_api::{INPUT_TOKENS, ModelApi, OUTPUT_TOKENS, PROVIDER_KEY, write_hi};
use acc_tests::{Server, TestDb};
use common::{
    assert_resumed_after_restart, online_agents, run_connector, run_usage, start_run_until_approval, wait_status,
};
use serde_json::{Value, json};

/// `codex exec` may write in its workdir.
const EXEC: (&str, &str) = ("codex", r#"["-s", "workspace-write"]"#);
/// `codex app-server` may write in its workdir, once approved.
const APP_SERVER: (&str, &str) = ("codex-app-server", r#"["-c", "sandbox_mode=\"workspace-write\""]"#);

/// Starts a run of `task` on `agent`.
async fn start_run(owner: &acc_tests::Client, task: &Value, agent: &Value) -> String {
    let started = owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {objective: \"write hi to out.txt\"}) { id } }",
            json!({"t": task["id"], "a": agent["id"]}),
        )
        .await;
    started.data("startRun")["id"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codex_runs_a_shell_command_in_its_workdir() {
    let model = ModelApi::start(write_hi()).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let (dir, credential, agents, work) = common::codex_agent(&server, &f, &model, EXEC).await;
    let _connector = run_connector(&dir, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 1).await;
    assert_eq!(
        online[0]["capabilities"],
        json!(["STREAM", "CANCEL", "NATIVE_RESUME", "TOOLS", "MCP", "ARTIFACTS", "USAGE_EXACT", "USAGE_ESTIMATED"])
    );
    let task = common::create_task(&f.owner, &f.project_id, "Write a file").await;
    let run_id = start_run(&f.owner, &task, &online[0]).await;
    wait_status(&f.owner, &run_id, "SUCCEEDED").await;
    assert_eq!(std::fs::read_to_string(work.join("out.txt")).unwrap(), "hi\n", "the real shell ran the command");

    let page = f
        .owner
        .gql(
            "query($r: ID!) { runEvents(runId: $r, first: 100) { edges { node { kind data } } } }",
            json!({"r": run_id}),
        )
        .await;
    let events: Vec<Value> =
        page.data("runEvents")["edges"].as_array().unwrap().iter().map(|e| e["node"].clone()).collect();
    let of =
        |kind: &str| events.iter().find(|e| e["kind"] == kind).unwrap_or_else(|| panic!("no {kind}"))["data"].clone();
    assert!(of("started")["session_id"].as_str().is_some());
    assert!(of("tool_call")["input"]["command"].as_str().unwrap().contains("echo hi > out.txt"));
    assert_eq!(of("tool_result")["exit_code"], 0);
    assert_eq!(of("message")["text"], "Done: wrote out.txt.");
    let reported = events.iter().find(|e| e["kind"] == "usage" && e["data"]["source"] == "runtime").unwrap();
    assert_eq!(reported["data"]["output_tokens"], 2 * OUTPUT_TOKENS);
    assert_eq!(of("result")["outcome"], "succeeded");
    let calls = model.model_calls();
    let first = &calls[0].body;
    assert!(first["input"].to_string().contains("write hi to out.txt"), "the objective is the prompt");

    // Through the connector's model gateway: the provider key stays there, and every call is measured.
    assert!(calls.iter().all(|c| c.credential.as_deref() == Some(PROVIDER_KEY)), "the key stays on the connector");
    let usage = run_usage(&f.owner, &run_id).await;
    assert_eq!(usage["measured"]["requests"], calls.len());
    assert_eq!(usage["measured"]["inputTokens"], calls.len() as u64 * INPUT_TOKENS);
    assert_eq!(usage["measured"]["outputTokens"], calls.len() as u64 * OUTPUT_TOKENS);
    assert_eq!(usage["measured"]["tokens"], "MEASURED");
    assert_eq!(usage["reported"]["outputTokens"], 2 * OUTPUT_TOKENS);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_connector_restarts_mid_turn_resumes_its_codex_thread() {
    // The run stops in its second model call, after the shell command ran.
    let model = ModelApi::holding(write_hi(), 1).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let (dir, credential, agents, work) = common::codex_agent(&server, &f, &model, EXEC).await;
    let connector = run_connector(&dir, &credential, &agents);
    let agent = online_agents(&f.owner, &f.project_id, 1).await[0].clone();
    let task = common::create_task(&f.owner, &f.project_id, "Write a file").await;
    let run_id = start_run(&f.owner, &task, &agent).await;
    model.wait_held().await;

    // The host dies mid-turn and comes back: the retry continues Codex's thread.
    drop(connector);
    let _connector = run_connector(&dir, &credential, &agents);
    common::wait_first_attempt_lost(&f.owner, &run_id).await;
    model.release();
    let events = assert_resumed_after_restart(&f.owner, &run_id).await;
    let logged = events.iter().filter(|e| e["kind"] == "output" && e["data"]["line"].to_string().contains(" INFO "));
    assert_eq!(logged.count(), 0, "Codex's own logging stays quiet: {events:?}");
    let message = events.iter().rfind(|e| e["kind"] == "message").unwrap();
    assert_eq!(message["data"]["text"], "Done: wrote out.txt.");
    common::assert_continued(
        &events,
        &work,
        &model.model_calls().last().unwrap().body["input"],
        "function_call_output",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codex_app_server_runs_a_shell_command_only_after_a_person_approves_it() {
    let model = ModelApi::start(write_hi()).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let (dir, credential, agents, work) = common::codex_agent(&server, &f, &model, APP_SERVER).await;
    let _connector = run_connector(&dir, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 1).await;
    let agent = &online[0];
    assert_eq!(
        agent["capabilities"],
        json!([
            "STREAM",
            "CANCEL",
            "NATIVE_RESUME",
            "APPROVALS",
            "TOOLS",
            "ARTIFACTS",
            "USAGE_EXACT",
            "USAGE_ESTIMATED"
        ])
    );
    let task = common::create_task(&f.owner, &f.project_id, "Write a file").await;

    for (decision, written) in [("DENY", false), ("APPROVE", true)] {
        let _ = std::fs::remove_file(work.join("out.txt"));
        let calls_before = model.model_calls().len();
        let run_id = start_run_until_approval(&f.owner, &task, agent).await;
        let approval = common::pending_approval(&f.owner, &f).await;
        assert_eq!(approval["action"], "command_execution: /bin/bash -lc 'echo hi > out.txt'");
        assert_eq!(approval["details"]["tool_name"], "command_execution");
        assert!(!work.join("out.txt").exists(), "nothing ran before the decision");
        common::decide_approval(&f.owner, &approval, decision, "reviewed").await;
        wait_status(&f.owner, &run_id, "SUCCEEDED").await;
        let events = common::events(&f.owner, &run_id).await;
        assert_eq!(work.join("out.txt").exists(), written, "{decision}: {events:?}");

        // What the gateway measured comes apart from what the runtime says.
        let (measured, events): (Vec<Value>, Vec<Value>) =
            events.into_iter().partition(|e| e["kind"] == "usage" && e["data"]["source"] == "gateway");
        let kinds: Vec<&str> = events
            .iter()
            .map(|e| e["kind"].as_str().unwrap())
            .filter(|k| !["status", "output", "vendor_extension"].contains(k))
            .collect();
        assert_eq!(
            kinds,
            ["started", "tool_call", "approval_requested", "tool_result", "message", "usage", "result"],
            "{decision}: {events:?}"
        );
        let of = |kind: &str| events.iter().find(|e| e["kind"] == kind).unwrap()["data"].clone();
        assert_eq!(of("started")["approval_policy"], "untrusted");
        assert!(of("tool_call")["input"]["command"].as_str().unwrap().contains("echo hi > out.txt"));
        assert_eq!(of("tool_result")["is_error"], !written);
        assert_eq!(of("message")["text"], "Done: wrote out.txt.");
        assert_eq!(of("usage")["output_tokens"], 2 * OUTPUT_TOKENS);
        assert_eq!(of("result")["outcome"], "succeeded");

        let requests = measured.len() as u64;
        assert_eq!(requests as usize, model.model_calls().len() - calls_before, "every call is measured");
        let usage = run_usage(&f.owner, &run_id).await;
        assert_eq!(usage["measured"]["requests"], requests);
        assert_eq!(usage["measured"]["inputTokens"], requests * INPUT_TOKENS);
        assert_eq!(usage["measured"]["outputTokens"], requests * OUTPUT_TOKENS);
        assert_eq!(usage["measured"]["tokens"], "MEASURED");
        assert_eq!(usage["reported"]["outputTokens"], 2 * OUTPUT_TOKENS);
    }
    let calls = model.model_calls();
    assert!(calls.iter().all(|c| c.credential.as_deref() == Some(PROVIDER_KEY)), "the key stays on the connector");
    assert!(calls[0].body["input"].to_string().contains("write hi to out.txt"), "the objective is the prompt");
    assert_eq!(std::fs::read_to_string(work.join("out.txt")).unwrap(), "hi\n", "the real shell ran the command");

    // Cancelled while it waits for a decision.
    std::fs::remove_file(work.join("out.txt")).unwrap();
    let run_id = start_run_until_approval(&f.owner, &task, agent).await;
    f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": run_id})).await.data("cancelRun");
    wait_status(&f.owner, &run_id, "CANCELLED").await;
    let result = common::wait_result(&f.owner, &run_id).await;
    assert_eq!(result["outcome"], "cancelled", "{result}");
    // Codex ends its turn as interrupted when told (`turn/interrupt`) — unless the control plane,
    // which ends the attempt of a run cancelled while it waits, told the connector to stop it at
    // once first: then SIGKILL ended it.
    let told = result["turn_status"] == "interrupted" && result["signal"].is_null();
    assert!(told || result["signal"] == 9, "{result}");
    assert!(!work.join("out.txt").exists(), "a cancelled request runs nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_connector_restarts_mid_turn_resumes_its_codex_app_server_thread() {
    // The run stops in its second model call, after the approved shell command ran.
    let model = ModelApi::holding(write_hi(), 1).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let (dir, credential, agents, work) = common::codex_agent(&server, &f, &model, APP_SERVER).await;
    let connector = run_connector(&dir, &credential, &agents);
    let agent = online_agents(&f.owner, &f.project_id, 1).await[0].clone();
    let task = common::create_task(&f.owner, &f.project_id, "Write a file").await;
    let run_id = common::start_and_approve(&f.owner, &f, &task, &agent).await;
    model.wait_held().await;

    // The host dies mid-turn and comes back: the retry resumes Codex's thread (`thread/resume`).
    drop(connector);
    let _connector = run_connector(&dir, &credential, &agents);
    common::wait_first_attempt_lost(&f.owner, &run_id).await;
    model.release();
    let events = assert_resumed_after_restart(&f.owner, &run_id).await;
    let message = events.iter().rfind(|e| e["kind"] == "message").unwrap();
    assert_eq!(message["data"]["text"], "Done: wrote out.txt.");
    common::assert_continued(
        &events,
        &work,
        &model.model_calls().last().unwrap().body["input"],
        "function_call_output",
    );
}
