//! The JiuwenSwarm mapper on output recorded from the real `jiuwenswarm chat --jsonl` (0.2.3, its
//! services pointed at a scripted Chat Completions API): a turn that ran a shell command and wrote
//! a file, and a turn whose model endpoint could not be reached. And the adapter's launcher with
//! services that never come up: the run fails saying why, or is cancelled while it waits.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use acc_connector::adapter::jiuwenswarm::{JiuwenSwarmAdapter, JiuwenSwarmOutput};
use acc_connector::adapter::lines::Line;
use acc_connector::adapter::process::{OutputMapper, ProcessEnd};
use acc_connector::adapter::{Adapter, AdapterEvent, AdapterOptions, KINDS, RunSpec};
use acc_protocol::{CancelMode, EventKind};
use common::{alive, collect, eventually, sh_agent};
use serde_json::json;
use tokio::sync::mpsc;
use uuid::Uuid;

fn exited(code: i32) -> ProcessEnd {
    ProcessEnd { exit_code: Some(code), signal: None, cancelled: false, error: None }
}

/// The events of a recorded run's stdout, then what the mapper holds at the end.
fn replay(mapper: &mut JiuwenSwarmOutput, fixture: &str) -> Vec<AdapterEvent> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jiuwenswarm").join(fixture);
    let text = std::fs::read_to_string(path).unwrap();
    let mut events = mapper.spawned(7);
    for line in text.lines() {
        events.extend(mapper.stdout(Line { text: line.to_owned(), partial: false }).events);
    }
    events.extend(mapper.flush());
    events
}

#[test]
fn a_turn_that_ran_a_command_maps_to_call_result_messages_and_usage() {
    let mut mapper = JiuwenSwarmOutput::in_session("s2");
    let events = replay(&mut mapper, "shell.jsonl");
    let kinds: Vec<EventKind> = events.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            EventKind::Started,
            EventKind::Usage,
            EventKind::Message,
            EventKind::ToolCall,
            EventKind::ToolResult,
            EventKind::Usage,
            EventKind::Message,
        ]
    );
    assert_eq!(events[0].data, json!({"pid": 7, "session_id": "s2"}));
    let usage = &events[1].data;
    assert_eq!((usage["input_tokens"].as_u64(), usage["output_tokens"].as_u64()), (Some(100), Some(20)));
    assert_eq!((&usage["model"], &usage["source"]), (&json!("gpt-stand-in"), &json!("runtime")));
    // The text before the tool call is its own message, in order.
    assert_eq!(events[2].data, json!({"role": "assistant", "text": "I will run `echo hi > out.txt`."}));
    assert_eq!(
        events[3].data,
        json!({"id": "call_stand_in", "name": "bash", "input": {"command": "echo hi > out.txt"}})
    );
    assert_eq!((&events[4].data["tool_use_id"], &events[4].data["is_error"]), (&json!("call_stand_in"), &json!(false)));
    assert_eq!(events[4].data["output"], "success=True data={'content': ''} error=None");
    assert_eq!(events[6].data, json!({"role": "assistant", "text": "Done: wrote out.txt."}));
    let result = mapper.result(&exited(0));
    assert_eq!((&result["outcome"], &result["session_id"]), (&json!("succeeded"), &json!("s2")));
}

#[test]
fn an_unreachable_model_fails_the_run_with_its_error() {
    let mut mapper = JiuwenSwarmOutput::in_session("s3");
    let events = replay(&mut mapper, "unreachable.jsonl");
    let kinds: Vec<EventKind> = events.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [EventKind::Started, EventKind::Error]);
    let error =
        "[181001] model call failed, reason: openAI API async stream error: APIConnectionError: Connection error.";
    assert_eq!(events[1].data["message"], error);
    let result = mapper.result(&exited(1));
    assert_eq!((result["outcome"].as_str(), result["error"].as_str()), (Some("failed"), Some(error)));
}

