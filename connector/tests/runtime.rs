//! The connector runtime with real processes and a real spool directory: commands execute once
//! per command id (also across a restart), refusals, redaction before spooling, backpressure when
//! the spool is full, cancel, recovery of runs a killed connector left behind, runs that ended on
//! the control plane, and approvals an agent could not take at once.

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use acc_connector::adapter::{
    Adapter, AdapterError, AdapterEvent, ApprovalDecision, EventSink, Handshake, Health, NativeRun, RunSpec,
};
use acc_connector::config::Config;
use acc_connector::redact::Redactor;
use acc_connector::runtime::{Agent, Runtime};
use acc_protocol::{
    AgentId, CancelMode, Capability, Command, CommandOutcome, Envelope, EventKind, Frame, HealthStatus, RunCursor,
};
use common::eventually;
use serde_json::{Value, json};
use uuid::Uuid;

const CONNECTOR: Uuid = Uuid::from_u128(0x01a2_37a0_0000_7000_8000_0000_0000_0001);
const AGENT: Uuid = Uuid::from_u128(0x01a2_37a0_0000_7000_8000_0000_0000_00b1);

fn config(dir: &Path, extra: &str, agents: &str) -> Config {
    let text = format!(
        "credential = {:?}\nspool_dir = {:?}\ncancel_grace_ms = 2000\n{extra}\n{agents}",
        dir.join("cred").join("credential.json"),
        dir.join("spool"),
    );
    Config::from_toml(&text).unwrap()
}

fn agent(name: &str, script: &str) -> String {
    format!("[[agents]]\nname = {name:?}\nadapter = \"command\"\ncommand = \"sh\"\nargs = [\"-c\", {script:?}]\n")
}

async fn open(config: &Config) -> Arc<Runtime> {
    open_as(config, CONNECTOR).await
}

/// The runtime of connector `connector_id`, after its handshake.
async fn open_as(config: &Config, connector_id: Uuid) -> Arc<Runtime> {
    let runtime = Runtime::open(config, connector_id).await.unwrap();
    hello_ack(&runtime, config);
    runtime
}

/// The control plane's answer to `hello`: the agents numbered from `AGENT` on.
fn hello_ack(runtime: &Runtime, config: &Config) {
    let agents: Vec<AgentId> = config
        .agents
        .iter()
        .enumerate()
        .map(|(i, a)| AgentId { name: a.name.clone(), agent_id: Uuid::from_u128(AGENT.as_u128() + i as u128) })
        .collect();
    runtime.apply_hello_ack(&agents, &[], &[]).unwrap();
}

fn start(run_id: Uuid, attempt_id: Uuid) -> Command {
    Command::StartRun {
        run_id,
        attempt_id,
        agent_id: AGENT,
        input: json!({"objective": "x"}),
        context: json!({}),
        approval_token: None,
        budget: None,
        skills: Vec::new(),
    }
}

fn kinds_and_data(events: &[Envelope]) -> Vec<(EventKind, Value)> {
    events
        .iter()
        .map(|e| match &e.payload {
            Frame::Event { kind, data } => (*kind, data.clone()),
            other => panic!("not an event: {other:?}"),
        })
        .collect()
}

/// Waits until the run's `Result` is spooled; returns its unacknowledged events.
async fn until_result(runtime: &Runtime, run_id: Uuid) -> Vec<Envelope> {
    let mut events = Vec::new();
    let done = eventually(Duration::from_secs(10), || {
        events = runtime.spooled_events(run_id).unwrap();
        events.last().is_some_and(|e| matches!(e.payload, Frame::Event { kind: EventKind::Result, .. }))
            && !runtime.active_runs().contains(&run_id)
    })
    .await;
    assert!(done, "no result: {events:?}");
    events
}

