//! A write that never returns ends the process. sled 0.34 can hang inside a write: a writer
//! that needs a new segment at the end of its file waits, holding the segment accountant's
//! lock, for the file's truncation, which is queued in sled's thread pool behind log writes
//! that wait for that lock; the pool starts no thread while its threads are busy. partscat
//! cannot reach into sled's pool, and a hung appliance answers nothing until someone notices.
//! A write that has not returned within `STALL_LIMIT` therefore ends the process as a
//! `kill -9` would: the store is whole at any moment (`tests/commit_crash.rs`), the service's
//! supervisor starts it again (`Restart=on-failure`), and a test that hit the hang fails
//! instead of stalling CI.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

/// Longer than any single write of the engine takes on a working disk (the longest, a flush
/// after a large batch, takes seconds).
pub const STALL_LIMIT: Duration = Duration::from_secs(300);
const LOOK_EVERY: Duration = Duration::from_secs(5);

/// The writes of one engine under way, by when they started.
#[derive(Default)]
pub struct Watch {
    under_way: Mutex<BTreeMap<u64, (Instant, &'static str)>>,
    next: AtomicU64,
}

/// A write under way; it is done when this is dropped.
pub struct Watched<'a> {
    watch: &'a Watch,
    id: u64,
}

impl Drop for Watched<'_> {
    fn drop(&mut self) {
        lock(&self.watch.under_way).remove(&self.id);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Watch {
    /// A new watch, looked at by the process's watchdog for as long as it lives.
    pub fn watched() -> Arc<Watch> {
        let watch = Arc::new(Watch::default());
        watchdog().register(&watch);
        watch
    }

    pub fn start(&self, what: &'static str) -> Watched<'_> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        lock(&self.under_way).insert(id, (Instant::now(), what));
        Watched { watch: self, id }
    }

    /// The write under way longest, and for how long, as of `now`.
    pub fn oldest(&self, now: Instant) -> Option<(Duration, &'static str)> {
        let under_way = lock(&self.under_way);
        under_way
            .values()
            .map(|(started, what)| (now.saturating_duration_since(*started), *what))
            .max_by_key(|(took, _)| *took)
    }
}

/// Every engine's watch; one thread looks at them.
struct Watchdog {
    watches: Mutex<Vec<Weak<Watch>>>,
}

fn watchdog() -> &'static Watchdog {
    static WATCHDOG: OnceLock<Watchdog> = OnceLock::new();
    WATCHDOG.get_or_init(|| {
        let spawned = std::thread::Builder::new()
            .name("engine watchdog".into())
            .spawn(|| {
                loop {
                    std::thread::sleep(LOOK_EVERY);
                    if let Some((took, what)) = watchdog().stalled(Instant::now(), STALL_LIMIT) {
                        end_the_process(took, what);
                    }
                }
            });
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "no thread to watch the storage engine's writes");
        }
        Watchdog {
            watches: Mutex::new(Vec::new()),
        }
    })
}

impl Watchdog {
    fn register(&self, watch: &Arc<Watch>) {
        let mut watches = lock(&self.watches);
        watches.retain(|w| w.strong_count() > 0);
        watches.push(Arc::downgrade(watch));
    }

    /// A write under way longer than `limit` as of `now`, in any engine.
    fn stalled(&self, now: Instant, limit: Duration) -> Option<(Duration, &'static str)> {
        let watches: Vec<Arc<Watch>> = lock(&self.watches)
            .iter()
            .filter_map(Weak::upgrade)
            .collect();
        watches
            .iter()
            .filter_map(|w| w.oldest(now))
            .find(|(took, _)| *took > limit)
    }
}

fn end_the_process(took: Duration, what: &str) -> ! {
    let message = format!(
        "the storage engine has not finished a {what} for {} s (a known hang of its thread pool); \
         the process ends so that its supervisor starts it again, and the store recovers from its log",
        took.as_secs()
    );
    tracing::error!("{message}");
    eprintln!("partscat: {message}");
    std::process::abort();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_under_way_past_the_limit_is_found_and_a_finished_one_is_not() {
        let dog = Watchdog {
            watches: Mutex::new(Vec::new()),
        };
        let watch = Arc::new(Watch::default());
        dog.register(&watch);
        let start = Instant::now();
        let limit = Duration::from_secs(300);
        {
            let _done = watch.start("flush");
        }
        assert_eq!(dog.stalled(start + Duration::from_secs(400), limit), None);
        let _stuck = watch.start("batch");
        assert_eq!(dog.stalled(start + Duration::from_secs(10), limit), None);
        let (took, what) = dog
            .stalled(start + Duration::from_secs(400), limit)
            .unwrap();
        assert!(took > limit);
        assert_eq!(what, "batch");
        // An engine dropped is no longer looked at.
        drop(_stuck);
        drop(watch);
        assert_eq!(dog.stalled(start + Duration::from_secs(900), limit), None);
        assert!(lock(&dog.watches)[0].upgrade().is_none());
    }
}
