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

/// Exchanges the token; the caller stores the credential.
pub async fn enroll(server: &str, token: &str, name: &str) -> Result<Credential, EnrollError> {
    let server = normalize_server(server)?;
    let url = format!("{server}/v1/connectors/enroll");
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(30))
        .user_agent(concat!("acc-connector/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|source| EnrollError::Transport { url: url.clone(), source })?;
    let response = client
        .post(&url)
        .json(&serde_json::json!({ "token": token, "name": name }))
        .send()
        .await
        .map_err(|source| EnrollError::Transport { url: url.clone(), source })?;
    let status = response.status();
    let body = response.bytes().await.map_err(|source| EnrollError::Transport { url: url.clone(), source })?;
    if status.is_success() {
        let enrolled: Enrolled = serde_json::from_slice(&body).map_err(|e| EnrollError::BadAnswer(e.to_string()))?;
        return Ok(Credential { server, connector_id: enrolled.connector_id, credential: enrolled.credential });
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
