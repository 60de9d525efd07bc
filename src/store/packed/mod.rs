//! Packed tables: a sorted map of byte keys to byte values, stored as blocks of consecutive
//! entries. Each block is one engine entry, keyed by the block's last key, so a lookup is one
//! range read of the engine ("the first block whose last key is at least this key") and a
//! binary search in the decoded block; a prefix scan reads consecutive blocks.
//!
//! Tables are written once, in key order (`PackedWriter`), and read many times. Decoded
//! blocks are kept in a cache shared by every table of a store, so a hot block is decoded
//! once, not on every lookup.

mod block;
mod search;
mod writer;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use block::Block;
use block::header;
pub use writer::PackedWriter;

use super::engine;
use super::error::StoreError;

/// Uncompressed bytes a block holds before a new one is started.
pub const BLOCK_BYTES: usize = 4096;

/// Decoded blocks by (table, block number), weighed by their bytes in memory.
pub struct BlockCache(quick_cache::sync::Cache<(u64, u64), Arc<Block>, BlockWeight>);

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

/// Every opened table gets its own number, so cached blocks of a dropped generation are
/// never mistaken for blocks of its successor.
static NEXT_TABLE: AtomicU64 = AtomicU64::new(1);

/// The last key of every block of a table, in block order, with their search heads.
struct Lasts {
    keys: Box<[Box<[u8]>]>,
    heads: search::Heads<u128>,
}

impl Lasts {
    /// The number of the first block whose last key is at least `key`: the only block that
    /// can hold `key`, and the first a scan from `key` reads.
    fn block_for(&self, key: &[u8]) -> usize {
        self.heads.lower_bound(|i| &self.keys[i], key)
    }

    fn get(&self, number: usize) -> Option<&[u8]> {
        self.keys.get(number).map(|k| k.as_ref())
    }
}

type BlockIndex = Arc<Lasts>;

/// A packed table over one engine tree.
#[derive(Clone)]
pub struct PackedTable {
    tree: engine::Tree,
    id: u64,
    cache: Arc<BlockCache>,
    /// The last key of every block, in order (block `i` is the `i`-th): read once, at the
    /// first lookup, so that a lookup finds its block in memory and reads the engine by exact
    /// key (the engine's range reads cost more).
    index: Arc<OnceLock<BlockIndex>>,
}

/// One entry of a table, owned.
pub type Entry = (Vec<u8>, Vec<u8>);

fn damaged() -> StoreError {
    StoreError::Engine("a block of a packed table cannot be decoded".into())
}

impl PackedTable {
    pub fn open(tree: engine::Tree, cache: Arc<BlockCache>) -> PackedTable {
        PackedTable {
            tree,
            id: NEXT_TABLE.fetch_add(1, Ordering::Relaxed),
            cache,
            index: Arc::default(),
        }
    }

    fn block_index(&self) -> Result<BlockIndex, StoreError> {
        if let Some(index) = self.index.get() {
            return Ok(index.clone());
        }
        let mut keys: Vec<Box<[u8]>> = Vec::new();
        for key in self.tree.keys() {
            keys.push(Box::from(key?.as_ref()));
        }
        let heads = search::Heads::new(keys.iter().map(|k| k.as_ref()));
        let lasts = Lasts {
            keys: keys.into(),
            heads,
        };
        // Two first lookups may both read it; either copy is the same.
        Ok(self.index.get_or_init(|| Arc::new(lasts)).clone())
    }

    /// Block `number` of the table, whose last key is `last`.
    fn block_at(&self, number: usize, last: &[u8]) -> Result<Arc<Block>, StoreError> {
        if let Some(block) = self.cache.0.get(&(self.id, number as u64)) {
            return Ok(block);
        }
        let stored = self.tree.get(last)?.ok_or_else(damaged)?;
        self.block(&stored)
    }

    fn block(&self, stored: &[u8]) -> Result<Arc<Block>, StoreError> {
        let number = header(stored).ok_or_else(damaged)?.number;
        if let Some(block) = self.cache.0.get(&(self.id, number)) {
            return Ok(block);
        }
        let block = Arc::new(Block::decode(stored).ok_or_else(damaged)?);
        self.cache.0.insert((self.id, number), block.clone());
        Ok(block)
    }

