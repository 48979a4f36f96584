//! `acc-connector enroll`: exchanges a single-use enrollment token for a connector identity at
//! `POST {server}/v1/connectors/enroll`, and the server-URL rules shared with `run`.

use serde::Deserialize;
use uuid::Uuid;

use crate::credential::Credential;

#[derive(Debug, thiserror::Error)]
pub enum EnrollError {
    #[error("the server URL must start with http:// or https:// (got `{0}`)")]
    BadServer(String),
    #[error("could not reach {url}: {source}")]
    Transport { url: String, source: reqwest::Error },
    #[error("enrollment refused ({status}, {code}): {message}")]
    Refused { status: u16, code: String, message: String },
    #[error("enrollment failed with HTTP {status}: {body}")]
    Http { status: u16, body: String },
    #[error("the server's answer is not an enrollment: {0}")]
    BadAnswer(String),
    #[error("could not make the connector's key: {0}")]
    Key(String),
    #[error(transparent)]
    Tls(#[from] crate::tls::TlsError),
}

/// A server URL without its trailing slash, checked to be http(s).
pub fn normalize_server(server: &str) -> Result<String, EnrollError> {
    let trimmed = server.trim().trim_end_matches('/');
    let host = trimmed.strip_prefix("https://").or_else(|| trimmed.strip_prefix("http://"));
    if host.is_none_or(|h| h.is_empty() || h.starts_with('/')) {
        return Err(EnrollError::BadServer(server.to_owned()));
    }
    Ok(trimmed.to_owned())
}

/// The gateway's WebSocket URL for a server URL: http → ws, https → wss, plus `/v1/connectors/ws`.
pub fn gateway_url(server: &str) -> Result<String, EnrollError> {
    let server = normalize_server(server)?;
    let rest = server
        .strip_prefix("https://")
        .map(|r| format!("wss://{r}"))
        .or_else(|| server.strip_prefix("http://").map(|r| format!("ws://{r}")))
        .ok_or_else(|| EnrollError::BadServer(server.clone()))?;
    Ok(format!("{rest}/v1/connectors/ws"))
}

#[derive(Deserialize)]
struct Enrolled {
    connector_id: Uuid,
    credential: String,
    certificate: Option<String>,
}

#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorDetail,
}

#[derive(Deserialize)]
struct ErrorDetail {
    code: String,
    message: String,
}

/// This host's name, the default connector name.
pub fn default_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "acc-connector".to_owned())
}

/// A new key for the connector's client certificate, and a certificate signing request for it.
/// The subject is a hint; the control plane names the certificate after the connector id.
fn key_and_request(name: &str) -> Result<(String, String), EnrollError> {
    let key = rcgen::KeyPair::generate().map_err(|e| EnrollError::Key(e.to_string()))?;
    let mut params = rcgen::CertificateParams::default();
    params.distinguished_name.push(rcgen::DnType::CommonName, name);
    let request = params.serialize_request(&key).and_then(|r| r.pem()).map_err(|e| EnrollError::Key(e.to_string()))?;
    Ok((key.serialize_pem(), request))
}

/// Exchanges the token for the connector's credential and client certificate; the caller stores
/// them. `server_ca` is a CA certificate (PEM) to trust for the server besides the system's.
pub async fn enroll(
    server: &str,
    token: &str,
    name: &str,
    server_ca: Option<&std::path::Path>,
) -> Result<Credential, EnrollError> {
    let server = normalize_server(server)?;
    let url = format!("{server}/v1/connectors/enroll");
    let mut builder = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(30))
        .user_agent(concat!("acc-connector/", env!("CARGO_PKG_VERSION")));
    if let Some(path) = server_ca {
        for certificate in crate::tls::read_certificates(path)? {
            let certificate = reqwest::Certificate::from_der(&certificate)
                .map_err(|source| EnrollError::Transport { url: url.clone(), source })?;
            builder = builder.add_root_certificate(certificate);
        }
    }
    let client = builder.build().map_err(|source| EnrollError::Transport { url: url.clone(), source })?;
    let (key, request) = key_and_request(name)?;
    let response = client
        .post(&url)
        .json(&serde_json::json!({ "token": token, "name": name, "csr": request }))
        .send()
        .await
        .map_err(|source| EnrollError::Transport { url: url.clone(), source })?;
    let status = response.status();
    let body = response.bytes().await.map_err(|source| EnrollError::Transport { url: url.clone(), source })?;
    if status.is_success() {
        let enrolled: Enrolled = serde_json::from_slice(&body).map_err(|e| EnrollError::BadAnswer(e.to_string()))?;
        let client_key = enrolled.certificate.is_some().then_some(key);
        return Ok(Credential {
            server,
            connector_id: enrolled.connector_id,
            credential: enrolled.credential,
            client_certificate: enrolled.certificate,
            client_key,
        });
    }
    match serde_json::from_slice::<ErrorBody>(&body) {
        Ok(e) => Err(EnrollError::Refused { status: status.as_u16(), code: e.error.code, message: e.error.message }),
        Err(_) => Err(EnrollError::Http {
            status: status.as_u16(),
            body: String::from_utf8_lossy(&body).chars().take(500).collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_urls_map_to_the_gateway() {
        assert_eq!(gateway_url("http://127.0.0.1:8080/").unwrap(), "ws://127.0.0.1:8080/v1/connectors/ws");
        assert_eq!(gateway_url("https://acc.example.com").unwrap(), "wss://acc.example.com/v1/connectors/ws");
        assert_eq!(gateway_url("https://acc.example.com/base").unwrap(), "wss://acc.example.com/base/v1/connectors/ws");
        assert!(gateway_url("ftp://x").is_err());
        assert!(gateway_url("http://").is_err());
        assert!(gateway_url("https://").is_err());
    }
}
