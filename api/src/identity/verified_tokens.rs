//! Access tokens whose signature this process has checked, so a caller's next requests with the
//! same token skip the Ed25519 verification (about 50 µs, a tenth of a page of tasks' CPU).
//!
//! Only the signature check is skipped: a token is remembered by its exact text, until it
//! expires, and the session it names is still looked up (or taken from the actor cache, which an
//! access change empties) on every request, so a revoked session ends at once as before.

use std::collections::HashMap;
use std::sync::Mutex;

use chrono::Utc;
use uuid::Uuid;

/// Beyond this many tokens the memory starts over, so a flood of tokens cannot grow it.
const MAX_TOKENS: usize = 10_000;

/// What a verified token says about its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerifiedToken {
    pub session_id: Uuid,
    pub user_id: Uuid,
    /// Unix seconds.
    pub expires_at: i64,
}

#[derive(Default)]
pub struct VerifiedTokens {
    tokens: Mutex<HashMap<Box<str>, VerifiedToken>>,
}

impl VerifiedTokens {
    fn tokens(&self) -> std::sync::MutexGuard<'_, HashMap<Box<str>, VerifiedToken>> {
        self.tokens.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// What `token` says, if it was verified before and has not expired.
    pub fn get(&self, token: &str) -> Option<VerifiedToken> {
        let found = *self.tokens().get(token)?;
        (found.expires_at > Utc::now().timestamp()).then_some(found)
    }

    /// Remembers a token whose signature, issuer and expiry were just checked.
    pub fn keep(&self, token: &str, verified: VerifiedToken) {
        let mut tokens = self.tokens();
        if tokens.len() >= MAX_TOKENS {
            let now = Utc::now().timestamp();
            tokens.retain(|_, t| t.expires_at > now);
            if tokens.len() >= MAX_TOKENS {
                tokens.clear();
            }
        }
        tokens.insert(token.into(), verified);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn token(expires_in: i64) -> VerifiedToken {
        VerifiedToken {
            session_id: Uuid::now_v7(),
            user_id: Uuid::now_v7(),
            expires_at: Utc::now().timestamp() + expires_in,
        }
    }

    #[test]
    fn a_token_is_known_by_its_exact_text_until_it_expires() {
        let verified = VerifiedTokens::default();
        let live = token(60);
        verified.keep("a.b.c", live);
        assert_eq!(verified.get("a.b.c"), Some(live));
        assert_eq!(verified.get("a.b.d"), None, "another token's text is not this one");
        verified.keep("x.y.z", token(-1));
        assert_eq!(verified.get("x.y.z"), None, "an expired token is verified again, and refused");
    }

    #[test]
    fn a_flood_of_tokens_does_not_grow_the_memory() {
        let verified = VerifiedTokens::default();
        for i in 0..MAX_TOKENS + 10 {
            verified.keep(&format!("token {i}"), token(60));
        }
        assert!(verified.tokens().len() <= MAX_TOKENS);
    }
}
