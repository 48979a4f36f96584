//! Approval tokens as the connector checks them before it lets an agent take an action a person
//! had to approve: signed by the control plane (EdDSA, with a key from `HelloAck`), for this
//! connector, this run, this request and exactly this action, unexpired, and never used before.
//! A token is spent when the agent has taken the decision, not before: a hand-over that fails
//! leaves it for the control plane's resend.

use std::path::Path;
use std::sync::Mutex;

use acc_protocol::{APPROVAL_AUDIENCE, ApprovalClaims, ApprovalKey};
use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use uuid::Uuid;

use crate::lock;
use crate::seen::{SeenError, SeenLog};

/// The issuer the control plane signs as.
const ISSUER: &str = "acc";
/// How many spent tokens are remembered; far more than can be alive at once.
const REMEMBERED_TOKENS: usize = 10_000;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TokenError {
    #[error("no approval token")]
    Missing,
    #[error("the token is not signed by a key of the control plane")]
    UnknownKey,
    #[error("the token is invalid: {0}")]
    Invalid(String),
    #[error("the token is for another {0}")]
    Mismatch(&'static str),
    #[error("the token was already used")]
    Spent,
    #[error("no such approval request is pending here")]
    NoRequest,
}

/// Why a token was not redeemed.
#[derive(Debug, PartialEq, Eq)]
pub enum RedeemError<E> {
    /// The token does not allow the action.
    Token(TokenError),
    /// The token allows it, but the decision could not be handed over; the token is not spent.
    HandOver(E),
}

/// What a token must match: the request it answers, as this connector saw it.
#[derive(Debug, Clone, Copy)]
pub struct Expected<'a> {
    pub run_id: Uuid,
    pub request_id: &'a str,
    /// The action the agent asked for, as it was sent (after redaction); `None` if unknown here.
    pub action: Option<&'a str>,
}

#[derive(Debug)]
pub struct ApprovalVerifier {
    /// The connector tokens must name; replaced when the connector takes on a new identity.
    connector_id: Mutex<Uuid>,
    keys: Mutex<Vec<(String, DecodingKey)>>,
    spent: Mutex<SeenLog<()>>,
}

impl ApprovalVerifier {
    /// Spent tokens are remembered in `path`, so a restart does not make one usable again.
    pub fn open(path: &Path, connector_id: Uuid) -> Result<Self, SeenError> {
        Ok(Self {
            connector_id: Mutex::new(connector_id),
            keys: Mutex::new(Vec::new()),
            spent: Mutex::new(SeenLog::open(path, REMEMBERED_TOKENS)?),
        })
    }

    /// From now on, tokens must name `connector_id`.
    pub fn set_connector(&self, connector_id: Uuid) {
        *lock(&self.connector_id) = connector_id;
    }

    /// Takes the keys a `HelloAck` lists; a key that does not decode is skipped with a warning.
    pub fn set_keys(&self, keys: &[ApprovalKey]) {
        let base64 = base64::engine::general_purpose::STANDARD;
        let decoded = keys
            .iter()
            .filter_map(|k| match base64.decode(&k.public_key) {
                Ok(bytes) if bytes.len() == 32 => Some((k.kid.clone(), DecodingKey::from_ed_der(&bytes))),
                _ => {
                    tracing::warn!(kid = %k.kid, "ignoring an approval key that is not a 32-byte Ed25519 key");
                    None
                }
            })
            .collect();
        *lock(&self.keys) = decoded;
    }

    /// Checks a token and, if it allows the action, hands the decision over with `hand_over`;
    /// the token is spent once that succeeded, and can never be used again here. Spent tokens are
    /// locked out for the whole check, so two redemptions of one token cannot both pass.
    pub fn redeem<E>(
        &self,
        token: Option<&str>,
        expected: Expected<'_>,
        hand_over: impl FnOnce(&ApprovalClaims) -> Result<(), E>,
    ) -> Result<ApprovalClaims, RedeemError<E>> {
        let claims = self.check(token, expected).map_err(RedeemError::Token)?;
        let jti = Uuid::parse_str(&claims.jti)
            .map_err(|_| RedeemError::Token(TokenError::Invalid("jti is not a UUID".into())))?;
        let mut spent = lock(&self.spent);
        if spent.get(&jti).is_some() {
            return Err(RedeemError::Token(TokenError::Spent));
        }
        hand_over(&claims).map_err(RedeemError::HandOver)?;
        if let Err(e) = spent.insert(jti, ()) {
            // The request it answered is closed, so the token cannot be used here again before a
            // restart, and a restart ends the run it was for.
            tracing::error!(error = %e, "could not record an approval token as used");
        }
        Ok(claims)
    }

    /// Everything about a token but whether it was spent.
    fn check(&self, token: Option<&str>, expected: Expected<'_>) -> Result<ApprovalClaims, TokenError> {
        let token = token.filter(|t| !t.is_empty()).ok_or(TokenError::Missing)?;
        let header = jsonwebtoken::decode_header(token).map_err(|e| TokenError::Invalid(e.to_string()))?;
        if header.alg != Algorithm::EdDSA {
            return Err(TokenError::Invalid("not signed with EdDSA".into()));
        }
        let kid = header.kid.ok_or(TokenError::UnknownKey)?;
        let claims = {
            let keys = lock(&self.keys);
            let key = keys.iter().find(|(k, _)| *k == kid).map(|(_, key)| key).ok_or(TokenError::UnknownKey)?;
            let mut validation = Validation::new(Algorithm::EdDSA);
            validation.set_issuer(&[ISSUER]);
            validation.set_audience(&[APPROVAL_AUDIENCE]);
            validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
            validation.leeway = 5;
            jsonwebtoken::decode::<ApprovalClaims>(token, key, &validation)
                .map_err(|e| TokenError::Invalid(e.to_string()))?
                .claims
        };
        if claims.connector_id != *lock(&self.connector_id) {
            return Err(TokenError::Mismatch("connector"));
        }
        if claims.run_id != expected.run_id {
            return Err(TokenError::Mismatch("run"));
        }
        if claims.request_id != expected.request_id {
            return Err(TokenError::Mismatch("request"));
        }
        match expected.action {
            None => return Err(TokenError::NoRequest),
            Some(action) if action != claims.action => return Err(TokenError::Mismatch("action")),
            Some(_) => {}
        }
        Ok(claims)
    }
}
