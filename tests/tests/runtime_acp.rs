//! An ACP agent for real behind `acc-connector`: the pinned Gemini CLI in its ACP mode
//! (`gemini --acp`) runs in a temporary workdir against the scripted Gemini API, asks permission
//! before its shell command with `session/request_permission`, and runs it only if a person
//! approves through GraphQL.

mod common;

use acc_tests::model_api::{ModelApi, OUTPUT_TOKENS, write_hi};
use acc_tests::{Server, TestDb};
use common::{enroll, online_agents, run_connector, start_run_until_approval, wait_status};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_acp_agent_runs_a_shell_command_only_after_a_person_approves_it() {
    let gemini = acc_tests::runtimes::npm_bin("gemini");
    let model = ModelApi::start(write_hi()).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let (home, work) = (dir.join("gemini-home"), dir.join("work"));
    std::fs::create_dir_all(home.join(".gemini")).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    // In ACP mode Gemini CLI takes its key from the environment; its settings only keep it quiet.
    let settings = json!({
        "privacy": { "usageStatisticsEnabled": false },
        "telemetry": { "enabled": false },
        "general": { "disableAutoUpdate": true, "disableUpdateNag": true },
    });
    std::fs::write(home.join(".gemini/settings.json"), settings.to_string()).unwrap();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "[[agents]]\nname = \"gemini-acp\"\nadapter = \"acp\"\ncommand = {gemini:?}\nworkdir = {work:?}\n\
         args = [\"--acp\", \"-m\", \"gemini-2.5-flash\"]\n\
         env = {{ GOOGLE_GEMINI_BASE_URL = {url:?}, GEMINI_API_KEY = \"stand-in\", HOME = {home:?} }}\n",
        url = model.url(),
    );
    let _connector = run_connector(&dir, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 1).await;
    let agent = &online[0];
    assert_eq!(agent["capabilities"], json!(["STREAM", "CANCEL", "APPROVALS", "TOOLS", "ARTIFACTS"]));
    let version = f
        .owner
        .gql(
            "query($id: ID!) { node(id: $id) { ... on Agent { adapter runtimeVersion } } }",
            json!({"id": agent["id"]}),
        )
        .await;
    assert_eq!(version.data("node"), &json!({"adapter": "acp", "runtimeVersion": "0.61.0"}));
    let task = common::create_task(&f.owner, &f.project_id, "Write a file").await;

    for (decision, written) in [("DENY", false), ("APPROVE", true)] {
        let _ = std::fs::remove_file(work.join("out.txt"));
        let run_id = start_run_until_approval(&f.owner, &task, agent).await;
        let approval = common::pending_approval(&f.owner, &f).await;
        assert_eq!(approval["action"], "execute: echo hi > out.txt");
        assert_eq!(approval["details"]["kind"], "execute");
        assert!(!work.join("out.txt").exists(), "nothing ran before the decision");
        common::decide_approval(&f.owner, &approval, decision, "reviewed").await;
        // Denied or not, the agent finishes its turn: the run succeeds, the command ran only if approved.
        wait_status(&f.owner, &run_id, "SUCCEEDED").await;
        assert_eq!(work.join("out.txt").exists(), written, "{decision}");

        let events = common::events(&f.owner, &run_id).await;
        // Its stderr (`output`) and notices such as its slash commands (`vendor_extension`) come
        // at their own pace; the rest is in order.
        let kinds: Vec<&str> = events
            .iter()
            .map(|e| e["kind"].as_str().unwrap())
            .filter(|k| !matches!(*k, "status" | "output" | "vendor_extension"))
            .collect();
        let expected: &[&str] = if written {
            &["started", "message", "tool_call", "approval_requested", "tool_result", "message", "usage", "result"]
        } else {
            // Gemini CLI reports no result of a call it was not allowed to make.
            &["started", "message", "tool_call", "approval_requested", "message", "usage", "result"]
        };
        assert_eq!(kinds, expected, "{decision}");
        let of = |kind: &str| events.iter().find(|e| e["kind"] == kind).unwrap()["data"].clone();
        assert_eq!(of("started")["agent"], "gemini-cli");
        assert_eq!(of("started")["runtime_version"], "0.61.0");
        assert_eq!(of("started")["model"], "gemini-2.5-flash");
        assert_eq!(of("tool_call")["title"], "echo hi > out.txt");
        assert_eq!(of("result")["outcome"], "succeeded");
        assert_eq!(of("result")["stop_reason"], "end_turn");
        assert_eq!(of("usage")["output_tokens"], 2 * OUTPUT_TOKENS);
        if written {
            assert_eq!(of("tool_result")["is_error"], false);
        }
        let said: Vec<&str> =
            events.iter().filter(|e| e["kind"] == "message").filter_map(|e| e["data"]["text"].as_str()).collect();
        assert_eq!(said, ["I will run `echo hi > out.txt`.", "Done: wrote out.txt."], "{decision}");
    }
    assert_eq!(std::fs::read_to_string(work.join("out.txt")).unwrap(), "hi\n", "the real shell ran the command");
    // The agent was given the run's objective as its prompt.
    let first = &model.model_calls()[0].body;
    assert!(first["contents"].to_string().contains("write hi to out.txt"), "the objective is the prompt");

    // Cancelled while it waits for a decision.
    std::fs::remove_file(work.join("out.txt")).unwrap();
    let run_id = start_run_until_approval(&f.owner, &task, agent).await;
    f.owner.gql("mutation($r: ID!) { cancelRun(runId: $r) { status } }", json!({"r": run_id})).await.data("cancelRun");
    wait_status(&f.owner, &run_id, "CANCELLED").await;
    let result = common::wait_result(&f.owner, &run_id).await;
    assert_eq!(result["outcome"], "cancelled", "{result}");
    // The agent ends its turn as cancelled when told (`session/cancel`) — unless the control plane,
    // which ends the attempt of a run cancelled while it waits, told the connector to stop it at
    // once first (a heartbeat in between): then SIGKILL ended it.
    let told = result["stop_reason"] == "cancelled" && result["signal"].is_null();
    assert!(told || result["signal"] == 9, "{result}");
    assert!(!work.join("out.txt").exists(), "a cancelled request runs nothing");
}
