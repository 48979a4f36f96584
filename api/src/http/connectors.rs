//! The connector side of the server: `POST /v1/connectors/enroll` and the gateway socket
//! `/v1/connectors/ws`, where frames are decoded, checked against the connector's identity and
//! handed to the gateway and run services.

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::time::Duration;

use acc_protocol::{Envelope, ErrorCode, Frame, MAX_FRAME_BYTES, ProtocolError, SkillFiles};
use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, HeaderName, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use futures_util::{FutureExt, SinkExt, StreamExt};
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use serde::Deserialize;
use tokio::sync::mpsc;
use tracing::Instrument;

use super::artifacts::{refuse, uploaded};
use super::request::{CorrelationId, bearer};
use super::tls::TlsConnection;
use super::{AppState, SharedState};
use crate::config::{Config, ConnectorClientCertificate, DEFAULT_CERTIFICATE_HEADER};
use crate::error::{CommonError, DomainError};
use crate::gateway::{CertificateCheck, GatewayError, OUTBOX_CAPACITY};
use crate::runs::{ConnectorEvent, Ingested, RunError};

/// Close codes, as docs/protocol.md lists them.
const CLOSE_POLICY: u16 = 1008;
const CLOSE_TOO_BIG: u16 = 1009;
const CLOSE_IDENTITY: u16 = 4403;

/// The most frames read from a connector's socket before their events are stored and answered.
const MAX_FRAMES_AT_ONCE: usize = 256;

fn error_body(status: StatusCode, err: impl DomainError) -> Response {
    let body = serde_json::json!({ "error": { "code": err.code().as_str(), "message": err.to_string() } });
    (status, Json(body)).into_response()
}

#[derive(Deserialize)]
pub struct EnrollRequest {
    token: String,
    name: Option<String>,
    /// A PKCS#10 certificate signing request (PEM) for the connector's client certificate.
    csr: Option<String>,
}

