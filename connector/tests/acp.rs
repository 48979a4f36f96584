//! The ACP adapter. The mapper on traffic recorded from the real Gemini CLI 0.61.0 in ACP mode
//! (`gemini --acp -m gemini-2.5-flash`, against a scripted Gemini API): runs whose shell command a
//! person approved, denied, or cancelled while asked (recorded between `acc-connector` and the
//! agent in `tests/tests/runtime_acp.rs`; `approved.client.jsonl` is the connector's side), and one
//! that wrote a file (recorded with a small client sending the same requests, against a stand-in
//! that answered with a `write_file` call). Then the run's side of the conversation (decisions,
//! cancel) with a scripted ACP agent in `sh`, for what a real agent cannot be made to do on cue
//! (ignore a cancel).

mod common;

use std::path::Path;
use std::time::Duration;

use acc_connector::adapter::acp::{AcpAdapter, AcpOutput, initialize_request};
use acc_connector::adapter::lines::Line;
use acc_connector::adapter::process::{Mapped, OutputMapper, ProcessEnd};
use acc_connector::adapter::{Adapter, AdapterEvent, AdapterOptions, ApprovalDecision, RunSpec};
use acc_protocol::{CancelMode, Capability, EventKind};
use common::{collect, sh_agent};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use uuid::Uuid;

fn fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/fixtures/acp/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn spec(objective: &str) -> RunSpec {
    RunSpec {
        run_id: Uuid::now_v7(),
        attempt_id: Uuid::now_v7(),
        agent_id: Uuid::now_v7(),
        input: json!({ "objective": objective }),
        context: json!({}),
        approval_token: None,
        budget: None,
        model: None,
        tools: None,
        skills: Vec::new(),
    }
}

fn exited(code: i32) -> ProcessEnd {
    ProcessEnd { exit_code: Some(code), signal: None, cancelled: false, error: None }
}

fn line(text: &str) -> Line {
    Line { text: text.to_owned(), partial: false }
}

/// What the mapper made of every line: the events, the replies, whether it closed stdin.
struct Replayed {
    events: Vec<AdapterEvent>,
    replies: Vec<Value>,
    closed: bool,
    mapper: AcpOutput,
}

fn replay(mut mapper: AcpOutput, text: &str) -> Replayed {
    let mut events = mapper.spawned(77);
    let (mut replies, mut closed) = (Vec::new(), false);
    for text in text.lines() {
        let Mapped { events: more, close_stdin, replies: answers } = mapper.stdout(line(text));
        events.extend(more);
        replies.extend(answers.iter().map(|r| serde_json::from_str::<Value>(r).unwrap()));
        closed |= close_stdin;
    }
    events.extend(mapper.flush());
    Replayed { events, replies, closed, mapper }
}

/// A recorded run of Gemini CLI, replayed in the workdir it ran in.
fn replay_gemini(name: &str, cwd: &str, objective: &str) -> Replayed {
    replay(AcpOutput::new(Path::new(cwd), &spec(objective)), &fixture(name))
}

const RECORDED_WORKDIR: &str = "/tmp/acc-test-01a23a1046f675458c456435a661a958/work";

fn kinds(events: &[AdapterEvent]) -> Vec<EventKind> {
    events.iter().map(|e| e.kind).collect()
}

#[test]
fn the_client_says_what_the_recorded_client_said() {
    let sent: Vec<Value> = fixture("approved.client.jsonl").lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let replayed = replay_gemini("approved.jsonl", RECORDED_WORKDIR, "write hi to out.txt");
    assert_eq!(serde_json::from_str::<Value>(&initialize_request()).unwrap(), sent[0]);
    assert_eq!(
        sent[0]["params"]["clientCapabilities"],
        json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false})
    );
    // session/new in the workdir, then the prompt in the session it named; the decision was the run's.
    assert_eq!(replayed.replies, sent[1..3]);
    assert!(replayed.closed, "the prompt's answer closes stdin, so the agent exits");
}

