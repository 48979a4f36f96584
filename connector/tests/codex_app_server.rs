//! The `codex-app-server` mapper on the server's side of conversations recorded from the real
//! `codex app-server` (0.171.0, against a scripted Responses API, with a small client sending the
//! requests the adapter sends): a shell command a person denied, one approved, and the approved
//! thread resumed; a file to add (by `apply_patch`, which Codex offers a model it knows, here
//! `gpt-5.5`) denied and approved. Then the client's side: the requests it answers with.

use acc_connector::adapter::codex_app_server::{AppServerOutput, initialize_request};
use acc_connector::adapter::lines::Line;
use acc_connector::adapter::process::{OutputMapper, ProcessEnd};
use acc_connector::adapter::{AdapterEvent, RunSpec};
use acc_protocol::EventKind;
use serde_json::{Value, json};
use uuid::Uuid;

fn spec(context: Value) -> RunSpec {
    RunSpec {
        run_id: Uuid::now_v7(),
        attempt_id: Uuid::now_v7(),
        agent_id: Uuid::now_v7(),
        input: json!({ "objective": "write hi to out.txt" }),
        context,
        approval_token: None,
        budget: None,
        model: None,
        tools: None,
        skills: Vec::new(),
    }
}

/// What the mapper made of every line of a recording: the events, the replies it wrote, whether
/// it closed stdin, and the result.
struct Replayed {
    events: Vec<AdapterEvent>,
    replies: Vec<Value>,
    closed: bool,
    result: Value,
}