#[test]
fn unknown_lines_are_vendor_extensions_and_no_answer_is_no_success() {
    let mut mapper = JiuwenSwarmOutput::in_session("s");
    let line = json!({"type": "event", "event": "chat.subtask_update", "payload": {"subtask": 1}});
    let mapped = mapper.stdout(Line { text: line.to_string(), partial: false });
    assert_eq!(mapped.events[0].kind, EventKind::VendorExtension);
    assert_eq!(mapped.events[0].data, json!({"runtime": "jiuwenswarm", "line": line}));
    let plain = mapper.stdout(Line { text: "not json".into(), partial: false });
    assert_eq!(plain.events[0].data, json!({"runtime": "jiuwenswarm", "line": "not json"}));
    // Streamed text with no answer after it is still reported when the output ends.
    let delta = json!({"type": "event", "event": "chat.delta", "payload": {"content": "half a thought"}}).to_string();
    let (head, tail) = delta.split_at(20);
    assert!(mapper.stdout(Line { text: head.to_owned(), partial: true }).events.is_empty());
    assert!(mapper.stdout(Line { text: tail.to_owned(), partial: false }).events.is_empty());
    assert_eq!(mapper.flush()[0].data, json!({"role": "assistant", "text": "half a thought"}));
    let result = mapper.result(&exited(0));
    assert_eq!(
        (result["outcome"].as_str(), result["error"].as_str()),
        (Some("failed"), Some("JiuwenSwarm ended without an answer"))
    );
    let down = JiuwenSwarmOutput::in_session("s").result(&exited(3));
    assert_eq!(down["error"], "JiuwenSwarm's services did not start (its output says why)");
}

#[test]
fn the_adapter_kind_speaks_openai_through_the_gateway() {
    let kind = KINDS.iter().find(|k| k.name == "jiuwenswarm").unwrap();
    assert_eq!(kind.model_api, Some(acc_connector::config::ModelApi::Openai));
}

/// An agent whose `jiuwenswarm-app` (beside its `jiuwenswarm`, in `bin`) is `app`, a shell script.
fn agent_with_app(bin: &Path, app: &str) -> JiuwenSwarmAdapter {
    for (name, script) in [("jiuwenswarm-app", app), ("jiuwenswarm", "echo chat ran")] {
        std::fs::write(bin.join(name), format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(bin.join(name), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut agent = sh_agent("jiuwen", "");
    agent.adapter = "jiuwenswarm".into();
    agent.command = bin.join("jiuwenswarm").display().to_string();
    agent.args.clear();
    agent.env.insert("APP_PID_FILE".into(), bin.join("app.pid").display().to_string());
    JiuwenSwarmAdapter::new(&agent, AdapterOptions { cancel_grace: Duration::from_secs(5) })
}

fn spec() -> RunSpec {
    RunSpec {
        run_id: Uuid::now_v7(),
        attempt_id: Uuid::now_v7(),
        agent_id: Uuid::now_v7(),
        input: json!({"prompt": "hello"}),
        context: json!({}),
        approval_token: None,
        budget: None,
        model: None,
        tools: None,
        skills: Vec::new(),
    }
}

fn run_dir(spec: &RunSpec) -> PathBuf {
    std::env::temp_dir().join(format!("acc-jiuwenswarm-{}", spec.attempt_id))
}

#[tokio::test]
async fn services_that_never_listen_fail_the_run_with_their_log() {
    let bin = tempfile::tempdir().unwrap();
    let adapter = agent_with_app(bin.path(), "echo 'no model configured'; exit 1");
    let spec = spec();
    let dir = run_dir(&spec);
    let (tx, mut rx) = mpsc::channel(64);
    let _run = adapter.start(spec, tx).unwrap();
    let events = collect(&mut rx, Duration::from_secs(20)).await;
    let said: Vec<&str> = events.iter().filter_map(|e| e.data["line"].as_str()).collect();
    assert_eq!(said, ["jiuwenswarm-app did not start its gateway; the end of its log:", "no model configured"]);
    let result = &events.last().unwrap().data;
    assert_eq!((&result["outcome"], &result["exit_code"]), (&json!("failed"), &json!(3)));
    assert_eq!(result["error"], "JiuwenSwarm's services did not start (its output says why)");
    assert!(!dir.exists(), "the run's directory is removed");
}

#[tokio::test]
async fn a_cancel_while_the_services_start_stops_them() {
    let bin = tempfile::tempdir().unwrap();
    let adapter = agent_with_app(bin.path(), "echo $$ > \"$APP_PID_FILE\"; exec sleep 60");
    let (tx, mut rx) = mpsc::channel(64);
    let run = adapter.start(spec(), tx).unwrap();
    let pid_file = bin.path().join("app.pid");
    assert!(eventually(Duration::from_secs(10), || pid_file.exists()).await, "the services were started");
    let app: u32 = std::fs::read_to_string(&pid_file).unwrap().trim().parse().unwrap();
    run.cancel(CancelMode::Graceful);
    let events = collect(&mut rx, Duration::from_secs(20)).await;
    assert_eq!(events.last().unwrap().data["outcome"], "cancelled");
    assert!(eventually(Duration::from_secs(5), || !alive(app)).await, "the services stopped with the run");
}