#[test]
fn an_approved_call_maps_to_a_session_a_request_its_call_and_result_and_usage() {
    let Replayed { events, mut mapper, .. } = replay_gemini("approved.jsonl", RECORDED_WORKDIR, "write hi to out.txt");
    assert_eq!(
        kinds(&events),
        [
            EventKind::Started,
            // Its slash commands.
            EventKind::VendorExtension,
            EventKind::Message,
            EventKind::ToolCall,
            EventKind::ApprovalRequested,
            EventKind::ToolResult,
            EventKind::Message,
            EventKind::Usage,
        ]
    );
    let started = &events[0].data;
    assert_eq!(
        (&started["pid"], &started["agent"], &started["runtime_version"], &started["model"], &started["mode"]),
        (&json!(77), &json!("gemini-cli"), &json!("0.61.0"), &json!("gemini-2.5-flash"), &json!("default"))
    );
    assert_eq!(events[1].data["line"]["params"]["update"]["sessionUpdate"], "available_commands_update");
    assert_eq!(events[2].data, json!({"role": "assistant", "text": "I will run `echo hi > out.txt`."}));
    let call = &events[3].data;
    assert_eq!((&call["name"], &call["title"]), (&json!("execute"), &json!("echo hi > out.txt")));
    let asked = &events[4].data;
    assert_eq!(asked["request_id"], "0");
    assert_eq!(asked["action"], "execute: echo hi > out.txt");
    assert_eq!(asked["details"]["tool_call_id"], call["id"]);
    assert_eq!(asked["details"]["content"], format!("[current working directory {RECORDED_WORKDIR}]"));
    assert_eq!(asked["details"]["options"].as_array().unwrap().len(), 3);
    assert_eq!(events[5].data, json!({"tool_use_id": call["id"], "output": "", "is_error": false}));
    assert_eq!(events[6].data["text"], "Done: wrote out.txt.");
    let usage = &events[7].data;
    assert_eq!((&usage["input_tokens"], &usage["output_tokens"]), (&json!(200), &json!(40)));
    let result = mapper.result(&exited(0));
    assert_eq!((&result["outcome"], &result["stop_reason"]), (&json!("succeeded"), &json!("end_turn")));
    assert_eq!(result["session_id"], started["session_id"]);
}

#[test]
fn a_denied_call_has_no_result_and_the_turn_still_ends() {
    let Replayed { events, mut mapper, .. } = replay_gemini("denied.jsonl", RECORDED_WORKDIR, "write hi to out.txt");
    assert!(kinds(&events).contains(&EventKind::ApprovalRequested));
    assert!(!kinds(&events).contains(&EventKind::ToolResult), "Gemini CLI reports nothing of a rejected call");
    assert_eq!(mapper.result(&exited(0))["outcome"], "succeeded");
}

#[test]
fn a_turn_the_agent_ended_as_cancelled_is_a_cancelled_run() {
    let Replayed { events, mut mapper, closed, .. } =
        replay_gemini("cancelled.jsonl", RECORDED_WORKDIR, "write hi to out.txt");
    assert_eq!(events.last().unwrap().kind, EventKind::ApprovalRequested);
    assert!(closed);
    let result = mapper.result(&exited(0));
    assert_eq!((&result["outcome"], &result["stop_reason"]), (&json!("cancelled"), &json!("cancelled")));
}

#[test]
fn a_completed_edit_is_a_file_change() {
    let Replayed { events, mut mapper, .. } =
        replay_gemini("write-file.jsonl", "/tmp/acp-play/work", "write hello to notes.md");
    let changed: Vec<&Value> = events.iter().filter(|e| e.kind == EventKind::FileChange).map(|e| &e.data).collect();
    assert_eq!(
        changed,
        [&json!({"path": "/tmp/acp-play/work/notes.md", "tool": "Writing to notes.md", "kind": "edit"})]
    );
    let result_at = kinds(&events).iter().position(|k| *k == EventKind::ToolResult).unwrap();
    assert_eq!(events[result_at + 1].kind, EventKind::FileChange, "once it completed, not when asked");
    let asked = events.iter().find(|e| e.kind == EventKind::ApprovalRequested).unwrap();
    assert_eq!(asked.data["details"]["locations"], json!([{"path": "/tmp/acp-play/work/notes.md"}]));
    assert_eq!(
        events.iter().find(|e| e.kind == EventKind::ToolResult).unwrap().data["output"],
        "(diff of /tmp/acp-play/work/notes.md)"
    );
    assert_eq!(mapper.result(&exited(0))["outcome"], "succeeded");
}

/// A conversation made up here, for what the recordings do not show.
fn scripted(lines: &[Value]) -> Replayed {
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    replay(AcpOutput::new(Path::new("/w"), &spec("go")), &text.join("\n"))
}

fn initialized() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": 1, "agentInfo": {"name": "a", "version": "1.0.0"}}})
}

