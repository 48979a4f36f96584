//! The `command` adapter with real processes: the events and outcome of a shell script, and
//! cancel stopping a whole process group (children included), gracefully or by force.

mod common;

use std::time::{Duration, Instant};

use acc_connector::adapter::command::CommandAdapter;
use acc_connector::adapter::{Adapter, AdapterError, AdapterEvent, AdapterOptions, ApprovalDecision, RunSpec};
use acc_protocol::{CancelMode, Capability, EventKind, HealthStatus};
use common::{alive, collect, eventually, sh_agent};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use uuid::Uuid;

fn spec(input: Value) -> RunSpec {
    RunSpec {
        run_id: Uuid::now_v7(),
        attempt_id: Uuid::now_v7(),
        agent_id: Uuid::now_v7(),
        input,
        context: json!({}),
        approval_token: None,
        budget: None,
        model: None,
        tools: None,
        skills: Vec::new(),
    }
}

fn adapter(script: &str, grace_ms: u64) -> CommandAdapter {
    CommandAdapter::new(&sh_agent("t", script), AdapterOptions { cancel_grace: Duration::from_millis(grace_ms) })
}

fn outputs<'a>(events: &'a [acc_connector::adapter::AdapterEvent], stream: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e.kind == EventKind::Output && e.data["stream"] == stream).map(|e| &e.data).collect()
}

