//! The running server's compactions: when the engine's files have grown past what the last
//! compaction left (`Store::compaction_due`), the store is written afresh on a thread below
//! the answers' priority, while it serves.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::store::{Compaction, Store, StoreError};

use super::ServiceError;

/// How often the server looks at the engine's size.
const LOOK_EVERY: Duration = Duration::from_secs(15);
/// How long without a commit counts as a pause: the compaction a tenth's growth makes due
/// waits for one, so it does not compete with a stream of commits.
const QUIET_AFTER: Duration = Duration::from_secs(60);

/// How long after a compaction that gave up (a disk nearly full, a reader holding the files)
/// the next is tried: each try copies the whole store.
const AFTER_A_FAILURE: Duration = Duration::from_secs(600);

/// Compacts the store whenever one is due, for as long as the server runs.
pub async fn compact_when_due(store: Arc<Store>) {
    let mut commits = store.commits();
    let mut last_commit = Instant::now();
    let mut not_before = Instant::now();
    let mut every = tokio::time::interval(LOOK_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            changed = commits.changed() => {
                if changed.is_err() {
                    return;
                }
                last_commit = Instant::now();
                continue;
            }
        }
        if Instant::now() < not_before {
            continue;
        }
        let quiet = last_commit.elapsed() >= QUIET_AFTER;
        match store.compaction_due(quiet) {
            Ok(true) => match compact(&store).await {
                Ok(_) => {}
                Err(e) => {
                    not_before = Instant::now() + AFTER_A_FAILURE;
                    tracing::warn!(error = %e, "the store could not be compacted; tried again in 10 minutes")
                }
            },
            Ok(false) => {}
            Err(e) => tracing::warn!(error = %e, "the store's size could not be read"),
        }
    }
}

/// Compacts the store now, on a thread of its own below the answers' priority.
pub async fn compact(store: &Arc<Store>) -> Result<Compaction, ServiceError> {
    let store = store.clone();
    let (done, result) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("compaction".into())
        .spawn(move || {
            crate::priority::yield_to_answers();
            let _ = done.send(store.compact());
        })
        .map_err(|e| StoreError::io("no thread for a compaction", e))?;
    let compacted = result
        .await
        .map_err(|_| StoreError::Internal("the compaction stopped".into()))?;
    Ok(compacted?)
}
