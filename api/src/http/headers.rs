//! Headers on every response that defend the pages a browser opens here (the web client,
//! GraphiQL, error pages): a strict Content-Security-Policy, no framing by other sites, no MIME
//! sniffing, no referrer, and HSTS when the server speaks TLS.

use axum::http::{HeaderName, HeaderValue, header};
use axum::response::Response;

/// Only this origin's own files run and load: no inline script or style, no `eval`, no plugin;
/// `data:` only for the images and fonts inside GraphiQL's stylesheet. `connect-src 'self'`
/// covers the same origin's `ws:`/`wss:` as CSP 3 says (Chrome 71+, Firefox, Safari 16+; older
/// ones would refuse the subscriptions' socket). Set on every response, not just HTML, so that
/// any page served here, an error page or an SVG opened on its own, is under it; the service
/// worker script gets it as its own.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self'; \
     manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// A year: browsers then refuse plain HTTP to this host, so a network attacker cannot strip TLS.
const HSTS: &str = "max-age=31536000";

/// Adds the headers to `response`; HSTS only when it goes out over TLS, since a browser ignores it
/// over plain HTTP and a plain-HTTP loopback server must stay reachable.
pub fn defend(tls: bool, mut response: Response) -> Response {
    let headers = response.headers_mut();
    // A response with a stricter policy of its own (an artifact's bytes, sandboxed) keeps it.
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    }
    let mut set = |name: HeaderName, value: &'static str| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    // For browsers that predate `frame-ancestors`.
    set(header::X_FRAME_OPTIONS, "DENY");
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::REFERRER_POLICY, "no-referrer");
    if tls {
        set(header::STRICT_TRANSPORT_SECURITY, HSTS);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hsts_only_over_tls() {
        let plain = defend(false, Response::default());
        assert!(!plain.headers().contains_key(header::STRICT_TRANSPORT_SECURITY));
        assert_eq!(plain.headers()[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        let tls = defend(true, Response::default());
        assert_eq!(tls.headers()[header::STRICT_TRANSPORT_SECURITY], HSTS);
        assert_eq!(tls.headers()[header::CONTENT_SECURITY_POLICY], CONTENT_SECURITY_POLICY);
    }
}
