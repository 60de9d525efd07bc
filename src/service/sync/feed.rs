//! The change feed a downstream appliance follows: what changed since a data version, as
//! import files with a `change` column, or every data set whole; all from one data version.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use crate::import::{self, ImportType, WriteError};
use crate::service::caller::Caller;
use crate::service::{ServiceError, Snapshot};
use crate::store::Store;

/// What the feed answers a request: the store's id and data version, and the changes up to
/// it unless nothing newer than the caller's version was committed while it waited.
pub struct FeedAnswer {
    pub store_id: String,
    pub version: u64,
    pub changes: Option<Changes>,
}

/// The feed from `since` (none: the data sets whole) up to one snapshot's version, to write.
pub struct Changes {
    store: Arc<Store>,
    snapshot: Snapshot,
    since: Option<u64>,
}

impl Changes {
    /// Writes one data set's file, or (none) a tar of every data set's.
    pub fn write(
        &self,
        data_set: Option<ImportType>,
        out: &mut dyn Write,
    ) -> Result<(), WriteError> {
        write_feed(&self.store, &self.snapshot, data_set, self.since, out)
    }
}

/// The feed from `since` for `caller`, waiting up to `wait` for a version newer than
/// `since` where the store holds no newer one yet. A caller that sees only some brands is
/// refused (the feed carries every brand); a `since` out of the feed's reach is `Gone`.
pub async fn feed(
    store: &Arc<Store>,
    caller: &Caller,
    since: Option<u64>,
    wait: Option<Duration>,
) -> Result<FeedAnswer, ServiceError> {
    if !caller.brands().is_empty() {
        return Err(ServiceError::Forbidden(format!(
            "Access denied: the change feed carries every brand, and provider `{}` sees only some",
            caller.provider.id
        )));
    }
    let mut snapshot = Snapshot::of(store);
    if let (Some(since), Some(wait)) = (since, wait.filter(|w| !w.is_zero()))
        && since == snapshot.data_version()
    {
        snapshot = Snapshot::newer_than(store, since, wait).await;
        if snapshot.data_version() == since {
            return Ok(FeedAnswer {
                store_id: store.id().to_owned(),
                version: since,
                changes: None,
            });
        }
    }
    let (now, kept_since) = (snapshot.data_version(), snapshot.changes_complete_since());
    if let Some(since) = since
        && (since < kept_since || since > now)
    {
        return Err(ServiceError::Gone(format!(
            "the change feed holds the changes since data version {kept_since} and this store is at {now}; data version {since} is out of its reach: refresh in full (this route without `since`, or syncTecdoc with refresh=true)"
        )));
    }
    Ok(FeedAnswer {
        store_id: store.id().to_owned(),
        version: now,
        changes: Some(Changes {
            store: store.clone(),
            snapshot,
            since,
        }),
    })
}

/// Writes the feed: one data set's file, or a tar of every data set's. The tar's files are
/// written to the store's scratch directory first (a tar entry gives its size before its
/// bytes), all from the one snapshot.
fn write_feed(
    store: &Store,
    snapshot: &Snapshot,
    data_set: Option<ImportType>,
    since: Option<u64>,
    out: &mut dyn Write,
) -> Result<(), WriteError> {
    let write = |set: ImportType, to: &mut dyn Write| -> Result<u64, WriteError> {
        match since {
            Some(since) => import::write_changes(snapshot, set, since, to),
            None => import::write_data_set(snapshot, set, to),
        }
    };
    if let Some(set) = data_set {
        write(set, out)?;
        return Ok(());
    }
    let scratch = store.spill_dir()?;
    let mut tar = tar::Builder::new(out);
    for set in ImportType::ALL {
        let name = format!("{}.csv", set.name());
        let path = scratch.path().join(&name);
        let file = std::fs::File::create(&path).map_err(|e| WriteError::Csv(e.into()))?;
        write(set, &mut io::BufWriter::new(file))?;
        tar.append_path_with_name(&path, &name)
            .map_err(|e| WriteError::Csv(e.into()))?;
        let _ = std::fs::remove_file(&path);
    }
    tar.into_inner().map_err(|e| WriteError::Csv(e.into()))?;
    Ok(())
}
