//! The connector's model gateway (SPEC §9): a loopback HTTP endpoint that speaks the vendors'
//! model APIs and forwards each request to the agent's configured provider, with the provider's
//! credential, which stays on the connector. A runtime is launched pointed at it with a per-run
//! token as its API key, so every model request is tied to its run: what each response used is
//! measured as it streams past (a `usage` event), the run's budget is enforced between requests,
//! and the connector's redaction applies to prompts before they leave the host.

pub mod metering;
pub mod prices;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use acc_protocol::{EventKind, RunBudget};
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::sync::{Notify, mpsc};
use tracing::Instrument;
use uuid::Uuid;

use crate::adapter::{AdapterEvent, EventSink};
use crate::config::{ModelApi, ModelGatewayConfig, ModelProviderConfig};
use crate::lock;
use crate::redact::Redactor;
use metering::{Measured, Meter};
pub use prices::{Price, PriceTable};

/// A request body larger than this is refused.
const MAX_REQUEST_BYTES: usize = 32 * 1024 * 1024;
/// How long a run's end waits for the usage of its last requests.
const SETTLE: std::time::Duration = std::time::Duration::from_secs(2);
/// The error code a run's budget ends it with.
pub const BUDGET_EXCEEDED: &str = "BUDGET_EXCEEDED";

#[derive(Debug, thiserror::Error)]
pub enum ModelGatewayError {
    #[error("model provider `{provider}`: the environment variable {variable} is not set")]
    MissingKey { provider: String, variable: String },
    #[error("the model gateway cannot listen on {address}: {source}")]
    Listen { address: SocketAddr, source: std::io::Error },
}

/// Where a runtime reaches the gateway for one run: the base URL, and the token it sends as its
/// API key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelAccess {
    /// `http://127.0.0.1:PORT`, without a trailing slash.
    pub base_url: String,
    pub token: String,
}

#[derive(Debug)]
struct Provider {
    name: String,
    api: ModelApi,
    upstream: String,
    key: String,
}

/// What the gateway keeps of a run while it is active.
#[derive(Debug)]
struct MeteredRun {
    run_id: Uuid,
    provider: usize,
    budget: Option<RunBudget>,
    tokens: u64,
    cost_usd: f64,
    /// Why the run may make no more requests, once its budget is used up.
    exceeded: Option<String>,
    /// Weak, so the run's event stream ends when its adapter is done.
    events: mpsc::WeakSender<AdapterEvent>,
    /// Requests forwarded whose usage is not yet recorded.
    in_flight: usize,
}

impl MeteredRun {
    /// The reason the budget is used up, if it is.
    fn over_budget(&self) -> Option<String> {
        let budget = self.budget?;
        if let Some(max) = budget.max_tokens
            && self.tokens >= max
        {
            return Some(format!("{BUDGET_EXCEEDED}: the run used {} tokens of its budget of {max}", self.tokens));
        }
        if let Some(max) = budget.max_cost_usd
            && self.cost_usd >= max
        {
            return Some(format!(
                "{BUDGET_EXCEEDED}: the run used an estimated ${:.4} of its budget of ${max:.4}",
                self.cost_usd
            ));
        }
        None
    }
}

#[derive(Debug)]
struct Shared {
    providers: Vec<Provider>,
    prices: PriceTable,
    redactor: Redactor,
    client: reqwest::Client,
    /// Active runs by token.
    runs: Mutex<HashMap<String, MeteredRun>>,
    /// Runs whose budget ran out: the runtime stops them.
    exceeded: mpsc::UnboundedSender<Uuid>,
    /// Woken when a request's usage is recorded.
    settled: Notify,
}

/// A request of a run on its way: counted until its usage is recorded, however it ends.
struct InFlight {
    shared: Arc<Shared>,
    token: String,
}

impl InFlight {
    fn new(shared: &Arc<Shared>, token: &str) -> Self {
        if let Some(run) = lock(&shared.runs).get_mut(token) {
            run.in_flight += 1;
        }
        Self { shared: shared.clone(), token: token.to_owned() }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Some(run) = lock(&self.shared.runs).get_mut(&self.token) {
            run.in_flight = run.in_flight.saturating_sub(1);
        }
        self.shared.settled.notify_waiters();
    }
}

#[derive(Debug)]
pub struct ModelGateway {
    base_url: String,
    shared: Arc<Shared>,
}

