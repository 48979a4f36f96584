//! What `/metrics` tells Prometheus: HTTP requests and their latency by route, GraphQL
//! operations' latency by root field (timed by `AppSchema::execute`), run events in
//! (batches, their size and how long storing them took) and out (results and deliveries to
//! subscribers), subscriptions open and dropped for lag, connectors online, the database pool.
//!
//! Counters on the request and ingest paths are updated as they happen; what is a state (open
//! subscriptions, connectors online, the pool) is read from its owner at each scrape, so no
//! second count can drift from it. Served on a listener of its own (`[metrics] listen`), never
//! on the public one.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use sea_orm::DatabaseConnection;

use crate::gateway::GatewayService;
use crate::graphql::fanout::SubscriptionFanout;
use crate::graphql::{OperationTimes, latency_histogram};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    /// The route's pattern (`/v1/artifacts/versions/{id}`), so ids never become labels; the web
    /// client's pages are all `web client`.
    route: String,
    method: &'static str,
    /// `2xx`, `4xx`…: by class, which is what alerts are written on.
    status: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    request_seconds: HistogramFamily<RouteLabels>,
    events_ingested: Counter,
    ingest_batch_events: Histogram,
    ingest_batch_seconds: Histogram,
}

impl Metrics {
    /// The registry, with the states read at each scrape from their owners.
    pub fn new(
        operations: OperationTimes,
        fanout: Arc<SubscriptionFanout>,
        gateway: GatewayService,
        db: DatabaseConnection,
    ) -> Self {
        let mut registry = Registry::with_prefix("acc");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route, method and status class",
            requests.clone(),
        );
        let request_seconds = HistogramFamily::<RouteLabels>::new_with_constructor(latency_histogram as fn() -> _);
        registry.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request (for a WebSocket, to upgrade it), by route",
            request_seconds.clone(),
        );
        registry.register(
            "graphql_operation_duration_seconds",
            "Time to answer a query or mutation, by its first root field and outcome",
            operations,
        );
        let events_ingested = Counter::default();
        registry.register("run_events_ingested", "Run events received from connectors", events_ingested.clone());
        let ingest_batch_events = Histogram::new(exponential_buckets(1.0, 2.0, 11));
        registry.register(
            "ingest_batch_events",
            "Events a connector's socket had waiting, stored by one group commit",
            ingest_batch_events.clone(),
        );
        let ingest_batch_seconds = latency_histogram();
        registry.register(
            "ingest_batch_duration_seconds",
            "Time to store a batch of run events, commit included, and do what they cause",
            ingest_batch_seconds.clone(),
        );
        registry.register_collector(Box::new(Live { fanout, gateway, db }));
        Self { registry, requests, request_seconds, events_ingested, ingest_batch_events, ingest_batch_seconds }
    }

    /// A batch of `events` a connector sent was stored (or refused) in `took`.
    pub fn ingested(&self, events: usize, took: Duration) {
        self.events_ingested.inc_by(events as u64);
        self.ingest_batch_events.observe(events as f64);
        self.ingest_batch_seconds.observe(took.as_secs_f64());
    }

    /// The text exposition format.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing to a String does not fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }
}

/// Counts each request by its route and how it was answered.
pub async fn count_requests(State(metrics): State<Arc<Metrics>>, request: Request, next: Next) -> Response {
    let route = match request.extensions().get::<MatchedPath>() {
        Some(path) => path.as_str().to_owned(),
        None => "web client".to_owned(),
    };
    let method = match *request.method() {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::OPTIONS => "OPTIONS",
        Method::HEAD => "HEAD",
        _ => "other",
    };
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    let status = match response.status().as_u16() {
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    };
    metrics
        .request_seconds
        .get_or_create(&RouteLabels { route: route.clone() })
        .observe(started.elapsed().as_secs_f64());
    metrics.requests.get_or_create(&RequestLabels { route, method, status }).inc();
    response
}

/// `GET /metrics` on the metrics listener.
pub async fn scrape(State(metrics): State<Arc<Metrics>>) -> Response {
    let content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    (StatusCode::OK, [(header::CONTENT_TYPE, content_type)], metrics.render()).into_response()
}

/// What is read from its owner at each scrape.
struct Live {
    fanout: Arc<SubscriptionFanout>,
    gateway: GatewayService,
    db: DatabaseConnection,
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Live").finish_non_exhaustive()
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PoolLabels {
    state: &'static str,
}

fn gauge(encoder: &mut DescriptorEncoder, name: &str, help: &str, value: i64) -> std::fmt::Result {
    let gauge = ConstGauge::new(value);
    gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)
}

fn counter(encoder: &mut DescriptorEncoder, name: &str, help: &str, value: u64) -> std::fmt::Result {
    let counter = ConstCounter::new(value);
    counter.encode(encoder.encode_descriptor(name, help, None, counter.metric_type())?)
}

impl Collector for Live {
    fn encode(&self, mut encoder: DescriptorEncoder) -> std::fmt::Result {
        let fanout = &self.fanout;
        let open = i64::try_from(fanout.subscribers()).unwrap_or(i64::MAX);
        gauge(&mut encoder, "subscriptions_active", "GraphQL subscriptions open", open)?;
        let executions = "Subscription executions started: one per distinct subscription, however many share it";
        counter(&mut encoder, "subscription_executions", executions, fanout.executions())?;
        let results = "Subscription results serialized: once per result, however many subscribers get it";
        counter(&mut encoder, "subscription_results", results, fanout.serializations())?;
        let deliveries = "Subscription results handed to subscribers (events out)";
        counter(&mut encoder, "subscription_deliveries", deliveries, fanout.deliveries())?;
        let behind = "Subscribers dropped for falling behind (they resume from their cursor)";
        counter(&mut encoder, "subscribers_fell_behind", behind, fanout.fell_behind())?;
        let online = i64::try_from(self.gateway.connected()).unwrap_or(i64::MAX);
        gauge(&mut encoder, "connectors_online", "Connectors connected to this process", online)?;
        let (size, idle) = crate::db::pool_usage(&self.db);
        let help = "Database connections of the pool, in use or idle";
        let mut family =
            encoder.encode_descriptor("db_pool_connections", help, None, ConstGauge::new(0).metric_type())?;
        for (state, count) in [("in_use", size.saturating_sub(idle)), ("idle", idle)] {
            ConstGauge::new(i64::from(count)).encode(family.encode_family(&PoolLabels { state })?)?;
        }
        Ok(())
    }
}
