//! Subscriptions shared by shape: subscribers asking for the same thing with the same eyes get
//! one execution, whose every result is serialized once and handed to each of them as the same
//! bytes.
//!
//! A shape is the operation's document, its name and variables, and who asks (the user and what
//! they may see: some fields answer per person). Its execution runs in a task of its own, so a
//! socket busy with anything else (or gone quiet) never holds back the shape's other subscribers
//! or a database connection the execution holds. Each subscriber reads from a bounded queue; one
//! that falls [`SUBSCRIBER_QUEUE`] results behind gets a `RATE_LIMITED` error and its operation
//! ends (a `runEvents` client resubscribes from its last sequence), while the others carry on.
//!
//! Subscribers who join a running shape late get what they would have got from an execution of
//! their own: a shape that replays stored events ([`REPLAYING_SUBSCRIPTIONS`]) keeps what it has
//! produced (up to [`HISTORY_LIMIT`] results, after which late subscribers start a new
//! execution), and hands it to them before its live results; other shapes hand out only what
//! comes after joining.

use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use async_graphql::parser::types::{ExecutableDocument, OperationType, Selection};
use async_graphql::{Positioned, Response};
use futures_util::stream::BoxStream;
use futures_util::{FutureExt, Stream, StreamExt};
use tokio::sync::broadcast;
use tokio_stream::wrappers::BroadcastStream;
use tokio_stream::wrappers::errors::BroadcastStreamRecvError;
use tracing::Instrument;
use uuid::Uuid;

use super::cost::chosen_operation;
use super::{AppSchema, RequestContext, gql_error, request_data, response_json};
use crate::app::Services;
use crate::error::{DomainError, ErrorCode};
use crate::identity::actor::{Actor, Grant, Role};

/// Subscriptions that begin with what is stored after a cursor, so a subscriber joining late
/// must first be handed everything its shape has produced.
pub const REPLAYING_SUBSCRIPTIONS: [&str; 1] = ["runEvents"];

/// Results a subscriber may fall behind before it is dropped.
pub const SUBSCRIBER_QUEUE: usize = 512;

/// Results a replaying shape keeps for late subscribers; past this they start a new execution.
pub const HISTORY_LIMIT: usize = 4096;

/// One result as the JSON of a GraphQL response, shared by every subscriber of its shape.
pub type Payload = Arc<str>;

/// The JSON of `response` within `max_bytes` (see [`response_json`]).
pub fn payload(response: Response, correlation_id: &str, max_bytes: usize) -> Payload {
    let json = response_json(response, correlation_id, max_bytes);
    // serde_json writes UTF-8.
    String::from_utf8(json).unwrap_or_default().into()
}

/// What a GraphQL request asks for, read from its document.
#[derive(Debug, PartialEq, Eq)]
pub enum OperationKind {
    /// A query or a mutation, or a document that does not parse (executing it says why).
    QueryOrMutation,
    Subscription {
        /// Whether it replays stored results first ([`REPLAYING_SUBSCRIPTIONS`]).
        replays: bool,
    },
}

impl OperationKind {
    pub fn of(request: &async_graphql::Request) -> Self {
        let Ok(document) = async_graphql::parser::parse_query(&request.query) else { return Self::QueryOrMutation };
        let operation = chosen_operation(&document, request.operation_name.as_deref());
        match operation {
            Some(operation) if operation.node.ty == OperationType::Subscription => {
                let mut seen = HashSet::new();
                Self::Subscription {
                    replays: any_replaying(&document, &operation.node.selection_set.node.items, &mut seen),
                }
            }
            _ => Self::QueryOrMutation,
        }
    }
}

/// Whether a root field among `selections` replays, looking into fragments (each once: a cycle
/// is left for validation to refuse).
fn any_replaying<'a>(
    document: &'a ExecutableDocument,
    selections: &'a [Positioned<Selection>],
    seen: &mut HashSet<&'a str>,
) -> bool {
    selections.iter().any(|selection| match &selection.node {
        Selection::Field(field) => REPLAYING_SUBSCRIPTIONS.contains(&field.node.name.node.as_str()),
        Selection::InlineFragment(fragment) => any_replaying(document, &fragment.node.selection_set.node.items, seen),
        Selection::FragmentSpread(spread) => {
            let name = spread.node.fragment_name.node.as_str();
            seen.insert(name)
                && document
                    .fragments
                    .get(name)
                    .is_some_and(|fragment| any_replaying(document, &fragment.node.selection_set.node.items, seen))
        }
    })
}

