//! `[sync] follow`: the upstream followed continuously, each change imported as it comes.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Followed, SyncError, SyncRequest, Upstream, wait_for_upstream};
use crate::config::SyncSettings;
use crate::service::ServiceError;
use crate::service::jobs::{Job, Jobs};
use crate::store::Store;

/// Who starts the follower's sync jobs, as the jobs and the audit name it.
pub const FOLLOWER: &str = "sync follow";

/// The pause after a failure or a wait answered early, doubling up to a minute, each with up
/// to a quarter of itself added at random so that many followers do not ask in step.
const FIRST_PAUSE: Duration = Duration::from_secs(2);
const LONGEST_PAUSE: Duration = Duration::from_secs(60);
/// A wait answered this much sooner than asked was not held (a proxy, an upstream that does
/// not hold long polls): asking again at once would spin.
const EARLY_BY: Duration = Duration::from_secs(1);

/// Follows the upstream until the process ends, once `ready` (a demo catalogue loading goes
/// first: the store takes one change at a time): waits on its feed (or looks at its
/// deliveries' index every `POLL_EVERY`) and imports each change as a sync job. A catalogue
/// not yet synchronised from it is refreshed in full first. A failure, or a wait answered
/// sooner than it asked, is asked again only after a pause (`Pace`), and logged once for each
/// change of state.
pub async fn follow(
    jobs: Arc<Jobs>,
    store: Arc<Store>,
    settings: SyncSettings,
    ready: impl Future<Output = ()>,
) {
    ready.await;
    let mut pace = Pace::default();
    loop {
        let started = Instant::now();
        let round = follow_once(&jobs, &store, &settings).await;
        if let Some(pause) = pace.after(round, started.elapsed()) {
            tokio::time::sleep(pause).await;
        }
    }
}

/// How a round went.
#[derive(Debug, PartialEq)]
enum Round {
    /// A change was imported (or the catalogue refreshed).
    Imported,
    /// Nothing newer came; `asked` is how long the upstream was asked to hold the wait.
    Quiet {
        asked: Duration,
    },
    Failed(String),
}

/// The pause before the next round, and what was last logged.
#[derive(Debug, Default)]
struct Pace {
    pause: Option<Duration>,
    state: Option<String>,
}

impl Pace {
    /// The pause after `round`, which took `took`; logs a change of state.
    fn after(&mut self, round: Round, took: Duration) -> Option<Duration> {
        let trouble = match round {
            Round::Imported => None,
            Round::Quiet { asked } if took + EARLY_BY >= asked => None,
            Round::Quiet { asked } => Some(format!(
                "the upstream answered a wait of {} s after {:.1} s: it (or a proxy before it) does not hold long polls",
                asked.as_secs(),
                took.as_secs_f64()
            )),
            Round::Failed(e) => Some(e),
        };
        let Some(trouble) = trouble else {
            if self.state.take().is_some() {
                tracing::info!("following the upstream again");
            }
            self.pause = None;
            return None;
        };
        let pause = self
            .pause
            .map_or(FIRST_PAUSE, |p| (p * 2).min(LONGEST_PAUSE));
        self.pause = Some(pause);
        let pause = pause + jitter(pause / 4);
        if self.state.as_deref() != Some(trouble.as_str()) {
            tracing::warn!(
                reason = %trouble,
                retry_in_s = pause.as_secs_f64(),
                "following the upstream: pausing (pauses grow to a minute; logged again when this changes)"
            );
            self.state = Some(trouble);
        } else {
            tracing::debug!(
                retry_in_s = pause.as_secs_f64(),
                "following the upstream: pausing"
            );
        }
        Some(pause)
    }
}

/// A random duration up to `most`.
fn jitter(most: Duration) -> Duration {
    let mut bytes = [0u8; 4];
    let _ = getrandom::fill(&mut bytes);
    most.mul_f64(f64::from(u32::from_le_bytes(bytes)) / f64::from(u32::MAX))
}