impl ModelGateway {
    /// Starts the gateway on its loopback address. Returns it and the stream of runs whose budget
    /// ran out, which the caller stops.
    pub async fn start(
        config: &ModelGatewayConfig,
        providers: &[ModelProviderConfig],
        redactor: Redactor,
    ) -> Result<(Self, mpsc::UnboundedReceiver<Uuid>), ModelGatewayError> {
        let providers = providers
            .iter()
            .map(|p| {
                let key = p.key().ok_or_else(|| ModelGatewayError::MissingKey {
                    provider: p.name.clone(),
                    variable: p.api_key_env.clone().unwrap_or_default(),
                })?;
                let upstream = p.upstream.trim_end_matches('/').to_owned();
                Ok(Provider { name: p.name.clone(), api: p.api, upstream, key })
            })
            .collect::<Result<Vec<_>, ModelGatewayError>>()?;
        let address = config.listen.unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 0)));
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|source| ModelGatewayError::Listen { address, source })?;
        let bound = listener.local_addr().map_err(|source| ModelGatewayError::Listen { address, source })?;
        let (exceeded, over_budget) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared {
            providers,
            prices: PriceTable::new(&config.prices),
            redactor,
            client: reqwest::Client::new(),
            runs: Mutex::new(HashMap::new()),
            exceeded,
            settled: Notify::new(),
        });
        let app = axum::Router::new().fallback(forward).with_state(shared.clone());
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                tracing::error!(error = %e, "the model gateway stopped");
            }
        });
        tracing::info!(address = %bound, "model gateway listening");
        Ok((Self { base_url: format!("http://{bound}"), shared }, over_budget))
    }

    /// Lets a run reach `provider` through the gateway, metered into its `events`, within `budget`.
    pub fn open_run(&self, run_id: Uuid, provider: &str, budget: Option<RunBudget>, events: &EventSink) -> ModelAccess {
        let provider = self.shared.providers.iter().position(|p| p.name == provider).unwrap_or_default();
        let token = crate::run_token("acc-run-");
        let mut run = MeteredRun {
            run_id,
            provider,
            budget,
            tokens: 0,
            cost_usd: 0.0,
            exceeded: None,
            events: events.downgrade(),
            in_flight: 0,
        };
        // A budget earlier attempts used up allows no request at all.
        run.exceeded = run.over_budget();
        lock(&self.shared.runs).insert(token.clone(), run);
        ModelAccess { base_url: self.base_url.clone(), token }
    }

    /// The run ended: once the usage of its last requests is recorded (or after a short wait),
    /// its token no longer opens the gateway. Returns why its budget stopped it, if it did.
    pub async fn close_run(&self, run_id: Uuid) -> Option<String> {
        let deadline = tokio::time::Instant::now() + SETTLE;
        loop {
            let settled = self.shared.settled.notified();
            tokio::pin!(settled);
            settled.as_mut().enable();
            {
                let mut runs = lock(&self.shared.runs);
                let token = runs.iter().find(|(_, run)| run.run_id == run_id).map(|(token, _)| token.clone())?;
                if runs[&token].in_flight == 0 || tokio::time::Instant::now() >= deadline {
                    return runs.remove(&token).and_then(|run| run.exceeded);
                }
            }
            let _ = tokio::time::timeout_at(deadline, settled).await;
        }
    }

    /// Closes a run at once, without waiting for its requests (it did not start, or it is gone).
    pub fn forget_run(&self, run_id: Uuid) {
        lock(&self.shared.runs).retain(|_, run| run.run_id != run_id);
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }
}

/// The token a runtime sent as its API key, in whichever place its API puts one.
fn run_token(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    header("x-api-key")
        .or_else(|| header("x-goog-api-key"))
        .or_else(|| header("authorization").and_then(|v| v.strip_prefix("Bearer ")))
        .map(str::to_owned)
        .or_else(|| query?.split('&').find_map(|pair| pair.strip_prefix("key=")).map(str::to_owned))
}

/// An error in the shape the runtime's API client expects, so it reports the message.
fn api_error(api: Option<ModelApi>, status: StatusCode, kind: &str, message: &str) -> Response {
    let body = match api {
        Some(ModelApi::Anthropic) => json!({ "type": "error", "error": { "type": kind, "message": message } }),
        Some(ModelApi::Gemini) => {
            json!({ "error": { "code": status.as_u16(), "message": message, "status": kind.to_uppercase() } })
        }
        _ => json!({ "error": { "type": kind, "code": kind, "message": message } }),
    };
    (status, axum::Json(body)).into_response()
}