fn replay(mut mapper: AppServerOutput, fixture: &str) -> Replayed {
    let text =
        std::fs::read_to_string(format!("{}/tests/fixtures/codex/{fixture}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut events = mapper.spawned(7);
    let (mut replies, mut closed) = (Vec::new(), false);
    for line in text.lines() {
        let mapped = mapper.stdout(Line { text: line.to_owned(), partial: false });
        events.extend(mapped.events);
        replies.extend(mapped.replies.iter().map(|r| serde_json::from_str::<Value>(r).unwrap()));
        closed |= mapped.close_stdin;
    }
    let result = mapper.result(&ProcessEnd { exit_code: Some(0), signal: None, cancelled: false, error: None });
    Replayed { events, replies, closed, result }
}

fn kinds(events: &[AdapterEvent]) -> Vec<EventKind> {
    events.iter().filter(|e| e.kind != EventKind::VendorExtension).map(|e| e.kind).collect()
}

fn of(events: &[AdapterEvent], kind: EventKind) -> Value {
    events.iter().find(|e| e.kind == kind).unwrap_or_else(|| panic!("no {kind:?}")).data.clone()
}

#[test]
fn a_command_asks_for_approval_and_a_denied_one_does_not_run() {
    let run = replay(AppServerOutput::new(&spec(json!({})), None), "app-server-deny.jsonl");
    assert_eq!(
        kinds(&run.events),
        [
            EventKind::Started,
            EventKind::ToolCall,
            EventKind::ApprovalRequested,
            EventKind::ToolResult,
            EventKind::Message,
            EventKind::Usage,
        ]
    );
    let started = of(&run.events, EventKind::Started);
    assert_eq!((started["pid"].as_u64(), started["approval_policy"].as_str()), (Some(7), Some("untrusted")));
    let asked = of(&run.events, EventKind::ApprovalRequested);
    assert_eq!(asked["request_id"], "0");
    assert_eq!(asked["action"], "command_execution: /bin/bash -lc 'echo hi > out.txt'");
    assert_eq!(asked["details"]["item_id"], "call_stand_in");
    assert_eq!(asked["details"]["command_actions"][0]["command"], "echo hi > out.txt");
    let declined = of(&run.events, EventKind::ToolResult);
    assert_eq!((declined["tool_use_id"].as_str(), declined["is_error"].as_bool()), (Some("call_stand_in"), Some(true)));
    assert_eq!(of(&run.events, EventKind::Message), json!({"role": "assistant", "text": "Done: wrote out.txt."}));
    assert!(run.closed, "stdin closes once the turn completed");
    assert_eq!(run.result["outcome"], "succeeded");
    assert!(run.result["session_id"].is_string());
}

#[test]
fn an_approved_command_runs_and_its_output_and_usage_are_reported() {
    let run = replay(AppServerOutput::new(&spec(json!({})), None), "app-server-approve.jsonl");
    let ran = of(&run.events, EventKind::ToolResult);
    assert_eq!((ran["exit_code"].as_i64(), ran["is_error"].as_bool()), (Some(0), Some(false)));
    let usage = of(&run.events, EventKind::Usage);
    assert_eq!((usage["input_tokens"].as_u64(), usage["output_tokens"].as_u64()), (Some(200), Some(40)));
    assert_eq!(usage["tokens"], "reported");
    // The conversation as the client carried it: initialized and the thread after `initialize`,
    // the turn with the prompt after the thread.
    let methods: Vec<&str> = run.replies.iter().map(|r| r["method"].as_str().unwrap()).collect();
    assert_eq!(methods, ["initialized", "thread/start", "turn/start"]);
    assert_eq!(run.replies[1]["params"], json!({"approvalPolicy": "untrusted"}));
    assert_eq!(run.replies[2]["params"]["input"][0]["text"], "write hi to out.txt");
    assert_eq!(run.result["outcome"], "succeeded");
}

#[test]
fn a_resumed_thread_reports_the_usage_of_its_own_turn_only() {
    // The thread of `app-server-approve.jsonl`.
    let thread = "01a23ad7-3c42-7580-8407-517b7b8019aa";
    let run = replay(AppServerOutput::new(&spec(json!({"handoff": "notes"})), Some(thread)), "app-server-resume.jsonl");
    let resume = &run.replies[1];
    assert_eq!(resume["method"], "thread/resume");
    assert_eq!(resume["params"]["threadId"], thread);
    assert!(resume["params"]["developerInstructions"].as_str().unwrap().contains("notes"), "the context");
    assert!(run.replies[2]["params"]["input"][0]["text"].as_str().unwrap().contains("interrupted"));
    assert_eq!(kinds(&run.events), [EventKind::Started, EventKind::Message, EventKind::Usage]);
    // The thread's earlier turn made two calls; this one made one.
    let usage = of(&run.events, EventKind::Usage);
    assert_eq!((usage["input_tokens"].as_u64(), usage["output_tokens"].as_u64()), (Some(100), Some(20)));
    assert_eq!(run.result["outcome"], "succeeded");
}

#[test]
fn a_file_change_asks_for_approval_and_is_reported_only_when_made() {
    let path = "/root/.cache/cx-rec/work/hello.txt";
    for (fixture, made) in [("app-server-patch-deny.jsonl", false), ("app-server-patch-approve.jsonl", true)] {
        let run = replay(AppServerOutput::new(&spec(json!({})), None), fixture);
        let asked = of(&run.events, EventKind::ApprovalRequested);
        assert_eq!(asked["action"], format!("file_change: {path}"), "{fixture}");
        assert_eq!(asked["details"]["changes"], json!([{"path": path, "kind": "add"}]), "{fixture}");
        let changed: Vec<Value> =
            run.events.iter().filter(|e| e.kind == EventKind::FileChange).map(|e| e.data.clone()).collect();
        let expected = if made { vec![json!({"path": path, "kind": "add"})] } else { Vec::new() };
        assert_eq!(changed, expected, "{fixture}");
        assert_eq!(run.result["outcome"], "succeeded", "{fixture}");
    }
}

#[test]
fn requests_it_does_not_offer_are_refused_and_a_turn_that_did_not_complete_failed() {
    let mut mapper = AppServerOutput::new(&spec(json!({})), None);
    let asked = r#"{"method":"item/tool/requestUserInput","id":5,"params":{}}"#;
    let mapped = mapper.stdout(Line { text: asked.to_owned(), partial: false });
    let reply: Value = serde_json::from_str(&mapped.replies[0]).unwrap();
    assert_eq!((reply["id"].as_u64(), reply["error"]["code"].as_i64()), (Some(5), Some(-32601)));
    assert_eq!(mapped.events[0].kind, EventKind::VendorExtension);
    let refused = r#"{"id":2,"error":{"code":-32600,"message":"no rollout found"}}"#;
    let mapped = mapper.stdout(Line { text: refused.to_owned(), partial: false });
    assert!(mapped.close_stdin);
    let result = mapper.result(&ProcessEnd { exit_code: Some(0), signal: None, cancelled: false, error: None });
    assert_eq!(result["outcome"], "failed");
    assert!(result["error"].as_str().unwrap().contains("no rollout found"), "{result}");
    let first: Value = serde_json::from_str(&initialize_request()).unwrap();
    assert_eq!((first["id"].as_u64(), first["method"].as_str()), (Some(1), Some("initialize")));
}
