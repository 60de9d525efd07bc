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
mod search;
mod writer;

use std::sync::{Arc, OnceLock};

use block::Block;
use block::header;
pub use pages::{PageIds, Pages, pages_tree_name};
pub use patch::Change;
pub use writer::PackedWriter;

use super::background::Background;
use super::engine;
use super::error::StoreError;

/// Uncompressed bytes a block holds before a new one is started.
pub const BLOCK_BYTES: usize = 4096;

/// Decoded pages by (page space, page id), weighed by their bytes in memory. Pages never
/// change, so a cached page is good for every generation that holds it.
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

/// One entry of a table's root: a chunk of its block index (the last key and page of
/// consecutive blocks), decoded at its first use.
pub(crate) struct Slot {
    page: u64,
    blocks: u32,
    chunk: OnceLock<Arc<Block>>,
}

impl Slot {
    fn new(page: u64, blocks: u32) -> Arc<Slot> {
        Arc::new(Slot {
            page,
            blocks,
            chunk: OnceLock::new(),
        })
    }

    /// A root entry's stored value: the chunk's page, then how many blocks it lists.
    fn stored(&self) -> [u8; 12] {
        let mut out = [0u8; 12];
        out[..8].copy_from_slice(&self.page.to_be_bytes());
        out[8..].copy_from_slice(&self.blocks.to_be_bytes());
        out
    }

    fn parse(stored: &[u8]) -> Option<Arc<Slot>> {
        let page = u64::from_be_bytes(stored.get(..8)?.try_into().ok()?);
        let blocks = u32::from_be_bytes(stored.get(8..12)?.try_into().ok()?);
        Some(Slot::new(page, blocks))
    }
}

/// A table's root in memory: the last key of every chunk, in order, with its slot.
pub(crate) struct Root {
    lasts: Box<[Box<[u8]>]>,
    heads: search::Heads<u128>,
    slots: Box<[Arc<Slot>]>,
}

impl Root {
    fn new(entries: Vec<(Box<[u8]>, Arc<Slot>)>) -> Root {
        let (lasts, slots): (Vec<_>, Vec<_>) = entries.into_iter().unzip();
        let heads = search::Heads::new(lasts.iter().map(|k| k.as_ref()));
        Root {
            lasts: lasts.into(),
            heads,
            slots: slots.into(),
        }
    }

    /// The first chunk whose last key is at least `key`.
    fn chunk_for(&self, key: &[u8]) -> usize {
        self.heads.lower_bound(|i| &self.lasts[i], key)
    }

    fn len(&self) -> usize {
        self.slots.len()
    }
}

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
struct At {
    chunk: usize,
    block: usize,
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

