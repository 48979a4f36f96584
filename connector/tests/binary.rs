//! The real `acc-connector` binary against a scripted control-plane stand-in on loopback (a
//! WebSocket server in this test speaking the wire protocol): handshake, heartbeats, commands and
//! their redelivery, events and acks, a cut connection resumed from the acknowledged sequence, a
//! refused credential retried, a killed connector restarted with its spool drained, and `enroll`
//! and `adapters`.

use std::collections::{BTreeMap, HashSet};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Duration;

use acc_protocol::{
    AgentId, CancelMode, Capability, Command, CommandOutcome, Envelope, EventKind, Frame, HealthStatus, RunCursor,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use uuid::Uuid;

const CONNECTOR: Uuid = Uuid::from_u128(0x01a2_37a0_0000_7000_8000_0000_0000_0001);
const AGENT: Uuid = Uuid::from_u128(0x01a2_37a0_0000_7000_8000_0000_0000_00b1);
const SECRET: &str = "acc_conn_test_credential_0123456789";
const LIMIT: Duration = Duration::from_secs(15);

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_acc-connector")
}

/// The control-plane side of the protocol, scripted by each test.
struct ControlPlane {
    listener: TcpListener,
}

struct Connection {
    ws: WebSocketStream<TcpStream>,
    authorization: Option<String>,
}

impl ControlPlane {
    async fn start() -> Self {
        Self { listener: TcpListener::bind("127.0.0.1:0").await.unwrap() }
    }

    fn url(&self) -> String {
        format!("http://{}", self.listener.local_addr().unwrap())
    }

    #[allow(clippy::result_large_err)] // the handshake callback's signature is tungstenite's
    async fn accept(&self) -> Connection {
        let (tcp, _) =
            tokio::time::timeout(LIMIT, self.listener.accept()).await.expect("the connector dials in").unwrap();
        let mut authorization = None;
        let ws = tokio_tungstenite::accept_hdr_async(tcp, |request: &Request, response: Response| {
            assert_eq!(request.uri().path(), "/v1/connectors/ws");
            authorization = request.headers().get("authorization").map(|v| v.to_str().unwrap().to_owned());
            Ok(response)
        })
        .await
        .unwrap();
        Connection { ws, authorization }
    }

    /// Answers the next upgrade with 401, as a revoked connector gets.
    async fn refuse(&self) {
        let (mut tcp, _) =
            tokio::time::timeout(LIMIT, self.listener.accept()).await.expect("the connector dials in").unwrap();
        let mut buf = vec![0u8; 4096];
        let _ = tcp.read(&mut buf).await;
        tcp.write_all(b"HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\nconnection: close\r\n\r\n").await.unwrap();
    }
}

impl Connection {
    async fn recv(&mut self) -> Envelope {
        loop {
            let message = tokio::time::timeout(LIMIT, self.ws.next()).await.expect("a frame").expect("open").unwrap();
            if let Message::Text(text) = message {
                let envelope = acc_protocol::decode(text.as_bytes()).unwrap();
                assert_eq!(envelope.connector_id, CONNECTOR);
                return envelope;
            }
        }
    }

    /// The next frame that is not a heartbeat.
    async fn recv_frame(&mut self) -> Envelope {
        loop {
            let envelope = self.recv().await;
            if !matches!(envelope.payload, Frame::Heartbeat { .. }) {
                return envelope;
            }
        }
    }

    async fn send(&mut self, payload: Frame) {
        let text = acc_protocol::encode(&Envelope::new(CONNECTOR, payload)).unwrap();
        self.ws.send(Message::text(text)).await.unwrap();
    }

    /// Takes `Hello`, answers `HelloAck`; returns the hello's resume cursors.
    async fn handshake(&mut self, resume: Vec<RunCursor>) -> Vec<RunCursor> {
        assert_eq!(self.authorization.as_deref(), Some(format!("Bearer {SECRET}").as_str()));
        let hello = self.recv().await;
        let Frame::Hello { connector_version, agents, resume: offered } = hello.payload else {
            panic!("first frame: {hello:?}")
        };
        assert_eq!(connector_version, env!("CARGO_PKG_VERSION"));
        assert_eq!(agents.len(), 1);
        assert_eq!(agents[0].name, "agent");
        assert_eq!(agents[0].adapter, "command");
        assert_eq!(agents[0].capabilities, [Capability::Stream, Capability::Cancel]);
        let agents = vec![AgentId { name: "agent".into(), agent_id: AGENT }];
        self.send(Frame::HelloAck { agents, heartbeat_interval_ms: 200, resume }).await;
        offered
    }