#[tokio::test]
async fn a_command_id_seen_before_is_acknowledged_again_and_not_executed_again_even_after_a_restart() {
    let tmp = tempfile::tempdir().unwrap();
    let marker = tmp.path().join("executions");
    let script = format!("echo ran >> {}; echo done", marker.display());
    let config = config(tmp.path(), "", &agent("once", &script));
    let executions = || std::fs::read_to_string(&marker).unwrap_or_default().lines().count();

    let runtime = open(&config).await;
    let (command_id, run_id, attempt_id) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    assert_eq!(runtime.handle_command(command_id, start(run_id, attempt_id)), (CommandOutcome::Accepted, false));
    let events = until_result(&runtime, run_id).await;
    assert_eq!(executions(), 1);

    // Redelivered: acknowledged again, same outcome, nothing executed.
    assert_eq!(runtime.handle_command(command_id, start(run_id, attempt_id)), (CommandOutcome::Accepted, true));
    // The same attempt under another command id is not started twice either.
    assert_eq!(runtime.handle_command(Uuid::now_v7(), start(run_id, attempt_id)).0, CommandOutcome::Accepted);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(executions(), 1);
    assert_eq!(runtime.spooled_events(run_id).unwrap(), events, "no new events");

    // A rejection is remembered too, with its reason.
    let unknown = Command::StartRun {
        run_id: Uuid::now_v7(),
        attempt_id: Uuid::now_v7(),
        agent_id: Uuid::now_v7(),
        input: json!(null),
        context: json!(null),
        approval_token: None,
        budget: None,
        skills: Vec::new(),
    };
    let rejected_id = Uuid::now_v7();
    let (first, _) = runtime.handle_command(rejected_id, unknown.clone());
    assert!(matches!(&first, CommandOutcome::Rejected { reason } if reason.starts_with("unknown agent")), "{first:?}");

    // A restart remembers every command id.
    drop(runtime);
    let runtime = open(&config).await;
    assert_eq!(runtime.handle_command(command_id, start(run_id, attempt_id)), (CommandOutcome::Accepted, true));
    assert_eq!(runtime.handle_command(rejected_id, unknown), (first, true));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(executions(), 1);
}

#[tokio::test]
async fn commands_the_agent_cannot_do_are_refused_and_cancel_of_an_unknown_run_is_accepted() {
    let tmp = tempfile::tempdir().unwrap();
    let runtime = open(&config(tmp.path(), "", &agent("a", "sleep 30"))).await;
    let run_id = Uuid::now_v7();
    let reason = |command: Command| match runtime.handle_command(Uuid::now_v7(), command).0 {
        CommandOutcome::Rejected { reason } => reason,
        CommandOutcome::Accepted => "accepted".into(),
    };
    assert_eq!(reason(Command::CancelRun { run_id, attempt_id: None, mode: CancelMode::Graceful }), "accepted");
    assert_eq!(reason(Command::Checkpoint { run_id, reason: "r".into() }), "capability missing: checkpoint");
    let resume = Command::Resume {
        run_id,
        attempt_id: Uuid::now_v7(),
        agent_id: AGENT,
        session_id: "s1".into(),
        input: json!({}),
        context: json!({}),
        budget: None,
        skills: Vec::new(),
    };
    assert_eq!(reason(resume), "capability missing: native_resume");
    assert_eq!(
        reason(Command::ApprovalDecision {
            run_id,
            approval_id: Uuid::now_v7(),
            request_id: "r1".into(),
            approved: true,
            reason: None,
            approval_token: Some("t".into())
        }),
        "capability missing: approvals"
    );
    // Also while the run is active on an agent without the capability.
    assert_eq!(reason(start(run_id, Uuid::now_v7())), "accepted");
    assert_eq!(reason(Command::Checkpoint { run_id, reason: "r".into() }), "capability missing: checkpoint");
    // A second, different attempt of an active run is refused, and the first one stopped: it lost the run.
    assert!(reason(start(run_id, Uuid::now_v7())).contains("is still stopping here"));
    assert_eq!(reason(Command::CancelRun { run_id, attempt_id: None, mode: CancelMode::Immediate }), "accepted");
    let events = until_result(&runtime, run_id).await;
    let (kind, data) = kinds_and_data(&events).pop().unwrap();
    assert_eq!(kind, EventKind::Result);
    assert_eq!(data["outcome"], "cancelled");
    assert_eq!(data["signal"], 9);
}

