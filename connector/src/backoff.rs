//! Reconnect delays: exponential backoff with full jitter (a uniform delay between zero and the
//! current ceiling, which doubles from the start value up to the cap), reset after a good handshake.

use std::time::Duration;

use rand::Rng;

pub const START: Duration = Duration::from_millis(200);
pub const CAP: Duration = Duration::from_secs(10);

#[derive(Debug, Clone)]
pub struct Backoff {
    start: Duration,
    cap: Duration,
    attempt: u32,
}

impl Default for Backoff {
    fn default() -> Self {
        Self::new(START, CAP)
    }
}

impl Backoff {
    pub fn new(start: Duration, cap: Duration) -> Self {
        Self { start, cap: cap.max(start), attempt: 0 }
    }

    /// The ceiling of the next delay: start × 2^attempt, capped.
    pub fn ceiling(&self) -> Duration {
        let factor = 1u32.checked_shl(self.attempt.min(31)).unwrap_or(u32::MAX);
        self.start.checked_mul(factor).map_or(self.cap, |d| d.min(self.cap))
    }

    /// The next delay, uniformly random in `[0, ceiling]`.
    pub fn next_delay(&mut self) -> Duration {
        let ceiling = self.ceiling();
        self.attempt = self.attempt.saturating_add(1);
        let millis = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
        Duration::from_millis(rand::thread_rng().gen_range(0..=millis))
    }

    pub fn reset(&mut self) {
        self.attempt = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_to_the_cap_with_full_jitter_and_resets() {
        let mut b = Backoff::default();
        let ceilings: Vec<u64> = (0..10)
            .map(|_| {
                let c = b.ceiling();
                let d = b.next_delay();
                assert!(d <= c);
                c.as_millis() as u64
            })
            .collect();
        assert_eq!(ceilings, [200, 400, 800, 1600, 3200, 6400, 10_000, 10_000, 10_000, 10_000]);
        for _ in 0..100 {
            b.next_delay();
        }
        assert_eq!(b.ceiling(), CAP);
        b.reset();
        assert_eq!(b.ceiling(), START);
        // Full jitter: delays spread over the whole range rather than clustering at the ceiling.
        let mut b = Backoff::new(Duration::from_millis(1000), Duration::from_millis(1000));
        let delays: Vec<Duration> = (0..200).map(|_| b.next_delay()).collect();
        assert!(delays.iter().any(|d| *d < Duration::from_millis(250)));
        assert!(delays.iter().any(|d| *d > Duration::from_millis(750)));
    }
}