    async fn command(&mut self, command_id: Uuid, command: Command) {
        self.send(Frame::Command { command_id, command }).await;
    }
}

/// What the stand-in stored: events deduplicated by event id, as the real control plane does.
#[derive(Default)]
struct Store {
    ids: HashSet<Uuid>,
    events: BTreeMap<u64, (Uuid, EventKind, Value)>,
}

impl Store {
    fn take(&mut self, envelope: &Envelope) -> bool {
        let Frame::Event { kind, data } = &envelope.payload else { return false };
        let (event_id, sequence) = (envelope.event_id.unwrap(), envelope.sequence.unwrap());
        if self.ids.insert(event_id) {
            assert!(
                self.events.insert(sequence, (event_id, *kind, data.clone())).is_none(),
                "sequence {sequence} reused"
            );
        } else {
            assert_eq!(self.events[&sequence].0, event_id, "a resent event keeps its id");
        }
        true
    }

    fn gap_free(&self) -> bool {
        self.events.keys().copied().eq(1..=self.events.len() as u64)
    }

    fn ended(&self) -> bool {
        self.events.values().any(|(_, kind, _)| *kind == EventKind::Result)
    }

    fn lines(&self) -> Vec<String> {
        self.events.values().filter_map(|(_, _, d)| d["line"].as_str().map(str::to_owned)).collect()
    }
}

struct Connector {
    child: Child,
    log: PathBuf,
}