#[tokio::test]
async fn events_are_redacted_before_they_are_spooled() {
    let tmp = tempfile::tempdir().unwrap();
    let script = "echo key AKIAIOSFODNN7EXAMPLE; echo \"token $SERVICE_TOKEN\"; echo 'id internal-7777'; \
                  echo '-----BEGIN PRIVATE KEY-----'; echo MIIEvQIBADANBgkqhkiG9w0BAQEFAASC; echo '-----END PRIVATE KEY-----'; \
                  echo '{\"auth\": \"Bearer abcdefghijklmnop\"}'; echo ghp_0123456789abcdefghijABCDEFGHIJklmnop >&2";
    let agents = format!("{}env = {{ SERVICE_TOKEN = \"s3cr3t-value-123\" }}\n", agent("a", script));
    let runtime = open(&config(tmp.path(), "redact = [\"internal-[0-9]{4}\"]", &agents)).await;
    let run_id = Uuid::now_v7();
    assert_eq!(runtime.handle_command(Uuid::now_v7(), start(run_id, Uuid::now_v7())).0, CommandOutcome::Accepted);
    let events = until_result(&runtime, run_id).await;
    let all = serde_json::to_string(&events).unwrap();
    for secret in [
        "AKIAIOSFODNN7EXAMPLE",
        "s3cr3t-value-123",
        "internal-7777",
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
        "abcdefghijklmnop",
        "ghp_0123",
    ] {
        assert!(!all.contains(secret), "`{secret}` left the redactor: {all}");
    }
    let outputs: Vec<Value> =
        kinds_and_data(&events).into_iter().filter(|(k, _)| *k == EventKind::Output).map(|(_, d)| d).collect();
    let stdout: Vec<&Value> = outputs.iter().filter(|d| d["stream"] == "stdout").collect();
    assert_eq!(stdout[0]["line"], "key [REDACTED]");
    assert_eq!(stdout[1]["line"], "token [REDACTED]");
    assert_eq!(stdout[2]["line"], "id [REDACTED]");
    assert_eq!(stdout[3]["line"], "[REDACTED]");
    assert_eq!(stdout[4]["line"], "[REDACTED]");
    assert_eq!(stdout[5]["line"], "[REDACTED]");
    assert_eq!(stdout[6]["json"], json!({"auth": "[REDACTED]"}), "JSON lines are redacted inside");
}

#[tokio::test]
async fn a_full_spool_refuses_new_runs_and_slows_running_ones_without_dropping_events() {
    let tmp = tempfile::tempdir().unwrap();
    let script = "for i in 1 2 3 4 5 6; do echo line $i; done";
    let runtime = open(&config(tmp.path(), "spool_max_events = 3", &agent("a", script))).await;
    let run_id = Uuid::now_v7();
    assert_eq!(runtime.handle_command(Uuid::now_v7(), start(run_id, Uuid::now_v7())).0, CommandOutcome::Accepted);
    assert!(eventually(Duration::from_secs(5), || runtime.spooled() == 3).await);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(runtime.spooled(), 3, "the run waits; nothing beyond the bound, nothing dropped");

    let (outcome, _) = runtime.handle_command(Uuid::now_v7(), start(Uuid::now_v7(), Uuid::now_v7()));
    match outcome {
        CommandOutcome::Rejected { reason } => assert!(reason.starts_with("spool full: 3 of 3"), "{reason}"),
        CommandOutcome::Accepted => panic!("a run was accepted into a full spool"),
    }
    assert_eq!(runtime.health(), acc_protocol::HealthStatus::Degraded);

    // The control plane acknowledges as it stores; the run goes on to the end, every event in order.
    let mut received = Vec::new();
    let finished = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let events = runtime.spooled_events(run_id).unwrap();
            for e in &events {
                if received.last().is_none_or(|(s, _): &(u64, Value)| e.sequence.unwrap() > *s) {
                    let Frame::Event { data, .. } = &e.payload else { unreachable!() };
                    received.push((e.sequence.unwrap(), data.clone()));
                }
            }
            if let Some((last, _)) = received.last() {
                runtime.ack_events(run_id, *last).unwrap();
            }
            if received.last().is_some_and(|(_, d)| d.get("outcome").is_some()) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(finished.is_ok(), "the run did not finish: {received:?}");
    let sequences: Vec<u64> = received.iter().map(|(s, _)| *s).collect();
    assert_eq!(sequences, (1..=8).collect::<Vec<_>>(), "started, six lines, result: gap-free");
    let lines: Vec<&str> = received.iter().filter_map(|(_, d)| d["line"].as_str()).collect();
    assert_eq!(lines, ["line 1", "line 2", "line 3", "line 4", "line 5", "line 6"]);
    assert_eq!(runtime.spooled(), 0);
}