/// Who asks, as far as results can differ: the person and everything their access depends on.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Viewer {
    user_id: Uuid,
    organization_id: Uuid,
    server_admin: bool,
    role_ceiling: Option<Role>,
    grants: Vec<Grant>,
}

impl From<&Actor> for Viewer {
    fn from(actor: &Actor) -> Self {
        Self {
            user_id: actor.user_id,
            organization_id: actor.organization_id,
            server_admin: actor.server_admin,
            role_ceiling: actor.role_ceiling,
            grants: actor.grants.clone(),
        }
    }
}

/// Subscriptions with equal keys get identical results.
#[derive(Clone, PartialEq, Eq, Hash)]
struct ShapeKey {
    query: String,
    operation_name: Option<String>,
    variables: String,
    viewer: Option<Viewer>,
}

impl ShapeKey {
    fn of(request: &async_graphql::Request, actor: Option<&Actor>) -> Self {
        Self {
            query: request.query.clone(),
            operation_name: request.operation_name.clone(),
            // Variables always serialize: they are JSON values.
            variables: serde_json::to_string(&request.variables).unwrap_or_default(),
            viewer: actor.map(Viewer::from),
        }
    }
}

/// The running shapes, and how much work they did (for the work-count tests and `/metrics`).
#[derive(Default)]
pub struct SubscriptionFanout {
    shapes: Mutex<HashMap<ShapeKey, Arc<Shape>>>,
    executions: AtomicU64,
    serializations: AtomicU64,
    /// Results handed to subscribers: each result once per subscriber it reached.
    deliveries: AtomicU64,
    /// Subscribers dropped for falling [`SUBSCRIBER_QUEUE`] results behind.
    fell_behind: AtomicU64,
    /// Subscribers now, of every shape (one that a late subscriber's new execution replaced too).
    open: AtomicU64,
}

/// Where a subscription starts: the schema and services it runs on, and its caller.
pub struct Start<'a> {
    pub schema: &'a AppSchema,
    pub services: &'a Services,
    pub context: RequestContext,
    pub request: async_graphql::Request,
    pub replays: bool,
}