    /// The value stored under `key`.
    pub fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, StoreError> {
        let index = self.block_index()?;
        let number = index.block_for(key);
        let Some(last) = index.get(number) else {
            return Ok(None);
        };
        let block = self.block_at(number, last)?;
        let i = block.lower_bound(key);
        Ok((i < block.len() && block.key(i) == key).then(|| block.value(i).to_vec()))
    }

    pub fn contains_key(&self, key: &[u8]) -> Result<bool, StoreError> {
        Ok(self.get(key)?.is_some())
    }

    /// Entries whose key starts with `prefix`, in key order. The iteration owns what it
    /// reads, so it may outlive this table value.
    pub fn scan_prefix(&self, prefix: Vec<u8>) -> Entries {
        let (index, next) = match self.block_index() {
            Ok(index) => {
                let next = index.block_for(&prefix);
                (Ok(index), next)
            }
            Err(e) => (Err(Some(e)), 0),
        };
        Entries {
            table: self.clone(),
            index,
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
        let index = self.block_index()?;
        let mut number = index.block_for(prefix);
        let mut start = None;
        while let Some(last) = index.get(number) {
            let block = self.block_at(number, last)?;
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
            number += 1;
        }
        Ok(())
    }

    /// Every entry, in key order.
    pub fn iter(&self) -> Entries {
        self.scan_prefix(Vec::new())
    }

    /// Number of entries (reads every block's header: for reports, not request paths).
    /// An upper bound of the bytes a rewrite of the table writes: its blocks, uncompressed.
    pub fn rewrite_bound(&self) -> Result<u64, StoreError> {
        Ok(self.block_index()?.keys.len() as u64 * BLOCK_BYTES as u64)
    }

    pub fn len(&self) -> Result<u64, StoreError> {
        let mut count = 0;
        for stored in self.tree.values() {
            count += header(&stored?).ok_or_else(damaged)?.count;
        }
        Ok(count)
    }

    pub fn is_empty(&self) -> bool {
        self.tree.is_empty()
    }

    pub fn finder(&self) -> Finder {
        Finder {
            table: self.clone(),
            held: Default::default(),
            held_bytes: 0,
        }
    }

    pub fn cursor(&self) -> Cursor<'_> {
        Cursor {
            table: self,
            block: None,
        }
    }
}

/// Looks up keys in increasing order, reading each block once.
pub struct Cursor<'t> {
    table: &'t PackedTable,
    block: Option<(Vec<u8>, Arc<Block>)>,
}

impl Cursor<'_> {
    /// The value under `key`; `key` must not be less than the key of the previous call.
    pub fn find(&mut self, key: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        let covered = matches!(&self.block, Some((last, _)) if key <= last.as_slice());
        if !covered {
            self.block = match self.table.tree.range(key..).next() {
                None => None,
                Some(found) => {
                    let (last, stored) = found?;
                    Some((last.to_vec(), self.table.block(&stored)?))
                }
            };
        }
        let Some((_, block)) = &self.block else {
            return Ok(None);
        };
        let i = block.lower_bound(key);
        Ok((i < block.len() && block.key(i) == key).then(|| block.value(i)))
    }
}

/// Looks up keys in any order, keeping the blocks it read (up to a bound) with the range of
/// keys each covers: lookups that land near each other, as an import's rows that refer to
/// articles in article order do, decode and search a block they already hold.
pub struct Finder {
    table: PackedTable,
    /// By last key: (first key, block).
    held: std::collections::BTreeMap<Vec<u8>, (Vec<u8>, Arc<Block>)>,
    held_bytes: usize,
}

/// Decoded bytes a finder holds before it starts again: a referred-to table of a
/// 200,000-article catalogue fits whole, so rows in any order find their article in memory.
const FINDER_BYTES: usize = 192 << 20;

