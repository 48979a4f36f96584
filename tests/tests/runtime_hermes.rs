//! Hermes Agent for real behind `acc-connector`: the pinned `hermes -z` runs in a temporary workdir
//! with its own Hermes home, reaching the scripted Chat Completions API through the connector's
//! model gateway, asks before its shell command and runs it only if a person approves through
//! GraphQL, with the user's own `pre_tool_call` hook still in force; a run cancelled while it
//! waits for a decision ends. A logging proxy shows it tried to reach nothing else.

mod common;

use acc_tests::model_api::{INPUT_TOKENS, ModelApi, OUTPUT_TOKENS, PROVIDER_KEY, write_hi};
use acc_tests::{Server, TestDb};
use common::{logging_proxy, online_agents, run_connector, run_usage, start_run_until_approval, wait_status};
use serde_json::json;

/// A person's reason for a denial, with what a shell could mangle on its way to Hermes.
const REASON: &str = "not now: \"rm\" C:\\new\nsecond line";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hermes_runs_a_shell_command_only_after_a_person_approves_it() {
    let model = ModelApi::start(write_hi()).await;
    let (proxy, outside) = logging_proxy().await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    // The user's own Hermes configuration has a `pre_tool_call` hook of its own that logs every
    // tool call. The adapter adds the endpoint (the model gateway) and its hooks over it.
    let policy_log = server.db.dir.join("policy.log");
    let (dir, credential, agents, work) = common::hermes_agent(
        &server,
        &f,
        &model,
        &format!("hooks:\n  pre_tool_call:\n    - command: \"sh -c '{{ cat; echo; }} >> {}'\"\n", policy_log.display()),
        &format!(", HTTPS_PROXY = {proxy:?}, HTTP_PROXY = {proxy:?}, NO_PROXY = \"127.0.0.1,localhost\""),
    )
    .await;
    let _connector = run_connector(&dir, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 1).await;
    let agent = &online[0];
    assert_eq!(
        agent["capabilities"],
        json!(["STREAM", "CANCEL", "APPROVALS", "TOOLS", "ARTIFACTS", "USAGE_EXACT", "USAGE_ESTIMATED"])
    );
    let task = common::create_task(&f.owner, &f.project_id, "Write a file").await;

    for (decision, written) in [("DENY", false), ("APPROVE", true)] {
        let _ = std::fs::remove_file(work.join("out.txt"));
        let run_id = start_run_until_approval(&f.owner, &task, agent).await;
        let approval = common::pending_approval(&f.owner, &f).await;
        assert_eq!(approval["action"], "terminal: echo hi > out.txt");
        assert_eq!(approval["details"]["tool_name"], "terminal");
        assert_eq!(approval["details"]["input"], json!({"command": "echo hi > out.txt"}));
        assert!(!work.join("out.txt").exists(), "nothing ran before the decision");
        common::decide_approval(&f.owner, &approval, decision, REASON).await;
        wait_status(&f.owner, &run_id, "SUCCEEDED").await;
        assert_eq!(work.join("out.txt").exists(), written, "{decision}");

        // What the gateway measured is checked below, through runUsage.
        let events: Vec<_> = common::events(&f.owner, &run_id)
            .await
            .into_iter()
            .filter(|e| e["kind"] != "status" && e["data"]["source"] != "gateway")
            .collect();
        let kinds: Vec<&str> = events.iter().map(|e| e["kind"].as_str().unwrap()).collect();
        assert_eq!(
            kinds,
            ["started", "approval_requested", "tool_call", "tool_result", "message", "usage", "result"],
            "{decision}"
        );
        let of = |kind: &str| events.iter().find(|e| e["kind"] == kind).unwrap()["data"].clone();
        let started = of("started");
        assert!(started["session_id"].as_str().is_some(), "{started}");
        assert_eq!(started["model"], "gpt-stand-in");
        assert_eq!(of("approval_requested")["details"]["tool_call_id"], of("tool_call")["id"]);
        assert_eq!(of("tool_call")["input"]["command"], "echo hi > out.txt");
        let tool_result = of("tool_result");
        assert_eq!(tool_result["is_error"], !written, "{decision}");
        if !written {
            // What the model was told: the person's reason, as the tool's result.
            let told = format!("Agent Control Center denied this tool call: {REASON}");
            assert_eq!(tool_result["error"], told);
            let output: serde_json::Value = serde_json::from_str(tool_result["output"].as_str().unwrap()).unwrap();
            assert_eq!(output, json!({ "error": told }), "the tool's result the model got");
        }
        assert_eq!(of("message")["text"], "Done: wrote out.txt.");
        let result = of("result");
        assert_eq!((&result["outcome"], &result["session_id"]), (&json!("succeeded"), &started["session_id"]));
        assert_eq!(of("usage")["output_tokens"], 2 * OUTPUT_TOKENS);

        let usage = run_usage(&f.owner, &run_id).await;
        assert_eq!(usage["measured"]["requests"], 2, "a tool call, then the answer");
        assert_eq!(usage["measured"]["inputTokens"], 2 * INPUT_TOKENS);
        assert_eq!(usage["measured"]["outputTokens"], 2 * OUTPUT_TOKENS);
        assert_eq!(usage["measured"]["tokens"], "MEASURED");
        assert_eq!(usage["reported"]["outputTokens"], 2 * OUTPUT_TOKENS);
    }
    assert_eq!(std::fs::read_to_string(work.join("out.txt")).unwrap(), "hi\n", "the real shell ran the command");
    // The user's own `pre_tool_call` hook saw both calls: the adapter's hook did not replace it.
    let policy = std::fs::read_to_string(&policy_log).unwrap();
    assert_eq!(policy.matches("echo hi > out.txt").count(), 2, "{policy}");

    // Cancelled while it waits for a decision: the run ends, and the command never ran.
    std::fs::remove_file(work.join("out.txt")).unwrap();
    let run_id = start_run_until_approval(&f.owner, &task, agent).await;
    f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": run_id})).await.data("cancelRun");
    wait_status(&f.owner, &run_id, "CANCELLED").await;
    assert_eq!(common::wait_result(&f.owner, &run_id).await["outcome"], "cancelled");
    assert!(!work.join("out.txt").exists(), "the cancelled run's command never ran");

    // Through the connector's model gateway: every request that reached the provider carried the
    // connector's key.
    let calls = model.model_calls();
    assert!(calls[0].body["messages"].to_string().contains("write hi to out.txt"), "the objective is the prompt");
    let requests = model.requests();
    assert!(requests.iter().all(|r| r.credential.as_deref() == Some(PROVIDER_KEY)), "{requests:?}");
    assert_eq!(*outside.lock().unwrap(), Vec::<String>::new(), "Hermes tried to reach the outside");
    drop(server);
}