impl SubscriptionFanout {
    /// The results of a subscription: from the running execution of its shape, or a new one.
    ///
    /// A new execution is polled once before this returns, so its resolver listens to the broker
    /// before the caller reads its client's next message (`LISTEN_FIRST` in http/graphql_ws.rs).
    /// A running one already listens.
    pub fn subscribe(self: &Arc<Self>, start: Start<'_>) -> BoxStream<'static, Payload> {
        let key = ShapeKey::of(&start.request, start.context.actor.as_ref());
        let correlation_id = start.context.correlation_id.clone();
        let max_bytes = start.services.limits.max_response_bytes;
        if let Some(shape) = self.lock().get(&key)
            && let Some(subscriber) = shape.join(self, correlation_id.clone(), max_bytes)
        {
            return subscriber.boxed();
        }
        let shape = Arc::new(Shape::new(key.clone(), start.replays));
        let Some(subscriber) = shape.join(self, correlation_id.clone(), max_bytes) else {
            unreachable!("a new shape is running");
        };
        self.execute(&shape, start, correlation_id, max_bytes);
        let mut shapes = self.lock();
        // An execution that ended at once takes no one else.
        if shape.state().sender.is_some() {
            shapes.insert(key, shape);
        }
        subscriber.boxed()
    }

    /// Executions started so far: one per shape.
    pub fn executions(&self) -> u64 {
        self.executions.load(Ordering::Relaxed)
    }

    /// Results serialized so far: one per result of a shape, however many subscribe to it.
    pub fn serializations(&self) -> u64 {
        self.serializations.load(Ordering::Relaxed)
    }

    pub fn deliveries(&self) -> u64 {
        self.deliveries.load(Ordering::Relaxed)
    }

    pub fn fell_behind(&self) -> u64 {
        self.fell_behind.load(Ordering::Relaxed)
    }

    /// Subscriptions open now.
    pub fn subscribers(&self) -> u64 {
        self.open.load(Ordering::Relaxed)
    }

    fn publish(&self, shape: &Shape, payload: Payload) {
        let reached = shape.publish(payload);
        self.deliveries.fetch_add(reached as u64, Ordering::Relaxed);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<ShapeKey, Arc<Shape>>> {
        self.shapes.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn execute(self: &Arc<Self>, shape: &Arc<Shape>, start: Start<'_>, correlation_id: String, max_bytes: usize) {
        self.executions.fetch_add(1, Ordering::Relaxed);
        let span = tracing::info_span!("shared_subscription", correlation_id = %correlation_id);
        let mut request = start.request;
        request.data = request_data(start.services, start.context);
        let mut results = start.schema.execute_stream(request);
        // LISTEN_FIRST: run the resolver up to its first wait now.
        let first = span.in_scope(|| results.next().now_or_never());
        match first {
            Some(None) => return self.end(shape),
            Some(Some(response)) => self.publish(shape, self.serialize(response, &correlation_id, max_bytes)),
            None => {}
        }
        let (fanout, driven) = (self.clone(), shape.clone());
        let driver = crate::event_path::spawn(
            async move {
                while let Some(response) = results.next().await {
                    fanout.publish(&driven, fanout.serialize(response, &correlation_id, max_bytes));
                }
                fanout.end(&driven);
            }
            .instrument(span),
        );
        // Its first subscriber is still with `subscribe`, so it cannot have been left yet.
        shape.state().driver = Some(driver.abort_handle());
    }

    fn serialize(&self, response: Response, correlation_id: &str, max_bytes: usize) -> Payload {
        self.serializations.fetch_add(1, Ordering::Relaxed);
        payload(response, correlation_id, max_bytes)
    }

    /// The execution of `shape` ended: its subscribers get what is queued, then the end.
    fn end(&self, shape: &Arc<Shape>) {
        let mut shapes = self.lock();
        shape.state().sender = None;
        if shapes.get(&shape.key).is_some_and(|current| Arc::ptr_eq(current, shape)) {
            shapes.remove(&shape.key);
        }
    }

    /// A subscriber left; the last one to leave stops the execution.
    fn leave(&self, shape: &Arc<Shape>) {
        let mut shapes = self.lock();
        let mut state = shape.state();
        state.subscribers -= 1;
        self.open.fetch_sub(1, Ordering::Relaxed);
        if state.subscribers > 0 {
            return;
        }
        if let Some(driver) = state.driver.take() {
            driver.abort();
        }
        state.sender = None;
        if shapes.get(&shape.key).is_some_and(|current| Arc::ptr_eq(current, shape)) {
            shapes.remove(&shape.key);
        }
    }
}

/// One execution and its subscribers.
struct Shape {
    key: ShapeKey,
    replays: bool,
    state: Mutex<ShapeState>,
}

struct ShapeState {
    /// `None` once the execution ended.
    sender: Option<broadcast::Sender<Payload>>,
    /// Everything produced so far, while a replaying shape still has it all.
    history: Option<Vec<Payload>>,
    subscribers: usize,
    driver: Option<tokio::task::AbortHandle>,
}

impl Shape {
    fn new(key: ShapeKey, replays: bool) -> Self {
        let state = ShapeState {
            sender: Some(broadcast::channel(SUBSCRIBER_QUEUE).0),
            history: replays.then(Vec::new),
            subscribers: 0,
            driver: None,
        };
        Self { key, replays, state: Mutex::new(state) }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, ShapeState> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A new subscriber, or `None` when it cannot get what its own execution would give it: the
    /// execution ended, or a replaying shape no longer has all it produced.
    fn join(
        self: &Arc<Self>,
        fanout: &Arc<SubscriptionFanout>,
        correlation_id: String,
        max_bytes: usize,
    ) -> Option<Subscriber> {
        let mut state = self.state();
        let receiver = state.sender.as_ref()?.subscribe();
        let backlog = match (&state.history, self.replays) {
            (Some(history), true) => history.clone(),
            (None, true) => return None,
            (_, false) => Vec::new(),
        };
        state.subscribers += 1;
        fanout.open.fetch_add(1, Ordering::Relaxed);
        Some(Subscriber {
            backlog: Some(backlog.into_iter()),
            live: Some(BroadcastStream::new(receiver)),
            correlation_id,
            max_bytes,
            membership: Membership { fanout: fanout.clone(), shape: self.clone() },
        })
    }

    /// Hands `payload` to the subscribers; how many it reached.
    fn publish(&self, payload: Payload) -> usize {
        let mut state = self.state();
        if let Some(history) = &mut state.history {
            if history.len() < HISTORY_LIMIT {
                history.push(payload.clone());
            } else {
                state.history = None;
            }
        }
        // No receiver is no error: the last subscriber is leaving and stops the execution.
        state.sender.as_ref().and_then(|sender| sender.send(payload).ok()).unwrap_or(0)
    }
}

/// One subscriber's place in a shape, given back when its stream is dropped.
struct Membership {
    fanout: Arc<SubscriptionFanout>,
    shape: Arc<Shape>,
}

impl Drop for Membership {
    fn drop(&mut self) {
        self.fanout.leave(&self.shape);
    }
}

/// What one subscriber reads: its shape's history when it joined late, then live results.
struct Subscriber {
    /// Its shape's history when it joined, until handed out (then dropped, so an idle subscriber
    /// does not keep its copy).
    backlog: Option<std::vec::IntoIter<Payload>>,
    /// `None` after it fell behind: nothing follows the error that said so.
    live: Option<BroadcastStream<Payload>>,
    correlation_id: String,
    max_bytes: usize,
    membership: Membership,
}

impl Stream for Subscriber {
    type Item = Payload;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Payload>> {
        if let Some(backlog) = self.backlog.as_mut() {
            match backlog.next() {
                Some(payload) => return Poll::Ready(Some(payload)),
                None => self.backlog = None,
            }
        }
        let Some(live) = self.live.as_mut() else { return Poll::Ready(None) };
        match live.poll_next_unpin(cx) {
            Poll::Ready(Some(Ok(payload))) => Poll::Ready(Some(payload)),
            Poll::Ready(Some(Err(BroadcastStreamRecvError::Lagged(missed)))) => {
                self.live = None;
                self.membership.fanout.fell_behind.fetch_add(1, Ordering::Relaxed);
                tracing::debug!(missed, shape = ?self.membership.shape.key.operation_name, "a subscriber fell behind");
                let mut error = gql_error(FellBehind { missed }).into_server_error(Default::default());
                // It is about the subscription, not a place in its document.
                error.locations.clear();
                Poll::Ready(Some(payload(Response::from_errors(vec![error]), &self.correlation_id, self.max_bytes)))
            }
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// A subscriber read its results more slowly than they came, and was dropped.
#[derive(Debug, thiserror::Error)]
#[error("the subscription fell {missed} results behind and ended; subscribe again (from your last cursor)")]
struct FellBehind {
    missed: u64,
}

impl DomainError for FellBehind {
    fn code(&self) -> ErrorCode {
        ErrorCode::RateLimited
    }

    fn details(&self) -> serde_json::Value {
        serde_json::json!({ "missed": self.missed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(query: &str, name: Option<&str>) -> OperationKind {
        let request = async_graphql::Request::new(query);
        OperationKind::of(&match name {
            Some(name) => request.operation_name(name),
            None => request,
        })
    }

    #[test]
    fn subscriptions_are_told_from_queries_and_mutations() {
        let live = OperationKind::Subscription { replays: false };
        assert_eq!(kind("subscription { taskEvents(projectId: \"x\") { kind } }", None), live);
        assert_eq!(kind("subscription Watch { a }", None), live);
        assert_eq!(kind("query A { a } subscription B { b }", Some("B")), live);
        assert_eq!(kind("query A { a } subscription B { b }", Some("A")), OperationKind::QueryOrMutation);
        assert_eq!(kind("query A { a } subscription B { b }", None), OperationKind::QueryOrMutation);
        assert_eq!(kind("mutation { logout }", None), OperationKind::QueryOrMutation);
        assert_eq!(kind("subscription {", None), OperationKind::QueryOrMutation);
    }

    #[test]
    fn run_events_replay_wherever_they_are_asked_for() {
        let replaying = OperationKind::Subscription { replays: true };
        assert_eq!(kind("subscription { runEvents(runId: \"r\") { sequence } }", None), replaying);
        assert_eq!(
            kind("subscription { ... on SubscriptionRoot { runEvents(runId: \"r\") { sequence } } }", None),
            replaying
        );
        let spread = "subscription { ...F } fragment F on SubscriptionRoot { ...G } fragment G on SubscriptionRoot";
        assert_eq!(kind(&format!("{spread} {{ runEvents(runId: \"r\") {{ sequence }} }}"), None), replaying);
        let live = OperationKind::Subscription { replays: false };
        assert_eq!(kind(&format!("{spread} {{ taskEvents(projectId: \"p\") {{ kind }} }}"), None), live);
        let cycle = "subscription { ...F } fragment F on SubscriptionRoot { ...F }";
        assert_eq!(kind(cycle, None), live, "a cycle ends the search (and validation refuses it)");
    }

    fn shape(replays: bool) -> Arc<Shape> {
        let key = ShapeKey::of(&async_graphql::Request::new("subscription { a }"), None);
        Arc::new(Shape::new(key, replays))
    }

    fn text(payloads: &[Payload]) -> Vec<&str> {
        payloads.iter().map(|p| &**p).collect()
    }

    #[tokio::test]
    async fn a_slow_subscriber_is_dropped_with_an_error_and_slows_no_one() {
        let fanout = Arc::new(SubscriptionFanout::default());
        let shape = shape(false);
        let mut fast = shape.join(&fanout, "c".into(), 1 << 20).unwrap();
        let mut slow = shape.join(&fanout, "c".into(), 1 << 20).unwrap();
        let mut read = Vec::new();
        for n in 0..SUBSCRIBER_QUEUE + 10 {
            shape.publish(n.to_string().into());
            read.push(fast.next().await.unwrap());
        }
        assert_eq!(read.len(), SUBSCRIBER_QUEUE + 10, "the fast subscriber got everything as it came");

        let error = slow.next().await.unwrap();
        let error: serde_json::Value = serde_json::from_str(&error).unwrap();
        assert_eq!(error["errors"][0]["extensions"]["code"], "RATE_LIMITED", "{error}");
        assert_eq!(error["errors"][0]["extensions"]["details"]["missed"], 10, "{error}");
        assert!(slow.next().await.is_none(), "nothing follows the error");
        drop(slow);
        shape.publish("after".into());
        assert_eq!(fast.next().await.as_deref(), Some("after"), "the others carry on");
    }

    #[tokio::test]
    async fn a_late_subscriber_gets_what_a_replaying_shape_produced_and_a_live_one_only_what_follows() {
        let fanout = Arc::new(SubscriptionFanout::default());
        let (replaying, live) = (shape(true), shape(false));
        let _first =
            (replaying.join(&fanout, "c".into(), 1024).unwrap(), live.join(&fanout, "c".into(), 1024).unwrap());
        for shape in [&replaying, &live] {
            shape.publish("1".into());
            shape.publish("2".into());
        }
        let late = |shape: &Arc<Shape>| {
            let mut late = shape.join(&fanout, "c".into(), 1024).unwrap();
            shape.publish("3".into());
            let mut got = Vec::new();
            while let Some(Some(payload)) = late.next().now_or_never() {
                got.push(payload);
            }
            got
        };
        assert_eq!(text(&late(&replaying)), ["1", "2", "3"]);
        assert_eq!(text(&late(&live)), ["3"]);

        // A replaying shape past its history takes no one new: they start an execution of their own.
        for n in 0..HISTORY_LIMIT {
            replaying.publish(n.to_string().into());
        }
        assert!(replaying.join(&fanout, "c".into(), 1024).is_none());
        assert!(live.join(&fanout, "c".into(), 1024).is_some());
    }

    #[test]
    fn the_replaying_subscriptions_exist() {
        let sdl = super::super::sdl();
        for field in REPLAYING_SUBSCRIPTIONS {
            assert!(sdl.contains(&format!("\t{field}(")), "{field} is not a subscription of the schema");
        }
    }
}
