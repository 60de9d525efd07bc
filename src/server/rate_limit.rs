//! Per-provider rate limits (governor's GCRA): the provider's own limit, or the server's
//! default. There is one limiter per authenticated provider, so memory is bounded by the
//! providers in the store, however many keys and addresses callers try.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::RwLock;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, Quota};

use crate::accounts::ProviderRecord;

pub struct RateLimits {
    /// Requests a second for providers without a limit of their own; 0: none.
    default_per_second: u32,
    /// Each provider's limiter, with the rate it was made for.
    limiters: RwLock<HashMap<String, (u32, DefaultDirectRateLimiter)>>,
    clock: DefaultClock,
}

impl RateLimits {
    pub fn new(default_per_second: u32) -> RateLimits {
        RateLimits {
            default_per_second,
            limiters: RwLock::new(HashMap::new()),
            clock: DefaultClock::default(),
        }
    }

    /// Drops a deleted provider's limiter.
    pub fn forget(&self, provider: &str) {
        self.limiters
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .remove(provider);
    }

    /// `Err` with how long to wait when the provider is over its limit.
    pub fn check(&self, provider: &ProviderRecord) -> Result<(), Duration> {
        let per_second = match provider.rate_limit_per_second {
            0 => self.default_per_second,
            own => own,
        };
        let Some(rate) = NonZeroU32::new(per_second) else {
            return Ok(());
        };
        let outcome = {
            let limiters = self.limiters.read().unwrap_or_else(|e| e.into_inner());
            match limiters.get(&provider.id) {
                Some((made_for, limiter)) if *made_for == per_second => Some(limiter.check()),
                _ => None,
            }
        };
        let outcome = match outcome {
            Some(outcome) => outcome,
            None => {
                // First request, or the provider's limit changed: a fresh limiter.
                let limiter = DefaultDirectRateLimiter::direct(Quota::per_second(rate));
                let outcome = limiter.check();
                self.limiters
                    .write()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(provider.id.clone(), (per_second, limiter));
                outcome
            }
        };
        outcome.map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }
}

#[cfg(test)]
mod tests {
    use super::RateLimits;
    use crate::accounts::ProviderRecord;

    #[test]
    fn a_provider_over_its_limit_waits_and_others_do_not() {
        let a = ProviderRecord::new("a", "A", vec![]);
        let b = ProviderRecord::new("b", "B", vec![]);
        let limits = RateLimits::new(3);
        for _ in 0..3 {
            assert!(limits.check(&a).is_ok());
        }
        let wait = limits.check(&a).unwrap_err();
        assert!(wait.as_millis() > 0 && wait.as_millis() <= 1000, "{wait:?}");
        assert!(limits.check(&b).is_ok());

        // A provider's own limit wins over the default, in both directions.
        let mut generous = ProviderRecord::new("c", "C", vec![]);
        generous.rate_limit_per_second = 100;
        assert!((0..100).all(|_| limits.check(&generous).is_ok()));
        let unlimited = RateLimits::new(0);
        assert!((0..10_000).all(|_| unlimited.check(&a).is_ok()));
        let mut strict = ProviderRecord::new("d", "D", vec![]);
        strict.rate_limit_per_second = 1;
        assert!(unlimited.check(&strict).is_ok());
        assert!(unlimited.check(&strict).is_err());
    }
}