#[tokio::test]
async fn a_script_yields_started_its_lines_and_its_exit_status() {
    let adapter =
        adapter(r#"echo hi; echo '{"a":1}'; echo oops >&2; echo "run $ACC_RUN_ID"; cat; echo '[1,2]'; exit 3"#, 5000);
    let handshake = adapter.handshake();
    assert_eq!(handshake.adapter, "command");
    assert_eq!(handshake.capabilities, [Capability::Stream, Capability::Cancel]);
    assert_eq!(adapter.health().status, HealthStatus::Healthy);

    let spec = spec(json!({"objective": "greet"}));
    let run_id = spec.run_id;
    let (tx, mut rx) = mpsc::channel(16);
    let run = adapter.start(spec, tx).unwrap();
    let pid = run.pid().unwrap();
    assert_eq!(run.native_ref(), format!("pid:{pid}"));
    let events = collect(&mut rx, Duration::from_secs(10)).await;

    assert_eq!(events[0].kind, EventKind::Started);
    assert_eq!(events[0].data, json!({"pid": pid}));
    assert_eq!(
        outputs(&events, "stdout"),
        [
            &json!({"stream": "stdout", "line": "hi"}),
            &json!({"stream": "stdout", "json": {"a": 1}}),
            &json!({"stream": "stdout", "line": format!("run {run_id}")}),
            // stdin got the input JSON, and `cat` echoed it: a JSON object line keeps its structure…
            &json!({"stream": "stdout", "json": {"objective": "greet"}}),
            // …a JSON line that is not an object stays a line.
            &json!({"stream": "stdout", "line": "[1,2]"}),
        ]
    );
    assert_eq!(outputs(&events, "stderr"), [&json!({"stream": "stderr", "line": "oops"})]);
    let result = events.last().unwrap();
    assert_eq!(result.kind, EventKind::Result);
    assert_eq!(result.data, json!({"outcome": "failed", "exit_code": 3, "signal": null}));
    assert_eq!(events.len(), 8, "started, six lines, result: {events:?}");
}

#[tokio::test]
async fn success_env_input_and_workdir() {
    let dir = tempfile::tempdir().unwrap();
    let mut agent = sh_agent("t", r#"pwd; echo "$GREETING"; echo "$ACC_RUN_INPUT""#);
    agent.env.insert("GREETING".into(), "bonjour".into());
    agent.workdir = Some(dir.path().to_owned());
    let adapter = CommandAdapter::new(&agent, AdapterOptions { cancel_grace: Duration::from_secs(1) });
    let (tx, mut rx) = mpsc::channel(16);
    adapter.start(spec(json!({"n": 5})), tx).unwrap();
    let events = collect(&mut rx, Duration::from_secs(10)).await;
    let lines = outputs(&events, "stdout");
    assert_eq!(lines[0]["line"], dir.path().canonicalize().unwrap().to_string_lossy().as_ref());
    assert_eq!(lines[1]["line"], "bonjour");
    assert_eq!(lines[2]["json"], json!({"n": 5}));
    assert_eq!(events.last().unwrap().data, json!({"outcome": "succeeded", "exit_code": 0, "signal": null}));
}

#[tokio::test]
async fn a_line_longer_than_the_limit_comes_in_marked_pieces() {
    let adapter = adapter("head -c 150000 /dev/zero | tr '\\0' x; echo; echo end", 1000);
    let (tx, mut rx) = mpsc::channel(16);
    adapter.start(spec(json!(null)), tx).unwrap();
    let events = collect(&mut rx, Duration::from_secs(10)).await;
    let lines = outputs(&events, "stdout");
    assert_eq!(lines.len(), 4, "three pieces and `end`");
    assert_eq!(lines[0]["partial"], true);
    assert_eq!(lines[1]["partial"], true);
    assert!(lines[2].get("partial").is_none());
    let total: usize = lines[..3].iter().map(|l| l["line"].as_str().unwrap().len()).sum();
    assert_eq!(total, 150_000);
    assert_eq!(lines[3]["line"], "end");
}

#[tokio::test]
async fn graceful_cancel_stops_the_process_group_and_its_children_within_the_grace_period() {
    // The script forks a child that would outlive it, prints the child's pid, and waits.
    let adapter = adapter("sleep 60 & echo $!; sleep 60", 5000);
    let (tx, mut rx) = mpsc::channel(16);
    let run = adapter.start(spec(json!(null)), tx).unwrap();
    let leader = run.pid().unwrap();
    let started = rx.recv().await.unwrap();
    assert_eq!(started.kind, EventKind::Started);
    let child_line = rx.recv().await.unwrap();
    let child: u32 = child_line.data["line"].as_str().unwrap().parse().unwrap();
    assert!(alive(child) && alive(leader));

    let cancelled_at = Instant::now();
    run.cancel(CancelMode::Graceful);
    run.cancel(CancelMode::Graceful); // idempotent
    let events = collect(&mut rx, Duration::from_secs(10)).await;
    let took = cancelled_at.elapsed();
    assert!(took < Duration::from_secs(5), "SIGTERM sufficed, well within the grace period: {took:?}");
    assert_eq!(events.last().unwrap().data, json!({"outcome": "cancelled", "exit_code": null, "signal": 15}));
    assert!(eventually(Duration::from_secs(2), || !alive(child)).await, "the forked child is gone too");
    assert!(!alive(leader));
    assert!(
        eventually(Duration::from_secs(2), || !acc_connector::process::group_alive(leader)).await,
        "the whole group is gone (once its last zombie is reaped)"
    );
}

#[tokio::test]
async fn a_process_that_ignores_sigterm_is_killed_after_the_grace_period() {
    let adapter = adapter("trap '' TERM; sleep 60 & echo $!; wait; wait", 400);
    let (tx, mut rx) = mpsc::channel(16);
    let run = adapter.start(spec(json!(null)), tx).unwrap();
    rx.recv().await.unwrap();
    let child: u32 = rx.recv().await.unwrap().data["line"].as_str().unwrap().parse().unwrap();
    let cancelled_at = Instant::now();
    run.cancel(CancelMode::Graceful);
    let events = collect(&mut rx, Duration::from_secs(10)).await;
    let took = cancelled_at.elapsed();
    assert!(took >= Duration::from_millis(400), "it waited for the grace period: {took:?}");
    assert!(took < Duration::from_secs(3), "then forced: {took:?}");
    assert_eq!(events.last().unwrap().data, json!({"outcome": "cancelled", "exit_code": null, "signal": 9}));
    assert!(eventually(Duration::from_secs(2), || !alive(child)).await);
}

#[tokio::test]
async fn immediate_cancel_kills_at_once_and_overrides_a_graceful_one() {
    let adapter = adapter("trap '' TERM; echo ready; sleep 60", 30_000);
    let (tx, mut rx) = mpsc::channel(16);
    let run = adapter.start(spec(json!(null)), tx).unwrap();
    rx.recv().await.unwrap();
    assert_eq!(rx.recv().await.unwrap().data["line"], "ready");
    let cancelled_at = Instant::now();
    run.cancel(CancelMode::Graceful);
    tokio::time::sleep(Duration::from_millis(100)).await;
    run.cancel(CancelMode::Immediate);
    let events = collect(&mut rx, Duration::from_secs(10)).await;
    assert!(cancelled_at.elapsed() < Duration::from_secs(5));
    assert_eq!(events.last().unwrap().data, json!({"outcome": "cancelled", "exit_code": null, "signal": 9}));
}

#[tokio::test]
async fn processes_left_behind_at_exit_are_stopped_and_do_not_hold_the_run_open() {
    let adapter = adapter("sleep 60 & echo $!; exit 0", 1000);
    let (tx, mut rx) = mpsc::channel(16);
    adapter.start(spec(json!(null)), tx).unwrap();
    let started = Instant::now();
    let events = collect(&mut rx, Duration::from_secs(10)).await;
    assert!(started.elapsed() < Duration::from_secs(4));
    let child: u32 = outputs(&events, "stdout")[0]["line"].as_str().unwrap().parse().unwrap();
    assert_eq!(events.last().unwrap().data["outcome"], "succeeded");
    assert!(eventually(Duration::from_secs(2), || !alive(child)).await);
}

#[tokio::test]
async fn a_program_that_cannot_start_is_an_error_and_unhealthy() {
    let mut agent = sh_agent("t", "");
    agent.command = "/nonexistent/agent-binary".into();
    agent.args.clear();
    let adapter = CommandAdapter::new(&agent, AdapterOptions { cancel_grace: Duration::from_secs(1) });
    assert_eq!(adapter.health().status, HealthStatus::Unhealthy);
    let (tx, _rx) = mpsc::channel(16);
    let err = adapter.start(spec(json!(null)), tx).unwrap_err();
    assert!(matches!(err, AdapterError::Start(_)), "{err}");
    assert!(err.to_string().contains("/nonexistent/agent-binary"));
}

#[tokio::test]
async fn operations_the_adapter_lacks_are_refused_not_simulated() {
    let adapter = adapter("sleep 5", 1000);
    let (tx, mut rx) = mpsc::channel(16);
    let run = adapter.start(spec(json!(null)), tx).unwrap();
    let err = run.checkpoint("handoff").unwrap_err();
    assert_eq!(err.to_string(), "capability missing: checkpoint");
    let decision =
        ApprovalDecision { approval_id: Uuid::now_v7(), request_id: "r".into(), approved: true, reason: None };
    assert_eq!(run.decide_approval(decision).unwrap_err().to_string(), "capability missing: approvals");
    let (tx2, _rx2) = mpsc::channel(1);
    assert_eq!(
        adapter.resume(spec(json!(null)), "s1", tx2).unwrap_err().to_string(),
        "capability missing: native_resume"
    );
    run.cancel(CancelMode::Immediate);
    collect(&mut rx, Duration::from_secs(5)).await;
}

#[tokio::test]
async fn an_interactive_program_asks_for_approval_and_saves_a_checkpoint_over_control_lines() {
    let script = r#"
read input
echo '{"acc": "approval_request", "request_id": "r1", "action": "delete build/", "reason": "a clean build"}'
read decision
echo "decision: $decision"
read request
echo "asked: $request"
echo '{"acc": "checkpoint", "state": {"step": 2}, "completed": ["cleaned"]}'
echo '{"acc": "event", "kind": "message", "data": {"text": "bye"}}'
"#;
    let mut agent = sh_agent("t", script);
    let plain = CommandAdapter::new(&agent, AdapterOptions { cancel_grace: Duration::from_secs(1) });
    assert_eq!(plain.handshake().capabilities, [Capability::Stream, Capability::Cancel]);
    agent.interactive = true;
    let adapter = CommandAdapter::new(&agent, AdapterOptions { cancel_grace: Duration::from_secs(1) });
    assert_eq!(
        adapter.handshake().capabilities,
        [Capability::Stream, Capability::Cancel, Capability::Approvals, Capability::Checkpoint]
    );
    let (tx, mut rx) = mpsc::channel(16);
    let run = adapter.start(spec(json!({"objective": "clean"})), tx).unwrap();
    let next = async |rx: &mut mpsc::Receiver<AdapterEvent>| {
        tokio::time::timeout(Duration::from_secs(5), rx.recv()).await.unwrap().unwrap()
    };
    assert_eq!(next(&mut rx).await.kind, EventKind::Started);
    let asked = next(&mut rx).await;
    assert_eq!(asked.kind, EventKind::ApprovalRequested);
    assert_eq!(
        asked.data,
        json!({"request_id": "r1", "action": "delete build/", "reason": "a clean build", "details": null})
    );
    let decision = ApprovalDecision {
        approval_id: Uuid::now_v7(),
        request_id: "r1".into(),
        approved: true,
        reason: Some("go".into()),
    };
    run.decide_approval(decision).unwrap();
    let answer = next(&mut rx).await;
    let line = answer.data["line"].as_str().unwrap();
    assert!(line.starts_with("decision: "), "{line}");
    let told: Value = serde_json::from_str(line.trim_start_matches("decision: ")).unwrap();
    assert_eq!(told, json!({"acc": "approval_decision", "request_id": "r1", "approved": true, "reason": "go"}));

    run.checkpoint("handoff to codex").unwrap();
    let asked = next(&mut rx).await;
    assert!(asked.data["line"].as_str().unwrap().contains(r#""acc":"checkpoint_request""#), "{asked:?}");
    let checkpoint = next(&mut rx).await;
    assert_eq!(checkpoint.kind, EventKind::Checkpoint);
    assert_eq!(checkpoint.data, json!({"state": {"step": 2}, "completed": ["cleaned"], "reason": "handoff to codex"}));
    let message = next(&mut rx).await;
    assert_eq!((message.kind, message.data), (EventKind::Message, json!({"text": "bye"})));
    let result = collect(&mut rx, Duration::from_secs(5)).await.pop().unwrap();
    assert_eq!(result.data["outcome"], "succeeded");
}
