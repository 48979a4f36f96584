//! Gemini CLI for real behind `acc-connector`: the pinned `gemini` runs headless in a temporary
//! workdir against the scripted Gemini API and runs a shell command.

mod common;

use acc_tests::model_api::{ModelApi, OUTPUT_TOKENS, Step};
use acc_tests::{Server, TestDb};
use common::{enroll, online_agents, run_connector, wait_status};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gemini_runs_a_shell_command_in_its_workdir() {
    let gemini = acc_tests::runtimes::npm_bin("gemini");
    let model =
        ModelApi::start(vec![Step::Shell("echo hi > out.txt".into()), Step::Say("Done: wrote out.txt.".into())]).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let (home, work) = (dir.join("gemini-home"), dir.join("work"));
    std::fs::create_dir_all(home.join(".gemini")).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    // Headless Gemini CLI needs its auth method chosen in its settings, and stays quiet by them.
    let settings = json!({
        "security": { "auth": { "selectedType": "gemini-api-key" } },
        "privacy": { "usageStatisticsEnabled": false },
        "telemetry": { "enabled": false },
        "general": { "disableAutoUpdate": true, "disableUpdateNag": true },
    });
    std::fs::write(home.join(".gemini/settings.json"), settings.to_string()).unwrap();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "[[agents]]\nname = \"gemini\"\nadapter = \"gemini\"\ncommand = {gemini:?}\nworkdir = {work:?}\n\
         args = [\"-m\", \"gemini-2.5-flash\", \"--approval-mode\", \"yolo\"]\n\
         env = {{ GOOGLE_GEMINI_BASE_URL = {url:?}, GEMINI_API_KEY = \"stand-in\", HOME = {home:?} }}\n",
        url = model.url(),
    );
    let _connector = run_connector(&dir, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 1).await;
    assert_eq!(online[0]["capabilities"], json!(["STREAM", "CANCEL", "TOOLS", "USAGE_ESTIMATED"]));
    let task = common::create_task(&f.owner, &f.project_id, "Write a file").await;
    let started = f
        .owner
        .gql(
            "mutation($t: ID!, $a: ID!) { startRun(taskId: $t, agentId: $a, input: {objective: \"write hi to out.txt\"}) { id } }",
            json!({"t": task["id"], "a": online[0]["id"]}),
        )
        .await;
    let run_id = started.data("startRun")["id"].as_str().unwrap().to_owned();
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
    assert_eq!(of("started")["model"], "gemini-2.5-flash");
    assert_eq!(of("tool_call")["input"]["command"], "echo hi > out.txt");
    assert_eq!(of("tool_result")["is_error"], false);
    assert_eq!(of("usage")["output_tokens"], 2 * OUTPUT_TOKENS);
    assert_eq!(of("result")["outcome"], "succeeded");
    let said: Vec<&str> =
        events.iter().filter(|e| e["kind"] == "message").filter_map(|e| e["data"]["text"].as_str()).collect();
    assert!(said.contains(&"Done: wrote out.txt."), "{said:?}");
    let first = &model.model_calls()[0].body;
    assert!(first["contents"].to_string().contains("write hi to out.txt"), "the objective is the prompt");
}
