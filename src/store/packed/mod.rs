//! Packed tables: a sorted map of byte keys to byte values, stored as pages. A *block* page
//! holds about 4 KiB of consecutive entries; a *chunk* page lists consecutive blocks by their
//! last key; a table's *root*, the tree `<table>@<generation>`, lists its chunks by their
//! last key. A lookup finds its chunk and block in memory (both read at their first use) and
//! reads one block by its page id; a prefix scan reads consecutive blocks.
//!
//! Pages never change. Tables are written once, in key order (`PackedWriter`), or patched
//! (`PackedTable::patch`): a new root over the pages it keeps and the few it writes. Decoded
//! blocks are kept in a cache shared by every table of a store, so a hot block is decoded
//! once, not on every lookup, for every generation that holds it.

mod block;
mod pages;
mod patch;
mod reading;
mod root;
mod search;
mod space;
mod writer;

use std::sync::{Arc, OnceLock};

use block::Block;
use block::header;
pub use pages::{PageIds, Pages, logged_pages_tree_name, pages_tree_name};
pub use patch::{Change, Patched};
pub use reading::{Cursor, Entries, Finder};
pub(crate) use root::{Root, Slot};
pub use space::{BlockCache, Space};
pub use writer::PackedWriter;

/// A block with its last key.
type LastAndBlock = (Vec<u8>, Arc<Block>);

use super::engine;
use super::error::StoreError;

/// Uncompressed bytes a block holds before a new one is started.
pub const BLOCK_BYTES: usize = 4096;

/// The page of a chunk's entry `i`.
fn page_at(chunk: &Block, i: usize) -> Result<u64, StoreError> {
    chunk
        .value(i)
        .try_into()
        .map(u64::from_be_bytes)
        .map_err(|_| damaged())
}

/// A packed table: its root tree (one generation's) over pages it may share with others.
#[derive(Clone)]
pub struct PackedTable {
    root_tree: engine::Tree,
    pages: Pages,
    cache: Arc<BlockCache>,
    /// Read once, at the first lookup, so that a lookup finds its block in memory and reads
    /// the engine by exact key.
    root: Arc<OnceLock<Arc<Root>>>,
}

/// One entry of a table, owned.
pub type Entry = (Vec<u8>, Vec<u8>);

fn damaged() -> StoreError {
    StoreError::Damaged("a block of a packed table cannot be decoded".into())
}

/// A block's place: its chunk and its position in the chunk.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) struct At {
    pub(super) chunk: usize,
    pub(super) block: usize,
}

impl PackedTable {
    fn open(root_tree: engine::Tree, pages: Pages, cache: Arc<BlockCache>) -> PackedTable {
        PackedTable {
            root_tree,
            pages,
            cache,
            root: Arc::default(),
        }
    }

    fn with_root(
        root_tree: engine::Tree,
        pages: Pages,
        cache: Arc<BlockCache>,
        root: Root,
    ) -> PackedTable {
        let held = OnceLock::new();
        let _ = held.set(Arc::new(root));
        PackedTable {
            root_tree,
            pages,
            cache,
            root: Arc::new(held),
        }
    }

    /// The root, lent (a lookup clones no `Arc`: two threads looking up in one table would
    /// otherwise pass its counter's cache line back and forth).
    fn root(&self) -> Result<&Arc<Root>, StoreError> {
        if let Some(root) = self.root.get() {
            return Ok(root);
        }
        let mut entries = Vec::new();
        for entry in self.root_tree.iter() {
            let (last, stored) = entry?;
            entries.push((
                Box::from(last.as_ref()),
                Slot::parse(&stored).ok_or_else(damaged)?,
            ));
        }
        // Two first lookups may both read it; either copy is the same.
        Ok(self.root.get_or_init(|| Arc::new(Root::new(entries))))
    }

    /// Reads every chunk of the block index now, so that no lookup waits for one.
    pub fn warm(&self) -> Result<(), StoreError> {
        let root = self.root()?;
        for slot in root.slots.iter() {
            self.chunk(slot)?;
        }
        Ok(())
    }

