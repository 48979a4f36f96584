//! A real OpenID Connect provider for the sign-in tests: npm `oidc-provider`
//! (`runtimes/npm-oidc`) run by `tests/data/oidc/provider.mjs` under its pinned Node.js 24.
//!
//! It is reached through a small HTTP relay in the test, whose address is the provider's issuer,
//! so that a test can do what a network attacker between `acc` and the provider would: hand
//! `acc` another ID token than the one the provider issued, or change it on the way.

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// What replaces the ID token of the provider's next token response.
type Substitution = Box<dyn FnOnce(&str) -> String + Send>;

#[derive(Default)]
struct Relay {
    upstream: String,
    /// The ID token of the last token response that passed.
    last_id_token: Mutex<Option<String>>,
    substitute: Mutex<Option<Substitution>>,
}

pub struct IdentityProvider {
    _child: Child,
    pub issuer: String,
    relay: Arc<Relay>,
}

/// Where the provider sent the browser back to.
#[derive(Debug, Clone)]
pub struct Callback {
    pub code: String,
    pub state: String,
    pub iss: Option<String>,
}

impl IdentityProvider {
    /// Starts a provider with these clients (`client_id`, `client_secret`, `redirect_uris`) and
    /// accounts (by subject: `password`, `email`, `email_verified`, `name`).
    pub async fn start(clients: Value, accounts: Value) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let packages = tokio::task::spawn_blocking(|| crate::runtimes::npm_packages("npm-oidc")).await.unwrap();
        // Resolved from where the script is: a copy beside its node_modules.
        let script = packages.join("provider.mjs");
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/oidc/provider.mjs");
        std::fs::copy(source, &script).unwrap();
        let config = json!({"issuer": issuer, "clients": clients, "accounts": accounts});
        let mut child = Command::new(packages.join("node_modules/.bin/node"))
            .arg(&script)
            .arg(config.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("the identity provider starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let line = tokio::time::timeout(std::time::Duration::from_secs(60), lines.next_line()).await;
        let line = line.expect("the provider says where it listens").unwrap().expect("a line");
        let started: Value = serde_json::from_str(&line).unwrap();
        // Whatever it prints later is read and dropped: a closed pipe would end it (EPIPE).
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        let upstream = format!("http://127.0.0.1:{}", started["port"]);
        let relay = Arc::new(Relay { upstream, ..Relay::default() });
        let app = axum::Router::new().fallback(relay_request).with_state(relay.clone());
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                eprintln!("the identity provider's relay stopped: {e}");
            }
        });
        Self { _child: child, issuer, relay }
    }

    /// The ID token of the last token response `acc` received.
    pub fn last_id_token(&self) -> Option<String> {
        self.relay.last_id_token.lock().unwrap().clone()
    }

    /// The next token response carries `change(id_token)` instead of the ID token issued.
    pub fn substitute_next_id_token(&self, change: impl FnOnce(&str) -> String + Send + 'static) {
        *self.relay.substitute.lock().unwrap() = Some(Box::new(change));
    }

    /// Signs `login` in at the provider, as a browser sent to `authorization_url` would, and
    /// returns what the provider redirects back with.
    pub async fn sign_in(&self, authorization_url: &str, login: &str, password: &str) -> Callback {
        let browser =
            reqwest::Client::builder().cookie_store(true).redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let mut url = reqwest::Url::parse(authorization_url).unwrap();
        let interaction = redirected(browser.get(url.clone()).send().await.unwrap(), &url);
        url = interaction;
        let form = [("login", login), ("password", password)];
        let resume = redirected(browser.post(url.clone()).form(&form).send().await.unwrap(), &url);
        let back = redirected(browser.get(resume.clone()).send().await.unwrap(), &resume);
        let param = |name: &str| back.query_pairs().find(|(k, _)| k == name).map(|(_, v)| v.into_owned());
        Callback {
            code: param("code").unwrap_or_else(|| panic!("no code in {back}")),
            state: param("state").unwrap(),
            iss: param("iss"),
        }
    }

    /// An ID token the provider issues to `client_id` for `login`, with `nonce`, as that client
    /// would get it: the whole code flow with PKCE, done by the test itself.
    pub async fn id_token_for(&self, client: (&str, &str, &str), nonce: &str, login: &str, password: &str) -> String {
        let (client_id, secret, redirect_uri) = client;
        let verifier = URL_SAFE_NO_PAD.encode(rand::random::<[u8; 32]>());
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
        let mut url = reqwest::Url::parse(&format!("{}/auth", self.issuer)).unwrap();
        url.query_pairs_mut()
            .append_pair("client_id", client_id)
            .append_pair("response_type", "code")
            .append_pair("scope", "openid email")
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("state", "test")
            .append_pair("nonce", nonce)
            .append_pair("code_challenge", &challenge)
            .append_pair("code_challenge_method", "S256");
        let callback = self.sign_in(url.as_str(), login, password).await;
        let form = [
            ("grant_type", "authorization_code"),
            ("code", &callback.code),
            ("redirect_uri", redirect_uri),
            ("code_verifier", &verifier),
        ];
        let response = reqwest::Client::new()
            .post(format!("{}/token", self.relay.upstream))
            .basic_auth(client_id, Some(secret))
            .form(&form)
            .send()
            .await
            .unwrap();
        let tokens: Value = response.json().await.unwrap();
        tokens["id_token"].as_str().unwrap_or_else(|| panic!("no ID token: {tokens}")).to_owned()
    }
}

