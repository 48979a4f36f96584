//! The Hermes mapper on output recorded from the real `hermes -z … --accept-hooks --usage-file …`
//! (0.19.0, with the adapter's hooks, against a scripted Chat Completions API): a run that ran a
//! shell command and wrote a file, a run whose model endpoint could not be reached, and runs whose
//! shell command a person denied and approved; what the approval hook tells Hermes; the user's own
//! `pre_tool_call` hooks the adapter keeps.

use std::path::PathBuf;

use acc_connector::adapter::hermes::{HermesOutput, user_pre_tool_call_hooks, verdict};
use acc_connector::adapter::lines::Line;
use acc_connector::adapter::process::{OutputMapper, ProcessEnd};
use acc_connector::adapter::{AdapterEvent, ApprovalDecision, KINDS};
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

fn kinds(events: &[AdapterEvent]) -> Vec<EventKind> {
    events.iter().map(|e| e.kind).collect()
}

#[test]
fn a_tool_call_is_an_approval_request_and_a_denied_one_a_blocked_result() {
    let mut mapper = HermesOutput::default();
    let events = replay(&mut mapper, "approval-denied.stdout");
    // Then the answer (which, with no usage report recorded, counts as an error).
    assert_eq!(
        kinds(&events)[..4],
        [EventKind::Started, EventKind::ApprovalRequested, EventKind::ToolCall, EventKind::ToolResult]
    );
    let approval = &events[1].data;
    let expires = approval["details"]["expires_at_ms"].as_i64().unwrap();
    assert!(expires > chrono::Utc::now().timestamp_millis(), "the hook waits a while yet: {approval}");
    assert_eq!(
        approval,
        &json!({
            "request_id": "request.Vykv9Sbc",
            "action": "terminal: echo hi > out.txt",
            "details": {
                "tool_name": "terminal",
                "input": {"command": "echo hi > out.txt"},
                "tool_call_id": "call_stand_in",
                "expires_at_ms": expires,
            },
        })
    );
    // Hermes blocked the call with the person's reason, which the model got as the tool's result.
    let result = &events[3].data;
    assert_eq!((&result["tool_use_id"], &result["is_error"]), (&json!("call_stand_in"), &json!(true)));
    assert_eq!(result["error"], "Agent Control Center denied this tool call: not now");
    assert_eq!(result["output"], r#"{"error": "Agent Control Center denied this tool call: not now"}"#);
}

#[test]
fn an_approved_tool_call_runs() {
    let mut mapper = HermesOutput::default();
    let events = replay(&mut mapper, "approval-approved.stdout");
    // Then the answer (which, with no usage report recorded, counts as an error).
    assert_eq!(
        kinds(&events)[..4],
        [EventKind::Started, EventKind::ApprovalRequested, EventKind::ToolCall, EventKind::ToolResult]
    );
    assert_eq!(events[1].data["request_id"], "request.QOrrgM6K");
    assert_eq!((&events[3].data["exit_code"], &events[3].data["is_error"]), (&json!(0), &json!(false)));
}

#[test]
fn only_a_request_of_the_run_directory_is_an_approval() {
    let mut mapper = HermesOutput::default();
    for id in ["../elsewhere", "request.", "request.a/b", "other"] {
        let line = json!({"acc_approval": id, "hook": {"tool_name": "terminal"}}).to_string();
        assert!(mapper.stdout(Line { text: line, partial: false }).events.is_empty(), "{id}");
    }
}

#[test]
fn the_hook_lets_an_approved_call_run_and_blocks_a_denied_one_with_the_reason() {
    let decision = |approved: bool, reason: Option<&str>| ApprovalDecision {
        approval_id: uuid::Uuid::nil(),
        request_id: "request.Vykv9Sbc".into(),
        approved,
        reason: reason.map(str::to_owned),
    };
    assert_eq!(verdict(&decision(true, Some("fine"))), json!({}));
    assert_eq!(
        verdict(&decision(false, Some("not now"))),
        json!({"action": "block", "message": "Agent Control Center denied this tool call: not now"})
    );
    assert_eq!(
        verdict(&decision(false, None)),
        json!({"action": "block", "message": "Agent Control Center denied this tool call."})
    );
}

#[test]
fn the_users_own_pre_tool_call_hooks_are_kept() {
    let config = "model:\n  default: m\nhooks:\n  pre_tool_call:\n    - command: ~/policy.sh\n      matcher: terminal\n      timeout: 10\n  post_tool_call:\n    - command: log.sh\n";
    assert_eq!(
        user_pre_tool_call_hooks(Some(config)),
        [json!({"command": "~/policy.sh", "matcher": "terminal", "timeout": 10})]
    );
    assert!(user_pre_tool_call_hooks(Some("model: m\n")).is_empty());
    assert!(user_pre_tool_call_hooks(Some("hooks: [unclosed")).is_empty());
    assert!(user_pre_tool_call_hooks(None).is_empty());
}

#[test]
fn the_adapter_kind_speaks_openai_through_the_gateway() {
    let kind = KINDS.iter().find(|k| k.name == "hermes").unwrap();
    assert_eq!(kind.model_api, Some(acc_connector::config::ModelApi::Openai));
}