    fn chunk<'s>(&self, slot: &'s Slot) -> Result<&'s Arc<Block>, StoreError> {
        if let Some(chunk) = slot.chunk.get() {
            return Ok(chunk);
        }
        let stored = self.pages.get(slot.page)?.ok_or_else(damaged)?;
        let chunk = Arc::new(Block::decode(&stored).ok_or_else(damaged)?);
        Ok(slot.chunk.get_or_init(|| chunk))
    }

    /// The page `id`, decoded (from the cache where it is).
    fn block(&self, id: u64) -> Result<Arc<Block>, StoreError> {
        let key = (self.pages.ids.space(), id);
        if let Some(block) = self.cache.0.get(&key) {
            return Ok(block);
        }
        let stored = self.pages.get(id)?.ok_or_else(damaged)?;
        let block = Arc::new(Block::decode(&stored).ok_or_else(damaged)?);
        self.cache.0.insert(key, block.clone());
        Ok(block)
    }

    /// The first block whose last key is at least `key` (the only one that can hold it),
    /// with the chunk listing it; `None` past the last block.
    fn locate<'r>(
        &self,
        root: &'r Root,
        key: &[u8],
    ) -> Result<Option<(At, &'r Arc<Block>)>, StoreError> {
        let c = root.chunk_for(key);
        let Some(slot) = root.slots.get(c) else {
            return Ok(None);
        };
        let chunk = self.chunk(slot)?;
        let b = chunk.lower_bound(key);
        if b >= chunk.len() {
            return Err(damaged());
        }
        Ok(Some((At { chunk: c, block: b }, chunk)))
    }

    /// The block after `at`, with the chunk listing it.
    fn after<'r>(
        &self,
        root: &'r Root,
        at: At,
        chunk: &'r Arc<Block>,
    ) -> Result<Option<(At, &'r Arc<Block>)>, StoreError> {
        if at.block + 1 < chunk.len() {
            return Ok(Some((
                At {
                    chunk: at.chunk,
                    block: at.block + 1,
                },
                chunk,
            )));
        }
        let Some(slot) = root.slots.get(at.chunk + 1) else {
            return Ok(None);
        };
        let next = self.chunk(slot)?;
        if next.len() == 0 {
            return Err(damaged());
        }
        Ok(Some((
            At {
                chunk: at.chunk + 1,
                block: 0,
            },
            next,
        )))
    }

    /// The value stored under `key`.
    pub fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let root = self.root()?;
        let Some((at, chunk)) = self.locate(root, key)? else {
            return Ok(None);
        };
        let block = self.block(page_at(chunk, at.block)?)?;
        let i = block.lower_bound(key);
        Ok((i < block.len() && block.key(i) == key).then(|| block.value(i).to_vec()))
    }

    pub fn contains_key(&self, key: &[u8]) -> Result<bool, StoreError> {
        Ok(self.get(key)?.is_some())
    }

    /// Entries whose key starts with `prefix`, in key order. The iteration owns what it
    /// reads, so it may outlive this table value.
    pub fn scan_prefix(&self, prefix: Vec<u8>) -> Entries {
        let next = self.root().and_then(|root| {
            let next = self.locate(root, &prefix)?;
            Ok((next.map(|(at, chunk)| (at, chunk.clone())), root.clone()))
        });
        let (root, next) = match next {
            Ok((next, root)) => (Ok(root), next),
            Err(e) => (Err(Some(e)), None),
        };
        Entries {
            table: self.clone(),
            root,
            next,
            current: None,
            start: prefix.clone(),
            prefix,
            done: false,
        }
    }

    /// Calls `visit` with each entry whose key starts with `prefix`, in key order, without
    /// copying it: for reads that decode what they find at once.
    pub fn visit_prefix(
        &self,
        prefix: &[u8],
        mut visit: impl FnMut(&[u8], &[u8]) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let root = self.root()?;
        let mut next = self.locate(root, prefix)?;
        let mut start = None;
        while let Some((at, chunk)) = next {
            let block = self.block(page_at(chunk, at.block)?)?;
            // Only the first block holds entries before the prefix.
            let from = *start.get_or_insert_with(|| block.lower_bound(prefix));
            for i in from..block.len() {
                let key = block.key(i);
                if !key.starts_with(prefix) {
                    return Ok(());
                }
                visit(key, block.value(i))?;
            }
            start = Some(0);
            next = self.after(root, at, chunk)?;
        }
        Ok(())
    }

    /// Every entry, in key order.
    pub fn iter(&self) -> Entries {
        self.scan_prefix(Vec::new())
    }

    /// An upper bound of the bytes a rewrite of the table writes: its blocks, uncompressed.
    pub fn rewrite_bound(&self) -> Result<u64, StoreError> {
        let root = self.root()?;
        let blocks: u64 = root.slots.iter().map(|s| u64::from(s.blocks)).sum();
        Ok(blocks * BLOCK_BYTES as u64)
    }

    /// Every page the table holds: its chunks and its blocks.
    pub fn page_ids(&self) -> Result<Vec<u64>, StoreError> {
        let root = self.root()?;
        let mut ids = Vec::new();
        for slot in root.slots.iter() {
            ids.push(slot.page);
            let chunk = self.chunk(slot)?;
            for i in 0..chunk.len() {
                ids.push(page_at(chunk, i)?);
            }
        }
        Ok(ids)
    }

    /// Bytes the table's pages take in the engine (reads them all: for tests).
    #[cfg(test)]
    pub fn stored_bytes(&self) -> Result<u64, StoreError> {
        let mut bytes = 0;
        for id in self.page_ids()? {
            bytes += self.pages.get(id)?.ok_or_else(damaged)?.len() as u64;
        }
        Ok(bytes)
    }

    /// Number of entries (reads every block's header: for reports, not request paths).
    pub fn len(&self) -> Result<u64, StoreError> {
        let mut count = 0;
        for slot in self.root()?.slots.iter() {
            let chunk = self.chunk(slot)?;
            for i in 0..chunk.len() {
                let stored = self.pages.get(page_at(chunk, i)?)?.ok_or_else(damaged)?;
                count += header(&stored).ok_or_else(damaged)?.count;
            }
        }
        Ok(count)
    }

    pub fn is_empty(&self) -> bool {
        self.root_tree.is_empty()
    }

    pub fn finder(&self) -> Finder {
        Finder {
            table: self.clone(),
            held: Default::default(),
            held_bytes: 0,
            answers: Default::default(),
        }
    }

    pub fn cursor(&self) -> Cursor<'_> {
        Cursor {
            table: self,
            block: None,
        }
    }

    /// The block that may hold `key` (the first whose last key is at least it), with that
    /// last key; `None` past the last block.
    fn block_for(&self, key: &[u8]) -> Result<Option<LastAndBlock>, StoreError> {
        let root = self.root()?;
        let Some((at, chunk)) = self.locate(root, key)? else {
            return Ok(None);
        };
        let block = self.block(page_at(chunk, at.block)?)?;
        Ok(Some((chunk.key(at.block).to_vec(), block)))
    }
}

/// The entries of a table as format 5 and earlier stored it: each block one engine entry of
/// the table's own tree, keyed by the block's last key. Read once, by the migration.
pub fn legacy_entries(tree: &engine::Tree) -> impl Iterator<Item = Result<Entry, StoreError>> {
    tree.values().flat_map(|stored| {
        let entries: Vec<Result<Entry, StoreError>> =
            match stored.and_then(|s| Block::decode(&s).ok_or_else(damaged)) {
                Ok(block) => (0..block.len())
                    .map(|i| Ok((block.key(i).to_vec(), block.value(i).to_vec())))
                    .collect(),
                Err(e) => vec![Err(e)],
            };
        entries
    })
}

#[cfg(test)]
mod tests;
