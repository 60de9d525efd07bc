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

/// Looks up keys in any order, keeping the keys of the blocks it read (up to a bound): lookups
/// that land near each other, as an import's rows that refer to articles in article order
/// do, or anywhere in a table whose keys fit in the bound, search keys they already hold
/// rather than read and decode a block again.
pub struct Finder {
    pub(super) table: PackedTable,
    /// By each block's last key.
    pub(super) held: std::collections::BTreeMap<Vec<u8>, HeldKeys>,
    pub(super) held_bytes: usize,
    /// Keys asked and their answers: rows ask for the same article one after another (an
    /// article's links, criteria, cross-references) and for the same few vehicles again and
    /// again, and a hash lookup is several times cheaper than a search of the blocks.
    pub(super) answers: foldhash::HashMap<Box<[u8]>, bool>,
}

/// Bytes of keys a finder holds before it starts again: the keys of the articles of a
/// 7,000,000-article catalogue fit whole, so rows in any order (as a catalogue's files come,
/// not in the store's key order) find their article without reading its block again.
const FINDER_BYTES: usize = 192 << 20;
/// Answers a finder keeps before it starts again (about 64 MiB of short keys).
const FINDER_ANSWERS: usize = 1 << 20;

/// A block's keys without its values: all a membership test reads. A finder holds these
/// rather than the blocks, whose values (an article's description, EANs …) are most of their
/// bytes, so that many more keys fit within its bound.
pub(super) struct HeldKeys {
    bytes: Box<[u8]>,
    /// Where each key ends in `bytes` (and the next begins).
    ends: Box<[u32]>,
}

impl HeldKeys {
    fn of(block: &Block) -> HeldKeys {
        let mut bytes = Vec::new();
        let ends = (0..block.len())
            .map(|i| {
                bytes.extend_from_slice(block.key(i));
                bytes.len() as u32
            })
            .collect();
        HeldKeys {
            bytes: bytes.into(),
            ends,
        }
    }

    fn key(&self, i: usize) -> &[u8] {
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1] as usize,
        };
        &self.bytes[start..self.ends[i] as usize]
    }

    fn holds(&self, key: &[u8]) -> bool {
        let at = partition_point(self.ends.len(), |i| self.key(i) < key);
        at < self.ends.len() && self.key(at) == key
    }

    fn weight(&self) -> usize {
        self.bytes.len() + 4 * self.ends.len() + 64
    }
}

/// The first of `0..len` for which `below` is false (`below` true for a prefix of them).
fn partition_point(len: usize, below: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, len);
    while low < high {
        let middle = low + (high - low) / 2;
        if below(middle) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    low
}

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
        if let Some((_, held)) = self
            .held
            .range::<[u8], _>((std::ops::Bound::Included(key), std::ops::Bound::Unbounded))
            .next()
            && key >= held.key(0)
        {
            return Ok(held.holds(key));
        }
        let Some((last, block)) = self.table.block_for(key)? else {
            return Ok(false);
        };
        let i = block.lower_bound(key);
        let present = i < block.len() && block.key(i) == key;
        if block.len() > 0 {
            let keys = HeldKeys::of(&block);
            if self.held_bytes >= FINDER_BYTES {
                self.held.clear();
                self.held_bytes = 0;
            }
            self.held_bytes += keys.weight();
            self.held.insert(last, keys);
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
