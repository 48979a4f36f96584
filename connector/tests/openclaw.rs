//! The OpenClaw mapper on frames recorded from a real OpenClaw 2026.9.6 gateway (`openclaw gateway
//! run`, `tools.exec.ask: "always"`, against a scripted Chat Completions API): a run whose shell
//! command a person approved, one whose command was denied; and what the client answers.

use std::path::PathBuf;

use acc_connector::adapter::openclaw::{Conversation, Device, PROTOCOL_VERSION};
use acc_connector::adapter::process::ProcessEnd;
use acc_connector::adapter::{AdapterEvent, ApprovalDecision, KINDS};
use acc_protocol::EventKind;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::{Signature, SigningKey, Verifier};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// The gateway token of the recorded runs.
const TOKEN: &str = "tok-0123456789abcdef";

fn frames(name: &str) -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/openclaw").join(name);
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

fn conversation() -> Conversation {
    let agent =
        json!({ "type": "req", "id": "agent", "method": "agent", "params": { "message": "write hi to out.txt" } });
    Conversation::standalone(Device::new(SigningKey::from_bytes(&[7; 32])), TOKEN, agent)
}

/// Every recorded frame through the conversation: the events, the frames it answered with, and
/// whether it was over at the last frame (and not before).
fn replay(conversation: &mut Conversation, name: &str) -> (Vec<AdapterEvent>, Vec<Value>) {
    let frames = frames(name);
    let (mut events, mut replies) = (Vec::new(), Vec::new());
    for (i, frame) in frames.iter().enumerate() {
        let step = conversation.frame(frame);
        assert_eq!(step.done, i == frames.len() - 1, "frame {i}: {frame}");
        events.extend(step.events);
        replies.extend(step.replies);
    }
    (events, replies)
}

fn kinds(events: &[AdapterEvent]) -> Vec<EventKind> {
    events.iter().map(|e| e.kind).collect()
}

/// The gateway stopped by the client once the agent answered.
fn stopped() -> ProcessEnd {
    ProcessEnd { exit_code: None, signal: Some(15), cancelled: true, error: None }
}

fn decision(request_id: &str, approved: bool) -> ApprovalDecision {
    ApprovalDecision { approval_id: Uuid::now_v7(), request_id: request_id.to_owned(), approved, reason: None }
}