/// The HTTP status of a refused enrollment or upgrade.
fn status_of(e: &GatewayError) -> StatusCode {
    match e.code() {
        crate::error::ErrorCode::Unauthenticated => StatusCode::UNAUTHORIZED,
        crate::error::ErrorCode::Validation => StatusCode::BAD_REQUEST,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

pub async fn enroll(State(state): State<SharedState>, Json(request): Json<EnrollRequest>) -> Response {
    let gateway = &state.services.gateway;
    match gateway.enroll(&request.token, request.name.as_deref(), request.csr.as_deref()).await {
        Ok(enrolled) => Json(serde_json::json!({
            "connector_id": enrolled.connector.id,
            "credential": enrolled.credential,
            "certificate": enrolled.certificate,
            "ca_certificate": gateway.connector_ca().certificate_pem(),
        }))
        .into_response(),
        Err(e) => error_body(status_of(&e), e),
    }
}

/// Where connectors' client certificates come from: the operator's `connector_client_certificate`.
#[derive(Debug, Clone)]
pub struct CertificateSource {
    mode: ConnectorClientCertificate,
    /// The header a trusted proxy passes the certificate in (`proxy-header`).
    header: HeaderName,
}

impl CertificateSource {
    /// From validated settings (`Config::validate` checked the header name).
    pub fn new(config: &Config) -> Self {
        let header = HeaderName::from_bytes(config.connector_client_certificate_header.as_bytes())
            .unwrap_or(HeaderName::from_static(DEFAULT_CERTIFICATE_HEADER));
        Self { mode: config.connector_client_certificate(), header }
    }

    /// The one start-up line that says how connectors are authenticated, and whether the
    /// credential alone is enough.
    pub fn log(&self, trusted_proxies: &crate::config::TrustedProxies) {
        let mode = self.mode.as_str();
        match self.mode {
            ConnectorClientCertificate::Tls => tracing::info!(
                connector_client_certificate = mode,
                "connector endpoint: a connector needs its credential and the client certificate issued to it, over this server's TLS"
            ),
            ConnectorClientCertificate::ProxyHeader => tracing::info!(
                connector_client_certificate = mode,
                header = %self.header,
                trusted_proxies = ?Vec::<String>::from(trusted_proxies.clone()),
                "connector endpoint: a connector needs its credential and the client certificate issued to it, as a trusted proxy passes it in the header"
            ),
            ConnectorClientCertificate::None => tracing::warn!(
                connector_client_certificate = mode,
                "connector endpoint: CREDENTIAL ONLY: a connector's bearer credential alone admits it; no client certificate is checked"
            ),
        }
    }
}

/// A certificate a proxy passed on: URL-escaped PEM (nginx's `$ssl_client_escaped_cert`).
fn proxied_certificate(headers: &HeaderMap, header: &HeaderName) -> Option<Vec<u8>> {
    let escaped = headers.get(header)?.to_str().ok()?;
    let pem = percent_encoding::percent_decode_str(escaped).decode_utf8().ok()?;
    CertificateDer::from_pem_slice(pem.as_bytes()).ok().map(|der| der.to_vec())
}

/// The connector a request comes from: its bearer credential, and the client certificate issued
/// to it where the operator requires one; else the response refusing it.
async fn connector_of(
    state: &AppState,
    tls: Option<&TlsConnection>,
    peer: SocketAddr,
    headers: &HeaderMap,
) -> Result<acc_entity::connector::Model, Response> {
    let Some(credential) = bearer(headers) else {
        return Err(error_body(StatusCode::UNAUTHORIZED, GatewayError::ConnectorRefused));
    };
    let source = &state.connector_certificates;
    let proxied = match source.mode {
        // Only a trusted proxy's header counts; anyone else could write one.
        ConnectorClientCertificate::ProxyHeader if state.trusted_proxies.contains(peer.ip()) => {
            proxied_certificate(headers, &source.header)
        }
        _ => None,
    };
    let check = match source.mode {
        ConnectorClientCertificate::None => CertificateCheck::CredentialOnly,
        ConnectorClientCertificate::Tls => {
            CertificateCheck::Required(tls.and_then(|tls| tls.client_certificate.as_deref()))
        }
        ConnectorClientCertificate::ProxyHeader => CertificateCheck::Required(proxied.as_deref()),
    };
    state.services.gateway.authenticate(credential, check).await.map_err(|e| error_body(status_of(&e), e))
}

#[derive(Deserialize)]
pub struct AttachQuery {
    name: String,
}

/// `PUT /v1/connectors/runs/{run_id}/artifacts?name=…`: a file the agent of a run attached (its
/// `attach_artifact` run tool), streamed by the connector that holds the run.
#[allow(clippy::too_many_arguments)] // an axum handler: one argument per extractor
pub async fn attach_artifact(
    State(state): State<SharedState>,
    tls: Option<Extension<TlsConnection>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Extension(CorrelationId(correlation_id)): Extension<CorrelationId>,
    Path(run_id): Path<String>,
    query: Result<Query<AttachQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let connector = match connector_of(&state, tls.as_ref().map(|Extension(tls)| tls), peer, &headers).await {
        Ok(connector) => connector,
        Err(refused) => return refused,
    };
    let Ok(run_id) = run_id.parse::<uuid::Uuid>() else {
        return refuse(CommonError::validation("the run is named by its UUID"), &correlation_id);
    };
    let Ok(Query(AttachQuery { name })) = query else {
        return refuse(CommonError::validation("an attachment names its file: ?name=…"), &correlation_id);
    };
    let media_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let span = tracing::info_span!("attach_artifact", connector_id = %connector.id, %run_id);
    let stored = state
        .services
        .run_tools
        .attach_artifact(connector.id, run_id, &name, media_type, body.into_data_stream())
        .instrument(span)
        .await;
    uploaded(stored, &correlation_id)
}

/// `GET /v1/connectors/runs/{run_id}/skills/{skill_version_id}`: the files of a skill version
/// the run was started with, for the connector that holds the run's working attempt, which checks
/// them against the digest its `start_run` named before the agent sees them.
pub async fn skill_files(
    State(state): State<SharedState>,
    tls: Option<Extension<TlsConnection>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Extension(CorrelationId(correlation_id)): Extension<CorrelationId>,
    Path((run_id, skill_version_id)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let connector = match connector_of(&state, tls.as_ref().map(|Extension(tls)| tls), peer, &headers).await {
        Ok(connector) => connector,
        Err(refused) => return refused,
    };
    let (Ok(run_id), Ok(skill_version_id)) = (run_id.parse::<uuid::Uuid>(), skill_version_id.parse::<uuid::Uuid>())
    else {
        return refuse(
            CommonError::validation("the run and the skill version are named by their UUIDs"),
            &correlation_id,
        );
    };
    let span = tracing::info_span!("skill_files", connector_id = %connector.id, %run_id, %skill_version_id);
    let files = async {
        // Only the connector holding the run learns anything of it: any other is told it does not exist.
        let acting = state.services.run_reader.acting_for(connector.id, run_id).await.map_err(|e| match e {
            RunError::Common(e) => e,
            _ => CommonError::NotFound("run"),
        })?;
        state.services.skills.files_for_run(&acting, skill_version_id).await
    };
    match files.instrument(span).await {
        Ok(files) => Json(SkillFiles { files }).into_response(),
        Err(e) => refuse(e, &correlation_id),
    }
}

pub async fn upgrade(
    State(state): State<SharedState>,
    tls: Option<Extension<TlsConnection>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let connector = match connector_of(&state, tls.as_ref().map(|Extension(tls)| tls), peer, &headers).await {
        Ok(connector) => connector,
        Err(refused) => return refused,
    };
    let span = tracing::info_span!("connector", connector_id = %connector.id);
    // Twice the frame limit, so a frame somewhat too large is answered with `frame_too_large`
    // before the close; beyond that the socket itself refuses it.
    upgrade.max_message_size(2 * MAX_FRAME_BYTES).max_frame_size(2 * MAX_FRAME_BYTES).on_upgrade(
        move |socket| async move {
            let _ = crate::event_path::spawn(serve(state, connector, socket).instrument(span)).await;
        },
    )
}

fn error_frame(connector_id: uuid::Uuid, code: ErrorCode, message: String) -> Message {
    error_about(connector_id, None, code, message)
}

/// The frame an error refuses, as the connector numbered it.
#[derive(Clone, Copy)]
struct About {
    run_id: Option<uuid::Uuid>,
    event_id: Option<uuid::Uuid>,
    sequence: Option<u64>,
}

impl About {
    fn envelope(envelope: &Envelope) -> Self {
        About { run_id: envelope.run_id, event_id: envelope.event_id, sequence: envelope.sequence }
    }

    fn event(event: &ConnectorEvent) -> Self {
        About { run_id: Some(event.run_id), event_id: Some(event.event_id), sequence: Some(event.sequence) }
    }
}

/// An error frame that names the frame it refuses (its run, event and sequence), so the
/// connector can tell which of its events was not stored.
fn error_about(connector_id: uuid::Uuid, refused: Option<About>, code: ErrorCode, message: String) -> Message {
    let mut envelope = Envelope::new(connector_id, Frame::Error { code, message });
    if let Some(refused) = refused {
        envelope.run_id = refused.run_id;
        envelope.event_id = refused.event_id;
        envelope.sequence = refused.sequence;
    }
    text(&envelope)
}

fn close(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame { code, reason: reason.to_owned().into() }))
}

async fn serve(state: SharedState, connector: acc_entity::connector::Model, socket: WebSocket) {
    let (mut sink, mut stream) = socket.split();
    let (outbox, mut outgoing) = mpsc::channel::<Envelope>(OUTBOX_CAPACITY);
    let services = &state.services;
    let id = connector.id;

    // The first frame must be the handshake, and soon.
    let hello = tokio::time::timeout(Duration::from_secs(10), stream.next()).await;
    let hello = match hello {
        Ok(Some(Ok(Message::Text(text)))) => acc_protocol::decode(text.as_bytes()),
        _ => return,
    };
    let (version, agents, resume) = match hello {
        Ok(Envelope { connector_id, .. }) if connector_id != id => {
            let _ = sink.send(error_frame(id, ErrorCode::IdentityMismatch, "connector_id is not yours".into())).await;
            let _ = sink.send(close(CLOSE_IDENTITY, "identity mismatch")).await;
            return;
        }
        Ok(Envelope { payload: Frame::Hello { connector_version, agents, resume }, .. }) => {
            (connector_version, agents, resume)
        }
        Ok(_) => {
            let _ = sink.send(error_frame(id, ErrorCode::MalformedFrame, "the first frame must be hello".into())).await;
            let _ = sink.send(close(CLOSE_POLICY, "hello expected")).await;
            return;
        }
        Err(e) => {
            let _ = sink.send(error_frame(id, e.code(), e.to_string())).await;
            let _ = sink.send(close(CLOSE_POLICY, "bad frame")).await;
            return;
        }
    };
    // The gateway holds the only sender: when it drops it (revocation), this socket closes.
    let connection = uuid::Uuid::now_v7();
    let ids = match services.gateway.handshake(&connector, &version, &agents, connection, outbox).await {
        Ok(ids) => ids,
        Err(e) => {
            tracing::error!(error = %e, "handshake failed");
            let _ = sink.send(error_frame(id, ErrorCode::Internal, "handshake failed".into())).await;
            return;
        }
    };
    // Every command sent from now on goes through this connection.
    let connected_at = chrono::Utc::now();
    let resume = match services.runs.resume_cursors(id, &resume).await {
        Ok(cursors) => cursors,
        Err(e) => {
            tracing::error!(error = %e, "could not read the resume cursors");
            let _ = sink.send(error_frame(id, ErrorCode::Internal, "handshake failed".into())).await;
            let _ = services.gateway.disconnected(id, connection).await;
            return;
        }
    };
    // Its first heartbeat completes what it says it still has: see `Returning`.
    let mut returning = Some(Returning { hello_runs: resume.iter().map(|c| c.run_id).collect(), connected_at });
    let heartbeat_interval_ms = services.gateway.heartbeat_interval.as_millis() as u64;
    let approval_keys = services.runs.approval_keys();
    let ack = Envelope::new(id, Frame::HelloAck { agents: ids, heartbeat_interval_ms, resume, approval_keys });
    if sink.send(text(&ack)).await.is_err() {
        let _ = services.gateway.disconnected(id, connection).await;
        return;
    }
    tracing::info!(agents = agents.len(), "connector online");
    // Beside the socket loop, which drains the outbox this fills.
    let runs = services.runs.clone();
    tokio::spawn(
        async move {
            if let Err(e) = runs.connector_online(id, connected_at).await {
                tracing::warn!(error = %e, "could not resume the connector's runs");
            }
        }
        .in_current_span(),
    );

    // A connector that stays silent for three heartbeats is gone.
    let silence = services.gateway.heartbeat_interval * 3;
    loop {
        tokio::select! {
            frame = outgoing.recv() => match frame {
                Some(envelope) => {
                    if sink.send(text(&envelope)).await.is_err() { break; }
                }
                // The gateway let go of this connection: revoked, or replaced by a newer one.
                None => { let _ = sink.send(close(CLOSE_IDENTITY, "revoked or replaced by a newer connection")).await; break; }
            },
            incoming = tokio::time::timeout(silence, stream.next()) => {
                let first = match incoming {
                    Err(_) => { tracing::warn!("connector silent; closing"); break; }
                    Ok(None) | Ok(Some(Err(_))) => break,
                    Ok(Some(Ok(message))) => message,
                };
                // Every frame already here is handled at once: the events among them are stored
                // in one transaction (group commit), and the replies go out in one flush.
                let mut messages = vec![first];
                let mut ended = false;
                while messages.len() < MAX_FRAMES_AT_ONCE {
                    match stream.next().now_or_never() {
                        Some(Some(Ok(message))) => messages.push(message),
                        Some(_) => { ended = true; break; }
                        None => break,
                    }
                }
                let mut frames = Frames::new(&state, id);
                for message in messages {
                    let bytes = match message {
                        Message::Text(text) => text.as_bytes().to_vec(),
                        Message::Binary(bytes) => bytes.to_vec(),
                        Message::Close(_) => { ended = true; break; }
                        _ => continue,
                    };
                    if frames.take(&bytes, &mut returning).await.is_break() {
                        ended = true;
                        break;
                    }
                }
                let replies = frames.finish().await;
                let mut sent = true;
                for reply in replies {
                    if sink.feed(reply).await.is_err() { sent = false; break; }
                }
                if !sent || sink.flush().await.is_err() || ended { break; }
            }
        }
    }
    let _ = services.gateway.disconnected(id, connection).await;
    tracing::info!("connector offline");
}

/// A connection until its first heartbeat: the runs its `hello` resumed. With the heartbeat's
/// active runs, they are the runs the connector still has; its other accepted attempts are gone.
struct Returning {
    hello_runs: Vec<uuid::Uuid>,
    connected_at: chrono::DateTime<chrono::Utc>,
}

#[derive(Clone)]
struct Refusal {
    code: ErrorCode,
    message: String,
    close_with: Option<u16>,
    /// The refused frame, when it could be read.
    about: Option<About>,
}

impl From<ProtocolError> for Refusal {
    fn from(e: ProtocolError) -> Self {
        let close_with = Some(if matches!(e, ProtocolError::TooLarge { .. }) { CLOSE_TOO_BIG } else { CLOSE_POLICY });
        Refusal { code: e.code(), message: e.to_string(), close_with, about: None }
    }
}

/// Frames read from the socket at one wake-up, handled in order: consecutive events wait in a
/// batch stored by one call, which every other frame flushes first.
struct Frames<'a> {
    state: &'a AppState,
    connector_id: uuid::Uuid,
    events: Vec<ConnectorEvent>,
    replies: Vec<Message>,
}

