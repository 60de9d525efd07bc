//! The change feed as a catalogue view reads it: what changed in a data set after a data
//! version, each row once, as it is now or as it was when retired.

use super::Catalogue;
use crate::store::error::StoreError;
use crate::store::indexes::DataTrees;
use crate::store::records::Record;

/// A row of the change feed.
#[derive(Debug, Clone, PartialEq)]
pub enum Change<R> {
    /// Added or changed: the row as it is now.
    Upsert(R),
    /// Retired: the row as it was.
    Removed(R),
}

/// The first byte of a change feed entry's value for a retired row (see `staging`).
pub(crate) const CHANGE_REMOVED: u8 = 1;

impl Catalogue {
    /// The oldest data version the change feed can start from.
    pub fn changes_complete_since(&self) -> u64 {
        self.manifest.changes.complete_since
    }

    /// The rows of `R`'s data set that changed after data version `since`, each once, in key
    /// order: as the catalogue holds them now, or, where retired, as they were last. A
    /// version older than the feed keeps is `ChangesGone`.
    pub fn changes_since<R: Record>(&self, since: u64) -> Result<Vec<Change<R>>, StoreError> {
        let complete_since = self.changes_complete_since();
        if since < complete_since {
            return Err(StoreError::ChangesGone {
                since,
                complete_since,
            });
        }
        // The last entry of each key wins: a later change says what became of the row.
        let mut last: std::collections::BTreeMap<Vec<u8>, Option<Vec<u8>>> = Default::default();
        let prefix = [R::TREE.index() as u8];
        for (_, changes) in self.changes.iter().filter(|(v, _)| *v > since) {
            for entry in changes.scan_prefix(&prefix) {
                let (k, v) = entry?;
                let retired = match v.split_first() {
                    Some((&CHANGE_REMOVED, value)) => Some(value.to_vec()),
                    _ => None,
                };
                last.insert(k[1..].to_vec(), retired);
            }
        }
        let mut out = Vec::with_capacity(last.len());
        let decoded =
            |k: &[u8], v: &[u8]| R::decode(k, v).ok_or_else(|| StoreError::undecodable(R::TREE));
        for (key, retired) in last {
            match (self.tree(R::TREE).get(&key)?, retired) {
                (Some(now), _) => out.push(Change::Upsert(decoded(&key, &now)?)),
                (None, Some(was)) => out.push(Change::Removed(decoded(&key, &was)?)),
                // Added, then retired by a later change without a value: nothing to say.
                (None, None) => {}
            }
        }
        Ok(out)
    }
}
