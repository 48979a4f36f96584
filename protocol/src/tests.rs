//! Round trips of every frame, and the refusals of `decode`.

use serde_json::json;
use uuid::Uuid;

use super::*;

fn frames() -> Vec<Frame> {
    let run = Uuid::now_v7();
    vec![
        Frame::Hello {
            connector_version: "0.1.0".into(),
            agents: vec![AgentDescriptor {
                name: "shell".into(),
                adapter: "command".into(),
                adapter_version: "0.1.0".into(),
                runtime_version: None,
                capabilities: vec![Capability::Stream, Capability::Cancel],
            }],
            resume: vec![RunCursor { run_id: run, acked_sequence: 3 }],
        },
        Frame::HelloAck {
            agents: vec![AgentId { name: "shell".into(), agent_id: Uuid::now_v7() }],
            heartbeat_interval_ms: 5000,
            resume: vec![],
            approval_keys: vec![ApprovalKey { kid: "k1".into(), public_key: "AAAA".into() }],
        },
        Frame::Heartbeat { status: HealthStatus::Healthy, active_runs: vec![run] },
        Frame::Command {
            command_id: Uuid::now_v7(),
            command: Command::StartRun {
                run_id: run,
                attempt_id: Uuid::now_v7(),
                agent_id: Uuid::now_v7(),
                input: json!({"objective": "say hi"}),
                context: json!({}),
                approval_token: None,
                budget: Some(RunBudget { max_tokens: Some(200_000), max_cost_usd: Some(2.5) }),
                skills: vec![RunSkill {
                    skill_version_id: Uuid::now_v7(),
                    name: "release-notes".into(),
                    digest: format!("sha256:{}", "0".repeat(64)),
                }],
            },
        },
        Frame::Command {
            command_id: Uuid::now_v7(),
            command: Command::CancelRun { run_id: run, attempt_id: None, mode: CancelMode::Graceful },
        },
        Frame::Command {
            command_id: Uuid::now_v7(),
            command: Command::ApprovalDecision {
                run_id: run,
                approval_id: Uuid::now_v7(),
                request_id: "r1".into(),
                approved: true,
                reason: Some("looks right".into()),
                approval_token: Some("token".into()),
            },
        },
        Frame::CommandAck { command_id: Uuid::now_v7(), outcome: CommandOutcome::Accepted },
        Frame::CommandAck { command_id: Uuid::now_v7(), outcome: CommandOutcome::Rejected { reason: "busy".into() } },
        Frame::Event { kind: EventKind::Output, data: json!({"line": "hi"}) },
        Frame::EventAck { run_id: run, up_to_sequence: 7 },
        Frame::Error { code: ErrorCode::UnknownRun, message: "no such run".into() },
    ]
}

#[test]
fn every_frame_round_trips() {
    let connector = Uuid::now_v7();
    for frame in frames() {
        let envelope = Envelope::new(connector, frame);
        let text = encode(&envelope).unwrap();
        assert_eq!(decode(text.as_bytes()).unwrap(), envelope, "{text}");
    }
}

#[test]
fn wire_shape_is_tagged_and_flat() {
    let envelope =
        Envelope::new(Uuid::nil(), Frame::CommandAck { command_id: Uuid::nil(), outcome: CommandOutcome::Accepted });
    let value: serde_json::Value = serde_json::from_str(&encode(&envelope).unwrap()).unwrap();
    assert_eq!(value["schema_version"], 1);
    assert_eq!(value["payload"]["type"], "command_ack");
    assert_eq!(value["payload"]["outcome"], "accepted");
}

#[test]
fn decode_refuses_oversize_unknown_version_and_malformed_frames() {
    let big = vec![b' '; MAX_FRAME_BYTES + 1];
    assert!(matches!(decode(&big), Err(ProtocolError::TooLarge { .. })));
    let v2 = json!({"schema_version": 2, "connector_id": Uuid::nil(), "occurred_at": "2026-12-02T00:00:00Z", "payload": {"type": "heartbeat"}});
    assert_eq!(decode(v2.to_string().as_bytes()), Err(ProtocolError::UnsupportedVersion { found: 2 }));
    assert_eq!(ProtocolError::UnsupportedVersion { found: 2 }.code(), ErrorCode::UnsupportedVersion);
    for bad in [&b"{\"schema_version\": 1, \"connector_id\""[..], b"[]", b"{}", b"{\"schema_version\": 1}"] {
        assert!(matches!(decode(bad), Err(ProtocolError::Malformed(_))), "{}", String::from_utf8_lossy(bad));
    }
}

#[test]
fn capabilities_have_stable_names() {
    for capability in Capability::ALL {
        assert_eq!(Capability::parse(capability.as_str()), Some(capability));
        assert_eq!(serde_json::to_value(capability).unwrap(), json!(capability.as_str()));
    }
}

#[test]
fn the_skill_file_list_is_sorted_by_path_whatever_order_files_come_in() {
    let list = skill_file_list([("scripts/run.sh", "bb"), ("SKILL.md", "aa"), ("references/a.md", "cc")]);
    assert_eq!(list, "SKILL.md\0aa\nreferences/a.md\0cc\nscripts/run.sh\0bb\n");
    assert_eq!(skill_file_list([("SKILL.md", "aa"), ("references/a.md", "cc"), ("scripts/run.sh", "bb")]), list);
}

#[test]
fn a_start_without_skills_leaves_the_key_out_and_reads_as_none() {
    let start = json!({"command": "start_run", "run_id": Uuid::nil(), "attempt_id": Uuid::nil(), "agent_id": Uuid::nil(), "input": {}});
    let command: Command = serde_json::from_value(start.clone()).unwrap();
    let Command::StartRun { ref skills, .. } = command else { panic!("a start") };
    assert!(skills.is_empty());
    assert!(serde_json::to_value(&command).unwrap().get("skills").is_none());
}