impl<'a> Frames<'a> {
    fn new(state: &'a AppState, connector_id: uuid::Uuid) -> Self {
        Frames { state, connector_id, events: Vec::new(), replies: Vec::new() }
    }

    /// Takes the next frame; `Break` when the socket is to be closed after it.
    async fn take(&mut self, bytes: &[u8], returning: &mut Option<Returning>) -> ControlFlow<()> {
        let outcome = match self.read(bytes) {
            Ok(envelope) => match ConnectorEvent::read(&envelope) {
                Some(Ok(event)) => {
                    self.events.push(event);
                    return ControlFlow::Continue(());
                }
                Some(Err(e)) => Err(refusal(e, About::envelope(&envelope))),
                None => {
                    self.store_events().await;
                    handle(self.state, self.connector_id, envelope, returning).await
                }
            },
            Err(refusal) => Err(refusal),
        };
        self.answer(outcome)
    }

    fn read(&self, bytes: &[u8]) -> Result<Envelope, Refusal> {
        let envelope = acc_protocol::decode(bytes)?;
        if envelope.connector_id != self.connector_id {
            return Err(Refusal {
                code: ErrorCode::IdentityMismatch,
                message: "connector_id is not yours".into(),
                close_with: Some(CLOSE_IDENTITY),
                about: None,
            });
        }
        Ok(envelope)
    }