impl Finder {
    pub fn contains(&mut self, key: &[u8]) -> Result<bool, StoreError> {
        if let Some((_, (first, block))) = self
            .held
            .range::<[u8], _>((std::ops::Bound::Included(key), std::ops::Bound::Unbounded))
            .next()
            && key >= first.as_slice()
        {
            let i = block.lower_bound(key);
            return Ok(i < block.len() && block.key(i) == key);
        }
        let Some(found) = self.table.tree.range(key..).next() else {
            return Ok(false);
        };
        let (last, stored) = found?;
        let block = self.table.block(&stored)?;
        let i = block.lower_bound(key);
        let present = i < block.len() && block.key(i) == key;
        if block.len() > 0 {
            if self.held_bytes >= FINDER_BYTES {
                self.held.clear();
                self.held_bytes = 0;
            }
            self.held_bytes += block.weight();
            self.held
                .insert(last.to_vec(), (block.key(0).to_vec(), block));
        }
        Ok(present)
    }
}

/// A scan of a packed table.
pub struct Entries {
    table: PackedTable,
    /// The table's block index, or the error reading it (given out once).
    index: Result<BlockIndex, Option<StoreError>>,
    /// The number of the next block to read.
    next: usize,
    current: Option<(Arc<Block>, usize)>,
    /// Entries before this key (in the first block read) are skipped.
    start: Vec<u8>,
    prefix: Vec<u8>,
    done: bool,
}

impl Iterator for Entries {
    type Item = Result<Entry, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.done {
                return None;
            }
            if let Some((block, i)) = &mut self.current {
                if *i < block.len() {
                    let key = block.key(*i);
                    if !key.starts_with(&self.prefix) {
                        self.done = true;
                        return None;
                    }
                    let entry = (key.to_vec(), block.value(*i).to_vec());
                    *i += 1;
                    return Some(Ok(entry));
                }
                self.current = None;
            }
            let index = match &mut self.index {
                Ok(index) => index,
                Err(e) => {
                    self.done = true;
                    return e.take().map(Err);
                }
            };
            let last = index.get(self.next)?;
            match self.table.block_at(self.next, last) {
                Ok(block) => {
                    let i = block.lower_bound(&self.start);
                    self.current = Some((block, i));
                    self.next += 1;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table_of(entries: &[(Vec<u8>, Vec<u8>)]) -> PackedTable {
        let db = engine::MemoryEngine::new_db();
        let tree = db.open_tree("t").unwrap();
        let mut w = PackedWriter::new(tree.clone());
        for (k, v) in entries {
            w.push(k, v).unwrap();
        }
        w.finish().unwrap();
        PackedTable::open(tree, BlockCache::new(1 << 20))
    }

    #[test]
    fn lookups_and_scans_cross_block_boundaries() {
        let entries: Vec<(Vec<u8>, Vec<u8>)> = (0..5000u32)
            .map(|i| {
                (
                    format!("{:03}/{i:06}", i % 7).into_bytes(),
                    i.to_string().repeat(i as usize % 5).into_bytes(),
                )
            })
            .collect();
        let mut sorted = entries.clone();
        sorted.sort();
        let table = table_of(&sorted);
        assert!(table.tree.iter().count() > 10, "several blocks");
        assert_eq!(table.len().unwrap(), 5000);
        for (k, v) in sorted.iter().step_by(37) {
            assert_eq!(table.get(k).unwrap().as_ref(), Some(v));
        }
        assert_eq!(table.get(b"003/").unwrap(), None);
        assert_eq!(table.get(b"zzz").unwrap(), None);
        let scanned: Vec<Entry> = table
            .scan_prefix(b"003/".to_vec())
            .map(|e| e.unwrap())
            .collect();
        let expected: Vec<Entry> = sorted
            .iter()
            .filter(|(k, _)| k.starts_with(b"003/"))
            .cloned()
            .collect();
        assert_eq!(scanned, expected);
        let all: Vec<Entry> = table.iter().map(|e| e.unwrap()).collect();
        assert_eq!(all, sorted);
    }

    #[test]
    fn an_empty_table_finds_nothing() {
        let table = table_of(&[]);
        assert!(table.is_empty());
        assert_eq!(table.get(b"a").unwrap(), None);
        assert_eq!(table.iter().count(), 0);
    }
}