impl Connector {
    fn start(dir: &Path) -> Self {
        let log = dir.join(format!("connector-{}.log", Uuid::now_v7()));
        let child = std::process::Command::new(binary())
            .args(["run", "--config"])
            .arg(dir.join("connector.toml"))
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        Self { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Connector {
    fn drop(&mut self) {
        self.kill();
    }
}

fn setup(dir: &Path, server: &str, script: &str) {
    let credential = dir.join("id").join("credential.json");
    std::fs::create_dir_all(credential.parent().unwrap()).unwrap();
    std::fs::write(&credential, json!({"server": server, "connector_id": CONNECTOR, "credential": SECRET}).to_string())
        .unwrap();
    std::fs::set_permissions(&credential, std::fs::Permissions::from_mode(0o600)).unwrap();
    let config = format!(
        "credential = {:?}\ncancel_grace_ms = 1000\n[[agents]]\nname = \"agent\"\nadapter = \"command\"\ncommand = \"sh\"\nargs = [\"-c\", {script:?}]\n",
        credential
    );
    std::fs::write(dir.join("connector.toml"), config).unwrap();
}

fn start_run(run_id: Uuid) -> Command {
    Command::StartRun {
        run_id,
        attempt_id: Uuid::now_v7(),
        agent_id: AGENT,
        input: json!({"n": 1}),
        context: json!({}),
        approval_token: None,
    }
}

#[tokio::test]
async fn handshake_heartbeats_commands_events_and_acks() {
    let tmp = tempfile::tempdir().unwrap();
    let plane = ControlPlane::start().await;
    setup(tmp.path(), &plane.url(), "echo hi; echo '{\"a\":1}'; echo sk-abcdefghijklmnopqrstuvwxyz0123 >&2; exit 3");
    let _connector = Connector::start(tmp.path());
    let mut conn = plane.accept().await;
    assert!(conn.handshake(vec![]).await.is_empty());
    let beat = conn.recv().await;
    assert_eq!(beat.payload, Frame::Heartbeat { status: HealthStatus::Healthy, active_runs: vec![] });

    let (command_id, run_id) = (Uuid::now_v7(), Uuid::now_v7());
    conn.command(command_id, start_run(run_id)).await;
    let mut store = Store::default();
    let mut acked = false;
    while !store.ended() {
        let frame = conn.recv_frame().await;
        match &frame.payload {
            Frame::CommandAck { command_id: id, outcome } => {
                assert_eq!((*id, outcome), (command_id, &CommandOutcome::Accepted));
                acked = true;
            }
            Frame::Event { .. } => {
                assert_eq!((frame.run_id, frame.agent_id), (Some(run_id), Some(AGENT)));
                store.take(&frame);
                conn.send(Frame::EventAck { run_id, up_to_sequence: frame.sequence.unwrap() }).await;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(acked);
    assert!(store.gap_free());
    let kinds: Vec<EventKind> = store.events.values().map(|(_, k, _)| *k).collect();
    assert_eq!(kinds[0], EventKind::Started);
    assert_eq!(kinds.len(), 5);
    assert_eq!(store.events[&5].2, json!({"outcome": "failed", "exit_code": 3, "signal": null}));
    let all = serde_json::to_string(&store.events.values().map(|(_, _, d)| d).collect::<Vec<_>>()).unwrap();
    assert!(all.contains(r#"{"a":1}"#) && !all.contains("sk-abcdefghij"), "{all}");

    // Redelivered: acknowledged again, not run again.
    conn.command(command_id, start_run(run_id)).await;
    let again = conn.recv_frame().await;
    assert_eq!(again.payload, Frame::CommandAck { command_id, outcome: CommandOutcome::Accepted });
    // Refusals carry their reason.
    let checkpoint = Uuid::now_v7();
    conn.command(checkpoint, Command::Checkpoint { run_id, reason: "x".into() }).await;
    let refused = conn.recv_frame().await;
    assert_eq!(
        refused.payload,
        Frame::CommandAck {
            command_id: checkpoint,
            outcome: CommandOutcome::Rejected { reason: "capability missing: checkpoint".into() }
        }
    );
    // Cancel of a finished run: accepted, nothing else.
    let cancel = Uuid::now_v7();
    conn.command(cancel, Command::CancelRun { run_id, mode: CancelMode::Graceful }).await;
    assert_eq!(
        conn.recv_frame().await.payload,
        Frame::CommandAck { command_id: cancel, outcome: CommandOutcome::Accepted }
    );
    // Nothing more arrives but heartbeats.
    let quiet = tokio::time::timeout(Duration::from_millis(600), conn.recv_frame()).await;
    assert!(quiet.is_err(), "unexpected frame {quiet:?}");
}

#[tokio::test]
async fn a_cut_connection_resumes_after_the_acknowledged_sequence_with_nothing_lost_or_duplicated() {
    let tmp = tempfile::tempdir().unwrap();
    let plane = ControlPlane::start().await;
    setup(tmp.path(), &plane.url(), "for i in $(seq 1 30); do echo line $i; sleep 0.02; done");
    let connector = Connector::start(tmp.path());
    let mut conn = plane.accept().await;
    conn.handshake(vec![]).await;
    let run_id = Uuid::now_v7();
    conn.command(Uuid::now_v7(), start_run(run_id)).await;
    let mut store = Store::default();
    // Take some events, acknowledge only the first three, then cut the connection.
    while store.events.len() < 6 {
        let frame = conn.recv_frame().await;
        if store.take(&frame) && frame.sequence == Some(3) {
            conn.send(Frame::EventAck { run_id, up_to_sequence: 3 }).await;
        }
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(conn);

    let mut conn = plane.accept().await;
    let offered = conn.handshake(vec![RunCursor { run_id, acked_sequence: 3 }]).await;
    assert_eq!(offered, [RunCursor { run_id, acked_sequence: 3 }], "it resumes from the acknowledged sequence");
    let mut resent = Vec::new();
    while !store.ended() {
        let frame = conn.recv_frame().await;
        if store.take(&frame) {
            resent.push(frame.sequence.unwrap());
            conn.send(Frame::EventAck { run_id, up_to_sequence: frame.sequence.unwrap() }).await;
        }
    }
    assert_eq!(resent[0], 4, "the first frame after the handshake is the first unacknowledged event");
    assert!(resent.windows(2).all(|w| w[1] == w[0] + 1), "in order: {resent:?}");
    assert!(store.gap_free());
    let expected: Vec<String> = (1..=30).map(|i| format!("line {i}")).collect();
    assert_eq!(store.lines(), expected, "zero lost, zero duplicated, order kept");
    assert!(connector.log().contains("connection to the control plane lost"));
}

#[tokio::test]
async fn a_refused_credential_is_logged_and_retried() {
    let tmp = tempfile::tempdir().unwrap();
    let plane = ControlPlane::start().await;
    setup(tmp.path(), &plane.url(), "true");
    let connector = Connector::start(tmp.path());
    plane.refuse().await;
    plane.refuse().await;
    let mut conn = plane.accept().await;
    conn.handshake(vec![]).await;
    let log = connector.log();
    assert_eq!(log.matches("revoked or the credential is wrong").count(), 2, "each refusal is logged: {log}");
    // A server error frame followed by a close is logged and the connector dials again.
    conn.send(Frame::Error { code: acc_protocol::ErrorCode::Unauthorized, message: "revoked".into() }).await;
    drop(conn);
    let mut conn = plane.accept().await;
    conn.handshake(vec![]).await;
    assert!(connector.log().contains("the control plane reported an error"));
}

#[tokio::test]
async fn a_killed_connector_restarts_and_drains_its_spool_in_order() {
    let tmp = tempfile::tempdir().unwrap();
    let plane = ControlPlane::start().await;
    setup(tmp.path(), &plane.url(), "for i in $(seq 1 10); do echo line $i; done; sleep 60");
    let mut connector = Connector::start(tmp.path());
    let mut conn = plane.accept().await;
    conn.handshake(vec![]).await;
    let run_id = Uuid::now_v7();
    conn.command(Uuid::now_v7(), start_run(run_id)).await;
    let mut store = Store::default();
    // Receive everything, acknowledge nothing: the control plane "crashed" before storing.
    while store.events.len() < 11 {
        let frame = conn.recv_frame().await;
        store.take(&frame);
    }
    let before: Vec<Uuid> = store.events.values().map(|(id, _, _)| *id).collect();
    store = Store::default();
    connector.kill();
    drop(conn);

    let connector = Connector::start(tmp.path());
    let mut conn = plane.accept().await;
    let offered = conn.handshake(vec![]).await;
    assert_eq!(offered, [RunCursor { run_id, acked_sequence: 0 }]);
    while !store.ended() {
        let frame = conn.recv_frame().await;
        if store.take(&frame) {
            conn.send(Frame::EventAck { run_id, up_to_sequence: frame.sequence.unwrap() }).await;
        }
    }
    assert!(store.gap_free());
    let after: Vec<Uuid> = store.events.values().map(|(id, _, _)| *id).collect();
    assert_eq!(after[..11], before[..], "the same events, with the same ids, in the same order");
    let expected: Vec<String> = (1..=10).map(|i| format!("line {i}")).collect();
    assert_eq!(store.lines(), expected);
    let (_, kind, result) = store.events.values().last().unwrap();
    assert_eq!(*kind, EventKind::Result);
    assert_eq!(result["outcome"], "failed", "the run the killed connector left is ended: {result}");
    // The orphaned `sleep 60` was killed on restart: nothing of the old run is running.
    let beat = loop {
        let frame = conn.recv().await;
        if let Frame::Heartbeat { active_runs, .. } = frame.payload {
            break active_runs;
        }
    };
    assert!(beat.is_empty());
    drop(connector);
}

#[tokio::test]
async fn sigterm_cancels_active_runs_and_exits_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    let plane = ControlPlane::start().await;
    setup(tmp.path(), &plane.url(), "echo started; sleep 60");
    let mut connector = Connector::start(tmp.path());
    let mut conn = plane.accept().await;
    conn.handshake(vec![]).await;
    let run_id = Uuid::now_v7();
    conn.command(Uuid::now_v7(), start_run(run_id)).await;
    let mut store = Store::default();
    while store.lines().is_empty() {
        let frame = conn.recv_frame().await;
        if store.take(&frame) {
            conn.send(Frame::EventAck { run_id, up_to_sequence: frame.sequence.unwrap() }).await;
        }
    }
    std::process::Command::new("kill").args(["-TERM", &connector.child.id().to_string()]).status().unwrap();
    while !store.ended() {
        let frame = conn.recv_frame().await;
        if store.take(&frame) {
            conn.send(Frame::EventAck { run_id, up_to_sequence: frame.sequence.unwrap() }).await;
        }
    }
    let (_, _, result) = store.events.values().last().unwrap();
    assert_eq!(result["outcome"], "cancelled");
    let status = tokio::time::timeout(LIMIT, async {
        loop {
            if let Some(status) = connector.child.try_wait().unwrap() {
                return status;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .unwrap();
    assert!(status.success(), "{}", connector.log());
}

/// A one-shot HTTP server: returns the request body it got, answering `status` and `body`.
async fn http_once(listener: TcpListener, status: &'static str, body: String) -> String {
    let (mut tcp, _) = listener.accept().await.unwrap();
    let mut request = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let n = tcp.read(&mut buf).await.unwrap();
        request.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&request).to_string();
        if let Some(end) = text.find("\r\n\r\n") {
            let length: usize = text
                .lines()
                .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse().unwrap()))
                .unwrap_or(0);
            if request.len() >= end + 4 + length {
                assert!(text.starts_with("POST /v1/connectors/enroll "), "{text}");
                let response = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                tcp.write_all(response.as_bytes()).await.unwrap();
                return text[end + 4..].to_owned();
            }
        }
    }
}

#[tokio::test]
async fn enroll_stores_an_owner_only_credential_and_reports_refusals() {
    let tmp = tempfile::tempdir().unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = format!("http://{}/", listener.local_addr().unwrap());
    let answer = json!({"connector_id": CONNECTOR, "credential": SECRET}).to_string();
    let got = tokio::spawn(http_once(listener, "200 OK", answer));
    let credential = tmp.path().join("acc-connector").join("credential.json");
    let output = tokio::process::Command::new(binary())
        .args(["enroll", "--server", &server, "--token", "acc_enroll_abc", "--name", "host-1", "--credential"])
        .arg(&credential)
        .output()
        .await
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let body: Value = serde_json::from_str(&got.await.unwrap()).unwrap();
    assert_eq!(body, json!({"token": "acc_enroll_abc", "name": "host-1"}));
    let stored: Value = serde_json::from_slice(&std::fs::read(&credential).unwrap()).unwrap();
    assert_eq!(
        stored,
        json!({"server": server.trim_end_matches('/'), "connector_id": CONNECTOR, "credential": SECRET})
    );
    assert_eq!(std::fs::metadata(&credential).unwrap().permissions().mode() & 0o777, 0o600);
    assert_eq!(std::fs::metadata(credential.parent().unwrap()).unwrap().permissions().mode() & 0o777, 0o700);
    assert!(String::from_utf8_lossy(&output.stdout).contains(&CONNECTOR.to_string()));

    // A refused token: the server's message, a failure exit, no file.
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = format!("http://{}", listener.local_addr().unwrap());
    let refusal = json!({"error": {"code": "UNAUTHENTICATED", "message": "the enrollment token is wrong, expired or already used"}});
    tokio::spawn(http_once(listener, "401 Unauthorized", refusal.to_string()));
    let other = tmp.path().join("other.json");
    let output = tokio::process::Command::new(binary())
        .args(["enroll", "--server", &server, "--token", "acc_enroll_used", "--credential"])
        .arg(&other)
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the enrollment token is wrong, expired or already used"), "{stderr}");
    assert!(!other.exists());

    // An existing credential is not replaced without --force.
    let output = tokio::process::Command::new(binary())
        .args(["enroll", "--server", &server, "--token", "t", "--credential"])
        .arg(&credential)
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--force"));
}

#[tokio::test]
async fn adapters_lists_the_command_adapter_and_its_capabilities() {
    let output = tokio::process::Command::new(binary()).args(["adapters", "--json"]).output().await.unwrap();
    assert!(output.status.success());
    let list: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(list[0]["adapter"], "command");
    assert_eq!(list[0]["capabilities"], json!(["stream", "cancel"]));
    let output = tokio::process::Command::new(binary()).arg("adapters").output().await.unwrap();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("command\t") && text.contains("capabilities: stream, cancel"), "{text}");
}

#[tokio::test]
async fn run_refuses_a_credential_others_can_read() {
    let tmp = tempfile::tempdir().unwrap();
    setup(tmp.path(), "http://127.0.0.1:9", "true");
    let credential = tmp.path().join("id").join("credential.json");
    std::fs::set_permissions(&credential, std::fs::Permissions::from_mode(0o644)).unwrap();
    let output = tokio::process::Command::new(binary())
        .args(["run", "--config"])
        .arg(tmp.path().join("connector.toml"))
        .output()
        .await
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("chmod 600"));
}