    fn answer(&mut self, outcome: Result<Option<Envelope>, Refusal>) -> ControlFlow<()> {
        match outcome {
            Ok(reply) => {
                self.replies.extend(reply.map(|reply| text(&reply)));
                ControlFlow::Continue(())
            }
            Err(Refusal { code, message, close_with, about }) => {
                self.replies.push(error_about(self.connector_id, about, code, message));
                match close_with {
                    Some(close_code) => {
                        self.replies.push(close(close_code, "protocol violation"));
                        ControlFlow::Break(())
                    }
                    None => ControlFlow::Continue(()),
                }
            }
        }
    }

    /// Stores the waiting events together and queues their acknowledgements and refusals.
    async fn store_events(&mut self) {
        if self.events.is_empty() {
            return;
        }
        let events = std::mem::take(&mut self.events);
        let abouts: Vec<About> = events.iter().map(About::event).collect();
        let count = events.len();
        let span = tracing::info_span!("events", count);
        let started = std::time::Instant::now();
        let ingested = self.state.services.runs.ingest(self.connector_id, events).instrument(span).await;
        self.state.metrics.ingested(count, started.elapsed());
        match ingested {
            Ok(Ingested { acks, refused }) => {
                for (index, e) in refused {
                    let _ = self.answer(Err(refusal(e, abouts[index])));
                }
                for (run_id, up_to_sequence) in acks {
                    self.replies
                        .push(text(&Envelope::new(self.connector_id, Frame::EventAck { run_id, up_to_sequence })));
                }
            }
            // Nothing of the batch is acknowledged: the connector sends it again.
            Err(e) => {
                let failure = internal(e);
                for about in abouts {
                    let _ = self.answer(Err(Refusal { about: Some(about), ..failure.clone() }));
                }
            }
        }
    }

