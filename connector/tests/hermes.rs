//! The Hermes mapper on output recorded from the real `hermes -z … --accept-hooks --usage-file …`
//! (0.19.0, with the adapter's observer hooks, against a scripted Chat Completions API): a run that
//! ran a shell command and wrote a file, and a run whose model endpoint could not be reached.

use std::path::PathBuf;

use acc_connector::adapter::hermes::HermesOutput;
use acc_connector::adapter::lines::Line;
use acc_connector::adapter::process::{OutputMapper, ProcessEnd};
use acc_connector::adapter::{AdapterEvent, KINDS};
use acc_protocol::EventKind;
use serde_json::json;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hermes").join(name)
}

fn exited(code: i32) -> ProcessEnd {
    ProcessEnd { exit_code: Some(code), signal: None, cancelled: false, error: None }
}

/// The events of a recorded run's stdout, then what the mapper holds at the end.
fn replay(mapper: &mut HermesOutput, stdout: &str) -> Vec<AdapterEvent> {
    let text = std::fs::read_to_string(fixture(stdout)).unwrap();
    let mut events = mapper.spawned(7);
    for line in text.lines() {
        events.extend(mapper.stdout(Line { text: line.to_owned(), partial: false }).events);
    }
    events.extend(mapper.flush());
    events
}

#[test]
fn a_run_that_ran_a_command_and_wrote_a_file() {
    let mut mapper = HermesOutput::reading_usage(&fixture("shell.usage.json"));
    let events = replay(&mut mapper, "shell.stdout");
    let kinds: Vec<EventKind> = events.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            EventKind::Started,
            EventKind::ToolCall,
            EventKind::ToolResult,
            EventKind::ToolCall,
            EventKind::ToolResult,
            EventKind::FileChange,
            EventKind::Message,
            EventKind::Usage,
        ]
    );
    assert_eq!(
        events[0].data,
        json!({"pid": 7, "session_id": "20261203_041257_30fc96", "model": "gpt-stand-in", "cwd": "/tmp/hx/h2/work"})
    );
    assert_eq!(
        events[1].data,
        json!({"id": "call_stand_in", "name": "terminal", "input": {"command": "echo hi > out.txt"}})
    );
    assert_eq!((&events[2].data["tool_use_id"], &events[2].data["exit_code"]), (&json!("call_stand_in"), &json!(0)));
    assert_eq!(events[2].data["is_error"], false);
    assert_eq!(events[3].data["name"], "write_file");
    assert_eq!(events[5].data, json!({"path": "/tmp/hx/h2/work/notes.md", "tool": "write_file"}));
    assert_eq!(events[6].data, json!({"role": "assistant", "text": "Done: wrote out.txt."}));
    let usage = &events[7].data;
    assert_eq!((usage["input_tokens"].as_u64(), usage["output_tokens"].as_u64()), (Some(300), Some(60)));
    assert_eq!((usage["requests"].as_u64(), &usage["source"]), (Some(3), &json!("runtime")));
    assert!(usage.get("cost_usd").is_none(), "Hermes did not know the stand-in model's price");
    let result = mapper.result(&exited(0));
    assert_eq!((&result["outcome"], &result["session_id"]), (&json!("succeeded"), &json!("20261203_041257_30fc96")));
}

#[test]
fn an_unreachable_model_fails_the_run_though_hermes_exits_0() {
    let mut mapper = HermesOutput::reading_usage(&fixture("unreachable.usage.json"));
    let events = replay(&mut mapper, "unreachable.stdout");
    let kinds: Vec<EventKind> = events.iter().map(|e| e.kind).collect();
    assert_eq!(kinds, [EventKind::Started, EventKind::Error, EventKind::Usage]);
    assert_eq!(events[1].data["message"], "API call failed after 3 retries: Connection error.");
    let result = mapper.result(&exited(0));
    assert_eq!(
        (result["outcome"].as_str(), result["error"].as_str()),
        (Some("failed"), Some("API call failed after 3 retries: Connection error."))
    );
}

#[test]
fn other_hooks_are_vendor_extensions_and_no_report_is_no_success() {
    let mut mapper = HermesOutput::default();
    let hook = json!({"hook_event_name": "on_session_end", "session_id": "s", "extra": {"completed": true}});
    let mapped = mapper.stdout(Line { text: hook.to_string(), partial: false });
    assert_eq!(mapped.events[0].kind, EventKind::VendorExtension);
    // A long hook line comes in pieces, and is read whole.
    let start = json!({"hook_event_name": "on_session_start", "session_id": "s1", "extra": {"model": "m"}}).to_string();
    let (head, tail) = start.split_at(20);
    assert!(mapper.stdout(Line { text: head.to_owned(), partial: true }).events.is_empty());
    assert_eq!(mapper.stdout(Line { text: tail.to_owned(), partial: false }).events[0].kind, EventKind::Started);
    let result = mapper.result(&exited(0));
    assert_eq!(
        (result["outcome"].as_str(), result["error"].as_str()),
        (Some("failed"), Some("Hermes ended without completing its turn"))
    );
    assert_eq!(mapper.result(&exited(130))["outcome"], "failed");
}

#[test]
fn the_adapter_kind_speaks_openai_through_the_gateway() {
    let kind = KINDS.iter().find(|k| k.name == "hermes").unwrap();
    assert_eq!(kind.model_api, Some(acc_connector::config::ModelApi::Openai));
}
