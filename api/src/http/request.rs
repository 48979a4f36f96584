//! Per-request context: the correlation id (taken from `X-Correlation-Id` or made up), the
//! tracing span that carries it, the caller and the device.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

use crate::graphql::{RequestContext, Services};
use crate::identity::DeviceInfo;
use crate::identity::actor::Actor;

pub const CORRELATION_HEADER: &str = "x-correlation-id";

#[derive(Clone, Debug)]
pub struct CorrelationId(pub String);

fn acceptable(id: &str) -> bool {
    !id.is_empty() && id.len() <= 128 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Gives every request a correlation id and a span, and echoes the id in the response.
pub async fn correlate(mut request: Request, next: Next) -> Response {
    let id = request
        .headers()
        .get(CORRELATION_HEADER)
        .and_then(|v| v.to_str().ok())
        .filter(|v| acceptable(v))
        .map(str::to_owned)
        .unwrap_or_else(|| uuid::Uuid::now_v7().to_string());
    request.extensions_mut().insert(CorrelationId(id.clone()));
    let span = tracing::info_span!("request", correlation_id = %id, method = %request.method(), path = %request.uri().path(), user_id = tracing::field::Empty);
    let mut response = next.run(request).instrument(span).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(CORRELATION_HEADER, value);
    }
    response
}

pub fn device(headers: &HeaderMap, ConnectInfo(address): ConnectInfo<SocketAddr>) -> DeviceInfo {
    DeviceInfo {
        device_name: headers
            .get(axum::http::header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("unknown device")
            .to_owned(),
        client_address: Some(address.ip().to_string()),
    }
}

/// The bearer token of an `Authorization` header, if there is one.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.strip_prefix("Bearer ").unwrap_or(v).trim())
}

/// Resolves the caller of a request: anonymous without a token, an error with a bad one.
pub async fn context(
    services: &Services,
    token: Option<&str>,
    correlation_id: String,
    idempotency_key: Option<String>,
    device: DeviceInfo,
) -> Result<RequestContext, (RequestContext, crate::identity::IdentityError)> {
    let mut context = RequestContext { actor: None, correlation_id, idempotency_key, device };
    if let Some(token) = token {
        match services.identity.authenticate(token).await {
            Ok(actor) => context.actor = Some(actor),
            Err(e) => return Err((context, e)),
        }
    }
    if let Some(Actor { user_id, .. }) = &context.actor {
        tracing::Span::current().record("user_id", tracing::field::display(user_id));
    }
    Ok(context)
}
