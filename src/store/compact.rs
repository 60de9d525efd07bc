//! Giving the engine's space back to the file system, and when to. The storage engine reuses
//! the space of deleted pages but never shrinks its files, and gives a stretch of its log back
//! only once most of it is dead: a store that took many small commits holds several times what
//! its catalogue needs. A compaction writes the engine's files afresh while the store serves
//! (`engine::Engine::compact`); the running server compacts when the files have grown past
//! what the last compaction left (`compaction_due`), and `partscat compact` on demand.

use std::path::Path;

use super::engine::Compaction;
use super::{Store, StoreError};

/// What `partscat compact` did.
pub struct Compacted {
    pub bytes_before: u64,
    pub bytes_after: u64,
    pub checksum: String,
}

/// The engine's bytes right after the last compaction (or the store's first catalogue), in
/// the meta tree.
const KEY_COMPACTED_BYTES: &[u8] = b"engine_bytes_compacted";

/// Growth over the last compaction's size that makes one due once commits pause.
const DUE_WHEN_QUIET: f64 = 1.1;
/// Growth that makes one due at the next check, commits or not: the bound on the files.
const DUE_ANYWAY: f64 = 2.0;
/// Growth smaller than this is never worth a compaction (a small store's engine files).
const SLACK_BYTES: u64 = 16 << 20;

/// Whether a store whose engine holds `bytes`, `compacted` after its last compaction (none
/// if never), should be compacted now; `quiet` says whether commits have paused.
pub fn due(bytes: u64, compacted: Option<u64>, quiet: bool) -> bool {
    let Some(compacted) = compacted.filter(|&c| c > 0) else {
        return quiet && bytes > SLACK_BYTES;
    };
    if bytes < compacted.saturating_add(SLACK_BYTES) {
        return false;
    }
    let growth = bytes as f64 / compacted as f64;
    growth > DUE_ANYWAY || (quiet && growth > DUE_WHEN_QUIET)
}

impl Store {
    /// Writes the engine's files afresh while the store serves, and notes their size.
    pub fn compact(&self) -> Result<Compaction, StoreError> {
        let done = self.db.compact()?;
        self.note_compacted_size()?;
        tracing::info!(
            bytes_before = done.bytes_before,
            bytes_after = done.bytes_after,
            "compacted the store"
        );
        Ok(done)
    }

    /// Notes the engine's size now as what a compaction would leave (after a compaction, or
    /// after the store's first catalogue, written afresh).
    pub(super) fn note_compacted_size(&self) -> Result<(), StoreError> {
        self.meta
            .insert(KEY_COMPACTED_BYTES, self.db.bytes().to_be_bytes())?;
        self.db.flush()
    }

    /// The engine's size the last compaction (or the first catalogue) left, if noted.
    fn compacted_size(&self) -> Result<Option<u64>, StoreError> {
        Ok(self
            .meta
            .get(KEY_COMPACTED_BYTES)?
            .and_then(|v| <[u8; 8]>::try_from(v.as_ref()).ok())
            .map(u64::from_be_bytes))
    }

    /// Whether a compaction is due now (`due`); `quiet` says whether commits have paused.
    pub fn compaction_due(&self, quiet: bool) -> Result<bool, StoreError> {
        let bytes = self.db.bytes();
        Ok(bytes > 0 && due(bytes, self.compacted_size()?, quiet))
    }
}

/// `partscat compact`: compacts the store at `dir` (which no server may hold) and checks it.
pub fn compact(dir: &Path) -> Result<Compacted, StoreError> {
    // Opening applies what the last run left to free.
    let store = Store::open(dir)?;
    let done = store.compact()?;
    let report = super::check::check(&store)?;
    Ok(Compacted {
        bytes_before: done.bytes_before,
        bytes_after: done.bytes_after,
        checksum: report.checksum,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const MB: u64 = 1 << 20;

    #[test]
    fn a_compaction_is_due_past_a_tenth_when_quiet_and_past_double_anyway() {
        assert!(!due(1000 * MB, Some(1000 * MB), true));
        assert!(!due(1090 * MB, Some(1000 * MB), true));
        assert!(due(1110 * MB, Some(1000 * MB), true));
        assert!(!due(1900 * MB, Some(1000 * MB), false));
        assert!(due(2100 * MB, Some(1000 * MB), false));
        // Never compacted: once, when quiet, unless it is small.
        assert!(due(100 * MB, None, true));
        assert!(!due(100 * MB, None, false));
        assert!(!due(8 * MB, None, true));
        // A small store's growth is not worth it.
        assert!(!due(12 * MB, Some(4 * MB), false));
    }

    #[test]
    fn the_first_catalogue_and_every_compaction_note_the_size_to_come_back_to() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("data")).unwrap();
        assert_eq!(store.compacted_size().unwrap(), None);
        super::super::fixture::load_small_catalogue(&store);
        let noted = store.compacted_size().unwrap().unwrap();
        assert!(noted > 0 && noted <= store.db.bytes(), "{noted}");
        assert!(!store.compaction_due(true).unwrap());
        let checksum = crate::store::check::check(&store).unwrap().checksum;
        let done = store.compact().unwrap();
        let noted = store.compacted_size().unwrap().unwrap();
        assert!(noted.abs_diff(done.bytes_after) < MB, "{noted} {done:?}");
        assert_eq!(
            crate::store::check::check(&store).unwrap().checksum,
            checksum
        );
    }
}
