//! A GraphQL client as a web or integrator client would be: JSON over HTTP, and
//! subscriptions over graphql-transport-ws with the token in `connection_init`.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    pub url: String,
    pub ws_url: String,
    pub token: Option<String>,
}

#[derive(Debug, Clone)]
pub struct GqlResponse {
    pub status: u16,
    pub body: Value,
}

impl GqlResponse {
    /// The field of `data`, failing the test with the errors if there are any.
    pub fn data(&self, field: &str) -> &Value {
        assert!(self.body.get("errors").is_none(), "unexpected errors: {}", self.body);
        &self.body["data"][field]
    }

    pub fn errors(&self) -> &[Value] {
        self.body.get("errors").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
    }

    /// The `extensions.code` of the first error.
    pub fn code(&self) -> Option<&str> {
        self.errors().first().and_then(|e| e["extensions"]["code"].as_str())
    }

    /// Asserts the response failed with `code`, and every error carries a correlation id.
    pub fn expect_code(&self, code: &str) -> &Value {
        assert_eq!(self.code(), Some(code), "expected {code}: {}", self.body);
        for error in self.errors() {
            assert!(error["extensions"]["correlationId"].as_str().is_some_and(|c| !c.is_empty()), "{error}");
            assert!(error["extensions"]["retryable"].is_boolean(), "{error}");
        }
        &self.errors()[0]
    }
}

impl Client {
    pub fn new(url: &str, ws_url: &str) -> Self {
        Self { http: reqwest::Client::new(), url: url.to_owned(), ws_url: ws_url.to_owned(), token: None }
    }

    /// A client that also trusts the CA certificate `ca_pem` (a server with a private CA).
    pub fn trusting(self, ca_pem: &[u8]) -> Self {
        let ca = reqwest::Certificate::from_pem(ca_pem).unwrap();
        Self { http: reqwest::Client::builder().add_root_certificate(ca).build().unwrap(), ..self }
    }

    /// The same client connecting from another loopback address (`127.0.0.2`, say): a different
    /// peer, such as a reverse proxy, as the server sees it.
    pub fn from_address(&self, address: std::net::IpAddr) -> Self {
        Self { http: reqwest::Client::builder().local_address(address).build().unwrap(), ..self.clone() }
    }

    pub fn with_token(&self, token: &str) -> Self {
        Self { token: Some(token.to_owned()), ..self.clone() }
    }

    pub fn anonymous(&self) -> Self {
        Self { token: None, ..self.clone() }
    }

    pub async fn gql(&self, query: &str, variables: Value) -> GqlResponse {
        self.gql_with_headers(query, variables, &[]).await
    }

    pub async fn gql_with_headers(&self, query: &str, variables: Value, headers: &[(&str, &str)]) -> GqlResponse {
        let body = serde_json::to_vec(&json!({"query": query, "variables": variables})).unwrap();
        self.post_raw(body, headers).await
    }

    /// POSTs any bytes as a GraphQL request body.
    pub async fn post_raw(&self, body: Vec<u8>, headers: &[(&str, &str)]) -> GqlResponse {
        let (status, text) = self.post_for_text(body, headers).await;
        let body = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
        GqlResponse { status, body }
    }

    /// The response to an operation as the server wrote it, key order and all.
    pub async fn gql_text(&self, query: &str, variables: Value) -> String {
        let body = serde_json::to_vec(&json!({"query": query, "variables": variables})).unwrap();
        self.post_for_text(body, &[]).await.1
    }

    async fn post_for_text(&self, body: Vec<u8>, headers: &[(&str, &str)]) -> (u16, String) {
        let mut request = self.http.post(&self.url).header("content-type", "application/json").body(body);
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("server reachable");
        let status = response.status().as_u16();
        (status, response.text().await.unwrap())
    }

    pub async fn get(&self, path_and_query: &str) -> reqwest::Response {
        self.get_with(path_and_query, &[]).await
    }

    /// A GET with extra request headers, e.g. `Accept: text/html` as a browser sends it.
    pub async fn get_with(&self, path_and_query: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let base = self.url.trim_end_matches("/graphql");
        let mut request = self.http.get(format!("{base}{path_and_query}"));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        request.send().await.expect("server reachable")
    }

