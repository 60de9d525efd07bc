//! How much work one request may do: a deadline, and a flag its connection sets when the
//! client goes away. Long scans check it every few hundred items and stop with `Spent`, so
//! an abandoned or oversized request gives its thread back instead of running on.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Why a request's work stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Spent {
    #[error("the client went away")]
    Abandoned,
    #[error(
        "the request needs more than the server's work budget of {} ms; narrow it (a search term, fewer brands, a vehicle) or page with a cursor",
        .0.as_millis()
    )]
    OverBudget(Duration),
    /// The answer would pass `limits.answer_mb`.
    #[error("{0}")]
    TooLarge(String),
    /// The answers in flight hold what `limits.answers_in_flight_mb` allows, and this one
    /// found no room in time.
    #[error(
        "the server is building other large answers and has no room for this one now (limits.answers_in_flight_mb); retry in a moment"
    )]
    Busy,
}

/// A request's budget; clones share the abandonment flag.
#[derive(Debug, Clone)]
pub struct Budget {
    started: Instant,
    limit: Option<Duration>,
    abandoned: Arc<AtomicBool>,
}

/// Marks its budget abandoned when dropped, unless disarmed: the request's future holds it,
/// and the server drops that future when the client hangs up.
#[derive(Debug)]
pub struct AbandonOnDrop {
    abandoned: Arc<AtomicBool>,
    armed: bool,
}

impl AbandonOnDrop {
    /// The work finished: dropping the guard changes nothing.
    pub fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for AbandonOnDrop {
    fn drop(&mut self) {
        if self.armed {
            self.abandoned.store(true, Ordering::Relaxed);
        }
    }
}

impl Budget {
    /// No deadline and no client to lose: for the command line and background jobs.
    pub fn unlimited() -> Budget {
        Budget {
            started: Instant::now(),
            limit: None,
            abandoned: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A budget of `limit` (`None`: no deadline) and the guard that abandons it.
    pub fn for_request(limit: Option<Duration>) -> (Budget, AbandonOnDrop) {
        let budget = Budget {
            limit,
            ..Budget::unlimited()
        };
        let guard = AbandonOnDrop {
            abandoned: budget.abandoned.clone(),
            armed: true,
        };
        (budget, guard)
    }

    /// `Err` once the client has gone or the deadline has passed, or where the answers in
    /// flight leave this one no room.
    pub fn check(&self) -> Result<(), Spent> {
        if self.abandoned.load(Ordering::Relaxed) {
            return Err(Spent::Abandoned);
        }
        match self.limit {
            Some(limit) if self.started.elapsed() > limit => Err(Spent::OverBudget(limit)),
            _ => crate::limits::in_flight::check().map_err(|_| Spent::Busy),
        }
    }

    /// Checks every `EVERY` items of a scan, so the clock is read rarely.
    pub fn check_every(&self, item: usize) -> Result<(), Spent> {
        const EVERY: usize = 256;
        if item.is_multiple_of(EVERY) {
            self.check()
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_guard_abandons_and_a_disarmed_one_does_not() {
        let (budget, guard) = Budget::for_request(None);
        assert_eq!(budget.check(), Ok(()));
        drop(guard);
        assert_eq!(budget.clone().check(), Err(Spent::Abandoned));

        let (budget, guard) = Budget::for_request(None);
        guard.disarm();
        assert_eq!(budget.check(), Ok(()));
    }

    #[test]
    fn past_its_deadline_the_budget_is_spent() {
        let (budget, _guard) = Budget::for_request(Some(Duration::ZERO));
        std::thread::sleep(Duration::from_millis(2));
        assert!(matches!(budget.check(), Err(Spent::OverBudget(_))));
        assert!(budget.check_every(1).is_ok());
        assert!(budget.check_every(512).is_err());
        assert_eq!(Budget::unlimited().check(), Ok(()));
    }
}
