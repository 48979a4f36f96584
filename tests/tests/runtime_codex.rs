//! Codex CLI for real behind `acc-connector`: the pinned `codex exec` runs in a temporary workdir,
//! with its model provider pointed at the scripted Responses API, and runs a shell command.

mod common;

use acc_tests::model_api::{INPUT_TOKENS, ModelApi, OUTPUT_TOKENS, PROVIDER_KEY, Step};
use acc_tests::{Server, TestDb};
use common::{enroll, online_agents, run_connector, run_usage, wait_status};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codex_runs_a_shell_command_in_its_workdir() {
    let codex = acc_tests::runtimes::npm_bin("codex");
    let model =
        ModelApi::start(vec![Step::Shell("echo hi > out.txt".into()), Step::Say("Done: wrote out.txt.".into())]).await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let (codex_home, work) = (dir.join("codex-home"), dir.join("work"));
    std::fs::create_dir_all(&codex_home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    // Its own configuration keeps it quiet; the adapter sets its endpoint (the model gateway).
    std::fs::write(
        codex_home.join("config.toml"),
        "model = \"gpt-5-codex\"\ncheck_for_update_on_startup = false\n\
         [features]\nplugins = false\nremote_plugin = false\n[analytics]\nenabled = false\n[feedback]\nenabled = false\n",
    )
    .unwrap();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "{provider}[[agents]]\nname = \"codex\"\nadapter = \"codex\"\ncommand = {codex:?}\nworkdir = {work:?}\n\
         args = [\"-s\", \"workspace-write\"]\nmodel_provider = \"openai\"\nenv = {{ CODEX_HOME = {codex_home:?}, HOME = {dir:?} }}\n",
        provider = model.provider("openai", "openai"),
        dir = dir.join("home"),
    );
    let _connector = run_connector(&dir, &credential, &agents);
    let online = online_agents(&f.owner, &f.project_id, 1).await;
    assert_eq!(online[0]["capabilities"], json!(["STREAM", "CANCEL", "TOOLS", "USAGE_EXACT", "USAGE_ESTIMATED"]));
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
