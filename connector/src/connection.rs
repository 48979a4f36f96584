//! The connection to the control plane: dials `/v1/connectors/ws` with the bearer credential,
//! says `Hello`, takes `HelloAck`, then concurrently sends heartbeats, command acks and spooled
//! events (resent after the acknowledged cursor) and reads commands, event acks and errors.
//! Reconnects forever with jittered exponential backoff. After the control plane refuses the
//! credential it reads the credential file again, so a new one (`acc-connector enroll --force`)
//! takes effect without a restart.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use acc_protocol::{Envelope, Frame, MAX_FRAME_BYTES, RunCursor};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::{HeaderValue, StatusCode, header};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use tracing::Instrument;

use crate::backoff::Backoff;
use crate::config::Config;
use crate::credential::{CredentialError, read_credential};
use crate::enroll::{EnrollError, gateway_url};
use crate::run_files::ServerFiles;
use crate::run_tools::QueuedCall;
use crate::runtime::Runtime;
use crate::spool::SpoolError;
use crate::tls::{TlsError, client_config};

/// How long dialing and the WebSocket upgrade may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// How long the control plane has to answer `Hello`.
const HELLO_TIMEOUT: Duration = Duration::from_secs(15);
/// The heartbeat interval when `HelloAck` gives none.
const DEFAULT_HEARTBEAT: Duration = Duration::from_secs(10);
/// Events written to the socket between checks for control frames and heartbeats.
const SEND_BATCH: usize = 256;

/// After the control plane reports it failed to store a frame, unacknowledged events are resent this much later.
const RESEND_AFTER_ERROR: Duration = Duration::from_secs(1);

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What the reader hands the writer.
#[derive(Debug)]
enum Outgoing {
    Frame(Box<Envelope>),
    /// Send every unacknowledged event again (the control plane failed to store one).
    Resend,
}

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(
        "the control plane refused the connector credential (HTTP 401): the connector was revoked or the credential is wrong"
    )]
    Unauthorized,
    #[error("the control plane refused the connection (HTTP {status}): {body}")]
    Refused { status: u16, body: String },
    #[error("could not connect within {0:?}")]
    ConnectTimeout(Duration),
    #[error("no HelloAck within {0:?}")]
    HelloTimeout(Duration),
    #[error("websocket: {0}")]
    WebSocket(Box<tungstenite::Error>),
    #[error("the credential cannot be sent as a header")]
    BadCredential,
    #[error("protocol: {0}")]
    Protocol(String),
    #[error("the control plane sent an error: {code:?}: {message}")]
    Server { code: acc_protocol::ErrorCode, message: String },
    #[error("the connection closed: {0}")]
    Closed(String),
    #[error(transparent)]
    Spool(#[from] SpoolError),
}

impl From<tungstenite::Error> for SessionError {
    fn from(e: tungstenite::Error) -> Self {
        SessionError::WebSocket(Box::new(e))
    }
}

impl From<acc_protocol::ProtocolError> for SessionError {
    fn from(e: acc_protocol::ProtocolError) -> Self {
        SessionError::Protocol(e.to_string())
    }
}

