//! Hermes Agent for real behind `acc-connector`: the pinned `hermes -z` runs in a temporary workdir
//! with its own Hermes home, reaching the scripted Chat Completions API through the connector's
//! model gateway, and runs a shell command; a logging proxy shows it tried to reach nothing else.

mod common;

use acc_tests::model_api::{INPUT_TOKENS, ModelApi, OUTPUT_TOKENS, PROVIDER_KEY, Step};
use acc_tests::{Server, TestDb};
use common::{enroll, logging_proxy, online_agents, run_connector, run_usage, wait_status};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hermes_runs_a_shell_command_through_the_model_gateway() {
    let hermes = acc_tests::runtimes::pip_bin("pip", "hermes");
    let model =
        ModelApi::start(vec![Step::Shell("echo hi > out.txt".into()), Step::Say("Done: wrote out.txt.".into())]).await;
    let (proxy, outside) = logging_proxy().await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let (hermes_home, home, work) = (dir.join("hermes-home"), dir.join("home"), dir.join("work"));
    for path in [&hermes_home, &home, &work] {
        std::fs::create_dir_all(path).unwrap();
    }
    // The user's own Hermes configuration: its model, and quiet (no context-length lookup, no
    // background installs). The adapter adds the endpoint (the model gateway) over it.
    std::fs::write(
        hermes_home.join("config.yaml"),
        "model:\n  default: gpt-stand-in\n  context_length: 128000\nsecurity:\n  allow_lazy_installs: false\n",
    )
    .unwrap();
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "{provider}[[agents]]\nname = \"hermes\"\nadapter = \"hermes\"\ncommand = {hermes:?}\nworkdir = {work:?}\n\
         model_provider = \"openai\"\nenv = {{ HOME = {home:?}, HERMES_HOME = {hermes_home:?}, TIRITH_ENABLED = \"0\", \
         HTTPS_PROXY = {proxy:?}, HTTP_PROXY = {proxy:?}, NO_PROXY = \"127.0.0.1,localhost\" }}\n",
        provider = model.provider("openai", "openai"),
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

    let events = common::events(&f.owner, &run_id).await;
    let of =
        |kind: &str| events.iter().find(|e| e["kind"] == kind).unwrap_or_else(|| panic!("no {kind}"))["data"].clone();
    let started = of("started");
    assert!(started["session_id"].as_str().is_some(), "{started}");
    assert_eq!(started["model"], "gpt-stand-in");
    assert_eq!(of("tool_call")["name"], "terminal");
    assert_eq!(of("tool_call")["input"]["command"], "echo hi > out.txt");
    assert_eq!((&of("tool_result")["exit_code"], &of("tool_result")["is_error"]), (&json!(0), &json!(false)));
    assert_eq!(of("message")["text"], "Done: wrote out.txt.");
    let result = of("result");
    assert_eq!((&result["outcome"], &result["session_id"]), (&json!("succeeded"), &started["session_id"]));
    let reported = events.iter().find(|e| e["kind"] == "usage" && e["data"]["source"] == "runtime").unwrap();
    assert_eq!(reported["data"]["output_tokens"], 2 * OUTPUT_TOKENS, "{reported}");

    // Through the connector's model gateway: every request that reached the provider carried the
    // connector's key, and every model call was measured.
    let calls = model.model_calls();
    assert_eq!(calls.len(), 2, "a tool call, then the answer");
    assert!(calls[0].body["messages"].to_string().contains("write hi to out.txt"), "the objective is the prompt");
    let requests = model.requests();
    assert!(requests.iter().all(|r| r.credential.as_deref() == Some(PROVIDER_KEY)), "{requests:?}");
    let usage = run_usage(&f.owner, &run_id).await;
    assert_eq!(usage["measured"]["requests"], calls.len());
    assert_eq!(usage["measured"]["inputTokens"], calls.len() as u64 * INPUT_TOKENS);
    assert_eq!(usage["measured"]["outputTokens"], calls.len() as u64 * OUTPUT_TOKENS);
    assert_eq!(usage["measured"]["tokens"], "MEASURED");
    assert_eq!(usage["reported"]["outputTokens"], 2 * OUTPUT_TOKENS);
    assert_eq!(*outside.lock().unwrap(), Vec::<String>::new(), "Hermes tried to reach the outside");
    drop(server);
}
