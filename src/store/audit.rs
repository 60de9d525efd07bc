//! The audit trail: every administrative change and every grant issued, in order. Like
//! providers, it lives outside the catalogue generations.
//!
//! Tree `audit_log`: unix seconds (u64 big-endian) then a sequence number (u64 big-endian)
//! → the entry through the store's codec, so entries read back in order and old ones are
//! trimmed by a range. Entries written before the codec are JSON; they are still read.

use bincode::{Decode, Encode};
use serde::{Deserialize, Serialize};

use super::error::StoreError;
use super::{Store, codec};

pub(super) const AUDIT: &str = "audit_log";
const ENTRY_VERSION: u8 = 1;

/// One audited action. `operator` says who did it and through what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Encode, Decode)]
pub struct AuditEntry {
    /// Unix seconds.
    pub at: u64,
    pub operator: String,
    /// `provider.create`, `key.revoke`, `grant.address`, …
    pub action: String,
    pub provider: String,
    /// What changed, in words; never a key.
    pub detail: String,
}

impl Store {
    /// Appends an entry and logs it (target `partscat::audit`). It is not flushed here: every
    /// audited change flushes the store before it answers, this entry with it.
    pub fn record_audit(&self, entry: &AuditEntry) -> Result<(), StoreError> {
        let tree = self.db.open_tree(AUDIT)?;
        let mut key = entry.at.to_be_bytes().to_vec();
        key.extend_from_slice(&self.db.generate_id()?.to_be_bytes());
        tree.insert(key, codec::encode(ENTRY_VERSION, entry))?;
        tracing::info!(
            target: "partscat::audit",
            operator = %entry.operator,
            action = %entry.action,
            provider = %entry.provider,
            detail = %entry.detail,
        );
        Ok(())
    }

    /// The newest `limit` entries, oldest first.
    pub fn audit_entries(&self, limit: usize) -> Result<Vec<AuditEntry>, StoreError> {
        let tree = self.db.open_tree(AUDIT)?;
        let mut entries = Vec::new();
        for item in tree.iter().rev().take(limit) {
            let (_, value) = item?;
            let entry = match value.first() {
                Some(b'{') => serde_json::from_slice(&value).ok(),
                _ => codec::decode(ENTRY_VERSION, &value),
            };
            entries.push(
                entry.ok_or_else(|| StoreError::Damaged("an audit entry cannot be read".into()))?,
            );
        }
        entries.reverse();
        Ok(entries)
    }

    /// Removes entries older than `before` (unix seconds); returns how many.
    pub fn trim_audit(&self, before: u64) -> Result<usize, StoreError> {
        let tree = self.db.open_tree(AUDIT)?;
        let mut trimmed = 0;
        for item in tree.range(..before.to_be_bytes().to_vec()) {
            let (key, _) = item?;
            tree.remove(key)?;
            trimmed += 1;
        }
        if trimmed > 0 {
            self.db.flush()?;
        }
        Ok(trimmed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(at: u64, action: &str) -> AuditEntry {
        AuditEntry {
            at,
            operator: "test".into(),
            action: action.into(),
            provider: "shop".into(),
            detail: String::new(),
        }
    }

    #[test]
    fn entries_read_back_in_order_survive_a_reopen_and_are_trimmed_by_age() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = Store::open(dir.path()).unwrap();
            for (at, action) in [(100, "a"), (100, "b"), (200, "c"), (300, "d")] {
                store.record_audit(&entry(at, action)).unwrap();
            }
            store.flush().unwrap();
        }
        let store = Store::open(dir.path()).unwrap();
        let actions = |n| -> Vec<String> {
            store
                .audit_entries(n)
                .unwrap()
                .into_iter()
                .map(|e| e.action)
                .collect()
        };
        assert_eq!(actions(10), ["a", "b", "c", "d"]);
        assert_eq!(actions(2), ["c", "d"]);
        assert_eq!(store.trim_audit(200).unwrap(), 2);
        assert_eq!(actions(10), ["c", "d"]);
    }

    #[test]
    fn entries_written_as_json_before_the_codec_are_still_read() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let mut key = 50u64.to_be_bytes().to_vec();
        key.extend_from_slice(&0u64.to_be_bytes());
        let json = serde_json::to_vec(&entry(50, "old")).unwrap();
        store
            .db
            .open_tree(AUDIT)
            .unwrap()
            .insert(key, json)
            .unwrap();
        store.record_audit(&entry(60, "new")).unwrap();
        let read = store.audit_entries(10).unwrap();
        assert_eq!(read, [entry(50, "old"), entry(60, "new")]);
    }
}