/// Where and how to connect, and as whom.
#[derive(Clone)]
pub struct Target {
    /// `ws(s)://…/v1/connectors/ws`.
    pub url: String,
    /// The connector the credential belongs to.
    pub connector_id: uuid::Uuid,
    /// The bearer credential from enrollment.
    pub credential: String,
    /// TLS for `wss://`: the servers to trust and the client certificate to present.
    pub tls: Arc<rustls::ClientConfig>,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("url", &self.url)
            .field("connector_id", &self.connector_id)
            .field("credential", &"[REDACTED]")
            .finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum IdentityError {
    #[error(transparent)]
    Credential(#[from] CredentialError),
    #[error(transparent)]
    Server(#[from] EnrollError),
    #[error(transparent)]
    Tls(#[from] TlsError),
}

/// Where the connector's identity comes from: the credential file `enroll` writes, and the
/// configuration's server override and private CA.
#[derive(Debug, Clone)]
pub struct Identity {
    credential_path: PathBuf,
    server: Option<String>,
    server_ca: Option<PathBuf>,
}

impl Identity {
    pub fn from_config(config: &Config) -> Self {
        Self {
            credential_path: config.credential_path(),
            server: config.server.clone(),
            server_ca: config.server_ca.clone(),
        }
    }

    /// Reads the credential file: what to dial, and as whom.
    pub fn load(&self) -> Result<Target, IdentityError> {
        let credential = read_credential(&self.credential_path)?;
        let server = self.server.clone().unwrap_or_else(|| credential.server.clone());
        let url = gateway_url(&server)?;
        let tls = client_config(self.server_ca.as_deref(), credential.client_identity())?;
        Ok(Target { url, connector_id: credential.connector_id, credential: credential.credential, tls })
    }

    /// After the control plane refused `current`: the credential file's new one, if
    /// `acc-connector enroll --force` has written one there since.
    fn replacement(&self, current: &Target) -> Option<Target> {
        match self.load() {
            Ok(target) if target.credential != current.credential => Some(target),
            Ok(_) => {
                tracing::warn!(
                    credential = %self.credential_path.display(),
                    "the credential file still holds the refused credential; `acc-connector enroll --force` with a new enrollment token replaces it, and this connector picks it up without a restart"
                );
                None
            }
            Err(e) => {
                tracing::warn!(error = %e, "could not read the credential file again");
                None
            }
        }
    }
}

/// Connects as `target` (read from `identity`), and reconnects after every loss, until
/// `shutdown` turns true.
pub async fn run(runtime: Arc<Runtime>, identity: Identity, mut target: Target, mut shutdown: watch::Receiver<bool>) {
    let mut backoff = Backoff::default();
    let mut session_number: u64 = 0;
    loop {
        if *shutdown.borrow() {
            return;
        }
        session_number += 1;
        let mut established = false;
        let span = tracing::info_span!("session", n = session_number, connector_id = %runtime.connector_id());
        let result = session(&runtime, &target, &mut shutdown, &mut established).instrument(span.clone()).await;
        if established {
            backoff.reset();
        }
        let refused = matches!(result, Err(SessionError::Unauthorized));
        match result {
            Ok(()) => {
                span.in_scope(|| tracing::info!("disconnected: the connector is stopping"));
                return;
            }
            Err(e) => span.in_scope(|| log_loss(&e)),
        }
        if refused && let Some(replacement) = span.in_scope(|| identity.replacement(&target)) {
            match take_on(&runtime, &target, &replacement).instrument(span.clone()).await {
                Ok(()) => {
                    target = replacement;
                    backoff.reset();
                    continue;
                }
                // Tried again at the next refusal.
                Err(e) => span.in_scope(|| tracing::error!(error = %e, "could not take on the new identity")),
            }
        }
        let delay = backoff.next_delay();
        span.in_scope(|| tracing::info!(delay_ms = delay.as_millis() as u64, "reconnecting"));
        tokio::select! {
            () = tokio::time::sleep(delay) => {}
            _ = shutdown.changed() => {}
        }
    }
}

fn log_loss(e: &SessionError) {
    match e {
        SessionError::Unauthorized => tracing::error!("{e}"),
        SessionError::Refused { .. } => tracing::error!(error = %e, "connection refused"),
        _ => tracing::warn!(error = %e, "connection to the control plane lost"),
    }
}

/// Switches to the credential that replaced `current`; a new connector identity first ends
/// everything of the old one (`Runtime::adopt_identity`).
async fn take_on(runtime: &Runtime, current: &Target, replacement: &Target) -> Result<(), SpoolError> {
    if replacement.connector_id != current.connector_id {
        runtime.adopt_identity(replacement.connector_id).await?;
    }
    tracing::info!(connector_id = %replacement.connector_id, "dialing with the new credential");
    Ok(())
}

async fn dial(target: &Target) -> Result<Socket, SessionError> {
    let mut request = target.url.as_str().into_client_request()?;
    let bearer =
        HeaderValue::from_str(&format!("Bearer {}", target.credential)).map_err(|_| SessionError::BadCredential)?;
    request.headers_mut().insert(header::AUTHORIZATION, bearer);
    request
        .headers_mut()
        .insert(header::USER_AGENT, HeaderValue::from_static(concat!("acc-connector/", env!("CARGO_PKG_VERSION"))));
    let config =
        WebSocketConfig::default().max_message_size(Some(MAX_FRAME_BYTES)).max_frame_size(Some(MAX_FRAME_BYTES));
    let tls = tokio_tungstenite::Connector::Rustls(target.tls.clone());
    let connect = tokio_tungstenite::connect_async_tls_with_config(request, Some(config), true, Some(tls));
    match tokio::time::timeout(CONNECT_TIMEOUT, connect).await {
        Err(_) => Err(SessionError::ConnectTimeout(CONNECT_TIMEOUT)),
        Ok(Ok((socket, _))) => Ok(socket),
        Ok(Err(tungstenite::Error::Http(response))) if response.status() == StatusCode::UNAUTHORIZED => {
            Err(SessionError::Unauthorized)
        }
        Ok(Err(tungstenite::Error::Http(response))) => Err(SessionError::Refused {
            status: response.status().as_u16(),
            body: response
                .body()
                .as_deref()
                .map(|b| String::from_utf8_lossy(b).chars().take(300).collect())
                .unwrap_or_default(),
        }),
        Ok(Err(e)) => Err(e.into()),
    }
}

fn text(envelope: &Envelope) -> Result<Message, SessionError> {
    Ok(Message::text(acc_protocol::encode(envelope)?))
}

async fn session(
    runtime: &Arc<Runtime>,
    target: &Target,
    shutdown: &mut watch::Receiver<bool>,
    established: &mut bool,
) -> Result<(), SessionError> {
    tracing::debug!(url = %target.url, "dialing");
    let socket = dial(target).await?;
    let (mut sink, mut stream) = socket.split();
    let hello = runtime.hello();
    if let Frame::Hello { resume, agents, .. } = &hello {
        tracing::info!(agents = agents.len(), resuming = resume.len(), "connected; saying hello");
    }
    sink.send(text(&Envelope::new(runtime.connector_id(), hello))?).await?;

    let (agents, heartbeat_ms, resume, approval_keys) = tokio::time::timeout(HELLO_TIMEOUT, async {
        loop {
            let Some(message) = stream.next().await else {
                return Err(SessionError::Closed("before HelloAck".into()));
            };
            let Some(envelope) = incoming(message?)? else { continue };
            match envelope.payload {
                Frame::HelloAck { agents, heartbeat_interval_ms, resume, approval_keys } => {
                    return Ok((agents, heartbeat_interval_ms, resume, approval_keys));
                }
                Frame::Error { code, message } => return Err(SessionError::Server { code, message }),
                other => return Err(SessionError::Protocol(format!("expected HelloAck, got {}", frame_name(&other)))),
            }
        }
    })
    .await
    .map_err(|_| SessionError::HelloTimeout(HELLO_TIMEOUT))??;

    let sent = runtime.apply_hello_ack(&agents, &resume, &approval_keys)?;
    match ServerFiles::new(&target.url, &target.credential, (*target.tls).clone()) {
        Ok(upload) => runtime.set_server_files(upload),
        Err(e) => tracing::warn!(error = %e, "attached files cannot be uploaded"),
    }
    *established = true;
    let heartbeat = match heartbeat_ms {
        0 => DEFAULT_HEARTBEAT,
        ms => Duration::from_millis(ms.max(100)),
    };
    log_resume(&resume);
    tracing::info!(agents = agents.len(), heartbeat_ms = heartbeat.as_millis() as u64, "handshake complete");

    let (control, control_rx) = mpsc::channel::<Outgoing>(256);
    let writer = write_loop(runtime, &mut sink, control_rx, sent, heartbeat, shutdown.clone());
    let reader = read_loop(runtime, &mut stream, control);
    tokio::select! {
        result = writer => result,
        result = reader => result,
    }
}

fn log_resume(resume: &[RunCursor]) {
    for cursor in resume {
        tracing::info!(run_id = %cursor.run_id, acked_sequence = cursor.acked_sequence, "resuming the run's events after the acknowledged sequence");
    }
}

/// A frame from the control plane, or `None` for WebSocket-level messages.
fn incoming(message: Message) -> Result<Option<Envelope>, SessionError> {
    let bytes = match message {
        Message::Text(text) => text.as_bytes().to_vec(),
        Message::Binary(bytes) => bytes.to_vec(),
        Message::Close(frame) => {
            let reason =
                frame.map(|f| format!("{} {}", u16::from(f.code), f.reason)).unwrap_or_else(|| "no reason".into());
            return Err(SessionError::Closed(reason));
        }
        Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => return Ok(None),
    };
    Ok(Some(acc_protocol::decode(&bytes)?))
}

fn frame_name(frame: &Frame) -> &'static str {
    match frame {
        Frame::Hello { .. } => "hello",
        Frame::HelloAck { .. } => "hello_ack",
        Frame::Heartbeat { .. } => "heartbeat",
        Frame::Command { .. } => "command",
        Frame::CommandAck { .. } => "command_ack",
        Frame::Event { .. } => "event",
        Frame::EventAck { .. } => "event_ack",
        Frame::ToolCall { .. } => "tool_call",
        Frame::ToolResult { .. } => "tool_result",
        Frame::Error { .. } => "error",
    }
}

async fn write_loop<S>(
    runtime: &Arc<Runtime>,
    sink: &mut S,
    mut control: mpsc::Receiver<Outgoing>,
    mut sent: HashMap<uuid::Uuid, u64>,
    heartbeat: Duration,
    mut shutdown: watch::Receiver<bool>,
) -> Result<(), SessionError>
where
    S: futures_util::Sink<Message, Error = tungstenite::Error> + Unpin,
{
    let mut next_heartbeat = Instant::now();
    let mut resend_at: Option<Instant> = None;
    loop {
        while let Ok(outgoing) = control.try_recv() {
            match outgoing {
                Outgoing::Frame(envelope) => sink.feed(text(&envelope)?).await?,
                Outgoing::Resend => {
                    resend_at.get_or_insert(Instant::now() + RESEND_AFTER_ERROR);
                }
            }
        }
        for QueuedCall { run_id, call_id, request } in runtime.queued_tool_calls() {
            let mut call = Envelope::new(runtime.connector_id(), Frame::ToolCall { call_id, request });
            call.run_id = Some(run_id);
            sink.feed(text(&call)?).await?;
        }
        if *shutdown.borrow() {
            let close = CloseFrame { code: CloseCode::Normal, reason: "connector stopping".into() };
            let _ = sink.send(Message::Close(Some(close))).await;
            return Ok(());
        }
        let now = Instant::now();
        if now >= next_heartbeat {
            let frame = Frame::Heartbeat { status: runtime.health(), active_runs: runtime.active_runs() };
            sink.feed(text(&Envelope::new(runtime.connector_id(), frame))?).await?;
            next_heartbeat = now + heartbeat;
        }
        if resend_at.is_some_and(|at| now >= at) {
            tracing::info!("resending the unacknowledged events");
            sent.clear();
            resend_at = None;
        }
        let batch = runtime.next_unsent(&mut sent, SEND_BATCH)?;
        let more = !batch.is_empty();
        for frame in batch {
            sink.feed(Message::text(frame.as_ref())).await?;
        }
        sink.flush().await?;
        if more {
            continue;
        }
        let wake = resend_at.map_or(next_heartbeat, |at| at.min(next_heartbeat));
        tokio::select! {
            outgoing = control.recv() => match outgoing {
                Some(Outgoing::Frame(envelope)) => sink.feed(text(&envelope)?).await?,
                Some(Outgoing::Resend) => {
                    resend_at.get_or_insert(Instant::now() + RESEND_AFTER_ERROR);
                }
                None => return Ok(()),
            },
            () = tokio::time::sleep_until(wake) => {}
            () = runtime.events_written().notified() => {}
            () = runtime.tool_call_queued() => {}
            _ = shutdown.changed() => {}
        }
    }
}

async fn read_loop<S>(
    runtime: &Arc<Runtime>,
    stream: &mut S,
    control: mpsc::Sender<Outgoing>,
) -> Result<(), SessionError>
where
    S: futures_util::Stream<Item = Result<Message, tungstenite::Error>> + Unpin,
{
    let connector_id = runtime.connector_id();
    while let Some(message) = stream.next().await {
        let envelope = match incoming(message?) {
            Ok(Some(envelope)) => envelope,
            Ok(None) => continue,
            Err(SessionError::Protocol(reason)) => {
                tracing::warn!(%reason, "unreadable frame from the control plane");
                let code = acc_protocol::ErrorCode::MalformedFrame;
                let error = Envelope::new(connector_id, Frame::Error { code, message: reason });
                control
                    .send(Outgoing::Frame(Box::new(error)))
                    .await
                    .map_err(|_| SessionError::Closed("writer stopped".into()))?;
                continue;
            }
            Err(e) => return Err(e),
        };
        if envelope.connector_id != connector_id {
            tracing::warn!(to = %envelope.connector_id, "ignoring a frame addressed to another connector");
            continue;
        }
        match envelope.payload {
            Frame::Command { command_id, command } => {
                let run_id = command_run_id(&command);
                let span = tracing::info_span!("command", %command_id, %run_id, kind = command_kind(&command));
                // Commands run in the order they came, so a start's skills are fetched before a cancel of it is read.
                let outcome = match runtime.fetch_skills(command_id, &command).instrument(span.clone()).await {
                    Ok(()) => span.in_scope(|| runtime.handle_command(command_id, command)).0,
                    Err(refused) => refused,
                };
                let mut ack = Envelope::new(connector_id, Frame::CommandAck { command_id, outcome });
                ack.run_id = Some(run_id);
                control
                    .send(Outgoing::Frame(Box::new(ack)))
                    .await
                    .map_err(|_| SessionError::Closed("writer stopped".into()))?;
            }
            Frame::EventAck { run_id, up_to_sequence } => runtime.ack_events(run_id, up_to_sequence)?,
            Frame::ToolResult { call_id, outcome } => runtime.tool_answered(call_id, outcome),
            Frame::Error { code, message } => {
                tracing::warn!(?code, run_id = ?envelope.run_id, %message, "the control plane reported an error");
                match (code, envelope.run_id) {
                    (acc_protocol::ErrorCode::Internal | acc_protocol::ErrorCode::OutOfOrder, _) => {
                        // It did not store something we sent; nothing acknowledged is lost, so send the rest again, in order.
                        control
                            .send(Outgoing::Resend)
                            .await
                            .map_err(|_| SessionError::Closed("writer stopped".into()))?;
                    }
                    // It will never store anything more of that run.
                    (acc_protocol::ErrorCode::RunEnded, Some(run_id)) => runtime.run_ended(run_id)?,
                    _ => {}
                }
            }
            other => tracing::warn!(frame = frame_name(&other), "ignoring an unexpected frame from the control plane"),
        }
    }
    Err(SessionError::Closed("the stream ended".into()))
}

fn command_run_id(command: &acc_protocol::Command) -> uuid::Uuid {
    use acc_protocol::Command::*;
    match command {
        StartRun { run_id, .. }
        | CancelRun { run_id, .. }
        | Checkpoint { run_id, .. }
        | Resume { run_id, .. }
        | ApprovalDecision { run_id, .. }
        | HandoffIngest { run_id, .. } => *run_id,
    }
}

fn command_kind(command: &acc_protocol::Command) -> &'static str {
    use acc_protocol::Command::*;
    match command {
        StartRun { .. } => "start_run",
        CancelRun { .. } => "cancel_run",
        Checkpoint { .. } => "checkpoint",
        Resume { .. } => "resume",
        ApprovalDecision { .. } => "approval_decision",
        HandoffIngest { .. } => "handoff_ingest",
    }
}
