//! Passwords (argon2id) and opaque bearer secrets (refresh, API and bootstrap tokens, stored as SHA-256).

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::error::CommonError;

pub const MIN_PASSWORD_LEN: usize = 10;

/// What `Debug` shows in place of a secret, so a logged value never carries one.
pub const REDACTED: &str = "[redacted]";

pub fn hash_password(password: &str) -> Result<String, CommonError> {
    if password.chars().count() < MIN_PASSWORD_LEN {
        return Err(CommonError::validation(format!("a password needs at least {MIN_PASSWORD_LEN} characters")));
    }
    let salt = SaltString::generate(&mut rand::rngs::OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| CommonError::Internal(e.to_string()))
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok())
        .unwrap_or(false)
}

/// Checks a password against a fixed hash, so an unknown account costs as much as a known one.
pub fn burn_password_check(password: &str) {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let hash = DUMMY.get_or_init(|| hash_password("dummy-password-for-timing").unwrap_or_default());
    verify_password(password, hash);
}

/// A new random secret with a readable prefix that says what it is (`acc_rt_`, `acc_pat_`).
pub fn new_secret(prefix: &str) -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes))
}

pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Compares two secrets in time that does not depend on where they differ.
pub fn secrets_equal(a: &str, b: &str) -> bool {
    let (a, b) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    a.iter().zip(b.iter()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argon2id_round_trip_and_short_password_refused() {
        let hash = hash_password("correct horse battery").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password("correct horse battery", &hash));
        assert!(!verify_password("wrong horse battery", &hash));
        assert!(hash_password("short").is_err());
    }

    #[test]
    fn sign_ins_and_new_accounts_never_show_their_secrets() {
        use acc_entity::{device_session, user};
        let now = chrono::Utc::now();
        let id = uuid::Uuid::now_v7();
        let user = user::Model {
            id,
            organization_id: id,
            email: "dev@acme.test".into(),
            display_name: "Dev".into(),
            password_hash: hash_password("correct horse battery").unwrap(),
            is_server_admin: false,
            disabled: false,
            revision: 1,
            created_at: now,
            updated_at: now,
        };
        let session = device_session::Model {
            id,
            organization_id: id,
            user_id: id,
            device_name: "laptop".into(),
            client_address: None,
            revoked_at: None,
            revoked_reason: None,
            last_used_at: now,
            revision: 1,
            created_at: now,
            updated_at: now,
        };
        let (access, refresh) = ("eyJ.access-token-secret.sig", new_secret("acc_rt_"));
        let sign_in = super::super::SignIn {
            access_token: access.into(),
            access_token_expires_at: now,
            refresh_token: refresh.clone(),
            session,
            user: user.clone(),
        };
        let shown = format!("{sign_in:?}");
        for secret in [access, &refresh, &user.password_hash] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(shown.contains(REDACTED) && shown.contains(&id.to_string()), "{shown}");
        let new = super::super::NewUser {
            email: "dev@acme.test".into(),
            display_name: "Dev".into(),
            password: "correct horse battery".into(),
        };
        let shown = format!("{new:?}");
        assert!(!shown.contains("correct horse battery") && shown.contains("dev@acme.test"), "{shown}");
    }

    #[test]
    fn secrets_are_unique_and_compare() {
        let (a, b) = (new_secret("acc_rt_"), new_secret("acc_rt_"));
        assert_ne!(a, b);
        assert!(secrets_equal(&a, &a.clone()));
        assert!(!secrets_equal(&a, &b));
        assert_eq!(hash_secret(&a), hash_secret(&a));
    }
}
