//! What the packed tables of one engine share: the engine, the numbering of their pages, the
//! cache of decoded pages, and the thread that gives back the space of old generations.

use std::sync::Arc;

use super::block::Block;
use super::{PackedTable, PackedWriter, PageIds, Pages, pages_tree_name};
use crate::store::background::Background;
use crate::store::engine;
use crate::store::error::StoreError;

/// Decoded pages by (page space, page id), weighed by their bytes in memory. Pages never
/// change, so a cached page is good for every generation that holds it.
pub struct BlockCache(pub(super) quick_cache::sync::Cache<(u64, u64), Arc<Block>, BlockWeight>);

#[derive(Clone)]
pub struct BlockWeight;

impl quick_cache::Weighter<(u64, u64), Arc<Block>> for BlockWeight {
    fn weight(&self, _key: &(u64, u64), block: &Arc<Block>) -> u64 {
        block.weight() as u64
    }
}

impl BlockCache {
    pub fn new(bytes: u64) -> Arc<BlockCache> {
        let estimated_items = (bytes / 8192).max(16) as usize;
        Arc::new(BlockCache(quick_cache::sync::Cache::with_weighter(
            estimated_items,
            bytes.max(1),
            BlockWeight,
        )))
    }
}

/// What the packed tables of one engine share: the engine, the numbering of their pages and
/// the cache of decoded pages.
pub struct Space {
    db: engine::Db,
    ids: Arc<PageIds>,
    cache: Arc<BlockCache>,
    /// Where the space a generation held is given back once no reader holds it.
    reclaim: Background,
}

impl Space {
    /// Tables of `db` whose next page is numbered `next_page`.
    pub fn new(db: engine::Db, next_page: u64, cache: Arc<BlockCache>) -> Arc<Space> {
        Arc::new(Space {
            db,
            ids: PageIds::starting_at(next_page),
            cache,
            reclaim: Background::start(),
        })
    }

    /// Gives back space (`work`) on the reclaiming thread, after what is queued there.
    pub fn reclaim(&self, work: impl FnOnce() + Send + 'static) {
        self.reclaim.submit(work)
    }

    /// Waits until the space queued for reclaiming so far has been given back.
    pub fn settle(&self) {
        self.reclaim.settle()
    }

    /// Gives back what is queued and stops the reclaiming thread: from now on, space is
    /// given back where it is let go.
    pub fn stop_reclaiming(&self) {
        self.reclaim.stop()
    }

    pub fn db(&self) -> &engine::Db {
        &self.db
    }

    pub fn cache(&self) -> Arc<BlockCache> {
        self.cache.clone()
    }

    /// The id the next page gets: what a manifest records at its switch.
    pub fn next_page(&self) -> u64 {
        self.ids.next_free()
    }

    pub fn pages(&self, table: &str) -> Result<Pages, StoreError> {
        Ok(Pages::new(
            self.db.open_tree(&pages_tree_name(table))?,
            self.ids.clone(),
        ))
    }

    /// The table whose root is the tree `root` (`<table>@<generation>`).
    pub fn table(&self, table: &str, root: &str) -> Result<PackedTable, StoreError> {
        Ok(PackedTable::open(
            self.db.open_tree(root)?,
            self.pages(table)?,
            self.cache.clone(),
        ))
    }

    /// A writer of a new table whose root is the tree `root`, emptied first (an earlier
    /// attempt whose trees could not be dropped may have left entries under its name).
    pub fn writer(&self, table: &str, root: &str) -> Result<PackedWriter, StoreError> {
        let tree = self.db.open_tree(root)?;
        tree.clear()?;
        Ok(PackedWriter::new(
            tree,
            self.pages(table)?,
            self.cache.clone(),
        ))
    }
}
