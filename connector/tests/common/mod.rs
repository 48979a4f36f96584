//! Helpers shared by the connector's tests: agent configs, collecting a run's events, process
//! checks, and signing approval tokens as the control plane does.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::time::Duration;

use acc_connector::adapter::AdapterEvent;
use acc_connector::config::AgentConfig;
use acc_protocol::{APPROVAL_AUDIENCE, ApprovalClaims, ApprovalKey, EventKind};
use base64::Engine;
use ed25519_dalek::SigningKey;
use ed25519_dalek::pkcs8::EncodePrivateKey;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use tokio::sync::mpsc;
use uuid::Uuid;

pub fn sh_agent(name: &str, script: &str) -> AgentConfig {
    AgentConfig {
        name: name.to_owned(),
        adapter: "command".to_owned(),
        command: "sh".to_owned(),
        args: vec!["-c".to_owned(), script.to_owned()],
        env: BTreeMap::new(),
        workdir: None,
        interactive: false,
        model_provider: None,
        model: None,
    }
}

/// Every event until (and with) the `Result`, failing after `limit`.
pub async fn collect(rx: &mut mpsc::Receiver<AdapterEvent>, limit: Duration) -> Vec<AdapterEvent> {
    let mut events = Vec::new();
    tokio::time::timeout(limit, async {
        while let Some(event) = rx.recv().await {
            let last = event.kind == EventKind::Result;
            events.push(event);
            if last {
                break;
            }
        }
    })
    .await
    .unwrap_or_else(|_| panic!("no result within {limit:?}; got {events:?}"));
    events
}

/// Whether a process exists and is not a zombie.
pub fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            let state = stat.rfind(')').and_then(|i| stat[i + 1..].split_whitespace().next().map(str::to_owned));
            !matches!(state.as_deref(), Some("Z") | Some("X"))
        }
    }
}

/// Waits for `condition` to hold, polling.
pub async fn eventually(limit: Duration, mut condition: impl FnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + limit;
    while tokio::time::Instant::now() < deadline {
        if condition() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    condition()
}

/// Signs approval tokens as the control plane does, with a fresh Ed25519 key.
pub struct Signer {
    kid: String,
    key: EncodingKey,
    pub public: ApprovalKey,
}

pub fn signer(kid: &str) -> Signer {
    let signing = SigningKey::generate(&mut rand::rngs::OsRng);
    let der = signing.to_pkcs8_der().unwrap();
    let public = base64::engine::general_purpose::STANDARD.encode(signing.verifying_key().to_bytes());
    Signer {
        kid: kid.to_owned(),
        key: EncodingKey::from_ed_der(der.as_bytes()),
        public: ApprovalKey { kid: kid.to_owned(), public_key: public },
    }
}

impl Signer {
    pub fn sign(&self, claims: &ApprovalClaims) -> String {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.key).unwrap()
    }
}

/// The claims of a token approving `action` for a run's request, valid for two minutes.
pub fn approval_claims(connector_id: Uuid, run_id: Uuid, request_id: &str, action: &str) -> ApprovalClaims {
    let now = chrono::Utc::now().timestamp();
    let approval = Uuid::now_v7().to_string();
    ApprovalClaims {
        iss: "acc".into(),
        aud: APPROVAL_AUDIENCE.into(),
        sub: approval.clone(),
        jti: approval,
        run_id,
        connector_id,
        request_id: request_id.into(),
        action: action.into(),
        iat: now,
        exp: now + 120,
    }
}
