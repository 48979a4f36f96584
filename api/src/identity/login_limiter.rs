//! Login throttling per account and per client address, so passwords cannot be guessed at speed.

use std::num::NonZeroU32;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::CommonError;

pub struct LoginLimiter {
    per_account: DefaultKeyedRateLimiter<String>,
    per_address: DefaultKeyedRateLimiter<String>,
}

impl LoginLimiter {
    pub fn new(per_account_per_minute: u32, per_address_per_minute: u32) -> Self {
        let quota = |n: u32| Quota::per_minute(NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN));
        Self {
            per_account: RateLimiter::keyed(quota(per_account_per_minute)),
            per_address: RateLimiter::keyed(quota(per_address_per_minute)),
        }
    }

    /// Counts one attempt; refuses it when either the account or the address is over its quota.
    pub fn check(&self, email: &str, address: Option<&str>) -> Result<(), CommonError> {
        let clock = DefaultClock::default();
        let refuse = |not_until: governor::NotUntil<_>| CommonError::RateLimited {
            retry_after_seconds: not_until.wait_time_from(clock.now()).as_secs().max(1),
        };
        if let Some(address) = address {
            self.per_address.check_key(&address.to_owned()).map_err(refuse)?;
        }
        // Keyed the way accounts are looked up, so spelling variants share one quota.
        self.per_account.check_key(&email.trim().to_lowercase()).map_err(refuse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_quota_applies_across_addresses_and_address_quota_across_accounts() {
        let limiter = LoginLimiter::new(3, 5);
        for i in 0..3 {
            limiter.check("a@example.com", Some(&format!("10.0.0.{i}"))).unwrap();
        }
        assert!(matches!(limiter.check("A@example.com", Some("10.0.0.9")), Err(CommonError::RateLimited { .. })));
        let limiter = LoginLimiter::new(100, 2);
        limiter.check("x@example.com", Some("1.1.1.1")).unwrap();
        limiter.check("y@example.com", Some("1.1.1.1")).unwrap();
        assert!(limiter.check("z@example.com", Some("1.1.1.1")).is_err());
        limiter.check("z@example.com", Some("2.2.2.2")).unwrap();
    }
}