    fn root(&self) -> Result<Arc<Root>, StoreError> {
        if let Some(root) = self.root.get() {
            return Ok(root.clone());
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
        Ok(self
            .root
            .get_or_init(|| Arc::new(Root::new(entries)))
            .clone())
    }

    /// Reads every chunk of the block index now, so that no lookup waits for one.
    pub fn warm(&self) -> Result<(), StoreError> {
        let root = self.root()?;
        for slot in root.slots.iter() {
            self.chunk(slot)?;
        }
        Ok(())
    }

    fn chunk(&self, slot: &Slot) -> Result<Arc<Block>, StoreError> {
        if let Some(chunk) = slot.chunk.get() {
            return Ok(chunk.clone());
        }
        let stored = self.pages.get(slot.page)?.ok_or_else(damaged)?;
        let chunk = Arc::new(Block::decode(&stored).ok_or_else(damaged)?);
        Ok(slot.chunk.get_or_init(|| chunk).clone())
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
    fn locate(&self, root: &Root, key: &[u8]) -> Result<Option<(At, Arc<Block>)>, StoreError> {
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
    fn after(
        &self,
        root: &Root,
        at: At,
        chunk: &Arc<Block>,
    ) -> Result<Option<(At, Arc<Block>)>, StoreError> {
        if at.block + 1 < chunk.len() {
            return Ok(Some((
                At {
                    chunk: at.chunk,
                    block: at.block + 1,
                },
                chunk.clone(),
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
        let Some((at, chunk)) = self.locate(&root, key)? else {
            return Ok(None);
        };
        let block = self.block(page_at(&chunk, at.block)?)?;
        let i = block.lower_bound(key);
        Ok((i < block.len() && block.key(i) == key).then(|| block.value(i).to_vec()))
    }

    pub fn contains_key(&self, key: &[u8]) -> Result<bool, StoreError> {
        Ok(self.get(key)?.is_some())
    }

    /// Entries whose key starts with `prefix`, in key order. The iteration owns what it
    /// reads, so it may outlive this table value.
    pub fn scan_prefix(&self, prefix: Vec<u8>) -> Entries {
        let next = self
            .root()
            .and_then(|root| Ok((self.locate(&root, &prefix)?, root)));
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
        let mut next = self.locate(&root, prefix)?;
        let mut start = None;
        while let Some((at, chunk)) = next {
            let block = self.block(page_at(&chunk, at.block)?)?;
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
            next = self.after(&root, at, &chunk)?;
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
                ids.push(page_at(&chunk, i)?);
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
                let stored = self.pages.get(page_at(&chunk, i)?)?.ok_or_else(damaged)?;
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
        let Some((at, chunk)) = self.locate(&root, key)? else {
            return Ok(None);
        };
        let block = self.block(page_at(&chunk, at.block)?)?;
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

/// A block with its last key.
type LastAndBlock = (Vec<u8>, Arc<Block>);

/// Looks up keys in increasing order, reading each block once.
pub struct Cursor<'t> {
    table: &'t PackedTable,
    block: Option<LastAndBlock>,
}

impl Cursor<'_> {
    /// The value under `key`; `key` must not be less than the key of the previous call.
    pub fn find(&mut self, key: &[u8]) -> Result<Option<&[u8]>, StoreError> {
        let covered = matches!(&self.block, Some((last, _)) if key <= last.as_slice());
        if !covered {
            self.block = self.table.block_for(key)?;
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
    /// Keys asked and their answers: rows ask for the same article one after another (an
    /// article's links, criteria, cross-references) and for the same few vehicles again and
    /// again, and a hash lookup is several times cheaper than a search of the blocks.
    answers: foldhash::HashMap<Box<[u8]>, bool>,
}

/// Decoded bytes a finder holds before it starts again: a referred-to table of a
/// 200,000-article catalogue fits whole, so rows in any order find their article in memory.
const FINDER_BYTES: usize = 192 << 20;
/// Answers a finder keeps before it starts again (about 64 MiB of short keys).
const FINDER_ANSWERS: usize = 1 << 20;

impl Finder {
    pub fn contains(&mut self, key: &[u8]) -> Result<bool, StoreError> {
        if let Some(&present) = self.answers.get(key) {
            return Ok(present);
        }
        let present = self.look_up(key)?;
        if self.answers.len() >= FINDER_ANSWERS {
            self.answers.clear();
        }
        self.answers.insert(key.into(), present);
        Ok(present)
    }

    fn look_up(&mut self, key: &[u8]) -> Result<bool, StoreError> {
        if let Some((_, (first, block))) = self
            .held
            .range::<[u8], _>((std::ops::Bound::Included(key), std::ops::Bound::Unbounded))
            .next()
            && key >= first.as_slice()
        {
            let i = block.lower_bound(key);
            return Ok(i < block.len() && block.key(i) == key);
        }
        let Some((last, block)) = self.table.block_for(key)? else {
            return Ok(false);
        };
        let i = block.lower_bound(key);
        let present = i < block.len() && block.key(i) == key;
        if block.len() > 0 {
            if self.held_bytes >= FINDER_BYTES {
                self.held.clear();
                self.held_bytes = 0;
            }
            self.held_bytes += block.weight();
            self.held.insert(last, (block.key(0).to_vec(), block));
        }
        Ok(present)
    }
}

/// A scan of a packed table.
pub struct Entries {
    table: PackedTable,
    /// The table's root, or the error reading it (given out once).
    root: Result<Arc<Root>, Option<StoreError>>,
    /// The next block to read, with the chunk listing it.
    next: Option<(At, Arc<Block>)>,
    current: Option<(Arc<Block>, usize)>,
    /// Entries before this key (in the first block read) are skipped.
    start: Vec<u8>,
    prefix: Vec<u8>,
    done: bool,
}

impl Entries {
    /// Calls `each` with every entry, lent from the block that holds it (no copy per entry).
    pub fn each(
        mut self,
        mut each: impl FnMut(&[u8], &[u8]) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        while let Some((block, start)) = self.next_block()? {
            for i in start..block.len() {
                let key = block.key(i);
                if !key.starts_with(&self.prefix) {
                    return Ok(());
                }
                each(key, block.value(i))?;
            }
        }
        Ok(())
    }

    /// The next block to read and the position of its first entry to give out.
    fn next_block(&mut self) -> Result<Option<(Arc<Block>, usize)>, StoreError> {
        if self.done {
            return Ok(None);
        }
        let root = match &mut self.root {
            Ok(root) => root.clone(),
            Err(e) => {
                self.done = true;
                return e.take().map_or(Ok(None), Err);
            }
        };
        let Some((at, chunk)) = self.next.take() else {
            return Ok(None);
        };
        let read = page_at(&chunk, at.block)
            .and_then(|id| self.table.block(id))
            .and_then(|block| Ok((block, self.table.after(&root, at, &chunk)?)));
        match read {
            Ok((block, next)) => {
                let i = block.lower_bound(&self.start);
                self.next = next;
                Ok(Some((block, i)))
            }
            Err(e) => {
                self.done = true;
                Err(e)
            }
        }
    }
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
            match self.next_block() {
                Ok(Some(current)) => self.current = Some(current),
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space() -> Arc<Space> {
        Space::new(engine::MemoryEngine::new_db(), 1, BlockCache::new(1 << 20))
    }

    fn table_of(entries: &[(Vec<u8>, Vec<u8>)]) -> PackedTable {
        let mut w = space().writer("t", "t@1").unwrap();
        for (k, v) in entries {
            w.push(k, v).unwrap();
        }
        w.finish().unwrap().0
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
        assert!(table.page_ids().unwrap().len() > 10, "several blocks");
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

    /// Deterministic pseudo-random numbers for the patch tests.
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn patches_agree_with_a_map_and_share_the_pages_they_keep() {
        let space = space();
        let mut expected = std::collections::BTreeMap::new();
        let mut w = space.writer("t", "t@0").unwrap();
        for i in 0..20_000u32 {
            let (k, v) = (
                format!("k{:07}", i * 10).into_bytes(),
                vec![b'v'; (i % 40) as usize],
            );
            w.push(&k, &v).unwrap();
            expected.insert(k, v);
        }
        let mut table = w.finish().unwrap().0;
        let mut seed = 7u64;
        for round in 1..=60u32 {
            let mut changes = std::collections::BTreeMap::new();
            // Mostly near one place (a brand's articles), some anywhere, some past the end.
            let around = lcg(&mut seed) % 200_000;
            for _ in 0..(lcg(&mut seed) % 300) {
                let at = match lcg(&mut seed) % 4 {
                    0 => lcg(&mut seed) % 260_000,
                    _ => around + lcg(&mut seed) % 2_000,
                };
                let key = format!("k{at:07}").into_bytes();
                let value = match lcg(&mut seed) % 3 {
                    0 => None,
                    _ => Some(vec![b'w'; (lcg(&mut seed) % 120) as usize]),
                };
                changes.insert(key, value);
            }
            let changes: Vec<Change> = changes
                .into_iter()
                .map(|(key, value)| Change { key, value })
                .collect();
            for c in &changes {
                match &c.value {
                    Some(v) => expected.insert(c.key.clone(), v.clone()),
                    None => expected.remove(&c.key),
                };
            }
            let before: std::collections::BTreeSet<u64> =
                table.page_ids().unwrap().into_iter().collect();
            let writer = space.writer("t", &format!("t@{round}")).unwrap();
            let patched = table.patch(writer, &changes).unwrap();
            let after: std::collections::BTreeSet<u64> =
                patched.table.page_ids().unwrap().into_iter().collect();
            let freed: std::collections::BTreeSet<u64> = patched.freed.iter().copied().collect();
            assert_eq!(freed.len(), patched.freed.len(), "a page freed twice");
            assert!(
                freed.is_subset(&before),
                "round {round}: freed a page it never had"
            );
            assert!(
                freed.is_disjoint(&after),
                "round {round}: freed a page still used"
            );
            let kept: std::collections::BTreeSet<u64> =
                before.difference(&freed).copied().collect();
            assert!(
                kept.is_subset(&after),
                "round {round}: lost a page without freeing it"
            );
            assert!(
                after.len() - kept.len() <= 4 * changes.len() + 8,
                "round {round}: wrote more pages than the change touches"
            );
            table = patched.table;
            // A fresh read of the root sees what the writer's root in memory saw.
            let reread = space.table("t", &format!("t@{round}")).unwrap();
            for t in [&table, &reread] {
                let all: Vec<Entry> = t.iter().map(|e| e.unwrap()).collect();
                let want: Vec<Entry> = expected.clone().into_iter().collect();
                assert_eq!(all.len(), want.len(), "round {round}");
                assert!(all == want, "round {round}: contents differ");
            }
            for c in changes.iter().step_by(7) {
                assert_eq!(table.get(&c.key).unwrap(), expected.get(&c.key).cloned());
            }
        }
        // After many small patches the blocks are still mostly full.
        let fresh = table_of(&expected.clone().into_iter().collect::<Vec<_>>());
        let (pages, fresh_pages) = (
            table.page_ids().unwrap().len(),
            fresh.page_ids().unwrap().len(),
        );
        let (bytes, fresh_bytes) = (table.stored_bytes().unwrap(), fresh.stored_bytes().unwrap());
        eprintln!(
            "{pages} pages, {bytes} bytes after patches; {fresh_pages}, {fresh_bytes} written fresh"
        );
        assert!(
            pages * 10 <= fresh_pages * 15,
            "{pages} pages, {fresh_pages} fresh"
        );
        assert!(
            bytes * 100 <= fresh_bytes * 115,
            "{bytes} bytes, {fresh_bytes} fresh"
        );
    }

    #[test]
    fn a_patch_can_empty_a_table_and_fill_an_empty_one() {
        let space = space();
        let keys: Vec<Vec<u8>> = (0..3000u32).map(|i| i.to_be_bytes().to_vec()).collect();
        let empty = space.writer("t", "t@0").unwrap().finish().unwrap().0;
        let filled = empty
            .patch(
                space.writer("t", "t@1").unwrap(),
                &keys
                    .iter()
                    .map(|k| Change {
                        key: k.clone(),
                        value: Some(k.clone()),
                    })
                    .collect::<Vec<_>>(),
            )
            .unwrap();
        assert_eq!(filled.table.len().unwrap(), 3000);
        let emptied = filled
            .table
            .patch(
                space.writer("t", "t@2").unwrap(),
                &keys
                    .iter()
                    .map(|k| Change {
                        key: k.clone(),
                        value: None,
                    })
                    .collect::<Vec<_>>(),
            )
            .unwrap();
        assert!(emptied.table.is_empty());
        assert_eq!(emptied.freed.len(), filled.table.page_ids().unwrap().len());
    }
}
