//! The Gemini CLI mapper on output recorded from the real `gemini -p … --output-format
//! stream-json` (0.61.0, in yolo mode against a scripted Gemini API) that ran a shell command.

use acc_connector::adapter::gemini::GeminiOutput;
use acc_connector::adapter::lines::Line;
use acc_connector::adapter::process::{OutputMapper, ProcessEnd};
use acc_protocol::EventKind;
use serde_json::json;

fn exited(code: i32) -> ProcessEnd {
    ProcessEnd { exit_code: Some(code), signal: None, cancelled: false, error: None }
}

#[test]
fn a_run_that_ran_a_command_maps_to_messages_call_result_and_usage() {
    let text =
        std::fs::read_to_string(format!("{}/tests/fixtures/gemini/shell.jsonl", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut mapper = GeminiOutput::default();
    let mut events = mapper.spawned(9);
    for line in text.lines() {
        events.extend(mapper.stdout(Line { text: line.to_owned(), partial: false }).events);
    }
    events.extend(mapper.flush());
    let kinds: Vec<EventKind> = events.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        [
            EventKind::Started,
            EventKind::Message,
            EventKind::Message,
            EventKind::ToolCall,
            EventKind::ToolResult,
            EventKind::Message,
            EventKind::Usage,
        ]
    );
    assert_eq!(
        events[0].data,
        json!({"pid": 9, "session_id": "e3a826d5-137b-4345-96c3-6fab6d6785fb", "model": "gemini-2.5-flash"})
    );
    assert_eq!(events[1].data, json!({"role": "user", "text": "write hi to out.txt"}));
    assert_eq!(events[2].data, json!({"role": "assistant", "text": "I will write the file."}));
    assert_eq!(events[3].data["name"], "run_shell_command");
    assert_eq!(events[3].data["input"], json!({"command": "echo hi > out.txt"}));
    assert_eq!(events[4].data["is_error"], false);
    assert_eq!(events[5].data["text"], "Done: wrote out.txt.");
    assert_eq!(
        (events[6].data["input_tokens"].as_u64(), events[6].data["output_tokens"].as_u64()),
        (Some(200), Some(40))
    );
    assert_eq!(mapper.result(&exited(0))["outcome"], "succeeded");
}

#[test]
fn pieces_of_a_message_are_one_event_and_exit_codes_explain_a_failure() {
    let mut mapper = GeminiOutput::default();
    for piece in ["Hel", "lo"] {
        let line = json!({"type": "message", "role": "assistant", "content": piece, "delta": true}).to_string();
        assert!(mapper.stdout(Line { text: line, partial: false }).events.is_empty());
    }
    let held = mapper.flush();
    assert_eq!(held[0].data, json!({"role": "assistant", "text": "Hello"}));
    let unknown = mapper.stdout(Line { text: r#"{"type":"compression","n":2}"#.into(), partial: false });
    assert_eq!(unknown.events[0].kind, EventKind::VendorExtension);
    let result = mapper.result(&exited(41));
    assert_eq!(
        (result["outcome"].as_str(), result["error"].as_str()),
        (Some("failed"), Some("Gemini CLI could not authenticate (exit 41)"))
    );
    let mut silent = GeminiOutput::default();
    assert_eq!(silent.result(&exited(0))["outcome"], "failed", "no result line: no success");
}
