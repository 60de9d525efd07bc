//! `[sync] follow`: the upstream followed continuously, each change imported as it comes.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use super::{Followed, SyncError, SyncRequest, Upstream, wait_for_upstream};
use crate::config::SyncSettings;
use crate::service::ServiceError;
use crate::service::jobs::{Job, Jobs};
use crate::store::Store;

/// The pause after a failure, doubling up to a minute.
const FIRST_PAUSE: Duration = Duration::from_secs(2);
const LONGEST_PAUSE: Duration = Duration::from_secs(60);

/// Follows the upstream until the process ends, once `ready` (a demo catalogue loading goes
/// first: the store takes one change at a time): waits on its feed (or looks at its
/// deliveries' index every `POLL_EVERY`) and imports each change as a sync job. A catalogue
/// not yet synchronised from it is refreshed in full first; a failure is logged and retried
/// after a pause.
pub async fn follow(
    jobs: Arc<Jobs>,
    store: Arc<Store>,
    settings: SyncSettings,
    ready: impl Future<Output = ()>,
) {
    ready.await;
    let mut pause = FIRST_PAUSE;
    loop {
        match follow_once(&jobs, &store, &settings).await {
            Ok(()) => pause = FIRST_PAUSE,
            Err(e) => {
                tracing::warn!(error = %e, retry_in_s = pause.as_secs(), "following the upstream");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(LONGEST_PAUSE);
            }
        }
    }
}

/// One round: a wait on the upstream, and the import of what it brought.
async fn follow_once(
    jobs: &Arc<Jobs>,
    store: &Arc<Store>,
    settings: &SyncSettings,
) -> Result<(), String> {
    let upstream = Upstream::configured(settings).map_err(|e| e.to_string())?;
    let (looked, at, wait) = (upstream.clone(), store.clone(), settings.follow_wait);
    let waited = tokio::task::spawn_blocking(move || wait_for_upstream(&at, &looked, wait))
        .await
        .unwrap_or_else(|e| Err(SyncError::Scratch(e.to_string())));
    let sync = |refresh: bool| {
        jobs.start_sync(
            store,
            upstream.clone(),
            SyncRequest::everything(refresh),
            "sync follow",
        )
    };
    match waited {
        Ok(Followed::Nothing) => {
            if matches!(upstream, Upstream::Indexed(_)) {
                tokio::time::sleep(super::POLL_EVERY).await;
            }
            Ok(())
        }
        Ok(Followed::Feed(waited)) => finish(jobs.start_followed(store, *waited)).await,
        Ok(Followed::Newer) => finish(sync(false)).await,
        Err(SyncError::NeedsRefresh(_)) => finish(sync(true)).await,
        Err(e) => Err(e.to_string()),
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