fn session() -> Value {
    json!({"jsonrpc": "2.0", "id": 2, "result": {"sessionId": "s"}})
}

fn update(update: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s", "update": update}})
}

#[test]
fn what_it_does_not_offer_is_refused_and_what_it_does_not_know_is_kept() {
    let replayed = scripted(&[
        initialized(),
        session(),
        json!({"jsonrpc": "2.0", "id": 9, "method": "fs/read_text_file", "params": {"path": "/etc/hosts"}}),
        update(json!({"sessionUpdate": "agent_thought_chunk", "content": {"type": "text", "text": "hmm"}})),
        update(json!({"sessionUpdate": "plan", "entries": [{"content": "look", "status": "pending"}]})),
        update(json!({"sessionUpdate": "current_mode_update", "currentModeId": "yolo"})),
        json!({"jsonrpc": "2.0", "method": "_vendor/ping"}),
        json!({"jsonrpc": "2.0", "id": 3, "result": {"stopReason": "max_tokens"}}),
    ]);
    // The fs request is answered with an error, so the agent does not wait for it.
    assert_eq!(replayed.replies[2]["id"], 9);
    assert_eq!(replayed.replies[2]["error"]["code"], -32601);
    assert_eq!(
        kinds(&replayed.events),
        [
            EventKind::Started,
            EventKind::VendorExtension,
            // The thought is not kept; the plan is.
            EventKind::VendorExtension,
            EventKind::VendorExtension,
            EventKind::VendorExtension,
        ]
    );
    assert_eq!(replayed.events[2].data["plan"][0]["content"], "look");
    let mut mapper = replayed.mapper;
    let result = mapper.result(&exited(0));
    assert_eq!(
        (result["outcome"].as_str(), result["error"].as_str()),
        (Some("failed"), Some("the agent reached its token limit (max_tokens)"))
    );
}

#[test]
fn a_refused_session_or_another_protocol_ends_the_conversation() {
    let refused = scripted(&[
        initialized(),
        json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32000, "message": "Authentication required"}}),
    ]);
    assert!(refused.closed);
    assert_eq!(kinds(&refused.events), [EventKind::Error]);
    let mut mapper = refused.mapper;
    assert_eq!(
        mapper.result(&exited(0))["error"],
        "the agent refused session/new: Authentication required (code -32000)"
    );

    let newer = scripted(&[json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": 2}})]);
    assert!(newer.closed && newer.replies.is_empty());
    let mut mapper = newer.mapper;
    assert_eq!(mapper.result(&exited(0))["error"], "the agent speaks ACP version 2; this client speaks 1");

    let mut silent = scripted(&[]).mapper;
    let result = silent.result(&exited(1));
    assert_eq!(
        (result["outcome"].as_str(), result["error"].as_str()),
        (Some("failed"), Some("the agent ended without answering the prompt"))
    );
}

#[test]
fn chunks_are_one_message_and_long_lines_are_reassembled() {
    let mut mapper = AcpOutput::new(Path::new("/w"), &spec("go"));
    for piece in ["Hel", "lo"] {
        let chunk = update(json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": piece}}));
        let text = chunk.to_string();
        let (head, tail) = text.split_at(20);
        assert!(mapper.stdout(Line { text: head.into(), partial: true }).events.is_empty());
        assert!(mapper.stdout(line(tail)).events.is_empty());
    }
    let garbage = mapper.stdout(line("not json"));
    assert_eq!(kinds(&garbage.events), [EventKind::Message, EventKind::VendorExtension]);
    assert_eq!(garbage.events[0].data["text"], "Hello");
    assert_eq!(garbage.events[1].data["line"], "not json");
    // A call first seen in an update is still reported as a call, and a failure as an error result.
    let failed = mapper.stdout(line(
        &update(json!({"sessionUpdate": "tool_call_update", "toolCallId": "t", "kind": "edit", "title": "Edit a",
            "status": "failed", "locations": [{"path": "/w/a"}], "content": [{"type": "content", "content": {"type": "text", "text": "denied"}}]}))
        .to_string(),
    ));
    assert_eq!(kinds(&failed.events), [EventKind::ToolCall, EventKind::ToolResult], "a failed edit changed nothing");
    assert_eq!(failed.events[1].data, json!({"tool_use_id": "t", "output": "denied", "is_error": true}));
}

// The run's side, with a scripted agent: it answers initialize, session/new, asks permission, and
// prints on stderr what the client answers.

const ASKING_AGENT: &str = r#"
read -r l; echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"agentInfo":{"name":"sh","version":"0"}}}'
read -r l; echo '{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s-1"}}'
read -r l; echo '{"jsonrpc":"2.0","id":"p-1","method":"session/request_permission","params":{"sessionId":"s-1","toolCall":{"toolCallId":"t1","title":"rm -rf build","kind":"execute","status":"pending"},"options":[{"optionId":"always","name":"Always","kind":"allow_always"},{"optionId":"yes","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]}}'
"#;

