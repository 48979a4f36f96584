//! Claude Code for real behind `acc-connector`: the pinned `claude` runs in a temporary workdir
//! against the scripted model API, asks before its shell command, and does it only if a person
//! approves through GraphQL.

mod common;

use acc_tests::model_api::{INPUT_TOKENS, ModelApi, OUTPUT_TOKENS, PROVIDER_KEY, write_hi};
use acc_tests::{Server, TestDb};
use common::{
    assert_resumed_after_restart, enroll, online_agents, run_connector, run_usage, start_and_approve,
    start_run_until_approval, wait_status,
};
use serde_json::{Value, json};

/// A Claude Code agent for `server`'s fixture: its connector's directory and credential, the
/// `[[agents]]` configuration (Claude Code reaching `model` through the connector's model gateway,
/// which holds the key) and the workdir.
async fn claude_agent(
    server: &Server,
    f: &common::Fixture,
    model: &ModelApi,
) -> (std::path::PathBuf, std::path::PathBuf, String, std::path::PathBuf) {
    let claude = acc_tests::runtimes::npm_bin("claude");
    let dir = server.db.dir.clone();
    let (home, work) = (dir.join("claude-home"), dir.join("work"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let credential = enroll(server, &f.owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "{provider}[[agents]]\nname = \"claude\"\nadapter = \"claude-code\"\ncommand = {claude:?}\nworkdir = {work:?}\n\
         model_provider = \"anthropic\"\nenv = {{ HOME = {home:?} }}\n",
        provider = model.provider("anthropic", "anthropic"),
    );
    (dir, credential, agents, work)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_code_runs_a_shell_command_only_after_a_person_approves_it() {
    let model = ModelApi::start(write_hi()).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let (dir, credential, agents, work) = claude_agent(&server, &f, &model).await;
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
            "MCP",
            "ARTIFACTS",
            "USAGE_EXACT",
            "USAGE_ESTIMATED"
        ])
    );
    let version = f
        .owner
        .gql(
            "query($id: ID!) { node(id: $id) { ... on Agent { adapter runtimeVersion } } }",
            json!({"id": agent["id"]}),
        )
        .await;
    assert_eq!(version.data("node"), &json!({"adapter": "claude-code", "runtimeVersion": "2.1.332"}));
    let task = common::create_task(&f.owner, &f.project_id, "Write a file").await;

    for (decision, written) in [("DENY", false), ("APPROVE", true)] {
        let _ = std::fs::remove_file(work.join("out.txt"));
        let run_id = start_run_until_approval(&f.owner, &task, agent).await;
        let approval = common::pending_approval(&f.owner, &f).await;
        assert_eq!(approval["action"], "Bash: echo hi > out.txt");
        assert_eq!(approval["details"]["tool_name"], "Bash");
        assert!(!work.join("out.txt").exists(), "nothing ran before the decision");
        common::decide_approval(&f.owner, &approval, decision, "reviewed").await;
        wait_status(&f.owner, &run_id, "SUCCEEDED").await;
        assert_eq!(work.join("out.txt").exists(), written, "{decision}");

        let events = common::events(&f.owner, &run_id).await;
        // What the gateway measured comes apart from what the runtime says.
        let (measured, events): (Vec<Value>, Vec<Value>) =
            events.into_iter().partition(|e| e["kind"] == "usage" && e["data"]["source"] == "gateway");
        let kinds: Vec<&str> = events.iter().map(|e| e["kind"].as_str().unwrap()).filter(|k| *k != "status").collect();
        assert_eq!(
            kinds,
            ["started", "message", "tool_call", "approval_requested", "tool_result", "message", "usage", "result"],
            "{decision}"
        );
        let of = |kind: &str| events.iter().find(|e| e["kind"] == kind).unwrap()["data"].clone();
        assert_eq!(of("started")["runtime_version"], "2.1.332");
        assert_eq!(of("tool_call")["input"]["command"], "echo hi > out.txt");
        assert_eq!(of("tool_result")["is_error"], !written);
        assert_eq!(of("result")["outcome"], "succeeded");
        assert_eq!(of("result")["result"], "Done: wrote out.txt.");
        assert_eq!(of("usage")["output_tokens"], 2 * OUTPUT_TOKENS);

        let requests = measured.len() as u64;
        assert!(requests >= 2, "a tool call, then the answer: {measured:?}");
        let usage = run_usage(&f.owner, &run_id).await;
        assert_eq!(usage["measured"]["requests"], requests);
        assert_eq!(usage["measured"]["inputTokens"], requests * INPUT_TOKENS);
        assert_eq!(usage["measured"]["outputTokens"], requests * OUTPUT_TOKENS);
        assert_eq!(usage["measured"]["tokens"], "MEASURED");
        assert_eq!(usage["reported"]["tokens"], "ESTIMATED");
        assert_eq!(usage["reported"]["cost"], "ESTIMATED", "Claude Code's own total_cost_usd");
    }
    let calls = model.model_calls();
    assert!(calls.iter().all(|c| c.credential.as_deref() == Some(PROVIDER_KEY)), "the key stays on the connector");
    assert_eq!(std::fs::read_to_string(work.join("out.txt")).unwrap(), "hi\n", "the real shell ran the command");
    // The runtime was given the run's objective as its prompt.
    let first = &model.model_calls()[0].body;
    assert!(first["messages"][0].to_string().contains("write hi to out.txt"), "{}", first["messages"][0]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_whose_connector_restarts_mid_turn_resumes_its_claude_code_session() {
    // The run stops in its second model call, after the approved shell command ran.
    let model = ModelApi::holding(write_hi(), 1).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let (dir, credential, agents, work) = claude_agent(&server, &f, &model).await;
    let connector = run_connector(&dir, &credential, &agents);
    let agent = online_agents(&f.owner, &f.project_id, 1).await[0].clone();
    let task = common::create_task(&f.owner, &f.project_id, "Write a file").await;
    let run_id = start_and_approve(&f.owner, &f, &task, &agent).await;
    model.wait_held().await;

    // The host dies mid-turn (SIGKILL), and comes back: the restarted connector reports the run
    // lost, and the retry continues Claude Code's own session instead of starting over.
    drop(connector);
    let _connector = run_connector(&dir, &credential, &agents);
    common::wait_first_attempt_lost(&f.owner, &run_id).await;
    model.release();
    let events = assert_resumed_after_restart(&f.owner, &run_id).await;
    let result = events.iter().rfind(|e| e["kind"] == "result").unwrap();
    assert_eq!(result["data"]["result"], "Done: wrote out.txt.");
    common::assert_continued(&events, &work, &model.model_calls().last().unwrap().body["messages"], "tool_result");
}
