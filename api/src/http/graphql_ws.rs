//! GraphQL over WebSocket for clients (the graphql-transport-ws protocol): subscriptions, and
//! queries and mutations too.
//!
//! Browsers cannot set headers on a WebSocket, so the access token comes in `connection_init`
//! (`{"authorization": "Bearer …"}`). A socket outlives the token it opened with, so the caller's
//! credential is checked again before every operation, and the socket is closed as soon as its
//! session ends or its account is disabled (4401) or its roles change (4403, reconnect to act
//! with the new ones). Idle and greedy sockets are bounded by the `[websocket]` settings:
//! `connection_init` must come in time (4408), the server pings and closes a socket that stops
//! answering, and operations per socket and sockets per identity are capped.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use async_graphql::ServerError;
use axum::Extension;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response as HttpResponse};
use futures_util::stream::{self, BoxStream};
use futures_util::{FutureExt, SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio_stream::StreamMap;
use tracing::Instrument;
use uuid::Uuid;

use super::SharedState;
use super::request::{ClientAddress, CorrelationId, context, device};
use crate::broker::{Delivery, Event, Topic};
use crate::error::{DomainError, ErrorCode};
use crate::graphql::fanout::{OperationKind, Start, payload};
use crate::graphql::{RequestContext, finish_errors, gql_error, request_data};
use crate::identity::actor::Actor;
use crate::identity::{AccessVerdict, DeviceInfo};

const PROTOCOL: &str = "graphql-transport-ws";

/// Close codes: graphql-transport-ws's own, and 4499 for a peer that stopped answering pings.
mod close {
    pub const BAD_REQUEST: u16 = 4400;
    pub const UNAUTHORIZED: u16 = 4401;
    pub const FORBIDDEN: u16 = 4403;
    pub const INIT_TIMEOUT: u16 = 4408;
    pub const DUPLICATE_ID: u16 = 4409;
    pub const TOO_MANY: u16 = 4429;
    pub const UNRESPONSIVE: u16 = 4499;
    /// RFC 6455: a message larger than the endpoint takes.
    pub const TOO_BIG: u16 = 1009;
}

const ACCESS_CHANGED: &str = "your access changed; reconnect to continue with it";

/// Tungstenite's default read buffer is 128 KiB per socket, zero-filled; client messages are small.
const READ_BUFFER_BYTES: usize = 4096;

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ClientMessage {
    ConnectionInit {
        #[serde(default)]
        payload: Option<serde_json::Value>,
    },
    Ping {},
    Pong {},
    Subscribe {
        id: String,
        payload: Box<async_graphql::Request>,
    },
    Complete {
        id: String,
    },
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ServerMessage<'a> {
    ConnectionAck,
    Pong,
    Error { id: &'a str, payload: Vec<ServerError> },
    Complete { id: &'a str },
}

impl ServerMessage<'_> {
    fn into_frame(self) -> Message {
        // These types always serialize: strings, and a Response made of JSON values.
        Message::Text(serde_json::to_string(&self).unwrap_or_default().into())
    }
}

fn token(payload: &serde_json::Value) -> Option<String> {
    ["authorization", "Authorization", "accessToken"]
        .iter()
        .find_map(|k| payload.get(k).and_then(|v| v.as_str()))
        .map(|v| v.strip_prefix("Bearer ").unwrap_or(v).trim().to_owned())
}

pub async fn upgrade(
    State(state): State<SharedState>,
    Extension(CorrelationId(correlation_id)): Extension<CorrelationId>,
    address: ClientAddress,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> HttpResponse {
    let offered = headers.get(axum::http::header::SEC_WEBSOCKET_PROTOCOL).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !offered.split(',').any(|p| p.trim() == PROTOCOL) {
        return (StatusCode::BAD_REQUEST, "only the graphql-transport-ws protocol is supported").into_response();
    }
    let device = device(&headers, address);
    // A root span with the correlation id of its own: as a child it would keep the upgrade
    // request's span alive for the socket's whole life.
    let span = tracing::info_span!(parent: None, "graphql_ws", correlation_id = %correlation_id, user_id = tracing::field::Empty);
    let max_message_size = state.max_body_bytes;
    upgrade
        .protocols([PROTOCOL])
        .max_message_size(max_message_size)
        .read_buffer_size(READ_BUFFER_BYTES)
        .on_upgrade(move |socket| serve(state, socket, correlation_id, device).instrument(span))
}

/// What ends a socket: a close frame with a code and reason, the peer's close frame, or the peer
/// having gone.
enum End {
    Close(u16, String),
    ClosedByPeer,
    Gone,
}

type Step = Result<(), End>;

async fn serve(state: SharedState, mut socket: WebSocket, correlation_id: String, device: DeviceInfo) {
    // Boxed, as the handlers below: a socket spends its life waiting, and its task should not
    // carry the space of a database round trip all that time.
    let end = match Box::pin(initialise(&state, &mut socket, correlation_id, device)).await {
        Ok(mut connection) => connection.run(&mut socket).await,
        Err(end) => end,
    };
    match end {
        End::Close(code, reason) => {
            tracing::debug!(code, reason, "closing the socket");
            let reason = close_reason(&reason).into();
            if socket.send(Message::Close(Some(CloseFrame { code, reason }))).await.is_ok() {
                // The peer's close frame is awaited before the connection is dropped (RFC 6455
                // §7.1.1): dropped at once, anything the peer sent meanwhile makes the kernel
                // answer with a reset, which can discard the close frame, code and all, before
                // the peer reads it.
                let answered = async {
                    while let Some(Ok(frame)) = socket.recv().await {
                        if matches!(frame, Message::Close(_)) {
                            break;
                        }
                    }
                };
                let _ = tokio::time::timeout(CLOSE_HANDSHAKE, answered).await;
            }
        }
        // The reply to the peer's close frame is queued when it is read: sent, the peer sees a
        // clean close (1000) rather than an abnormal one (1006), and a client that closes a socket
        // when idle (graphql-ws's lazy mode) opens the next one without an error.
        End::ClosedByPeer => {
            let _ = socket.flush().await;
        }
        End::Gone => {}
    }
}

/// Waits for `connection_init`, authenticates it and takes a place among the identity's sockets.
async fn initialise(
    state: &SharedState,
    socket: &mut WebSocket,
    correlation_id: String,
    device: DeviceInfo,
) -> Result<Connection, End> {
    let settings = &state.websocket;
    let deadline = tokio::time::Instant::now() + Duration::from_millis(settings.connection_init_timeout_ms);
    let payload = loop {
        let incoming = tokio::time::timeout_at(deadline, receive(socket))
            .await
            .map_err(|_| End::Close(close::INIT_TIMEOUT, "Connection initialisation timeout".into()))??;
        match incoming {
            Some(ClientMessage::ConnectionInit { payload }) => break payload.unwrap_or_default(),
            Some(ClientMessage::Ping {}) => send(socket, ServerMessage::Pong.into_frame()).await?,
            Some(ClientMessage::Pong {}) | None => {}
            Some(ClientMessage::Subscribe { .. } | ClientMessage::Complete { .. }) => {
                return Err(End::Close(close::UNAUTHORIZED, "Unauthorized".into()));
            }
        }
    };
    let request = context(&state.services, token(&payload).as_deref(), correlation_id, None, device)
        .await
        .map_err(|(_, e)| End::Close(close::UNAUTHORIZED, e.to_string()))?;
    let owner = match &request.actor {
        Some(actor) => SocketOwner::User(actor.user_id),
        None => SocketOwner::Address(request.device.client_address.clone()),
    };
    let max = settings.max_sockets_per_identity;
    let registration = state.sockets.register(owner, max).ok_or_else(|| {
        End::Close(close::TOO_MANY, format!("at most {max} sockets per identity; close another one first"))
    })?;
    send(socket, ServerMessage::ConnectionAck.into_frame()).await?;
    let access_changes = match &request.actor {
        Some(actor) => state.services.broker.subscribe(Topic::OrganizationAccess(actor.organization_id)).boxed(),
        None => stream::pending().boxed(),
    };
    Ok(Connection {
        state: state.clone(),
        request,
        operations: StreamMap::new(),
        access_changes,
        _registration: registration,
    })
}

/// An operation's messages, ready to send: its `next`s, then its `complete`.
type Operation = BoxStream<'static, Message>;

/// An initialised socket: its caller, the operations it runs and what may end it.
struct Connection {
    state: SharedState,
    /// The caller as last checked, with the socket's correlation id and device.
    request: RequestContext,
    operations: StreamMap<Arc<str>, Operation>,
    access_changes: BoxStream<'static, Delivery>,
    _registration: Registration,
}

impl Connection {
    async fn run(&mut self, socket: &mut WebSocket) -> End {
        let mut pings = tokio::time::interval(Duration::from_millis(self.state.websocket.ping_interval_ms));
        // A busy loop must not fire missed ticks back to back: that would judge a client silent
        // without giving it the time to answer.
        pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        pings.tick().await;
        let mut heard_since_ping = true;
        loop {
            let step = tokio::select! {
                frame = socket.recv() => {
                    heard_since_ping = true;
                    match frame {
                        Some(Ok(frame)) => Box::pin(self.on_frame(socket, frame)).await,
                        Some(Err(error)) => Err(read_failed(error)),
                        None => Err(End::Gone),
                    }
                }
                Some((_, frame)) = self.operations.next(), if !self.operations.is_empty() => {
                    self.on_results(socket, frame).await
                }
                Some(delivery) = self.access_changes.next() => Box::pin(self.on_access_change(delivery)).await,
                _ = pings.tick() => {
                    if !heard_since_ping {
                        Err(End::Close(close::UNRESPONSIVE, "no answer to pings".into()))
                    } else {
                        heard_since_ping = false;
                        send(socket, Message::Ping(Default::default())).await
                    }
                }
            };
            if let Err(end) = step {
                return end;
            }
        }
    }

    async fn on_frame(&mut self, socket: &mut WebSocket, frame: Message) -> Step {
        match parse(frame)? {
            None => Ok(()),
            Some(ClientMessage::ConnectionInit { .. }) => {
                Err(End::Close(close::TOO_MANY, "Too many initialisation requests".into()))
            }
            Some(ClientMessage::Ping {}) => send(socket, ServerMessage::Pong.into_frame()).await,
            Some(ClientMessage::Pong {}) => Ok(()),
            Some(ClientMessage::Complete { id }) => {
                self.operations.remove(id.as_str());
                Ok(())
            }
            Some(ClientMessage::Subscribe { id, payload }) => self.start(socket, id, *payload).await,
        }
    }

    /// Starts an operation, after checking that the caller may still act and has room for it.
    async fn start(&mut self, socket: &mut WebSocket, id: String, mut request: async_graphql::Request) -> Step {
        if self.operations.contains_key(id.as_str()) {
            return Err(End::Close(close::DUPLICATE_ID, format!("Subscriber for {id} already exists")));
        }
        let max = self.state.websocket.max_operations_per_socket;
        if self.operations.len() >= max {
            return send(socket, refused(&id, gql_error(TooManyOperations { max }), &self.request.correlation_id))
                .await;
        }
        if let Err(refusal) = self.recheck().await? {
            return send(socket, refused(&id, refusal, &self.request.correlation_id)).await;
        }
        let results = match OperationKind::of(&request) {
            OperationKind::Subscription { replays } => self.state.fanout.subscribe(Start {
                schema: &self.state.schema,
                services: &self.state.services,
                context: self.request.clone(),
                request,
                replays,
            }),
            OperationKind::QueryOrMutation => {
                request.data = request_data(&self.state.services, self.request.clone());
                let schema = self.state.schema.clone();
                let (correlation_id, max_bytes) =
                    (self.request.correlation_id.clone(), self.state.services.limits.max_response_bytes);
                // In a task of its own, so it goes on while the socket waits on anything else. Through
                // `execute`, so a query or mutation keeps the time budget it has over HTTP.
                let execution = Owned(tokio::spawn(async move {
                    let response = crate::audit::correlated(correlation_id.clone(), schema.execute(request));
                    payload(response.await, &correlation_id, max_bytes)
                }));
                stream::once(execution).filter_map(|done| async move { done.ok() }).boxed()
            }
        };
        let next = NextFrames::of(&id);
        let complete = ServerMessage::Complete { id: &id }.into_frame();
        let frames = results.map(move |payload| next.around(&payload)).chain(stream::once(async move { complete }));
        self.operations.insert(id.as_str().into(), frames.boxed());
        // LISTEN_FIRST: subscription resolvers subscribe to the broker before their first wait,
        // and `fanout.subscribe` has run them that far (or joined a shape that already listens)
        // before the next client message is read. So a `ping` sent after `subscribe` is answered
        // only once the subscription listens, and a client that saw the `pong` misses no event of
        // what it does next.
        self.send_ready(socket).await
    }

    /// Sends an operation's message, and whatever other messages are ready, then flushes once.
    async fn on_results(&mut self, socket: &mut WebSocket, frame: Message) -> Step {
        socket.feed(frame).await.map_err(|_| End::Gone)?;
        self.send_ready(socket).await
    }

    /// Sends every message that is ready now, then flushes once.
    async fn send_ready(&mut self, socket: &mut WebSocket) -> Step {
        while let Some(Some((_, frame))) = self.operations.next().now_or_never() {
            socket.feed(frame).await.map_err(|_| End::Gone)?;
        }
        socket.flush().await.map_err(|_| End::Gone)
    }

    async fn on_access_change(&mut self, delivery: Delivery) -> Step {
        let Some(actor) = &self.request.actor else { return Ok(()) };
        match delivery {
            Delivery::Event(event) => match &*event {
                Event::AccessChanged(change) => match change.verdict_for(actor) {
                    Some(AccessVerdict::Ended) => Err(End::Close(close::UNAUTHORIZED, "the session has ended".into())),
                    Some(AccessVerdict::Changed) => Err(End::Close(close::FORBIDDEN, ACCESS_CHANGED.into())),
                    None => Ok(()),
                },
                _ => Ok(()),
            },
            // Some changes were missed: ask the database instead.
            Delivery::Lagged(_) => self.recheck().await.map(|_| ()),
        }
    }

    /// Checks the caller's credential and grants again. A credential that no longer works or
    /// grants that changed end the socket; a database failure only refuses the operation at hand.
    async fn recheck(&mut self) -> Result<Result<(), async_graphql::Error>, End> {
        let Some(actor) = &self.request.actor else { return Ok(Ok(())) };
        match self.state.services.identity.reauthenticate(actor).await {
            Ok(current) if same_access(&current, actor) => Ok(Ok(())),
            Ok(_) => Err(End::Close(close::FORBIDDEN, ACCESS_CHANGED.into())),
            Err(e) if e.code() == ErrorCode::Unauthenticated => Err(End::Close(close::UNAUTHORIZED, e.to_string())),
            Err(e) => Ok(Err(gql_error(e))),
        }
    }
}

/// A socket asked for more operations at once than `max_operations_per_socket`.
#[derive(Debug, thiserror::Error)]
#[error("at most {max} operations may run at once on one socket; complete one first")]
struct TooManyOperations {
    max: usize,
}

impl DomainError for TooManyOperations {
    fn code(&self) -> ErrorCode {
        ErrorCode::RateLimited
    }

    fn details(&self) -> serde_json::Value {
        serde_json::json!({ "maxOperations": self.max })
    }
}

fn same_access(current: &Actor, before: &Actor) -> bool {
    current.grants == before.grants && current.server_admin == before.server_admin
}

/// An `error` message: the operation did not start.
fn refused(id: &str, error: async_graphql::Error, correlation_id: &str) -> Message {
    let mut errors = vec![error.into_server_error(Default::default())];
    finish_errors(&mut errors, correlation_id);
    ServerMessage::Error { id, payload: errors }.into_frame()
}

/// The `next` messages of one operation. What comes before the payload is the same in each, so
/// it is put together once, not for every result of a subscription.
struct NextFrames {
    prefix: String,
}

impl NextFrames {
    fn of(id: &str) -> Self {
        // The id is the client's own string; serde_json quotes it.
        let id = serde_json::to_string(id).unwrap_or_default();
        Self { prefix: format!(r#"{{"type":"next","id":{id},"payload":"#) }
    }

    /// A `next` message around a result already in JSON (serde_json's output).
    fn around(&self, payload: &str) -> Message {
        let mut text = String::with_capacity(self.prefix.len() + payload.len() + 1);
        text.push_str(&self.prefix);
        text.push_str(payload);
        text.push('}');
        Message::Text(text.into())
    }
}

/// A spawned task that is cancelled with the operation it runs (a `complete`, a closed socket).
struct Owned<T>(tokio::task::JoinHandle<T>);

impl<T> std::future::Future for Owned<T> {
    type Output = Result<T, tokio::task::JoinError>;

    fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Self::Output> {
        self.0.poll_unpin(cx)
    }
}

impl<T> Drop for Owned<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

async fn send(socket: &mut WebSocket, frame: Message) -> Step {
    socket.send(frame).await.map_err(|_| End::Gone)
}

/// The next protocol message; `None` for frames that carry none (pings, pongs).
async fn receive(socket: &mut WebSocket) -> Result<Option<ClientMessage>, End> {
    match socket.recv().await {
        Some(Ok(frame)) => parse(frame),
        Some(Err(error)) => Err(read_failed(error)),
        None => Err(End::Gone),
    }
}

fn parse(frame: Message) -> Result<Option<ClientMessage>, End> {
    let text = match frame {
        Message::Text(text) => text,
        Message::Binary(_) => return Err(End::Close(close::BAD_REQUEST, "messages must be text".into())),
        Message::Close(_) => return Err(End::ClosedByPeer),
        Message::Ping(_) | Message::Pong(_) => return Ok(None),
    };
    serde_json::from_str(text.as_str())
        .map(Some)
        .map_err(|e| End::Close(close::BAD_REQUEST, format!("Invalid message received: {e}")))
}

/// Why a message could not be read: one past `max_message_size` is answered with 1009, as the
/// protocol says (the client learns why, rather than seeing the connection reset); anything else
/// means the connection is gone.
fn read_failed(error: axum::Error) -> End {
    match error.into_inner().downcast_ref::<tungstenite::Error>() {
        Some(tungstenite::Error::Capacity(too_big)) => End::Close(close::TOO_BIG, too_big.to_string()),
        _ => End::Gone,
    }
}

/// How long a socket the server closes waits for the peer's close frame.
const CLOSE_HANDSHAKE: std::time::Duration = std::time::Duration::from_secs(2);

/// `reason`, cut to the 123 bytes a close frame has room for (RFC 6455 §5.5: a control frame's
/// payload is at most 125 bytes, two of them the code), at a character boundary. A longer one
/// breaks the protocol, and clients drop the connection without reading the code (found by
/// `fuzz::the_graphql_websocket_takes_or_refuses_every_message_and_never_crashes`: a malformed
/// message's parse error quoted into the reason).
fn close_reason(reason: &str) -> &str {
    const ROOM: usize = 123;
    if reason.len() <= ROOM {
        return reason;
    }
    let end = (0..=ROOM).rev().find(|&i| reason.is_char_boundary(i)).unwrap_or(0);
    &reason[..end]
}

/// Whose sockets count together towards `max_sockets_per_identity`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum SocketOwner {
    User(Uuid),
    /// Sockets that are not signed in count per client address.
    Address(Option<String>),
}

/// How many sockets each identity has open in this process.
#[derive(Default)]
pub struct SocketRegistry {
    open: Mutex<HashMap<SocketOwner, usize>>,
}

impl SocketRegistry {
    /// Takes one of `owner`'s places, or `None` when all `max` are taken.
    fn register(self: &Arc<Self>, owner: SocketOwner, max: usize) -> Option<Registration> {
        let mut open = self.open.lock().ok()?;
        let count = open.entry(owner.clone()).or_default();
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(Registration { registry: self.clone(), owner })
    }
}

/// A socket's place among its identity's; given back when the socket ends.
struct Registration {
    registry: Arc<SocketRegistry>,
    owner: SocketOwner,
}

impl Drop for Registration {
    fn drop(&mut self) {
        let Ok(mut open) = self.registry.open.lock() else { return };
        if let Some(count) = open.get_mut(&self.owner) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.owner);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identity_gets_its_places_back_when_sockets_end() {
        let registry = Arc::new(SocketRegistry::default());
        let owner = SocketOwner::User(Uuid::now_v7());
        let first = registry.register(owner.clone(), 2).unwrap();
        let _second = registry.register(owner.clone(), 2).unwrap();
        assert!(registry.register(owner.clone(), 2).is_none());
        assert!(registry.register(SocketOwner::Address(None), 2).is_some(), "others are not affected");
        drop(first);
        assert!(registry.register(owner, 2).is_some());
    }

    #[test]
    fn a_close_reason_fits_its_frame_and_stays_text() {
        assert_eq!(close_reason("Unauthorized"), "Unauthorized");
        let long = format!("Invalid message received: {}", "é".repeat(100));
        let cut = close_reason(&long);
        assert!(cut.len() <= 123 && long.starts_with(cut) && cut.len() >= 122, "{}", cut.len());
    }

    #[test]
    fn a_forgotten_identity_costs_nothing() {
        let registry = Arc::new(SocketRegistry::default());
        drop(registry.register(SocketOwner::User(Uuid::now_v7()), 1));
        assert!(registry.open.lock().unwrap().is_empty());
    }
}
