//! One data version of the catalogue, held for as long as a request or a stream needs it.
//! A protocol adapter takes one (`Snapshot::of`) and hands it to the service calls that read
//! it, so that every read of one answer sees one version; it never reads it itself
//! (`tests/layering.rs` holds that). The answer cache asks it whether a kept answer is still
//! this version's answer.

use std::ops::Deref;
use std::sync::Arc;

use crate::store::reads;
use crate::store::{Catalogue, Store};

/// What an answer read: each table at its generation. The answer cache keeps it beside the
/// answer and asks a later snapshot whether it `keeps` it.
pub use crate::store::reads::Stamp;

/// The catalogue as `store` publishes it at one moment.
#[derive(Clone)]
pub struct Snapshot(Arc<Catalogue>);

impl Snapshot {
    pub fn of(store: &Store) -> Snapshot {
        Snapshot(store.catalogue())
    }

    /// The first version newer than `since` that `store` commits within `wait`, or (none
    /// within it) the version it holds then.
    pub async fn newer_than(store: &Store, since: u64, wait: std::time::Duration) -> Snapshot {
        Snapshot(store.newer_than(since, wait).await)
    }

    /// What `build` gives, with what it read of the catalogue meanwhile (on this thread):
    /// none where it read one table at two versions, an answer nothing can keep.
    pub fn recorded<T>(build: impl FnOnce() -> T) -> (T, Option<Stamp>) {
        reads::recorded(build)
    }

    /// Whether an answer read under `stamp` is this version's answer too.
    pub fn keeps(&self, stamp: &Stamp) -> bool {
        self.0.still_current(stamp)
    }

    /// `stamp` at this version's generations, where a commit moved a table it names (only
    /// for a stamp `keeps` accepted).
    pub fn restamped(&self, stamp: &Stamp) -> Option<Stamp> {
        self.0.advanced(stamp)
    }
}

/// The service calls take the catalogue view; a snapshot is one.
impl Deref for Snapshot {
    type Target = Catalogue;

    fn deref(&self) -> &Catalogue {
        &self.0
    }
}
