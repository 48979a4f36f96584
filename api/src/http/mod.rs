//! The HTTP server: routing, request context (correlation id, caller, device), GraphQL over HTTP
//! and graphql-transport-ws, health endpoints, the web client's files, TLS.

mod connectors;
mod graphql_http;
mod graphql_ws;
mod request;
pub mod tls;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::extract::{FromRef, State};
use axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use sea_orm::DatabaseConnection;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::services::{ServeDir, ServeFile};

use crate::config::WebSocketSettings;
pub use connectors::CertificateSource;

use crate::graphql::{AppSchema, Services};
pub use graphql_ws::SocketRegistry;

#[derive(Clone)]
pub struct AppState {
    pub schema: AppSchema,
    pub services: Services,
    pub db: DatabaseConnection,
    pub max_body_bytes: usize,
    pub websocket: WebSocketSettings,
    /// The clients' open GraphQL sockets per identity, for `websocket.max_sockets_per_identity`.
    pub sockets: Arc<SocketRegistry>,
    /// Proxies whose `X-Forwarded-For` (and connector certificate header) is believed.
    pub trusted_proxies: crate::config::TrustedProxies,
    /// Where the connector endpoint takes connectors' client certificates from.
    pub connector_certificates: connectors::CertificateSource,
}

impl FromRef<AppState> for Services {
    fn from_ref(state: &AppState) -> Self {
        state.services.clone()
    }
}

/// The API routes; with `web_dir`, every other path is the web client (see [`web_client`]).
/// Pages from `allowed_origins` may call GraphQL over HTTP from another origin (CORS).
pub fn router(state: AppState, web_dir: Option<&Path>, allowed_origins: &[String]) -> Router {
    let api = Router::new()
        .route("/graphql", get(graphql_http::get).post(graphql_http::post).layer(cors(allowed_origins)))
        .route("/graphql/ws", get(graphql_ws::upgrade))
        .route("/v1/connectors/enroll", axum::routing::post(connectors::enroll))
        .route("/v1/connectors/ws", get(connectors::upgrade))
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz));
    let routes = match web_dir {
        Some(dir) => web_client(api, dir),
        None => api,
    };
    routes.layer(axum::middleware::from_fn(request::correlate)).with_state(state)
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

/// Serves the web client's files, and its `index.html` for any other path so that the client's
/// own router shows the page (a reload of `/runs/…` works). Unknown API paths stay 404s rather
/// than turning into HTML a client would misread.
fn web_client(api: Router<AppState>, dir: &Path) -> Router<AppState> {
    let not_found = || async { StatusCode::NOT_FOUND };
    let files = ServeDir::new(dir).fallback(ServeFile::new(dir.join("index.html")));
    api.route("/graphql/{*rest}", axum::routing::any(not_found))
        .route("/v1/{*rest}", axum::routing::any(not_found))
        .fallback_service(tower::Layer::layer(&axum::middleware::from_fn(cache_control), files))
}

/// The build names its assets by their content, so they never change under a name and may be
/// kept for good; everything else (`index.html`, the service worker) is revalidated on each load,
/// or a browser could keep a page that names assets a new release no longer has.
async fn cache_control(request: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    let hashed = request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    let policy =
        if hashed && response.status().is_success() { "public, max-age=31536000, immutable" } else { "no-cache" };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(policy));
    response
}

/// Ready when the database answers and its migrations are current.
async fn readyz(State(state): State<AppState>) -> impl IntoResponse {
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
            let listener = tokio::net::TcpListener::from_std(listener)?;
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
