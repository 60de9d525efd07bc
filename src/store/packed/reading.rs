//! Reading a table in key order: a cursor for keys looked up in increasing order, a finder
//! for membership tests, and the entries one after another (copied, or lent from their block).

use std::sync::Arc;

use super::block::Block;
use super::{At, Entry, LastAndBlock, PackedTable, Root, page_at};
use crate::store::error::StoreError;

/// Looks up keys in increasing order, reading each block once.
pub struct Cursor<'t> {
    pub(super) table: &'t PackedTable,
    pub(super) block: Option<LastAndBlock>,
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
    pub(super) table: PackedTable,
    /// By last key: (first key, block).
    pub(super) held: std::collections::BTreeMap<Vec<u8>, (Vec<u8>, Arc<Block>)>,
    pub(super) held_bytes: usize,
    /// Keys asked and their answers: rows ask for the same article one after another (an
    /// article's links, criteria, cross-references) and for the same few vehicles again and
    /// again, and a hash lookup is several times cheaper than a search of the blocks.
    pub(super) answers: foldhash::HashMap<Box<[u8]>, bool>,
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
    pub(super) table: PackedTable,
    /// The table's root, or the error reading it (given out once).
    pub(super) root: Result<Arc<Root>, Option<StoreError>>,
    /// The next block to read, with the chunk listing it.
    pub(super) next: Option<(At, Arc<Block>)>,
    pub(super) current: Option<(Arc<Block>, usize)>,
    /// Entries before this key (in the first block read) are skipped.
    pub(super) start: Vec<u8>,
    pub(super) prefix: Vec<u8>,
    pub(super) done: bool,
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
            .and_then(|block| {
                let next = self.table.after(&root, at, &chunk)?;
                Ok((block, next.map(|(at, chunk)| (at, chunk.clone()))))
            });
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

impl Entries {
    /// The entry the scan is at, lent from its block (no copy); `None` past the last. A walk
    /// that looks at an entry before it takes it (the records' build beside the articles)
    /// peeks, then `advance`s.
    pub fn peek(&mut self) -> Result<Option<Lent<'_>>, StoreError> {
        if self.done {
            return Ok(None);
        }
        while self
            .current
            .as_ref()
            .is_none_or(|(block, i)| *i >= block.len())
        {
            match self.next_block()? {
                Some(next) => self.current = Some(next),
                None => {
                    self.current = None;
                    return Ok(None);
                }
            }
        }
        let Some((block, i)) = &self.current else {
            return Ok(None);
        };
        if !block.key(*i).starts_with(&self.prefix) {
            self.done = true;
            return Ok(None);
        }
        Ok(Some((block.key(*i), block.value(*i))))
    }

    /// Moves past the entry `peek` lent.
    pub fn advance(&mut self) {
        if let Some((_, i)) = &mut self.current {
            *i += 1;
        }
    }
}

/// An entry's key and value, lent from its block.
pub type Lent<'a> = (&'a [u8], &'a [u8]);

impl Iterator for Entries {
    type Item = Result<Entry, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        let entry = match self.peek() {
            Ok(Some((key, value))) => (key.to_vec(), value.to_vec()),
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        self.advance();
        Some(Ok(entry))
    }
}