#[tokio::test]
async fn hello_offers_the_agents_and_resumes_runs_with_unacknowledged_events() {
    let tmp = tempfile::tempdir().unwrap();
    let config = config(tmp.path(), "", &agent("a", "echo one; echo two"));
    let runtime = open(&config).await;
    let Frame::Hello { connector_version, agents, resume } = runtime.hello() else { panic!() };
    assert_eq!(connector_version, acc_connector::VERSION);
    assert_eq!(agents.len(), 1);
    assert_eq!(agents[0].name, "a");
    assert_eq!(agents[0].adapter, "command");
    assert_eq!(agents[0].adapter_version, acc_connector::VERSION);
    assert_eq!(agents[0].capabilities, [acc_protocol::Capability::Stream, acc_protocol::Capability::Cancel]);
    assert!(resume.is_empty());

    let run_id = Uuid::now_v7();
    runtime.handle_command(Uuid::now_v7(), start(run_id, Uuid::now_v7()));
    let events = until_result(&runtime, run_id).await;
    assert_eq!(events.len(), 4);
    runtime.ack_events(run_id, 1).unwrap();
    let Frame::Hello { resume, .. } = runtime.hello() else { panic!() };
    assert_eq!(resume, [RunCursor { run_id, acked_sequence: 1 }]);

    // HelloAck says the control plane has up to 3: only 4 remains to send.
    let mut sent = runtime
        .apply_hello_ack(
            &[AgentId { name: "a".into(), agent_id: AGENT }],
            &[RunCursor { run_id, acked_sequence: 3 }],
            &[],
        )
        .unwrap();
    let frames = runtime.next_unsent(&mut sent, 100).unwrap();
    let sequences: Vec<u64> =
        frames.iter().map(|f| acc_protocol::decode(f.as_bytes()).unwrap().sequence.unwrap()).collect();
    assert_eq!(sequences, [4]);
    // A new connection that has sent nothing yet resends from the acknowledged cursor.
    let frames = runtime.next_unsent(&mut Default::default(), 100).unwrap();
    assert_eq!(frames.len(), 1);
}

#[tokio::test]
async fn a_quiet_run_is_resumed_too_so_a_restarted_control_plane_knows_it_is_still_here() {
    let tmp = tempfile::tempdir().unwrap();
    let runtime = open(&config(tmp.path(), "", &agent("quiet", "echo started; sleep 30"))).await;
    let run_id = Uuid::now_v7();
    runtime.handle_command(Uuid::now_v7(), start(run_id, Uuid::now_v7()));
    assert!(eventually(Duration::from_secs(5), || runtime.spooled_events(run_id).unwrap().len() == 2).await);
    // Everything it said is acknowledged: it holds no event, and is still running.
    runtime.ack_events(run_id, 2).unwrap();
    let Frame::Hello { resume, .. } = runtime.hello() else { panic!() };
    assert_eq!(resume, [RunCursor { run_id, acked_sequence: 2 }]);
    runtime.cancel_all(CancelMode::Immediate);
}