/// Headers not passed on: the runtime's credential, the connection's own, and `accept-encoding`
/// (a compressed body could not be metered).
const DROPPED: &[&str] = &[
    "authorization",
    "x-api-key",
    "x-goog-api-key",
    "host",
    "content-length",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "upgrade",
    "accept-encoding",
    "proxy-authorization",
    "te",
    "trailer",
];

async fn forward(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let Some(token) = run_token(&parts.headers, parts.uri.query()) else {
        return api_error(None, StatusCode::UNAUTHORIZED, "authentication_error", "no run token");
    };
    let (run_id, provider, refusal) = {
        let runs = lock(&shared.runs);
        let Some(run) = runs.get(&token) else {
            return api_error(None, StatusCode::UNAUTHORIZED, "authentication_error", "unknown or ended run");
        };
        (run.run_id, run.provider, run.exceeded.clone())
    };
    let in_flight = InFlight::new(&shared, &token);
    let provider = &shared.providers[provider];
    let span = tracing::info_span!("model_request", %run_id, provider = %provider.name, path = %parts.uri.path());
    if let Some(reason) = refusal {
        span.in_scope(|| tracing::warn!(%reason, "refused: the run's budget is used up"));
        return api_error(Some(provider.api), StatusCode::BAD_REQUEST, "budget_exceeded", &reason);
    }
    let Ok(body) = axum::body::to_bytes(body, MAX_REQUEST_BYTES).await else {
        return api_error(Some(provider.api), StatusCode::PAYLOAD_TOO_LARGE, "request_too_large", "request too large");
    };
    let requested = requested_model(parts.uri.path(), &body);
    let body = prepare_body(&shared.redactor, provider.api, parts.uri.path(), body);
    let query: Vec<&str> =
        parts.uri.query().unwrap_or_default().split('&').filter(|p| !p.is_empty() && !p.starts_with("key=")).collect();
    let mut url = format!("{}{}", provider.upstream, parts.uri.path());
    if !query.is_empty() {
        url = format!("{url}?{}", query.join("&"));
    }
    let mut headers = HeaderMap::new();
    for (name, value) in &parts.headers {
        if !DROPPED.contains(&name.as_str()) {
            headers.append(name.clone(), value.clone());
        }
    }
    let (name, value) = match provider.api {
        ModelApi::Anthropic => ("x-api-key", provider.key.clone()),
        ModelApi::Gemini => ("x-goog-api-key", provider.key.clone()),
        ModelApi::Openai => ("authorization", format!("Bearer {}", provider.key)),
    };
    if let Ok(value) = HeaderValue::from_str(&value) {
        headers.insert(HeaderName::from_static(name), value);
    }
    let upstream = shared.client.request(parts.method.clone(), &url).headers(headers).body(body).send().await;
    let upstream = match upstream {
        Ok(response) => response,
        Err(e) => {
            span.in_scope(|| tracing::warn!(error = %e, "the provider could not be reached"));
            let message = format!("the model gateway could not reach provider `{}`: {e}", provider.name);
            return api_error(Some(provider.api), StatusCode::BAD_GATEWAY, "upstream_unreachable", &message);
        }
    };
    let status = upstream.status();
    let mut response_headers = HeaderMap::new();
    for (name, value) in upstream.headers() {
        if !DROPPED.contains(&name.as_str()) {
            response_headers.append(name.clone(), value.clone());
        }
    }
    let content_type = upstream.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let meter = Meter::new(provider.api, content_type.as_deref());
    // Token counting (`count_tokens`, `:countTokens`) asks about a prompt without generating.
    let path = parts.uri.path().to_ascii_lowercase();
    let is_model_call =
        parts.method == axum::http::Method::POST && !path.ends_with("counttokens") && !path.ends_with("count_tokens");
    let (chunks, receiver) = mpsc::channel::<Result<Bytes, std::io::Error>>(16);
    let metered =
        Metered { shared: shared.clone(), token, status: status.as_u16(), is_model_call, requested, in_flight };
    tokio::spawn(metered.pass(upstream, meter, chunks).instrument(span));
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|chunk| (chunk, receiver))
    });
    let mut response = Response::new(Body::from_stream(stream));
    *response.status_mut() = status;
    *response.headers_mut() = response_headers;
    response
}

