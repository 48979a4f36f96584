//! A browser vendor's push service, played by the test: the one outside boundary of Web Push
//! (FCM, Mozilla's, Apple's and Microsoft's services are not reachable here). It takes what `acc`
//! posts to a subscription's endpoint as the real ones do (201, or 410 for a subscription the
//! browser dropped), and [`Browser`] holds a subscription's keys to read it, as the browser would.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use serde_json::Value;
use tokio::sync::mpsc;

/// A message the service took, for the browser `device`.
#[derive(Debug)]
pub struct Posted {
    pub device: String,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Posted {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map(|v| v.to_str().unwrap()).unwrap_or_default()
    }
}

#[derive(Clone)]
struct Service {
    posted: mpsc::UnboundedSender<Posted>,
    gone: Arc<Mutex<HashSet<String>>>,
}

pub struct PushService {
    /// `http://127.0.0.1:PORT/`, as `push.allowed_endpoints` names it.
    pub url: String,
    posted: mpsc::UnboundedReceiver<Posted>,
    gone: Arc<Mutex<HashSet<String>>>,
}

impl PushService {
    pub async fn start() -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        let (sender, posted) = mpsc::unbounded_channel();
        let gone = Arc::new(Mutex::new(HashSet::new()));
        let service = Service { posted: sender, gone: gone.clone() };
        let app = axum::Router::new().route("/push/{device}", axum::routing::post(take)).with_state(service);
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Self { url, posted, gone }
    }

    /// The endpoint of the browser `device`.
    pub fn endpoint(&self, device: &str) -> String {
        format!("{}push/{device}", self.url)
    }

    /// From now on the browser `device` has unsubscribed: its messages are refused with 410.
    pub fn drop_subscription(&self, device: &str) {
        self.gone.lock().unwrap().insert(device.to_owned());
    }

    /// The next message taken, within `wait`.
    pub async fn next(&mut self, wait: Duration) -> Option<Posted> {
        tokio::time::timeout(wait, self.posted.recv()).await.ok().flatten()
    }
}

async fn take(
    State(service): State<Service>,
    Path(device): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    if service.gone.lock().unwrap().contains(&device) {
        return StatusCode::GONE;
    }
    let _ = service.posted.send(Posted { device, headers, body });
    StatusCode::CREATED
}

/// A browser's push subscription: its key pair and authentication secret.
pub struct Browser {
    pub endpoint: String,
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Browser {
    pub fn new(endpoint: String) -> Self {
        let secret = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
        Self { endpoint, secret, auth: rand::random() }
    }

    /// `PushSubscription.toJSON().keys.p256dh`.
    pub fn p256dh(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.secret.public_key().to_encoded_point(false).as_bytes())
    }

    pub fn auth(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.auth)
    }

    /// What the service worker's `push` event would read: the message decrypted, as JSON; none
    /// when it was not encrypted for this browser.
    pub fn read(&self, posted: &Posted) -> Option<Value> {
        let auth = web_push_native::Auth::from(self.auth);
        let plain = web_push_native::decrypt(posted.body.to_vec(), &self.secret, &auth).ok()?;
        Some(serde_json::from_slice(&plain).unwrap())
    }
}