#[tokio::test]
async fn a_run_that_ended_on_the_control_plane_is_dropped_from_the_spool_and_never_sent_again() {
    let tmp = tempfile::tempdir().unwrap();
    let config = config(tmp.path(), "", &agent("a", "echo one; echo two"));
    let runtime = open(&config).await;
    let run_id = Uuid::now_v7();
    runtime.handle_command(Uuid::now_v7(), start(run_id, Uuid::now_v7()));
    assert_eq!(until_result(&runtime, run_id).await.len(), 4);
    // The control plane refused one of its events: the run has ended there.
    runtime.run_ended(run_id).unwrap();
    assert_eq!(runtime.spooled(), 0);
    assert!(runtime.next_unsent(&mut Default::default(), 100).unwrap().is_empty(), "nothing left to send");
    let Frame::Hello { resume, .. } = runtime.hello() else { panic!() };
    assert!(resume.is_empty());
    // Not after a restart either.
    drop(runtime);
    let runtime = open(&config).await;
    assert!(runtime.spooled_events(run_id).unwrap().is_empty());
    let Frame::Hello { resume, .. } = runtime.hello() else { panic!() };
    assert!(resume.is_empty());

    // A run that ended while the connector was away: `hello_ack` answers it with the largest sequence.
    let other = Uuid::now_v7();
    runtime.handle_command(Uuid::now_v7(), start(other, Uuid::now_v7()));
    until_result(&runtime, other).await;
    let ended = RunCursor { run_id: other, acked_sequence: u64::MAX };
    let mut sent = runtime.apply_hello_ack(&[AgentId { name: "a".into(), agent_id: AGENT }], &[ended], &[]).unwrap();
    assert!(runtime.spooled_events(other).unwrap().is_empty());
    assert!(runtime.next_unsent(&mut sent, 100).unwrap().is_empty());
}

/// An agent whose input is full the first time it is handed a decision, as a busy runtime's can be.
#[derive(Debug, Default)]
struct BusyOnce {
    decisions: Arc<Mutex<Vec<ApprovalDecision>>>,
}

#[derive(Debug)]
struct BusyRun {
    /// Kept open: the run goes on.
    _events: EventSink,
    decisions: Arc<Mutex<Vec<ApprovalDecision>>>,
    busy: AtomicBool,
}

impl Adapter for BusyOnce {
    fn handshake(&self) -> Handshake {
        Handshake {
            adapter: "busy-once",
            adapter_version: "test".into(),
            runtime_version: None,
            capabilities: vec![Capability::Stream, Capability::Approvals],
        }
    }

    fn health(&self) -> Health {
        Health { status: HealthStatus::Healthy, latency: Duration::ZERO, active_runs: 0, detail: None }
    }

    fn start(&self, _spec: RunSpec, events: EventSink) -> Result<Box<dyn NativeRun>, AdapterError> {
        let ask = json!({"request_id": "r1", "action": "delete build/"});
        events.try_send(AdapterEvent::new(EventKind::ApprovalRequested, ask)).unwrap();
        Ok(Box::new(BusyRun { _events: events, decisions: self.decisions.clone(), busy: AtomicBool::new(true) }))
    }
}

impl NativeRun for BusyRun {
    fn native_ref(&self) -> String {
        "busy".into()
    }

    fn pid(&self) -> Option<u32> {
        None
    }

    fn cancel(&self, _mode: CancelMode) {}

    fn decide_approval(&self, decision: ApprovalDecision) -> Result<(), AdapterError> {
        if self.busy.swap(false, Ordering::SeqCst) {
            return Err(AdapterError::NotListening("its input is full".into()));
        }
        self.decisions.lock().unwrap().push(decision);
        Ok(())
    }
}