/// One round: a wait on the upstream, and the import of what it brought.
async fn follow_once(jobs: &Arc<Jobs>, store: &Arc<Store>, settings: &SyncSettings) -> Round {
    let (at, looked) = (store.clone(), settings.clone());
    // The key file is read here too: off the async threads.
    let waited = tokio::task::spawn_blocking(move || {
        let upstream = Upstream::configured(&looked)?;
        let waited = wait_for_upstream(&at, &upstream, looked.follow_wait);
        Ok::<_, SyncError>((upstream, waited))
    })
    .await
    .unwrap_or_else(|e| Err(SyncError::Scratch(e.to_string())));
    let (upstream, waited) = match waited {
        Ok(both) => both,
        Err(e) => return Round::Failed(e.to_string()),
    };
    let sync = |refresh: bool| {
        jobs.start_sync(
            store,
            upstream.clone(),
            SyncRequest::everything(refresh),
            FOLLOWER,
        )
    };
    let imported = match waited {
        Ok(Followed::Nothing) => {
            if matches!(upstream, Upstream::Indexed(_)) {
                tokio::time::sleep(super::POLL_EVERY).await;
                return Round::Quiet {
                    asked: Duration::ZERO,
                };
            }
            return Round::Quiet {
                asked: settings.follow_wait,
            };
        }
        Ok(Followed::Feed(waited)) => finish(jobs.start_followed(store, *waited)).await,
        Ok(Followed::Newer) => finish(sync(false)).await,
        Err(SyncError::NeedsRefresh(_)) => finish(sync(true)).await,
        Err(e) => Err(e.to_string()),
    };
    match imported {
        Ok(()) => Round::Imported,
        Err(e) => Round::Failed(e),
    }
}

/// Waits for a started job; its failure as an error.
async fn finish(
    started: Result<(Arc<Job>, tokio::task::JoinHandle<()>), ServiceError>,
) -> Result<(), String> {
    let (job, task) = started.map_err(|e| e.to_string())?;
    let _ = task.await;
    match job.snapshot().error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ASKED: Duration = Duration::from_secs(60);

    fn early() -> Round {
        Round::Quiet { asked: ASKED }
    }

    #[test]
    fn a_wait_answered_at_once_is_asked_again_after_a_growing_capped_pause() {
        let mut pace = Pace::default();
        let mut pauses = Vec::new();
        for _ in 0..10 {
            pauses.push(pace.after(early(), Duration::from_millis(3)).unwrap());
        }
        assert!(pauses[0] >= FIRST_PAUSE && pauses[0] <= FIRST_PAUSE * 5 / 4);
        assert!(pauses[1] >= FIRST_PAUSE * 2, "{pauses:?}");
        for pause in &pauses {
            assert!(*pause <= LONGEST_PAUSE * 5 / 4, "{pauses:?}");
        }
        assert!(pauses[9] >= LONGEST_PAUSE, "{pauses:?}");
    }

    #[test]
    fn a_held_wait_or_an_import_asks_again_at_once_and_resets_the_pause() {
        let mut pace = Pace::default();
        assert_eq!(pace.after(early(), ASKED), None);
        assert_eq!(pace.after(Round::Imported, Duration::ZERO), None);
        pace.after(Round::Failed("refused".into()), Duration::ZERO)
            .unwrap();
        pace.after(Round::Failed("refused".into()), Duration::ZERO)
            .unwrap();
        assert_eq!(pace.state.as_deref(), Some("refused"));
        assert_eq!(pace.after(Round::Imported, Duration::ZERO), None);
        assert_eq!(pace.state, None);
        let first = pace.after(early(), Duration::ZERO).unwrap();
        assert!(first <= FIRST_PAUSE * 5 / 4, "{first:?}");
        assert_eq!(
            pace.after(
                Round::Quiet {
                    asked: Duration::ZERO
                },
                Duration::ZERO
            ),
            None,
            "a deliveries index looked at on its own schedule"
        );
    }
}