/// The model a request names: in its body (Anthropic, OpenAI) or its path (Gemini's
/// `/v1beta/models/MODEL:streamGenerateContent`).
fn requested_model(path: &str, body: &[u8]) -> Option<String> {
    let from_path = path.split_once("/models/").and_then(|(_, rest)| rest.split(':').next()).filter(|m| !m.is_empty());
    from_path.map(str::to_owned).or_else(|| {
        let body: Value = serde_json::from_slice(body).ok()?;
        body["model"].as_str().map(str::to_owned)
    })
}

/// The request as it goes upstream: JSON bodies redacted; a streamed Chat Completions request
/// asks for its usage, so it can be measured.
fn prepare_body(redactor: &Redactor, api: ModelApi, path: &str, body: Bytes) -> Bytes {
    let Ok(json) = serde_json::from_slice::<Value>(&body) else { return body };
    let mut json = redactor.redact_value(json);
    if api == ModelApi::Openai && path.ends_with("/chat/completions") && json["stream"] == true {
        json["stream_options"]["include_usage"] = json!(true);
    }
    serde_json::to_vec(&json).map(Bytes::from).unwrap_or(body)
}

/// One response on its way back to the runtime.
struct Metered {
    shared: Arc<Shared>,
    token: String,
    status: u16,
    is_model_call: bool,
    /// The model the request named, for a response that does not say.
    requested: Option<String>,
    /// Dropped once the usage is recorded.
    in_flight: InFlight,
}

impl Metered {
    /// Passes the provider's response on while metering it, then records what it used. If the
    /// runtime goes away mid-response, what arrived so far is recorded.
    async fn pass(
        mut self,
        upstream: reqwest::Response,
        mut meter: Meter,
        chunks: mpsc::Sender<Result<Bytes, std::io::Error>>,
    ) {
        let mut body = upstream.bytes_stream();
        while let Some(chunk) = body.next().await {
            match chunk {
                Ok(bytes) => {
                    meter.feed(&bytes);
                    if chunks.send(Ok(bytes)).await.is_err() {
                        tracing::info!("the runtime left before the response ended");
                        break;
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "the provider's response broke off");
                    let _ = chunks.send(Err(std::io::Error::other(e))).await;
                    break;
                }
            }
        }
        drop(chunks);
        if self.is_model_call {
            let mut measured = meter.finish();
            measured.model = measured.model.or(self.requested.take());
            self.record(measured).await;
        }
    }

    /// Adds a response's usage to its run, reports it as a `usage` event, and stops the run when
    /// its budget is used up.
    async fn record(self, measured: Measured) {
        let cost = self.shared.prices.cost_usd(measured.model.as_deref(), &measured.tokens);
        let (events, provider, exceeded) = {
            let mut runs = lock(&self.shared.runs);
            let Some(run) = runs.get_mut(&self.token) else { return };
            run.tokens += measured.tokens.total();
            run.cost_usd += cost.unwrap_or(0.0);
            let newly = if run.exceeded.is_none() { run.over_budget() } else { None };
            if newly.is_some() {
                run.exceeded = newly.clone();
                let _ = self.shared.exceeded.send(run.run_id);
            }
            (run.events.upgrade(), &self.shared.providers[run.provider], newly)
        };
        let tokens = measured.tokens;
        tracing::info!(model = ?measured.model, input = ?tokens.input, output = ?tokens.output, status = self.status, "model request metered");
        let Some(events) = events else { return };
        let usage = json!({
            "source": "gateway",
            "tokens": if tokens.is_known() { "measured" } else { "unknown" },
            "provider": provider.name,
            "api": provider.api.as_str(),
            "model": measured.model,
            "status": self.status,
            "requests": 1,
            "input_tokens": tokens.input,
            "output_tokens": tokens.output,
            "cached_input_tokens": tokens.cached_input,
            "cost_usd": cost,
            "cost": if cost.is_some() { "estimated" } else { "unknown" },
        });
        let _ = events.send(AdapterEvent::new(EventKind::Usage, usage)).await;
        if let Some(reason) = exceeded {
            tracing::warn!(%reason, "stopping the run: its budget is used up");
            let error = json!({ "code": BUDGET_EXCEEDED, "message": reason });
            let _ = events.send(AdapterEvent::new(EventKind::Error, error)).await;
        }
        drop(self.in_flight);
    }
}