    async fn finish(mut self) -> Vec<Message> {
        self.store_events().await;
        self.replies
    }
}

fn text(envelope: &Envelope) -> Message {
    Message::Text(acc_protocol::encode(envelope).unwrap_or_default().into())
}

/// How an event the run service did not store is refused to its connector.
fn refusal(e: RunError, refused: About) -> Refusal {
    let about = Some(refused);
    let code = match &e {
        RunError::UnknownRun => ErrorCode::UnknownRun,
        RunError::OutOfOrder { .. } => ErrorCode::OutOfOrder,
        RunError::RunEnded { .. } => ErrorCode::RunEnded,
        RunError::Common(crate::error::CommonError::Validation { .. }) => ErrorCode::MalformedFrame,
        _ => return Refusal { about, ..internal(e) },
    };
    let message = match e {
        RunError::UnknownRun => format!("run {:?} is not running on this connector", refused.run_id),
        e => e.to_string(),
    };
    Refusal { code, message, close_with: None, about }
}

/// One frame from the connector other than an event; the reply to send, if any.
async fn handle(
    state: &AppState,
    connector_id: uuid::Uuid,
    envelope: Envelope,
    returning: &mut Option<Returning>,
) -> Result<Option<Envelope>, Refusal> {
    let services = &state.services;
    match &envelope.payload {
        Frame::Heartbeat { status, active_runs } => {
            if let Some(Returning { hello_runs, connected_at }) = returning.take() {
                let reported: HashSet<uuid::Uuid> = hello_runs.into_iter().chain(active_runs.iter().copied()).collect();
                services.runs.connector_returned(connector_id, &reported, connected_at).await.map_err(internal)?;
            }
            services.gateway.heartbeat(connector_id, *status).await.map_err(internal)?;
            services.runs.connector_heartbeat(connector_id, active_runs).await.map_err(internal)?;
            Ok(None)
        }
        Frame::CommandAck { command_id, outcome } => {
            let span = tracing::info_span!("command_ack", %command_id, run_id = ?envelope.run_id);
            services
                .runs
                .command_acknowledged(connector_id, *command_id, outcome)
                .instrument(span)
                .await
                .map_err(internal)?;
            Ok(None)
        }
        Frame::Error { code, message } => {
            tracing::warn!(?code, %message, "connector reported an error");
            Ok(None)
        }
        Frame::ToolCall { call_id, request } => {
            let Some(run_id) = envelope.run_id else {
                return Err(Refusal {
                    code: ErrorCode::MalformedFrame,
                    message: "a tool call names its run".into(),
                    close_with: None,
                    about: None,
                });
            };
            // Answered beside the socket loop, so the run's events never wait for a call.
            let (call_id, request) = (*call_id, request.clone());
            let (run_tools, gateway) = (services.run_tools.clone(), services.gateway.clone());
            let span = tracing::info_span!("tool_call", %call_id, %run_id);
            tokio::spawn(
                async move {
                    let outcome = run_tools.call(connector_id, run_id, request).await;
                    let mut result = Envelope::new(connector_id, Frame::ToolResult { call_id, outcome });
                    result.run_id = Some(run_id);
                    if !gateway.send(connector_id, result) {
                        tracing::warn!("the connector left before its tool call was answered");
                    }
                }
                .instrument(span),
            );
            Ok(None)
        }
        _ => Err(Refusal {
            code: ErrorCode::MalformedFrame,
            message: "this frame is not sent by a connector".into(),
            close_with: None,
            about: None,
        }),
    }
}

fn internal(e: impl std::fmt::Display) -> Refusal {
    tracing::error!(error = %e, "frame handling failed");
    Refusal { code: ErrorCode::Internal, message: "internal error".into(), close_with: None, about: None }
}
