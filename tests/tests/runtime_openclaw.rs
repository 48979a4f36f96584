//! OpenClaw for real behind `acc-connector`: the pinned `openclaw` (under the pinned Node.js 24)
//! runs a gateway of its own per run, reaching the scripted Chat Completions API through the
//! connector's model gateway. Its shell command waits for a person's decision through GraphQL and
//! runs only if approved, or not at all when the run is cancelled meanwhile; a logging proxy shows
//! it tried to reach nothing else.

mod common;

use std::time::Duration;

use acc_tests::model_api::{INPUT_TOKENS, ModelApi, OUTPUT_TOKENS, PROVIDER_KEY, Step};
use acc_tests::{Server, TestDb};
use common::{enroll, logging_proxy, online_agents, run_connector, run_usage, wait_status_within};
use serde_json::json;

/// A run starts a gateway first: several seconds, more on a busy machine.
const SLOW: Duration = Duration::from_secs(120);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openclaw_runs_a_shell_command_only_after_a_person_approves_it() {
    let openclaw = acc_tests::runtimes::npm_bin("openclaw");
    // OpenClaw needs Node.js ≥ 24.16; the pinned one is installed beside it, first on its PATH.
    let node_dir = acc_tests::runtimes::npm_bin("node").parent().unwrap().to_owned();
    let path = format!("{}:{}", node_dir.display(), std::env::var("PATH").unwrap());
    // OpenClaw cannot bind an approval to a command with a redirect, so the command is `touch`.
    let model =
        ModelApi::start(vec![Step::Shell("touch out.txt".into()), Step::Say("Done: wrote out.txt.".into())]).await;
    let (proxy, outside) = logging_proxy().await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "{provider}[[agents]]\nname = \"openclaw\"\nadapter = \"openclaw\"\ncommand = {openclaw:?}\nworkdir = {work:?}\n\
         model_provider = \"openai\"\nmodel = \"gpt-stand-in\"\nenv = {{ PATH = {path:?}, \
         HTTPS_PROXY = {proxy:?}, HTTP_PROXY = {proxy:?}, NO_PROXY = \"127.0.0.1,localhost\" }}\n",
        provider = model.provider("openai", "openai"),
    );
    let _connector = run_connector(&dir, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 1).await;
    let agent = &online[0];
    assert_eq!(
        agent["capabilities"],
        json!(["STREAM", "CANCEL", "APPROVALS", "TOOLS", "ARTIFACTS", "USAGE_EXACT", "USAGE_ESTIMATED"])
    );
    let version = f
        .owner
        .gql(
            "query($id: ID!) { node(id: $id) { ... on Agent { adapter runtimeVersion } } }",
            json!({"id": agent["id"]}),
        )
        .await;
    assert_eq!(version.data("node"), &json!({"adapter": "openclaw", "runtimeVersion": "2026.9.6"}));
    let task = common::create_task(&f.owner, &f.project_id, "Write a file").await;
    // A skill active in the project: each run's gateway reads it from the run's own directory.
    let skill = "Writes release notes from merged pull requests, in the house style.";
    common::activated_skill(&f.owner, common::notes_package(skill), &f.project_id).await;

    for (decision, written) in [("DENY", false), ("APPROVE", true)] {
        let calls_before = model.model_calls().len();
        let started = f
            .owner
            .gql(
                "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {objective: \"write hi to out.txt\"}) { id } }",
                json!({"t": task["id"], "a": agent["id"]}),
            )
            .await;
        let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
        wait_status_within(&f.owner, &run_id, "WAITING_APPROVAL", SLOW).await;
        let approval = common::pending_approval(&f.owner, &f).await;
        assert_eq!(approval["action"], "exec: touch out.txt");
        assert_eq!(approval["details"]["cwd"], work.display().to_string());
        assert!(!work.join("out.txt").exists(), "nothing ran before the decision");
        common::decide_approval(&f.owner, &approval, decision, "reviewed").await;
        // Denied or not, the agent finishes its turn: the run succeeds, the command ran only if approved.
        wait_status_within(&f.owner, &run_id, "SUCCEEDED", SLOW).await;
        assert_eq!(work.join("out.txt").exists(), written, "{decision}");

        let events = common::events(&f.owner, &run_id).await;
        // The gateway's log (`output`) and the model gateway's measurements come at their own pace.
        let kinds: Vec<&str> = events
            .iter()
            .filter(|e| !matches!(e["kind"].as_str(), Some("status" | "output")))
            .filter(|e| e["kind"] != "usage" || e["data"]["source"] == "runtime")
            .map(|e| e["kind"].as_str().unwrap())
            .collect();
        assert_eq!(
            kinds,
            ["started", "message", "tool_call", "approval_requested", "tool_result", "message", "usage", "result"],
            "{decision}"
        );
        let of = |kind: &str| events.iter().find(|e| e["kind"] == kind).unwrap()["data"].clone();
        assert_eq!(of("started")["runtime_version"], "2026.9.6");
        assert_eq!(of("tool_call")["name"], "exec");
        assert_eq!(of("tool_call")["input"]["command"], "touch out.txt");
        assert_eq!(of("tool_result")["is_error"], !written, "{decision}");
        assert_eq!(of("result")["outcome"], "succeeded");
        assert_eq!(of("result")["session_id"], of("started")["session_id"]);
        let said: Vec<&str> =
            events.iter().filter(|e| e["kind"] == "message").filter_map(|e| e["data"]["text"].as_str()).collect();
        assert_eq!(said, ["I will run `touch out.txt`.", "Done: wrote out.txt."], "{decision}");
        let reported = events.iter().find(|e| e["kind"] == "usage" && e["data"]["source"] == "runtime").unwrap();
        assert_eq!(reported["data"]["output_tokens"], 2 * OUTPUT_TOKENS, "{reported}");

        // Through the connector's model gateway: every request carried the connector's key, and
        // every model call was measured.
        let calls = model.model_calls().len() - calls_before;
        assert_eq!(calls, 2, "a tool call, then the answer");
        let usage = run_usage(&f.owner, &run_id).await;
        assert_eq!(usage["measured"]["requests"], calls);
        assert_eq!(usage["measured"]["inputTokens"], calls as u64 * INPUT_TOKENS);
        assert_eq!(usage["measured"]["tokens"], "MEASURED");
        assert_eq!(usage["reported"]["outputTokens"], 2 * OUTPUT_TOKENS);
    }
    let first = &model.model_calls()[0].body;
    assert!(first["messages"].to_string().contains("write hi to out.txt"), "the objective is the prompt");
    let offered = first["messages"].to_string();
    assert!(offered.contains("release-notes") && offered.contains(skill), "the run's skill is offered: {offered}");
    // Nothing but the command's file in the workdir: OpenClaw's own state stayed in the run's directory.
    let left: Vec<_> = std::fs::read_dir(&work).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["out.txt"]);

    // Cancelled while it waits for a decision: its gateway is stopped, and the command never runs.
    std::fs::remove_file(work.join("out.txt")).unwrap();
    let started = f
        .owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {objective: \"write hi to out.txt\"}) { id } }",
            json!({"t": task["id"], "a": agent["id"]}),
        )
        .await;
    let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
    wait_status_within(&f.owner, &run_id, "WAITING_APPROVAL", SLOW).await;
    f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": run_id})).await.data("cancelRun");
    wait_status_within(&f.owner, &run_id, "CANCELLED", SLOW).await;
    let result = common::wait_result(&f.owner, &run_id).await;
    assert_eq!(result["outcome"], "cancelled", "{result}");
    assert!(!work.join("out.txt").exists(), "a cancelled request runs nothing");

    let requests = model.requests();
    assert!(requests.iter().all(|r| r.credential.as_deref() == Some(PROVIDER_KEY)), "{requests:?}");
    assert_eq!(*outside.lock().unwrap(), Vec::<String>::new(), "OpenClaw tried to reach the outside");
    drop(server);
}