fn acp_agent(script: &str, grace_ms: u64) -> AcpAdapter {
    let mut agent = sh_agent("acp", script);
    agent.adapter = "acp".into();
    AcpAdapter::new(&agent, AdapterOptions { cancel_grace: Duration::from_millis(grace_ms) })
}

fn stderr_lines(events: &[AdapterEvent]) -> Vec<Value> {
    events
        .iter()
        .filter(|e| e.kind == EventKind::Output && e.data["stream"] == "stderr")
        .map(|e| serde_json::from_str(e.data["line"].as_str().unwrap()).unwrap())
        .collect()
}

async fn until_asked(rx: &mut mpsc::Receiver<AdapterEvent>) -> Vec<AdapterEvent> {
    let mut events = Vec::new();
    while let Some(event) = tokio::time::timeout(Duration::from_secs(10), rx.recv()).await.unwrap() {
        let asked = event.kind == EventKind::ApprovalRequested;
        events.push(event);
        if asked {
            return events;
        }
    }
    panic!("no approval request: {events:?}");
}

#[tokio::test]
async fn an_approval_selects_the_allow_once_option_and_a_denial_the_reject_one() {
    for (approved, option) in [(true, "yes"), (false, "no")] {
        let script = format!(
            "{ASKING_AGENT}read -r a; echo \"$a\" >&2; echo '{{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{{\"stopReason\":\"end_turn\"}}}}'; cat >/dev/null"
        );
        let adapter = acp_agent(&script, 1000);
        assert_eq!(
            adapter.handshake().capabilities,
            [Capability::Stream, Capability::Cancel, Capability::Approvals, Capability::Tools, Capability::Artifacts]
        );
        let (tx, mut rx) = mpsc::channel(64);
        let run = adapter.start(spec("clean"), tx).unwrap();
        let asked = until_asked(&mut rx).await;
        let request = &asked.last().unwrap().data;
        assert_eq!((&request["request_id"], &request["action"]), (&json!("p-1"), &json!("execute: rm -rf build")));
        let decision =
            ApprovalDecision { approval_id: Uuid::now_v7(), request_id: "p-1".into(), approved, reason: None };
        run.decide_approval(decision.clone()).unwrap();
        assert!(run.decide_approval(decision).is_err(), "a request is answered once");
        let events = collect(&mut rx, Duration::from_secs(10)).await;
        assert_eq!(
            stderr_lines(&events),
            [
                json!({"jsonrpc": "2.0", "id": "p-1", "result": {"outcome": {"outcome": "selected", "optionId": option}}})
            ]
        );
        assert_eq!(events.last().unwrap().data["outcome"], "succeeded");
    }
}

#[tokio::test]
async fn cancel_asks_the_agent_first_then_signals_one_that_does_not_stop() {
    // This agent prints what it is told and never ends its turn.
    let script = format!("{ASKING_AGENT}while read -r a; do echo \"$a\" >&2; done");
    let adapter = acp_agent(&script, 300);
    let (tx, mut rx) = mpsc::channel(64);
    let run = adapter.start(spec("clean"), tx).unwrap();
    until_asked(&mut rx).await;
    run.cancel(CancelMode::Graceful);
    run.cancel(CancelMode::Graceful);
    let events = collect(&mut rx, Duration::from_secs(10)).await;
    assert_eq!(
        stderr_lines(&events),
        [
            json!({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "s-1"}}),
            json!({"jsonrpc": "2.0", "id": "p-1", "result": {"outcome": {"outcome": "cancelled"}}}),
        ]
    );
    let result = &events.last().unwrap().data;
    assert_eq!((&result["outcome"], &result["signal"]), (&json!("cancelled"), &json!(15)), "{result}");
    assert!(
        run.decide_approval(ApprovalDecision {
            approval_id: Uuid::now_v7(),
            request_id: "p-1".into(),
            approved: true,
            reason: None
        })
        .is_err()
    );
}
