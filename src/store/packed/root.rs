//! A table's root in memory: the last key of each chunk of its block index, with the
//! chunk's page and, once read, the chunk itself.

use std::sync::{Arc, OnceLock};

use super::block::Block;

/// One entry of a table's root: a chunk of its block index (the last key and page of
/// consecutive blocks), decoded at its first use.
pub(crate) struct Slot {
    pub(super) page: u64,
    pub(super) blocks: u32,
    pub(super) chunk: OnceLock<Arc<Block>>,
}

impl Slot {
    pub(super) fn new(page: u64, blocks: u32) -> Arc<Slot> {
        Arc::new(Slot {
            page,
            blocks,
            chunk: OnceLock::new(),
        })
    }

    /// A root entry's stored value: the chunk's page, then how many blocks it lists.
    pub(super) fn stored(&self) -> [u8; 12] {
        let mut out = [0u8; 12];
        out[..8].copy_from_slice(&self.page.to_be_bytes());
        out[8..].copy_from_slice(&self.blocks.to_be_bytes());
        out
    }

    pub(super) fn parse(stored: &[u8]) -> Option<Arc<Slot>> {
        let page = u64::from_be_bytes(stored.get(..8)?.try_into().ok()?);
        let blocks = u32::from_be_bytes(stored.get(8..12)?.try_into().ok()?);
        Some(Slot::new(page, blocks))
    }
}

/// A table's root in memory: the last key of every chunk, in order, with its slot.
pub(crate) struct Root {
    pub(super) lasts: Box<[Box<[u8]>]>,
    pub(super) heads: super::search::Heads<u128>,
    pub(super) slots: Box<[Arc<Slot>]>,
}

impl Root {
    pub(super) fn new(entries: Vec<(Box<[u8]>, Arc<Slot>)>) -> Root {
        let (lasts, slots): (Vec<_>, Vec<_>) = entries.into_iter().unzip();
        let heads = super::search::Heads::new(lasts.iter().map(|k| k.as_ref()));
        Root {
            lasts: lasts.into(),
            heads,
            slots: slots.into(),
        }
    }

    /// The first chunk whose last key is at least `key`.
    pub(super) fn chunk_for(&self, key: &[u8]) -> usize {
        self.heads.lower_bound(|i| &self.lasts[i], key)
    }

    pub(super) fn len(&self) -> usize {
        self.slots.len()
    }
}
