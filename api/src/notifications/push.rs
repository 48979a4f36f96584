//! Web Push (RFC 8030) to the PWA's service worker: each browser a person turned push on in holds
//! a subscription (an endpoint at its vendor's push service, and the keys to encrypt for it);
//! a notification is encrypted for each (RFC 8291) and posted with a VAPID token (RFC 8292)
//! signed by this server's P-256 key, which the browser was given when it subscribed.
//!
//! The endpoint is a URL a client names and the server posts to: only the push services the
//! operator allows (by default the four browser vendors') are taken, or the server could be made
//! to post into its own network.

use std::path::{Path, PathBuf};
use std::time::Duration;

use acc_entity::notification::{self, NotificationKind};
use acc_entity::push_subscription;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::Utc;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use reqwest::Url;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::json;

use super::outbox::SendError;
use crate::db::Pool;

/// How long a push service keeps a message for a browser that is offline.
const TTL: Duration = Duration::from_secs(12 * 3600);
/// What a message carries of a notification's body (push services take about 4 KiB).
const MAX_BODY_CHARS: usize = 1_000;
/// The longest endpoint taken (the vendors' are a few hundred characters).
const MAX_ENDPOINT_LEN: usize = 2_048;

#[derive(Debug, thiserror::Error)]
pub enum PushError {
    #[error("web push key {path}: {message}")]
    Key { path: PathBuf, message: String },
    #[error("push.allowed_endpoints: {0:?} is not scheme://host[:port]/ (a host may start with `*.`)")]
    Pattern(String),
}

/// Where push messages may go: a scheme, a host (or `*.` and a domain: any host under it) and a
/// port, as `https://*.notify.windows.com/` says it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct AllowedService {
    scheme: String,
    host: String,
    port: Option<u16>,
}

impl AllowedService {
    fn parse(pattern: &str) -> Result<Self, PushError> {
        let invalid = || PushError::Pattern(pattern.to_owned());
        let (scheme, rest) = pattern.split_once("://").ok_or_else(invalid)?;
        let authority = rest.strip_suffix('/').ok_or_else(invalid)?;
        let (host, port) = match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port.parse().map_err(|_| invalid())?)),
            None => (authority, None),
        };
        if !matches!(scheme, "https" | "http") || host.is_empty() || host.contains(['/', '@', '?', '#']) {
            return Err(invalid());
        }
        Ok(Self { scheme: scheme.to_owned(), host: host.to_ascii_lowercase(), port })
    }

    fn allows(&self, endpoint: &Url) -> bool {
        let Some(host) = endpoint.host_str() else { return false };
        let host_allowed = match self.host.strip_prefix("*.") {
            Some(domain) => host.ends_with(&format!(".{domain}")),
            None => host == self.host,
        };
        endpoint.scheme() == self.scheme
            && host_allowed
            && endpoint.port_or_known_default() == self.port.or_else(|| default_port(&self.scheme))
    }
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "https" => Some(443),
        "http" => Some(80),
        _ => None,
    }
}

/// A browser's subscription as it hands it over (`PushSubscription.toJSON()`), checked.
#[derive(Debug, Clone)]
pub struct NewSubscription {
    pub endpoint: String,
    /// The browser's P-256 public key, uncompressed, base64url.
    pub p256dh: String,
    /// Its 16-byte authentication secret, base64url.
    pub auth: String,
}

/// This server's VAPID key and where it may post.
pub struct Pusher {
    key: p256::SecretKey,
    signing: EncodingKey,
    contact: String,
    allowed: Vec<AllowedService>,
    http: reqwest::Client,
}

