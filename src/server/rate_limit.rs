//! Per-provider rate limits (governor's GCRA). The limiter is keyed by the provider an
//! authenticated request belongs to, so its memory is bounded by the providers in the store,
//! however many keys and addresses callers try.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

pub struct RateLimits {
    limiter: Option<DefaultKeyedRateLimiter<String>>,
    clock: DefaultClock,
}

impl RateLimits {
    /// `per_second` requests a second per provider, in bursts of as many; 0: no limit.
    pub fn new(per_second: u32) -> RateLimits {
        RateLimits {
            limiter: NonZeroU32::new(per_second)
                .map(|n| DefaultKeyedRateLimiter::keyed(Quota::per_second(n))),
            clock: DefaultClock::default(),
        }
    }

    /// `Err` with how long to wait when the provider is over its limit.
    pub fn check(&self, provider: &str) -> Result<(), Duration> {
        let Some(limiter) = &self.limiter else {
            return Ok(());
        };
        limiter
            .check_key(&provider.to_owned())
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }
}

#[cfg(test)]
mod tests {
    use super::RateLimits;

    #[test]
    fn a_provider_over_its_limit_waits_and_others_do_not() {
        let limits = RateLimits::new(3);
        for _ in 0..3 {
            assert!(limits.check("a").is_ok());
        }
        let wait = limits.check("a").unwrap_err();
        assert!(wait.as_millis() > 0 && wait.as_millis() <= 1000, "{wait:?}");
        assert!(limits.check("b").is_ok());
        let unlimited = RateLimits::new(0);
        assert!((0..10_000).all(|_| unlimited.check("a").is_ok()));
    }
}