    /// POSTs `body` to `path_and_query` with the bearer token and `headers`; the status and the
    /// JSON answer (`Null` when there is none).
    pub async fn post_bytes(&self, path_and_query: &str, body: Vec<u8>, headers: &[(&str, &str)]) -> (u16, Value) {
        let base = self.url.trim_end_matches("/graphql");
        let mut request = self.http.post(format!("{base}{path_and_query}")).body(body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("server reachable");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// Opens a graphql-transport-ws connection: `connection_init` with the token, then `connection_ack`.
    pub async fn socket(&self) -> Result<Subscription, String> {
        let mut subscription = self.connect().await?;
        let init = match &self.token {
            Some(token) => json!({"type": "connection_init", "payload": {"authorization": format!("Bearer {token}")}}),
            None => json!({"type": "connection_init", "payload": {}}),
        };
        subscription.send(init).await?;
        match subscription.message().await? {
            m if m["type"] == "connection_ack" => Ok(subscription),
            other => Err(format!("no connection_ack: {other}")),
        }
    }

    /// Opens a graphql-transport-ws connection and says nothing yet.
    pub async fn connect(&self) -> Result<Subscription, String> {
        let mut request = self.ws_url.as_str().into_client_request().unwrap();
        request.headers_mut().insert("sec-websocket-protocol", "graphql-transport-ws".parse().unwrap());
        let (socket, _) = tokio_tungstenite::connect_async(request).await.map_err(|e| e.to_string())?;
        Ok(Subscription { socket, pending: Default::default() })
    }

    /// Opens a graphql-transport-ws connection and starts one subscription (id `1`), listening
    /// by the time this returns.
    pub async fn subscribe(&self, query: &str, variables: Value) -> Result<Subscription, String> {
        let mut subscription = self.socket().await?;
        subscription.start("1", query, variables).await?;
        subscription.listening().await?;
        Ok(subscription)
    }
}

/// A graphql-transport-ws connection; `next` reads the results of its operations in order.
pub struct Subscription {
    socket: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    /// Messages that arrived while waiting for a `pong`.
    pending: std::collections::VecDeque<Value>,
}

impl Subscription {
    pub async fn send(&mut self, message: Value) -> Result<(), String> {
        self.socket.send(Message::text(message.to_string())).await.map_err(|e| e.to_string())
    }

    /// Sends `text` as it is, whatever it holds.
    pub async fn send_text(&mut self, text: String) -> Result<(), String> {
        self.socket.send(Message::text(text)).await.map_err(|e| e.to_string())
    }

    /// The messages that arrived while waiting for a `pong`, taken.
    pub fn take_pending(&mut self) -> Vec<Value> {
        self.pending.drain(..).collect()
    }

    /// Closes the socket as a client does once it is done (1000), and reads the server's answer:
    /// the code of its close frame, or why none came.
    pub async fn close(&mut self) -> Result<u16, String> {
        let done = tokio_tungstenite::tungstenite::protocol::CloseFrame {
            code: tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode::Normal,
            reason: "done".into(),
        };
        self.socket.send(Message::Close(Some(done))).await.map_err(|e| e.to_string())?;
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.socket.next()).await;
            match frame.map_err(|_| "no answer in time".to_owned())? {
                Some(Ok(Message::Close(frame))) => return Ok(frame.map_or(1005, |f| u16::from(f.code))),
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.to_string()),
                None => return Err("the socket ended without a close frame".into()),
            }
        }
    }

    /// Starts an operation (a subscription, query or mutation) under `id`.
    pub async fn start(&mut self, id: &str, query: &str, variables: Value) -> Result<(), String> {
        self.send(json!({"id": id, "type": "subscribe", "payload": {"query": query, "variables": variables}})).await
    }

    /// Waits until the operations started so far listen: the server answers a `ping` only after
    /// the subscriptions sent before it are subscribed.
    pub async fn listening(&mut self) -> Result<(), String> {
        self.send(json!({"type": "ping"})).await?;
        loop {
            let message = self.receive().await?;
            if message["type"] == "pong" {
                return Ok(());
            }
            self.pending.push_back(message);
        }
    }

    /// The next protocol message (pings answered); a close becomes `Err("closed CODE: reason")`.
    pub async fn message(&mut self) -> Result<Value, String> {
        match self.pending.pop_front() {
            Some(message) => Ok(message),
            None => self.receive().await,
        }
    }

    async fn receive(&mut self) -> Result<Value, String> {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .map_err(|_| "timed out waiting for a message".to_owned())?;
            match frame {
                Some(Ok(Message::Text(text))) => {
                    let value: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
                    if value["type"] == "ping" {
                        let pong = json!({"type": "pong"}).to_string();
                        self.socket.send(Message::text(pong)).await.map_err(|e| e.to_string())?;
                        continue;
                    }
                    return Ok(value);
                }
                Some(Ok(Message::Close(frame))) => {
                    return Err(
                        frame.map_or("closed".to_owned(), |f| format!("closed {}: {}", u16::from(f.code), f.reason))
                    );
                }
                Some(Ok(_)) => continue,
                Some(Err(e)) => return Err(e.to_string()),
                None => return Err("closed".to_owned()),
            }
        }
    }

    /// The next result payload (`{data}` or `{errors}`), or the error message of an `error` frame.
    pub async fn next(&mut self) -> Result<Value, String> {
        let message = self.message().await?;
        match message["type"].as_str() {
            Some("next") => Ok(message["payload"].clone()),
            Some("error") => Ok(json!({"errors": message["payload"]})),
            _ => Err(format!("unexpected message: {message}")),
        }
    }

    /// Asserts that nothing arrives for `wait`.
    pub async fn expect_silence(&mut self, wait: Duration) {
        if let Some(message) = self.pending.front() {
            panic!("expected no message, got {message}");
        }
        if let Ok(Some(Ok(Message::Text(text)))) = tokio::time::timeout(wait, self.socket.next()).await {
            panic!("expected no message, got {text}");
        }
    }
}
