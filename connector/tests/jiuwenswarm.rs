//! The JiuwenSwarm mapper on output recorded from the real `jiuwenswarm chat --jsonl` (0.2.3, its
//! services pointed at a scripted Chat Completions API): a turn that ran a shell command and wrote
//! a file, and a turn whose model endpoint could not be reached.

use std::path::PathBuf;

use acc_connector::adapter::jiuwenswarm::JiuwenSwarmOutput;
use acc_connector::adapter::lines::Line;
use acc_connector::adapter::process::{OutputMapper, ProcessEnd};
use acc_connector::adapter::{AdapterEvent, KINDS};
use acc_protocol::EventKind;
use serde_json::json;

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
