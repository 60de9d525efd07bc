//! The clock grants expire by and the audit trail is stamped with: a parameter wherever time
//! matters, so that tests move time instead of sleeping.

use std::time::{SystemTime, UNIX_EPOCH};

/// Unix seconds.
pub trait Clock: Send + Sync {
    fn now(&self) -> u64;
}

/// The operating system's clock.
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0)
    }
}