impl Pusher {
    /// Loads the VAPID key from `keys_dir` (making it the first time: changing it would orphan
    /// every subscription); `contact` is who push services may reach about it.
    pub fn open(keys_dir: &Path, contact: String, allowed: &[String]) -> Result<Self, PushError> {
        let path = keys_dir.join("web-push.pem");
        let key_error = |message: String| PushError::Key { path: path.clone(), message };
        let key = match std::fs::read_to_string(&path) {
            Ok(pem) => p256::SecretKey::from_pkcs8_pem(&pem).map_err(|e| key_error(e.to_string()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let key = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
                let pem = key.to_pkcs8_pem(LineEnding::LF).map_err(|e| key_error(e.to_string()))?;
                std::fs::create_dir_all(keys_dir).map_err(|e| key_error(e.to_string()))?;
                crate::identity::keys::write_private_file(&path, pem.as_bytes())
                    .map_err(|e| key_error(e.to_string()))?;
                key
            }
            Err(e) => return Err(key_error(e.to_string())),
        };
        let pem = key.to_pkcs8_pem(LineEnding::LF).map_err(|e| key_error(e.to_string()))?;
        let signing = EncodingKey::from_ec_pem(pem.as_bytes()).map_err(|e| key_error(e.to_string()))?;
        let allowed = allowed.iter().map(|p| AllowedService::parse(p)).collect::<Result<_, _>>()?;
        let http = reqwest::Client::builder()
            // A push service answers; it never sends the server elsewhere.
            .redirect(reqwest::redirect::Policy::none())
            .timeout(Duration::from_secs(15))
            .build()
            .map_err(|e| key_error(e.to_string()))?;
        Ok(Self { key, signing, contact, allowed, http })
    }

    /// The key browsers subscribe with (`applicationServerKey`): the public point, base64url.
    pub fn public_key(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.key.public_key().to_encoded_point(false).as_bytes())
    }

    /// The push service `subscription` is at, or why it is refused.
    pub fn check(&self, subscription: &NewSubscription) -> Result<String, String> {
        if subscription.endpoint.len() > MAX_ENDPOINT_LEN {
            return Err(format!("the endpoint is longer than {MAX_ENDPOINT_LEN} characters"));
        }
        let endpoint = Url::parse(&subscription.endpoint).map_err(|e| format!("the endpoint is not a URL: {e}"))?;
        if !endpoint.username().is_empty() || endpoint.password().is_some() {
            return Err("the endpoint may not carry credentials".into());
        }
        if !self.allowed.iter().any(|service| service.allows(&endpoint)) {
            return Err("the endpoint is not at a push service this server sends to (push.allowed_endpoints)".into());
        }
        let key = URL_SAFE_NO_PAD.decode(&subscription.p256dh).map_err(|_| "p256dh is not base64url".to_owned())?;
        p256::PublicKey::from_sec1_bytes(&key).map_err(|_| "p256dh is not a P-256 public key".to_owned())?;
        let auth = URL_SAFE_NO_PAD.decode(&subscription.auth).map_err(|_| "auth is not base64url".to_owned())?;
        if auth.len() != 16 {
            return Err("auth must be 16 bytes".into());
        }
        Ok(endpoint.host_str().unwrap_or_default().to_owned())
    }

    /// Posts `told` to each browser of its person; a subscription its push service says is gone
    /// (404, 410) is forgotten. Done when one browser took it, or the person has none left.
    pub(super) async fn send(&self, db: &Pool, told: &notification::Model) -> Result<(), SendError> {
        let subscriptions = push_subscription::Entity::find()
            .filter(push_subscription::Column::UserId.eq(told.user_id))
            .all(db)
            .await
            .map_err(|e| SendError::Temporary(e.to_string()))?;
        if subscriptions.is_empty() {
            return Err(SendError::Permanent("no browser of theirs takes push any more".into()));
        }
        let message = serde_json::to_vec(&json!({
            "id": told.id,
            "title": told.title,
            "body": told.body.chars().take(MAX_BODY_CHARS).collect::<String>(),
            "href": super::web_path(told),
            "kind": told.kind.to_string(),
        }))
        .expect("a JSON object");
        let mut last_error = None;
        let mut delivered = false;
        for subscription in subscriptions {
            match self.post(&subscription, &message, told.kind).await {
                Ok(()) => delivered = true,
                Err(Gone) => {
                    tracing::info!(subscription_id = %subscription.id, "a browser's push subscription is gone: forgotten");
                    let _ = push_subscription::Entity::delete_by_id(subscription.id).exec(db).await;
                }
                Err(Failed(e)) => last_error = Some(e),
            }
        }
        match (delivered, last_error) {
            (true, _) => Ok(()),
            (false, Some(e)) => Err(SendError::Temporary(e)),
            (false, None) => Err(SendError::Permanent("every browser of theirs has unsubscribed".into())),
        }
    }

