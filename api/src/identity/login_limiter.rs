//! Login throttling per account and per client address, so passwords cannot be guessed at speed.

use governor::clock::{Clock, DefaultClock};

use crate::error::CommonError;
use crate::quota::KeyedQuota;

pub struct LoginLimiter<C: Clock = DefaultClock> {
    per_account: KeyedQuota<String, C>,
    per_address: KeyedQuota<String, C>,
}

impl LoginLimiter {
    pub fn new(per_account_per_minute: u32, per_address_per_minute: u32) -> Self {
        Self::with_clock(per_account_per_minute, per_address_per_minute, DefaultClock::default())
    }
}

impl<C: Clock + Clone> LoginLimiter<C> {
    fn with_clock(per_account_per_minute: u32, per_address_per_minute: u32, clock: C) -> Self {
        Self {
            per_account: KeyedQuota::with_clock(per_account_per_minute, clock.clone()),
            per_address: KeyedQuota::with_clock(per_address_per_minute, clock),
        }
    }

    /// Counts one attempt; refuses it when either the account or the address is over its quota.
    pub fn check(&self, email: &str, address: Option<&str>) -> Result<(), CommonError> {
        self.check_address(address)?;
        // Keyed the way accounts are looked up, so spelling variants share one quota.
        self.per_account.check(&email.trim().to_lowercase())
    }

    /// Counts one attempt against the address alone: a sign-in through an identity provider,
    /// whose account is not known until the provider answers.
    pub fn check_address(&self, address: Option<&str>) -> Result<(), CommonError> {
        match address {
            Some(address) => self.per_address.check(&address.to_owned()),
            None => Ok(()),
        }
    }

    /// Accounts and addresses remembered.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.per_account.remembered() + self.per_address.remembered()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use governor::clock::FakeRelativeClock;

    use crate::quota::SWEEP_EVERY;

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

    #[test]
    fn idle_accounts_and_addresses_are_forgotten() {
        let clock = FakeRelativeClock::default();
        let limiter = LoginLimiter::with_clock(10, 30, clock.clone());
        for i in 0..500 {
            limiter.check(&format!("user{i}@example.com"), Some(&format!("198.51.100.{}", i % 250))).unwrap();
        }
        assert_eq!(limiter.len(), 500 + 250);
        // Still counting: nothing is forgotten while a quota is partly used.
        clock.advance(Duration::from_secs(30));
        limiter.check("busy@example.com", Some("203.0.113.1")).unwrap();
        assert_eq!(limiter.len(), 752);
        clock.advance(SWEEP_EVERY + Duration::from_secs(1));
        limiter.check("busy@example.com", Some("203.0.113.1")).unwrap();
        assert!(limiter.len() <= 2, "only the busy account and address are left: {}", limiter.len());
    }
}
