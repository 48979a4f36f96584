//! A rate quota per key (an account, an address, a run): so many a minute, refilled steadily.
//! Keys idle long enough to have their whole quota back are forgotten, so the map does not grow
//! with every key ever seen.

use std::hash::Hash;
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
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

pub struct KeyedQuota<K: Hash + Eq + Clone, C: Clock = DefaultClock> {
    limiter: RateLimiter<K, DefaultKeyedStateStore<K>, C, NoOpMiddleware<<C as Clock>::Instant>>,
    clock: C,
    last_sweep: Mutex<C::Instant>,
}

impl<K: Hash + Eq + Clone> KeyedQuota<K> {
    pub fn per_minute(n: u32) -> Self {
        Self::with_clock(n, DefaultClock::default())
    }
}

impl<K: Hash + Eq + Clone, C: Clock + Clone> KeyedQuota<K, C> {
    /// `n` a minute for each key (at least 1).
    pub fn with_clock(n: u32, clock: C) -> Self {
        let quota = Quota::per_minute(NonZeroU32::new(n.max(1)).unwrap_or(NonZeroU32::MIN));
        Self {
            limiter: RateLimiter::new(quota, DefaultKeyedStateStore::default(), clock.clone()),
            last_sweep: Mutex::new(clock.now()),
            clock,
        }
    }

    /// Counts one use by `key`; refuses it, saying when to try again, when the key is over its
    /// quota.
    pub fn check(&self, key: &K) -> Result<(), CommonError> {
        self.sweep_if_due();
        let now = self.clock.now();
        self.limiter.check_key(key).map_err(|not_until| CommonError::RateLimited {
            retry_after_seconds: not_until.wait_time_from(now).as_secs().max(1),
        })
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
        self.limiter.retain_recent();
        self.limiter.shrink_to_fit();
    }

    /// Keys remembered.
    #[cfg(test)]
    pub fn remembered(&self) -> usize {
        self.limiter.len()
    }
}