/// Where a 3xx response sends the browser, resolved against the page it came from.
fn redirected(response: reqwest::Response, from: &reqwest::Url) -> reqwest::Url {
    assert!(response.status().is_redirection(), "expected a redirect from {from}, got {}", response.status());
    let location = response.headers()["location"].to_str().unwrap();
    from.join(location).unwrap()
}

async fn relay_request(State(relay): State<Arc<Relay>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, 1 << 20).await.unwrap_or_default();
    let url = format!("{}{}", relay.upstream, parts.uri.path_and_query().map(|p| p.as_str()).unwrap_or("/"));
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    // The `Host` kept: the provider builds its endpoints' addresses from it, and they must be the
    // relay's, so that `acc` comes back through it.
    let upstream = client.request(parts.method.clone(), url).headers(parts.headers.clone()).body(body).send().await;
    let Ok(upstream) = upstream else { return StatusCode::BAD_GATEWAY.into_response() };
    let status = upstream.status();
    let mut headers: HeaderMap = upstream.headers().clone();
    let mut body: Bytes = upstream.bytes().await.unwrap_or_default();
    if parts.uri.path() == "/token"
        && let Ok(mut tokens) = serde_json::from_slice::<Value>(&body)
        && let Some(id_token) = tokens["id_token"].as_str().map(str::to_owned)
    {
        *relay.last_id_token.lock().unwrap() = Some(id_token.clone());
        let substitute = relay.substitute.lock().unwrap().take();
        if let Some(substitute) = substitute {
            tokens["id_token"] = Value::String(substitute(&id_token));
            body = Bytes::from(tokens.to_string());
            headers.remove("content-length");
        }
    }
    headers.remove("transfer-encoding");
    (status, headers, body).into_response()
}

/// `token` with its claims changed by `change` and its signature kept: what a forger who cannot
/// sign would send.
pub fn tampered(token: &str, change: impl FnOnce(&mut Value)) -> String {
    let mut parts: Vec<String> = token.split('.').map(str::to_owned).collect();
    let mut claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(&parts[1]).unwrap()).unwrap();
    change(&mut claims);
    parts[1] = URL_SAFE_NO_PAD.encode(claims.to_string());
    parts.join(".")
}

/// `token`'s claims, unsigned (`alg: none`).
pub fn unsigned(token: &str) -> String {
    let claims = token.split('.').nth(1).unwrap();
    format!("{}.{claims}.", URL_SAFE_NO_PAD.encode(br#"{"alg":"none","typ":"JWT"}"#))
}

/// The `nonce` parameter of an authorization URL.
pub fn nonce_of(authorization_url: &str) -> String {
    let url = reqwest::Url::parse(authorization_url).unwrap();
    url.query_pairs().find(|(k, _)| k == "nonce").map(|(_, v)| v.into_owned()).expect("a nonce")
}
