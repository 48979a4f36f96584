//! The HTTP server: routing, request context (correlation id, caller, device), GraphQL over HTTP
//! and graphql-transport-ws, health endpoints, the web client's files, TLS.

mod artifacts;
mod audit;
mod connectors;
mod graphql_http;
mod graphql_ws;
pub mod headers;
pub mod metrics;
mod request;
mod skills;
pub mod tls;
mod web;
mod wiki;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{FromRef, Request, State};
use axum::handler::Handler;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use sea_orm::DatabaseConnection;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::config::WebSocketSettings;
pub use connectors::CertificateSource;

use crate::app::Services;
use crate::graphql::AppSchema;
pub use graphql_ws::SocketRegistry;
pub use web::WebClient;

#[derive(Clone)]
pub struct AppState {
    pub schema: AppSchema,
    pub services: Services,
    pub db: DatabaseConnection,
    pub max_body_bytes: usize,
    pub websocket: WebSocketSettings,
    /// The clients' open GraphQL sockets per identity, for `websocket.max_sockets_per_identity`.
    pub sockets: Arc<SocketRegistry>,
    /// Subscriptions shared by shape: one execution and serialization per result, not per subscriber.
    pub fanout: Arc<crate::graphql::fanout::SubscriptionFanout>,
    /// Proxies whose `X-Forwarded-For` (and connector certificate header) is believed.
    pub trusted_proxies: crate::config::TrustedProxies,
    /// Where the connector endpoint takes connectors' client certificates from.
    pub connector_certificates: connectors::CertificateSource,
    /// What `/metrics` reports, on its own listener ([`metrics_router`]).
    pub metrics: Arc<metrics::Metrics>,
}

/// What every request handler gets: the state, shared (cloning it is one reference count).
pub type SharedState = Arc<AppState>;

impl FromRef<SharedState> for Services {
    fn from_ref(state: &SharedState) -> Self {
        state.services.clone()
    }
}

/// The API routes, and the web client (see [`WebClient::routes`]) on every other path; a browser
/// that opens `/graphql` gets GraphiQL. Pages from `allowed_origins` may call GraphQL over HTTP
/// from another origin (CORS). Every response carries the [`headers`] that defend browser pages.
pub fn router(state: AppState, web: WebClient, allowed_origins: &[String], tls: bool) -> Router {
    let page = web.clone();
    let graphql_get = graphql_http::get.layer(axum::middleware::from_fn(move |request, next| {
        let page = page.clone();
        async move { graphiql(&page, request, next).await }
    }));
    let api = Router::new()
        .route("/graphql", get(graphql_get).post(graphql_http::post).layer(cors(allowed_origins)))
        .route("/graphql/ws", get(graphql_ws::upgrade))
        .route("/v1/artifacts", axum::routing::post(artifacts::upload).layer(cors(allowed_origins)))
        .route("/v1/artifacts/versions/{id}", get(artifacts::download).layer(cors(allowed_origins)))
        .route("/v1/skills", axum::routing::post(skills::import).layer(cors(allowed_origins)))
        .route("/v1/audit/events", get(audit::export).layer(cors(allowed_origins)))
        .route("/v1/wiki/pages/{page_id}/attachments", axum::routing::post(wiki::attach).layer(cors(allowed_origins)))
        .route("/v1/wiki/attachments/{id}", get(wiki::download).layer(cors(allowed_origins)))
        .route("/v1/connectors/enroll", axum::routing::post(connectors::enroll))
        .route("/v1/connectors/ws", get(connectors::upgrade))
        .route("/v1/connectors/runs/{run_id}/artifacts", axum::routing::put(connectors::attach_artifact))
        .route("/v1/connectors/runs/{run_id}/skills/{skill_version_id}", get(connectors::skill_files))
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz));
    let metrics = state.metrics.clone();
    web.routes(api)
        .layer(axum::middleware::from_fn_with_state(metrics, metrics::count_requests))
        .layer(axum::middleware::from_fn(request::correlate))
        .layer(axum::middleware::map_response(move |response| async move { headers::defend(tls, response) }))
        .with_state(Arc::new(state))
}

/// `/metrics` for Prometheus, for the metrics listener alone.
pub fn metrics_router(metrics: Arc<metrics::Metrics>) -> Router {
    Router::new().route("/metrics", get(metrics::scrape)).with_state(metrics)
}

/// GraphiQL for a browser that opens `/graphql` (it asks for HTML and sends no `query`);
/// anything else is a GraphQL request over GET.
async fn graphiql(web: &WebClient, request: Request, next: Next) -> Response {
    let has_query = request.uri().query().is_some_and(|q| q.split('&').any(|p| p.split('=').next() == Some("query")));
    if !has_query && wants_html(request.headers()) {
        return web.graphiql().await;
    }
    next.run(request).await
}

fn wants_html(headers: &HeaderMap) -> bool {
    headers.get_all(header::ACCEPT).iter().filter_map(|v| v.to_str().ok()).any(|v| v.contains("text/html"))
}

/// CORS for the web client inside its desktop and Android wrappers, whose pages have the app's
/// origin. Callers authenticate with a bearer token, never a cookie, so no credentials mode.
fn cors(allowed_origins: &[String]) -> CorsLayer {
    // Validated origins (`Config::validate`); one that still does not parse is left out.
    let origins: Vec<HeaderValue> = allowed_origins.iter().filter_map(|o| HeaderValue::from_str(o).ok()).collect();
    CorsLayer::new()
        .allow_origin(AllowOrigin::list(origins))
        .allow_methods([Method::GET, Method::POST])
        .allow_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            HeaderName::from_static(request::CORRELATION_HEADER),
        ])
        .expose_headers([HeaderName::from_static(request::CORRELATION_HEADER)])
}

/// Ready when the database answers and its migrations are current.
async fn readyz(State(state): State<SharedState>) -> impl IntoResponse {
    match crate::db::readiness(&state.db).await {
        Ok(()) => (StatusCode::OK, "ready".to_owned()),
        Err(reason) => (StatusCode::SERVICE_UNAVAILABLE, reason),
    }
}

/// Serves until the process ends; plain HTTP, or TLS (with optional client certificates).
pub async fn serve(listener: std::net::TcpListener, app: Router, tls: Option<tls::Tls>) -> std::io::Result<()> {
    let service = app.into_make_service_with_connect_info::<SocketAddr>();
    match tls {
        None => {
            listener.set_nonblocking(true)?;
            // Without Nagle's delay: a live event is one small write that must not wait for an ACK.
            let listener = tokio::net::TcpListener::from_std(listener)?.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            axum::serve(listener, service).await
        }
        Some(tls) => {
            let _ = rustls_provider();
            let acceptor = tls::ClientCertificateAcceptor::new(tls.server_config()?);
            axum_server::from_tcp(listener).acceptor(acceptor).serve(service).await
        }
    }
}

/// Installs the process-wide rustls crypto provider once (several are linked in).
fn rustls_provider() -> Arc<()> {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    });
    Arc::new(())
}
