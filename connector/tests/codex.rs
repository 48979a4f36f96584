//! The Codex mapper on output recorded from the real `codex exec --json` (0.171.0, against a
//! scripted Responses API): a turn that ran a shell command, and one that never reached its model.

use acc_connector::adapter::AdapterEvent;
use acc_connector::adapter::codex::CodexOutput;
use acc_connector::adapter::lines::Line;
use acc_connector::adapter::process::{OutputMapper, ProcessEnd};
use acc_protocol::EventKind;
use serde_json::{Value, json};

fn replay(fixture: &str, end: ProcessEnd) -> (Vec<AdapterEvent>, Value) {
    let text =
        std::fs::read_to_string(format!("{}/tests/fixtures/codex/{fixture}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut mapper = CodexOutput::default();
    let mut events = mapper.spawned(7);
    for line in text.lines() {
        events.extend(mapper.stdout(Line { text: line.to_owned(), partial: false }).events);
    }
    (events, mapper.result(&end))
}

fn exited(code: i32) -> ProcessEnd {
    ProcessEnd { exit_code: Some(code), signal: None, cancelled: false, error: None }
}

#[test]
fn a_turn_that_ran_a_command_maps_to_call_result_message_and_usage() {
    let (events, result) = replay("shell.jsonl", exited(0));
    let kinds: Vec<EventKind> = events.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            EventKind::Started,
            EventKind::Error,
            EventKind::ToolCall,
            EventKind::ToolResult,
            EventKind::Message,
            EventKind::Usage,
        ]
    );
    assert_eq!(events[0].data["pid"], 7);
    assert_eq!(events[0].data["session_id"], "01a2390e-ce58-70d3-b003-54023512ad85");
    assert!(events[1].data["message"].as_str().unwrap().contains("Model metadata"), "its own warning, kept");
    assert_eq!(events[2].data["input"]["command"], "/bin/bash -lc 'echo hi > out.txt'");
    assert_eq!((events[3].data["exit_code"].as_i64(), events[3].data["is_error"].as_bool()), (Some(0), Some(false)));
    assert_eq!(events[4].data, json!({"role": "assistant", "text": "Done: wrote out.txt."}));
    assert_eq!(
        (events[5].data["input_tokens"].as_u64(), events[5].data["output_tokens"].as_u64()),
        (Some(200), Some(40))
    );
    assert_eq!(result["outcome"], "succeeded");
    assert_eq!(result["session_id"], "01a2390e-ce58-70d3-b003-54023512ad85");
}

#[test]
fn a_turn_that_never_completed_failed_with_its_last_error() {
    let (events, result) =
        replay("unreachable.jsonl", ProcessEnd { exit_code: None, signal: Some(15), cancelled: true, error: None });
    assert!(events.iter().filter(|e| e.kind == EventKind::Error).count() >= 3);
    assert_eq!(result["outcome"], "cancelled", "stopped while it kept reconnecting");
    let (_, result) = replay("unreachable.jsonl", exited(0));
    assert_eq!(result["outcome"], "failed", "exit 0 without a completed turn is no success");
    assert!(result["error"].as_str().unwrap().contains("Reconnecting"), "{result}");
}

#[test]
fn what_it_does_not_understand_is_kept() {
    let mut mapper = CodexOutput::default();
    let mapped = mapper.stdout(Line { text: r#"{"type":"thread.compacted","n":1}"#.into(), partial: false });
    assert_eq!(mapped.events[0].kind, EventKind::VendorExtension);
    assert_eq!(mapped.events[0].data["line"]["type"], "thread.compacted");
    let item = mapper.stdout(Line {
        text: r#"{"type":"item.completed","item":{"type":"todo_list","items":[]}}"#.into(),
        partial: false,
    });
    assert_eq!(item.events[0].kind, EventKind::VendorExtension);
}