#[test]
fn the_client_connects_with_a_signed_device_identity_then_asks_for_the_turn() {
    let mut conversation = conversation();
    let (_, replies) = replay(&mut conversation, "approved.jsonl");
    let challenge = &frames("approved.jsonl")[0];
    assert_eq!(challenge["event"], "connect.challenge");
    let connect = &replies[0];
    assert_eq!((&connect["method"], &connect["id"]), (&json!("connect"), &json!("connect")));
    let params = &connect["params"];
    assert_eq!((params["minProtocol"].as_u64(), params["maxProtocol"].as_u64()), (Some(PROTOCOL_VERSION), Some(4)));
    assert_eq!((&params["role"], &params["auth"]["token"]), (&json!("operator"), &json!(TOKEN)));
    assert_eq!(params["caps"], json!(["exec-approvals", "tool-events"]));

    // OpenClaw's rules: the device id is the SHA-256 of the raw public key; the signature covers
    // the v3 payload with the challenge's nonce.
    let device = &params["device"];
    let public: [u8; 32] = URL_SAFE_NO_PAD.decode(device["publicKey"].as_str().unwrap()).unwrap().try_into().unwrap();
    assert_eq!(device["id"], format!("{:x}", Sha256::digest(public)));
    assert_eq!(device["nonce"], challenge["payload"]["nonce"]);
    let payload = format!(
        "v3|{}|gateway-client|backend|operator|{}|{}|{TOKEN}|{}|linux|",
        device["id"].as_str().unwrap(),
        params["scopes"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect::<Vec<_>>().join(","),
        device["signedAt"],
        device["nonce"].as_str().unwrap(),
    );
    let signature: [u8; 64] =
        URL_SAFE_NO_PAD.decode(device["signature"].as_str().unwrap()).unwrap().try_into().unwrap();
    let key = ed25519_dalek::VerifyingKey::from_bytes(&public).unwrap();
    key.verify(payload.as_bytes(), &Signature::from_bytes(&signature)).expect("a valid signature");

    // Once the gateway said hello, the run's agent request; nothing else.
    assert_eq!(replies.len(), 2);
    assert_eq!(replies[1]["params"]["message"], "write hi to out.txt");
}

#[test]
fn an_approved_command_runs_and_the_turn_succeeds() {
    let mut conversation = conversation();
    let (events, _) = replay(&mut conversation, "approved.jsonl");
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
    assert_eq!(started["session_id"], "7b3c89f4-adee-4e22-b0f1-07c182515af8");
    assert_eq!((&started["runtime_version"], &started["agent"]), (&json!("2026.9.6"), &json!("main")));
    assert_eq!(events[1].data, json!({"role": "assistant", "text": "I will run it."}));
    assert_eq!(events[2].data, json!({"id": "call_1", "name": "exec", "input": {"command": "touch out.txt"}}));
    let asked = &events[3].data;
    assert_eq!(asked["action"], "exec: touch out.txt");
    assert_eq!(asked["details"]["allowed_decisions"], json!(["allow-once", "deny"]));
    assert_eq!(asked["details"]["tool_call_id"], "call_1");
    let result = &events[4].data;
    assert_eq!(
        (&result["tool_use_id"], &result["exit_code"], &result["is_error"]),
        (&json!("call_1"), &json!(0), &json!(false))
    );
    assert_eq!(events[5].data, json!({"role": "assistant", "text": "Done: wrote out.txt."}));
    let usage = &events[6].data;
    assert_eq!((usage["input_tokens"].as_u64(), usage["output_tokens"].as_u64()), (Some(200), Some(40)));
    assert_eq!((&usage["source"], &usage["model"]), (&json!("runtime"), &json!("gpt-stand-in")));

    // The person's decision answers the request once, allowing this one command only.
    let request_id = asked["request_id"].as_str().unwrap();
    let resolve = conversation.decide(&decision(request_id, true)).unwrap();
    assert_eq!(resolve["method"], "exec.approval.resolve");
    assert_eq!(resolve["params"], json!({"id": request_id, "decision": "allow-once"}));
    assert!(conversation.decide(&decision(request_id, true)).is_none(), "answered already");

    let end = conversation.result(&stopped());
    assert_eq!((&end["outcome"], &end["session_id"]), (&json!("succeeded"), &started["session_id"]));
}

#[test]
fn a_denied_command_does_not_run_and_the_agent_finishes_its_turn() {
    let mut conversation = conversation();
    let (events, _) = replay(&mut conversation, "denied.jsonl");
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
    let request_id = events[3].data["request_id"].as_str().unwrap();
    let resolve = conversation.decide(&decision(request_id, false)).unwrap();
    assert_eq!(resolve["params"]["decision"], "deny");
    let result = &events[4].data;
    assert_eq!((&result["is_error"], &result["exit_code"]), (&json!(true), &Value::Null));
    assert!(result["output"].as_str().unwrap().contains("user-denied"), "{result}");
    assert_eq!(conversation.result(&stopped())["outcome"], "succeeded");
}

#[test]
fn an_unknown_frame_is_kept_as_a_vendor_extension_and_a_refused_connection_fails_the_run() {
    let mut conversation = conversation();
    let unknown = json!({"type": "event", "event": "talk.mode", "payload": {"enabled": true}, "seq": 3});
    let step = conversation.frame(&unknown);
    assert_eq!(kinds(&step.events), [EventKind::VendorExtension]);
    assert_eq!(step.events[0].data, json!({"runtime": "openclaw", "frame": unknown}));

    let refused = json!({"type": "res", "id": "connect", "ok": false,
        "error": {"code": "INVALID_REQUEST", "message": "unauthorized: gateway token mismatch"}});
    let step = conversation.frame(&refused);
    assert!(step.done);
    assert_eq!(kinds(&step.events), [EventKind::Error]);
    let end = conversation.result(&ProcessEnd { exit_code: Some(0), signal: None, cancelled: true, error: None });
    assert_eq!(end["outcome"], "failed");
    assert_eq!(end["error"], "the OpenClaw gateway refused the connection: unauthorized: gateway token mismatch");
}

#[test]
fn the_adapter_is_listed_with_its_capabilities() {
    let kind = KINDS.iter().find(|k| k.name == "openclaw").unwrap();
    let names: Vec<&str> = kind.capabilities.iter().map(|c| c.as_str()).collect();
    assert_eq!(names, ["stream", "cancel", "approvals", "tools", "artifacts", "usage_estimated"]);
}

#[test]
fn a_file_the_agent_wrote_is_a_file_change_and_its_answer_is_said_once() {
    let mut conversation = conversation();
    let (events, replies) = replay(&mut conversation, "write-file.jsonl");
    assert_eq!(replies.len(), 2, "connect and the agent request: a file write asks no one");
    assert_eq!(
        kinds(&events),
        [
            EventKind::Started,
            EventKind::Message,
            EventKind::ToolCall,
            EventKind::ToolResult,
            EventKind::FileChange,
            EventKind::Message,
            EventKind::Usage,
        ]
    );
    assert_eq!(events[1].data["text"], "I will write notes.md.");
    assert_eq!(
        events[2].data,
        json!({"id": "call_w", "name": "write", "input": {"path": "notes.md", "content": "hi\n"}})
    );
    assert_eq!(events[3].data["output"], "Successfully wrote 3 bytes to notes.md");
    assert_eq!(events[4].data, json!({"path": "notes.md", "tool": "write"}));
    // OpenClaw's final chat message repeats the whole turn's text; the answer is its reply alone.
    assert_eq!(events[5].data, json!({"role": "assistant", "text": "Done: wrote out.txt."}));
    assert_eq!(conversation.result(&stopped())["outcome"], "succeeded");
}

#[test]
fn an_unreachable_model_fails_the_run_once_openclaw_gives_up_retrying() {
    let mut conversation = conversation();
    let (events, _) = replay(&mut conversation, "unreachable.jsonl");
    // It starts the turn again after each failed model call, saying so in `run_status` events.
    let retries = events.iter().filter(|e| e.data["frame"]["payload"]["stream"] == "run_status").count();
    assert_eq!(retries, 6);
    let normalized: Vec<&AdapterEvent> = events.iter().filter(|e| e.kind != EventKind::VendorExtension).collect();
    let failure = "LLM request failed: connection refused by the provider endpoint.";
    assert_eq!(normalized.iter().map(|e| e.kind).collect::<Vec<_>>(), [EventKind::Started, EventKind::Error]);
    assert_eq!(normalized[1].data["message"], failure, "said once, though OpenClaw says it three times");
    let end = conversation.result(&stopped());
    assert_eq!((&end["outcome"], &end["error"]), (&json!("failed"), &json!(failure)));
}