#[tokio::test]
async fn an_approval_the_agent_could_not_take_is_not_burned_and_the_resend_hands_it_over() {
    let tmp = tempfile::tempdir().unwrap();
    let config = config(tmp.path(), "", "");
    let adapter = BusyOnce::default();
    let decisions = adapter.decisions.clone();
    let key = acc_connector::credential::load_or_create_key(&config.spool_key_path()).unwrap();
    let spool = acc_connector::spool::Spool::open(&config.spool_dir(), &key, CONNECTOR, 100).unwrap();
    let agents = vec![Agent { name: "busy".into(), adapter: Arc::new(adapter), model_provider: None, workdir: None }];
    let redactor = Redactor::new(&[], []).unwrap();
    let runtime = Runtime::new(CONNECTOR, agents, spool, &config.spool_dir(), redactor, None, None).unwrap();
    let control_plane = common::signer("k1");
    let ids = [AgentId { name: "busy".into(), agent_id: AGENT }];
    runtime.apply_hello_ack(&ids, &[], std::slice::from_ref(&control_plane.public)).unwrap();
    let run_id = Uuid::now_v7();
    assert_eq!(runtime.handle_command(Uuid::now_v7(), start(run_id, Uuid::now_v7())).0, CommandOutcome::Accepted);
    assert!(eventually(Duration::from_secs(5), || !runtime.spooled_events(run_id).unwrap().is_empty()).await);

    let approval_id = Uuid::now_v7();
    let token = control_plane.sign(&common::approval_claims(CONNECTOR, run_id, "r1", "delete build/"));
    let decision = || Command::ApprovalDecision {
        run_id,
        approval_id,
        request_id: "r1".into(),
        approved: true,
        reason: Some("go".into()),
        approval_token: Some(token.clone()),
    };
    // The agent could not take it: refused for now, and neither the token nor the command id is used up.
    match runtime.handle_command(approval_id, decision()) {
        (CommandOutcome::Rejected { reason }, false) => assert!(reason.contains("its input is full"), "{reason}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(decisions.lock().unwrap().is_empty());
    // The control plane resends it (same command id, same token): now the agent takes it.
    assert_eq!(runtime.handle_command(approval_id, decision()), (CommandOutcome::Accepted, false));
    let taken = decisions.lock().unwrap().clone();
    assert_eq!(
        taken,
        [ApprovalDecision { approval_id, request_id: "r1".into(), approved: true, reason: Some("go".into()) }]
    );
    // From then on it is answered, not executed again.
    assert_eq!(runtime.handle_command(approval_id, decision()), (CommandOutcome::Accepted, true));
    assert_eq!(decisions.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn runs_a_killed_connector_left_behind_are_ended_and_their_processes_stopped_on_restart() {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let tmp = tempfile::tempdir().unwrap();
    let config = config(tmp.path(), "", &agent("a", "sleep 60"));
    let run_id = Uuid::now_v7();
    // What a connector killed with SIGKILL leaves: a spooled run with a live process group.
    let mut orphan = std::process::Command::new("sleep").arg("60").process_group(0).spawn().unwrap();
    let pid = orphan.id();
    {
        let key = acc_connector::credential::load_or_create_key(&config.spool_key_path()).unwrap();
        let mut spool = acc_connector::spool::Spool::open(&config.spool_dir(), &key, CONNECTOR, 100).unwrap();
        spool.begin_run(run_id, AGENT, Uuid::now_v7()).unwrap();
        let process = acc_connector::spool::ProcessRef { pid, start_ticks: acc_connector::process::start_ticks(pid) };
        spool.set_process(run_id, process).unwrap();
        spool.append(run_id, EventKind::Started, json!({"pid": pid})).unwrap();
        spool.sync().unwrap();
    }
    let runtime = open(&config).await;
    let status = orphan.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "the orphaned process group was killed");
    let events = kinds_and_data(&runtime.spooled_events(run_id).unwrap());
    assert_eq!(events.len(), 2);
    assert_eq!(events[1].0, EventKind::Result);
    assert_eq!(events[1].1["outcome"], "lost");
    assert!(events[1].1["error"].as_str().unwrap().contains("connector stopped"));
    let Frame::Hello { resume, .. } = runtime.hello() else { panic!() };
    assert_eq!(resume, [RunCursor { run_id, acked_sequence: 0 }]);
}

#[tokio::test]
async fn a_reused_pid_is_not_killed() {
    use std::os::unix::process::CommandExt;
    let tmp = tempfile::tempdir().unwrap();
    let config = config(tmp.path(), "", &agent("a", "true"));
    let run_id = Uuid::now_v7();
    let mut bystander = std::process::Command::new("sleep").arg("60").process_group(0).spawn().unwrap();
    let pid = bystander.id();
    {
        let key = acc_connector::credential::load_or_create_key(&config.spool_key_path()).unwrap();
        let mut spool = acc_connector::spool::Spool::open(&config.spool_dir(), &key, CONNECTOR, 100).unwrap();
        spool.begin_run(run_id, AGENT, Uuid::now_v7()).unwrap();
        // Same pid, but another start time: not the process the run started.
        let ticks = acc_connector::process::start_ticks(pid).map(|t| t + 1);
        spool.set_process(run_id, acc_connector::spool::ProcessRef { pid, start_ticks: ticks }).unwrap();
    }
    let runtime = open(&config).await;
    assert!(bystander.try_wait().unwrap().is_none(), "the bystander lives");
    let events = kinds_and_data(&runtime.spooled_events(run_id).unwrap());
    assert_eq!(events[0].1["outcome"], "lost");
    bystander.kill().unwrap();
    bystander.wait().unwrap();
}

#[tokio::test]
async fn an_approved_action_reaches_the_agent_only_with_a_valid_token() {
    let tmp = tempfile::tempdir().unwrap();
    let script = r#"read input
echo '{"acc": "approval_request", "request_id": "r1", "action": "delete build/"}'
read decision
echo "first: $decision"
echo '{"acc": "approval_request", "request_id": "r2", "action": "delete build/"}'
read decision
echo "second: $decision""#;
    let config = config(tmp.path(), "", &format!("{}interactive = true\n", agent("careful", script)));
    let runtime = open(&config).await;
    let control_plane = common::signer("k1");
    let agents = [AgentId { name: "careful".into(), agent_id: AGENT }];
    runtime.apply_hello_ack(&agents, &[], std::slice::from_ref(&control_plane.public)).unwrap();
    let run_id = Uuid::now_v7();
    assert_eq!(runtime.handle_command(Uuid::now_v7(), start(run_id, Uuid::now_v7())).0, CommandOutcome::Accepted);
    let asked = |request: &'static str| {
        let runtime = runtime.clone();
        move || {
            kinds_and_data(&runtime.spooled_events(run_id).unwrap())
                .iter()
                .any(|(kind, data)| *kind == EventKind::ApprovalRequested && data["request_id"] == request)
        }
    };
    assert!(eventually(Duration::from_secs(5), asked("r1")).await);
    let decide = |request: &str, token: String| Command::ApprovalDecision {
        run_id,
        approval_id: Uuid::now_v7(),
        request_id: request.into(),
        approved: true,
        reason: Some("go".into()),
        approval_token: Some(token),
    };

    // Signed by someone who is not the control plane: the agent is told no.
    let forged = common::signer("k1").sign(&common::approval_claims(CONNECTOR, run_id, "r1", "delete build/"));
    match runtime.handle_command(Uuid::now_v7(), decide("r1", forged)).0 {
        CommandOutcome::Rejected { reason } => assert!(reason.starts_with("invalid approval token"), "{reason}"),
        other => panic!("a forged token was accepted: {other:?}"),
    }
    assert!(eventually(Duration::from_secs(5), asked("r2")).await);
    let valid = control_plane.sign(&common::approval_claims(CONNECTOR, run_id, "r2", "delete build/"));
    assert_eq!(runtime.handle_command(Uuid::now_v7(), decide("r2", valid)).0, CommandOutcome::Accepted);

    let events = until_result(&runtime, run_id).await;
    let told = |prefix: &str| -> Value {
        let line = kinds_and_data(&events)
            .into_iter()
            .find_map(|(_, data)| data["line"].as_str().and_then(|l| l.strip_prefix(prefix)).map(str::to_owned))
            .unwrap_or_else(|| panic!("no line starting with {prefix}"));
        serde_json::from_str(&line).unwrap()
    };
    let first = told("first: ");
    assert_eq!(first["approved"], false);
    assert!(first["reason"].as_str().unwrap().starts_with("refused by the connector"), "{first}");
    assert_eq!(
        told("second: "),
        json!({"acc": "approval_decision", "request_id": "r2", "approved": true, "reason": "go"})
    );
}

/// A start of the second configured agent.
fn start_second(run_id: Uuid) -> Command {
    match start(run_id, Uuid::now_v7()) {
        Command::StartRun { run_id, attempt_id, input, context, .. } => Command::StartRun {
            run_id,
            attempt_id,
            agent_id: Uuid::from_u128(AGENT.as_u128() + 1),
            input,
            context,
            approval_token: None,
            budget: None,
            skills: Vec::new(),
        },
        other => other,
    }
}

/// The sequence of a run's first spooled event, and the connector it is sent as.
fn first_event(runtime: &Runtime, run_id: Uuid) -> (Option<u64>, Uuid) {
    let events = runtime.spooled_events(run_id).unwrap();
    (events[0].sequence, events[0].connector_id)
}

#[tokio::test]
async fn a_new_connector_identity_starts_the_spool_over_in_process_and_after_a_restart() {
    let tmp = tempfile::tempdir().unwrap();
    let agents = agent("lines", "echo one; echo two") + &agent("sleeper", "sleep 30");
    let config = config(tmp.path(), "", &agents);
    let (second, third) = (Uuid::now_v7(), Uuid::now_v7());

    // The old identity's events are never acknowledged (it was revoked); one run is still going.
    let runtime = open(&config).await;
    let (ended, going) = (Uuid::now_v7(), Uuid::now_v7());
    runtime.handle_command(Uuid::now_v7(), start(ended, Uuid::now_v7()));
    let old_events = until_result(&runtime, ended).await.len();
    assert_eq!(runtime.handle_command(Uuid::now_v7(), start_second(going)).0, CommandOutcome::Accepted);
    assert!(eventually(Duration::from_secs(10), || runtime.spooled() > old_events).await, "the second run started");

    // A new credential, in process: the running run is stopped, the spool starts over, and a
    // retry of a run the old identity ran starts at sequence 1, sent as the new connector.
    runtime.adopt_identity(second).await.unwrap();
    assert_eq!((runtime.connector_id(), runtime.active_runs(), runtime.spooled()), (second, vec![], 0));
    hello_ack(&runtime, &config);
    runtime.handle_command(Uuid::now_v7(), start(ended, Uuid::now_v7()));
    until_result(&runtime, ended).await;
    assert_eq!(first_event(&runtime, ended), (Some(1), second));

    // A new credential while stopped: the next start finds another connector's spool.
    drop(runtime);
    let runtime = open_as(&config, third).await;
    assert_eq!(runtime.spooled(), 0, "nothing of the previous identity is sent again");
    runtime.handle_command(Uuid::now_v7(), start(ended, Uuid::now_v7()));
    until_result(&runtime, ended).await;
    assert_eq!(first_event(&runtime, ended), (Some(1), third));

    // The same identity again keeps its spool, as always.
    let held = runtime.spooled();
    drop(runtime);
    assert_eq!(open_as(&config, third).await.spooled(), held);
}