    async fn post(
        &self,
        subscription: &push_subscription::Model,
        message: &[u8],
        kind: NotificationKind,
    ) -> Result<(), PostError> {
        let failed = |e: String| PostError::Failed(e);
        let endpoint = Url::parse(&subscription.endpoint).map_err(|e| failed(e.to_string()))?;
        let key = URL_SAFE_NO_PAD.decode(&subscription.p256dh).map_err(|e| failed(e.to_string()))?;
        let key = p256::PublicKey::from_sec1_bytes(&key).map_err(|e| failed(e.to_string()))?;
        let auth = URL_SAFE_NO_PAD.decode(&subscription.auth).map_err(|e| failed(e.to_string()))?;
        let auth: [u8; 16] = auth.try_into().map_err(|_| failed("auth is not 16 bytes".into()))?;
        let auth = web_push_native::Auth::from(auth);
        let body = web_push_native::encrypt(message.to_vec(), &key, &auth).map_err(|e| failed(e.to_string()))?;
        let urgency = match kind {
            NotificationKind::ApprovalWaiting | NotificationKind::BudgetSpent => "high",
            NotificationKind::RunFailed | NotificationKind::BudgetWarning => "normal",
        };
        let response = self
            .http
            .post(endpoint.clone())
            .header("TTL", TTL.as_secs())
            .header("Urgency", urgency)
            .header("Content-Encoding", "aes128gcm")
            .header("Content-Type", "application/octet-stream")
            .header("Authorization", self.vapid(&endpoint).map_err(failed)?)
            .body(body)
            .send()
            .await
            .map_err(|e| failed(e.to_string()))?;
        match response.status().as_u16() {
            200..=299 => Ok(()),
            404 | 410 => Err(Gone),
            status => Err(failed(format!("the push service answered {status}"))),
        }
    }

    /// `vapid t=<ES256 JWT for the endpoint's origin>, k=<public key>` (RFC 8292).
    fn vapid(&self, endpoint: &Url) -> Result<String, String> {
        let claims = json!({
            "aud": endpoint.origin().ascii_serialization(),
            "exp": (Utc::now() + TTL).timestamp(),
            "sub": self.contact,
        });
        let token =
            jsonwebtoken::encode(&Header::new(Algorithm::ES256), &claims, &self.signing).map_err(|e| e.to_string())?;
        Ok(format!("vapid t={token}, k={}", self.public_key()))
    }
}

enum PostError {
    /// The browser unsubscribed, or its subscription expired.
    Gone,
    Failed(String),
}

use PostError::{Failed, Gone};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_push_services_allowed_are_posted_to() {
        let windows = AllowedService::parse("https://*.notify.windows.com/").unwrap();
        let fcm = AllowedService::parse("https://fcm.googleapis.com/").unwrap();
        let local = AllowedService::parse("http://127.0.0.1:8099/").unwrap();
        let url = |u: &str| Url::parse(u).unwrap();
        assert!(windows.allows(&url("https://wns2-par02p.notify.windows.com/w/?token=x")));
        assert!(!windows.allows(&url("https://notify.windows.com.evil.example/w")));
        assert!(!windows.allows(&url("https://evilnotify.windows.com/w")));
        assert!(fcm.allows(&url("https://fcm.googleapis.com/fcm/send/abc")));
        assert!(!fcm.allows(&url("http://fcm.googleapis.com/fcm/send/abc")), "not over plain HTTP");
        assert!(!fcm.allows(&url("https://fcm.googleapis.com:8443/fcm/send/abc")), "not on another port");
        assert!(local.allows(&url("http://127.0.0.1:8099/push/1")));
        assert!(!local.allows(&url("http://127.0.0.1:8098/push/1")));
        for bad in ["fcm.googleapis.com", "https://fcm.googleapis.com", "ftp://x/", "https://u@x/", "https:///"] {
            assert!(AllowedService::parse(bad).is_err(), "{bad}");
        }
    }
}
