//! The Claude Code mapper on output recorded from the real `claude` (2.1.332, in stream-json mode
//! against a scripted model API): one run whose Bash call a person approved, one they denied, one
//! in acceptEdits mode without asking.

use acc_connector::adapter::AdapterEvent;
use acc_connector::adapter::claude_code::ClaudeOutput;
use acc_connector::adapter::lines::Line;
use acc_connector::adapter::process::{OutputMapper, ProcessEnd};
use acc_protocol::EventKind;
use serde_json::{Value, json};

fn replay(fixture: &str) -> (Vec<AdapterEvent>, Value) {
    let text = std::fs::read_to_string(format!("{}/tests/fixtures/claude-code/{fixture}", env!("CARGO_MANIFEST_DIR")))
        .unwrap();
    let mut mapper = ClaudeOutput::default();
    let mut events = mapper.spawned(4242);
    let mut closed = false;
    for line in text.lines() {
        let mapped = mapper.stdout(Line { text: line.to_owned(), partial: false });
        events.extend(mapped.events);
        closed |= mapped.close_stdin;
    }
    assert!(closed, "the result line closes stdin, so the process can exit");
    let end = ProcessEnd { exit_code: Some(0), signal: None, cancelled: false, error: None };
    (events, mapper.result(&end))
}

fn kinds(events: &[AdapterEvent]) -> Vec<EventKind> {
    events.iter().map(|e| e.kind).collect()
}

#[test]
fn an_approved_tool_use_maps_to_a_request_a_call_a_result_and_usage() {
    let (events, result) = replay("approved.jsonl");
    assert_eq!(
        kinds(&events),
        [
            EventKind::Started,
            EventKind::Message,
            EventKind::ToolCall,
            EventKind::ApprovalRequested,
            EventKind::ToolResult,
            EventKind::Message,
            EventKind::Usage,
        ]
    );
    let started = &events[0].data;
    assert_eq!((started["pid"].as_u64(), started["runtime_version"].as_str()), (Some(4242), Some("2.1.332")));
    assert!(started["session_id"].as_str().is_some_and(|s| s.len() == 36));
    assert_eq!(events[1].data, json!({"role": "assistant", "text": "I will write the file."}));
    assert_eq!(events[2].data["name"], "Bash");
    assert_eq!(events[2].data["input"]["command"], "echo hi > out.txt");
    let asked = &events[3].data;
    assert_eq!(asked["action"], "Bash: echo hi > out.txt");
    assert_eq!(asked["details"]["tool_name"], "Bash");
    assert!(asked["request_id"].as_str().is_some_and(|id| !id.is_empty()));
    assert_eq!(
        events[4].data,
        json!({"tool_use_id": "toolu_01", "output": "(Bash completed with no output)", "is_error": false})
    );
    let usage = &events[6].data;
    assert_eq!((usage["input_tokens"].as_u64(), usage["output_tokens"].as_u64()), (Some(200), Some(42)));
    assert_eq!((usage["cost_usd"].as_f64(), usage["cost"].as_str()), (Some(0.00164), Some("estimated")));
    assert_eq!(result["outcome"], "succeeded");
    assert_eq!(result["result"], "Done: wrote out.txt.");
    assert_eq!(result["session_id"], started["session_id"]);
}

#[test]
fn a_denied_tool_use_comes_back_as_an_error_result() {
    let (events, result) = replay("denied.jsonl");
    let denied = events.iter().find(|e| e.kind == EventKind::ToolResult).unwrap();
    assert_eq!(denied.data["is_error"], true);
    assert_eq!(denied.data["output"], "a person said no");
    assert_eq!(result["outcome"], "succeeded", "the run itself still finished");
}

#[test]
fn without_permission_prompts_there_is_no_approval() {
    let (events, result) = replay("accept-edits.jsonl");
    assert!(!kinds(&events).contains(&EventKind::ApprovalRequested));
    assert!(kinds(&events).contains(&EventKind::ToolCall));
    assert_eq!(result["outcome"], "succeeded");
}

#[test]
fn what_it_does_not_understand_is_kept_and_long_lines_are_reassembled() {
    let mut mapper = ClaudeOutput::default();
    let unknown = mapper.stdout(Line { text: r#"{"type":"rate_limit_event","limit":3}"#.into(), partial: false });
    assert_eq!(unknown.events[0].kind, EventKind::VendorExtension);
    assert_eq!(unknown.events[0].data["runtime"], "claude-code");
    let garbage = mapper.stdout(Line { text: "not json at all".into(), partial: false });
    assert_eq!(garbage.events[0].data["line"], "not json at all");

    let text = "x".repeat(100);
    let line = json!({"type": "assistant", "message": {"content": [{"type": "text", "text": text}]}}).to_string();
    let (head, tail) = line.split_at(40);
    assert!(mapper.stdout(Line { text: head.into(), partial: true }).events.is_empty());
    let whole = mapper.stdout(Line { text: tail.into(), partial: false });
    assert_eq!(whole.events[0].data["text"], text);

    // No result line: the run failed, whatever the exit status.
    let end = ProcessEnd { exit_code: Some(0), signal: None, cancelled: false, error: None };
    let result = mapper.result(&end);
    assert_eq!(
        (result["outcome"].as_str(), result["error"].as_str()),
        (Some("failed"), Some("Claude Code ended without a result"))
    );
}
