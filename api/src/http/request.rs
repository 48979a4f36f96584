//! Per-request context: the correlation id (taken from `X-Correlation-Id` or made up), the
//! tracing span that carries it, the client's address (through trusted proxies), the caller and
//! the device.

use std::net::{IpAddr, SocketAddr};

use axum::extract::rejection::ExtensionRejection;
use axum::extract::{ConnectInfo, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

use super::SharedState;
use crate::app::Services;
use crate::config::TrustedProxies;
use crate::graphql::RequestContext;
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
    let mut response = crate::audit::correlated(id.clone(), next.run(request)).instrument(span).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(CORRELATION_HEADER, value);
    }
    response
}

/// The address of the client behind a request: the socket peer, or, when the peer is a trusted
/// proxy, the right-most `X-Forwarded-For` address that is not itself a trusted proxy. Anyone
/// else's `X-Forwarded-For` is ignored, so a client cannot choose the key of its own login quota.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> IpAddr {
    let mut client = peer.to_canonical();
    if !trusted.contains(client) {
        return client;
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    for hop in hops.iter().rev() {
        // What a trusted proxy could not vouch for ends the walk at the last hop it could.
        let Ok(address) = hop.parse::<IpAddr>() else { break };
        client = address.to_canonical();
        if !trusted.contains(client) {
            break;
        }
    }
    client
}

/// The client's address as [`client_address`] finds it, for handlers.
pub struct ClientAddress(pub IpAddr);

impl FromRequestParts<SharedState> for ClientAddress {
    type Rejection = ExtensionRejection;

    async fn from_request_parts(parts: &mut Parts, state: &SharedState) -> Result<Self, Self::Rejection> {
        let ConnectInfo(peer) = ConnectInfo::<SocketAddr>::from_request_parts(parts, state).await?;
        Ok(Self(client_address(peer.ip(), &parts.headers, &state.trusted_proxies)))
    }
}

pub fn device(headers: &HeaderMap, ClientAddress(address): ClientAddress) -> DeviceInfo {
    DeviceInfo {
        device_name: headers
            .get(axum::http::header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("unknown device")
            .to_owned(),
        client_address: Some(address.to_string()),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn only_a_trusted_proxy_names_the_client() {
        let trusted = TrustedProxies::try_from(vec!["10.0.0.0/8".to_owned()]).unwrap();
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        // An untrusted peer's header is ignored.
        assert_eq!(client_address(ip("203.0.113.9"), &forwarded("198.51.100.1"), &trusted), ip("203.0.113.9"));
        // The right-most address that is not a trusted proxy; what the client itself wrote is left of it.
        let chain = forwarded("198.51.100.66, 203.0.113.5, 10.0.0.2");
        assert_eq!(client_address(ip("10.0.0.1"), &chain, &trusted), ip("203.0.113.5"));
        // No header, or only proxies: the nearest address known.
        assert_eq!(client_address(ip("10.0.0.1"), &HeaderMap::new(), &trusted), ip("10.0.0.1"));
        assert_eq!(client_address(ip("10.0.0.1"), &forwarded("10.0.0.3"), &trusted), ip("10.0.0.3"));
        // Garbage stops the walk at the last hop a trusted proxy vouched for.
        assert_eq!(client_address(ip("10.0.0.1"), &forwarded("203.0.113.5, unknown"), &trusted), ip("10.0.0.1"));
        // An IPv4 peer on an IPv6 socket is still recognized.
        assert_eq!(client_address(ip("::ffff:10.0.0.1"), &forwarded("203.0.113.5"), &trusted), ip("203.0.113.5"));
    }
}
