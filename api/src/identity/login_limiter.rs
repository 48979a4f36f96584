//! Login throttling per account and per client address, so passwords cannot be guessed at speed.
//! Keys idle long enough to have their whole quota back are forgotten, so the maps do not grow
//! with every address and email ever tried.

use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock, Reference};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::error::CommonError;

/// How often idle keys are swept out, at most: a quota refills within a minute, so a key idle
/// that long is indistinguishable from a new one.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

type Keyed<C> = RateLimiter<String, DefaultKeyedStateStore<String>, C, NoOpMiddleware<<C as Clock>::Instant>>;

pub struct LoginLimiter<C: Clock = DefaultClock> {
    per_account: Keyed<C>,
    per_address: Keyed<C>,
    clock: C,
    last_sweep: Mutex<C::Instant>,
}

impl LoginLimiter {
    pub fn new(per_account_per_minute: u32, per_address_per_minute: u32) -> Self {
        Self::with_clock(per_account_per_minute, per_address_per_minute, DefaultClock::default())
    }
}

impl<C: Clock + Clone> LoginLimiter<C> {
    fn with_clock(per_account_per_minute: u32, per_address_per_minute: u32, clock: C) -> Self {
        let quota = |n: u32| Quota::per_minute(NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN));
        let keyed = |n: u32| RateLimiter::new(quota(n), DefaultKeyedStateStore::default(), clock.clone());
        Self {
            per_account: keyed(per_account_per_minute),
            per_address: keyed(per_address_per_minute),
            last_sweep: Mutex::new(clock.now()),
            clock,
        }
    }

    /// Counts one attempt; refuses it when either the account or the address is over its quota.
    pub fn check(&self, email: &str, address: Option<&str>) -> Result<(), CommonError> {
        self.sweep_if_due();
        let now = self.clock.now();
        let refuse = |not_until: governor::NotUntil<C::Instant>| CommonError::RateLimited {
            retry_after_seconds: not_until.wait_time_from(now).as_secs().max(1),
        };
        if let Some(address) = address {
            self.per_address.check_key(&address.to_owned()).map_err(refuse)?;
        }
        // Keyed the way accounts are looked up, so spelling variants share one quota.
        self.per_account.check_key(&email.trim().to_lowercase()).map_err(refuse)
    }

    /// Forgets the keys whose quota has refilled, at most once per [`SWEEP_EVERY`].
    fn sweep_if_due(&self) {
        let now = self.clock.now();
        let Ok(mut last) = self.last_sweep.lock() else { return };
        if Duration::from(now.duration_since(*last)) < SWEEP_EVERY {
            return;
        }
        *last = now;
        drop(last);
        for limiter in [&self.per_account, &self.per_address] {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }

    /// Accounts and addresses remembered.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.per_account.len() + self.per_address.len()
    }
}

#[cfg(test)]
mod tests {
    use governor::clock::FakeRelativeClock;

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
