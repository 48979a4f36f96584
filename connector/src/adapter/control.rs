//! Control lines: how an `interactive` command agent asks for approval, saves a checkpoint or
//! reports a normalized event on stdout, and how the answers reach it on stdin. Each is one
//! JSON object on one line whose `acc` key names the message (docs/connector.md lists them).

use acc_protocol::EventKind;
use serde_json::{Map, Value, json};
use uuid::Uuid;

use super::{AdapterEvent, ApprovalDecision};

/// The key that marks a line as a control line.
pub const KEY: &str = "acc";

/// The event a program's stdout object stands for, if it is a well-formed control line.
/// `checkpoint_reason` is why the connector asked for the checkpoint, if it did.
pub fn event_of(object: &Map<String, Value>, checkpoint_reason: Option<String>) -> Option<AdapterEvent> {
    let text = |key: &str| object.get(key).and_then(Value::as_str).map(str::to_owned);
    match object.get(KEY)?.as_str()? {
        "approval_request" => {
            let action = text("action")?;
            let request_id = text("request_id").unwrap_or_else(|| Uuid::now_v7().to_string());
            let data = json!({
                "request_id": request_id,
                "action": action,
                "reason": text("reason"),
                "details": object.get("details").cloned().unwrap_or(Value::Null),
            });
            Some(AdapterEvent::new(EventKind::ApprovalRequested, data))
        }
        "checkpoint" => {
            let mut data = object.clone();
            data.remove(KEY);
            if let Some(reason) = checkpoint_reason.filter(|_| !data.contains_key("reason")) {
                data.insert("reason".into(), Value::String(reason));
            }
            Some(AdapterEvent::new(EventKind::Checkpoint, Value::Object(data)))
        }
        "event" => {
            let kind = match object.get("kind")?.as_str()? {
                "message" => EventKind::Message,
                "tool_call" => EventKind::ToolCall,
                "tool_result" => EventKind::ToolResult,
                "file_change" => EventKind::FileChange,
                "usage" => EventKind::Usage,
                "error" => EventKind::Error,
                _ => return None,
            };
            Some(AdapterEvent::new(kind, object.get("data").cloned().unwrap_or(Value::Null)))
        }
        _ => None,
    }
}

/// The stdin line that answers an approval request.
pub fn decision_line(decision: &ApprovalDecision) -> String {
    json!({
        KEY: "approval_decision",
        "request_id": decision.request_id,
        "approved": decision.approved,
        "reason": decision.reason,
    })
    .to_string()
}

/// The stdin line that asks the program for a checkpoint.
pub fn checkpoint_request_line(reason: &str) -> String {
    json!({ KEY: "checkpoint_request", "reason": reason }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn an_approval_request_keeps_its_id_or_gets_one() {
        let event =
            event_of(&object(json!({"acc": "approval_request", "request_id": "r1", "action": "rm -rf build"})), None)
                .unwrap();
        assert_eq!(event.kind, EventKind::ApprovalRequested);
        assert_eq!(event.data["request_id"], "r1");
        assert_eq!(event.data["action"], "rm -rf build");
        let generated = event_of(&object(json!({"acc": "approval_request", "action": "deploy"})), None).unwrap();
        assert!(Uuid::parse_str(generated.data["request_id"].as_str().unwrap()).is_ok());
        assert!(event_of(&object(json!({"acc": "approval_request"})), None).is_none(), "an action is required");
    }

    #[test]
    fn a_checkpoint_carries_the_requested_reason_and_events_their_kind() {
        let checkpoint =
            event_of(&object(json!({"acc": "checkpoint", "state": {"step": 3}})), Some("handoff".into())).unwrap();
        assert_eq!(
            (checkpoint.kind, checkpoint.data.clone()),
            (EventKind::Checkpoint, json!({"state": {"step": 3}, "reason": "handoff"}))
        );
        let message =
            event_of(&object(json!({"acc": "event", "kind": "message", "data": {"text": "hi"}})), None).unwrap();
        assert_eq!((message.kind, message.data), (EventKind::Message, json!({"text": "hi"})));
        for not_control in [json!({"acc": "event", "kind": "result"}), json!({"acc": "other"}), json!({"step": 1})] {
            assert!(event_of(&object(not_control.clone()), None).is_none(), "{not_control}");
        }
    }
}
