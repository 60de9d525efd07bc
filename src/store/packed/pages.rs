//! Where a packed table keeps its pages: one paged engine tree per table, `<table>.pagefile`
//! (on disk, in the engine's page file, out of its log), each page (a block of entries, or a
//! chunk of the block index) one entry keyed by its id. Pages
//! never change once written: a commit writes the pages it changes under new ids, so one
//! page serves every generation that holds it, and a page no generation holds any more is
//! deleted by id.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::store::engine::{self, Batch};
use crate::store::error::StoreError;

/// Numbers pages. Ids only grow, so every id at or past the one a committed manifest
/// records belongs to a change that never committed.
pub struct PageIds {
    /// Tells apart the pages of two allocators in one block cache (a store, a dry run's
    /// scratch tables).
    space: u64,
    next: AtomicU64,
}

static NEXT_SPACE: AtomicU64 = AtomicU64::new(1);

impl PageIds {
    pub fn starting_at(next: u64) -> Arc<PageIds> {
        Arc::new(PageIds {
            space: NEXT_SPACE.fetch_add(1, Ordering::Relaxed),
            next: AtomicU64::new(next.max(1)),
        })
    }

    /// The id the next page gets: every page written so far has a smaller one.
    pub fn next_free(&self) -> u64 {
        self.next.load(Ordering::Acquire)
    }

    fn take(&self) -> u64 {
        self.next.fetch_add(1, Ordering::AcqRel)
    }

    pub(super) fn space(&self) -> u64 {
        self.space
    }
}

/// The pages of one table.
#[derive(Clone)]
pub struct Pages {
    pub(in crate::store) tree: engine::Tree,
    pub(super) ids: Arc<PageIds>,
}

/// A page's key in its tree.
pub fn page_key(id: u64) -> [u8; 8] {
    id.to_be_bytes()
}

/// The name of the tree holding `table`'s pages.
pub fn pages_tree_name(table: &str) -> String {
    format!("{table}{}", engine::PAGED)
}

/// Where stores before format 11 kept `table`'s pages: in an ordinary tree, in the engine's
/// log.
pub fn logged_pages_tree_name(table: &str) -> String {
    format!("{table}.pages")
}

impl Pages {
    pub fn new(tree: engine::Tree, ids: Arc<PageIds>) -> Pages {
        Pages { tree, ids }
    }

    pub(super) fn allocate(&self) -> u64 {
        self.ids.take()
    }

    pub(super) fn get(&self, id: u64) -> Result<Option<engine::Value>, StoreError> {
        self.tree.get(page_key(id))
    }

    /// Deletes the pages `ids`.
    pub fn free(&self, ids: &[u64]) -> Result<(), StoreError> {
        for chunk in ids.chunks(4096) {
            let mut batch = Batch::default();
            for &id in chunk {
                batch.remove(page_key(id).to_vec());
            }
            self.tree.apply_each(batch)?;
        }
        Ok(())
    }

    /// Deletes every page numbered `first` or later: what a change that did not commit wrote.
    pub fn free_from(&self, first: u64) -> Result<u64, StoreError> {
        let mut freed = 0;
        loop {
            let mut batch = Batch::default();
            let mut n = 0;
            for key in self.tree.range(page_key(first)..).take(4096) {
                batch.remove(key?.0.to_vec());
                n += 1;
            }
            if n == 0 {
                return Ok(freed);
            }
            self.tree.apply_each(batch)?;
            freed += n;
        }
    }
}
