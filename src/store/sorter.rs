//! An external sort of (key, value, origin) items: items are held in memory up to a bound,
//! then written to a run file in sorted order; reading merges the runs. Imports and index
//! builds go through it so that memory stays bounded whatever the size of the input, and the
//! engine is written in key order.
//!
//! Items come out ordered by key, then by origin: for an import the origin is the row's file
//! and line, so of two rows with one key the earlier comes first.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::error::StoreError;
use super::varint;

/// Bytes of items held in memory before a run is written out.
pub const HELD_BYTES: usize = 96 << 20;
/// Bytes held after which a sort takes room for all it may hold: a small change's sorts
/// never do (mapping that much costs them more than they save).
const GROWN_BYTES: usize = 4 << 20;
/// Bookkeeping bytes per held item, counted against the bound.
const ITEM_OVERHEAD: usize = std::mem::size_of::<Held>();

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Item {
    pub key: Vec<u8>,
    pub origin: u64,
    pub value: Vec<u8>,
}

/// An item held in memory: its bytes are in the sorter's arena, key then value.
#[derive(Clone, Copy)]
struct Held {
    /// The key's first sixteen bytes, big-endian (zeros after a shorter key): most
    /// comparisons end here, without reading the arena (index keys often share their first
    /// eight bytes: a Ktype and the start of a brand's references).
    head: u64,
    head2: u64,
    start: usize,
    key_len: u32,
    value_len: u32,
    origin: u64,
}

pub struct Sorter {
    dir: PathBuf,
    /// Keys and values of held items, one after another: one allocation, not two per item.
    arena: Vec<u8>,
    held: Vec<Held>,
    /// Whether `held` is in order.
    sorted: bool,
    bound: usize,
    runs: Vec<PathBuf>,
}

fn too_long() -> StoreError {
    StoreError::TooLargeToSort
}

fn io(e: std::io::Error) -> StoreError {
    StoreError::io("a sort file could not be written or read", e)
}

impl Sorter {
    /// Run files go to `dir`, which the caller owns and removes.
    pub fn new(dir: &Path) -> Sorter {
        Self::with_bound(dir, HELD_BYTES)
    }

    pub fn with_bound(dir: &Path, bound: usize) -> Sorter {
        Sorter {
            dir: dir.into(),
            arena: Vec::new(),
            held: Vec::new(),
            sorted: true,
            bound,
            runs: Vec::new(),
        }
    }

    pub fn push(&mut self, key: &[u8], value: &[u8], origin: u64) -> Result<(), StoreError> {
        let mut head = [0u8; 16];
        let n = key.len().min(16);
        head[..n].copy_from_slice(&key[..n]);
        let (first, second) = head.split_at(8);
        let held = Held {
            head: u64::from_be_bytes(first.try_into().map_err(|_| too_long())?),
            head2: u64::from_be_bytes(second.try_into().map_err(|_| too_long())?),
            start: self.arena.len(),
            key_len: u32::try_from(key.len()).map_err(|_| too_long())?,
            value_len: u32::try_from(value.len()).map_err(|_| too_long())?,
            origin,
        };
        if self.arena.len() >= GROWN_BYTES && self.arena.capacity() < self.bound {
            self.reserve();
        }
        self.arena.extend_from_slice(key);
        self.arena.extend_from_slice(value);
        if let Some(last) = self.held.last() {
            self.sorted &= self.order(last, &held).is_le();
        }
        self.held.push(held);
        if self.arena.len() + self.held.len() * ITEM_OVERHEAD >= self.bound {
            self.spill()?;
        }
        Ok(())
    }

    /// Room for all it may hold, once it has grown past `GROWN_BYTES`: growing the arena and
    /// the list by doubling copied them over and over and touched fresh memory each time (a
    /// few percent of a large import). Room not written to costs address space, not memory.
    fn reserve(&mut self) {
        self.arena
            .reserve(self.bound.saturating_sub(self.arena.len()));
        let items = self.bound / (ITEM_OVERHEAD + 16);
        self.held.reserve(items.saturating_sub(self.held.len()));
    }

    fn key(&self, h: &Held) -> &[u8] {
        &self.arena[h.start..h.start + h.key_len as usize]
    }

    fn value(&self, h: &Held) -> &[u8] {
        let start = h.start + h.key_len as usize;
        &self.arena[start..start + h.value_len as usize]
    }

    fn order(&self, a: &Held, b: &Held) -> std::cmp::Ordering {
        // Equal heads of keys of up to sixteen bytes differ at most in trailing zeros: the
        // shorter key is the smaller. Longer keys are compared past their heads.
        a.head
            .cmp(&b.head)
            .then(a.head2.cmp(&b.head2))
            .then_with(|| match a.key_len.max(b.key_len) <= 16 {
                true => a.key_len.cmp(&b.key_len),
                false => self.key(a)[16.min(a.key_len as usize)..]
                    .cmp(&self.key(b)[16.min(b.key_len as usize)..]),
            })
            .then(a.origin.cmp(&b.origin))
            .then_with(|| self.value(a).cmp(self.value(b)))
    }

    /// Puts the held items in order; rows of a file often come in key order already.
    fn sort_held(&mut self) {
        if !self.sorted {
            let mut held = std::mem::take(&mut self.held);
            held.sort_unstable_by(|a, b| self.order(a, b));
            self.held = held;
            self.sorted = true;
        }
    }

    fn item(&self, h: &Held) -> Item {
        Item {
            key: self.key(h).to_vec(),
            origin: h.origin,
            value: self.value(h).to_vec(),
        }
    }

    fn spill(&mut self) -> Result<(), StoreError> {
        self.sort_held();
        static RUN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = self.dir.join(format!("run-{}-{n}", std::process::id()));
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&path).map_err(io)?);
        let mut buf = Vec::with_capacity(64);
        for h in &self.held {
            buf.clear();
            varint::put(&mut buf, u64::from(h.key_len));
            buf.extend_from_slice(self.key(h));
            varint::put(&mut buf, u64::from(h.value_len));
            buf.extend_from_slice(self.value(h));
            varint::put(&mut buf, h.origin);
            out.write_all(&buf).map_err(io)?;
        }
        out.flush().map_err(io)?;
        self.held.clear();
        self.arena.clear();
        self.runs.push(path);
        Ok(())
    }

    /// Calls `each` with every item in order (key, value, origin); items held in memory are
    /// lent from the arena, not copied out one by one.
    pub fn each(
        &mut self,
        mut each: impl FnMut(&[u8], &[u8], u64) -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        if !self.runs.is_empty() {
            for item in self.sorted()? {
                let item = item?;
                each(&item.key, &item.value, item.origin)?;
            }
            return Ok(());
        }
        self.sort_held();
        for h in &self.held {
            each(self.key(h), self.value(h), h.origin)?;
        }
        Ok(())
    }

    /// Every item in order. May be called again: each call reads the items from the start.
    pub fn sorted(&mut self) -> Result<Merged<'_>, StoreError> {
        self.sort_held();
        let mut sources: Vec<Box<dyn Iterator<Item = Result<Item, StoreError>> + '_>> =
            Vec::with_capacity(self.runs.len() + 1);
        for path in &self.runs {
            let file = File::open(path).map_err(io)?;
            sources.push(Box::new(RunReader(BufReader::with_capacity(1 << 20, file))));
        }
        let this = &*self;
        sources.push(Box::new(this.held.iter().map(|h| Ok(this.item(h)))));
        Merged::new(sources)
    }
}

impl Drop for Sorter {
    fn drop(&mut self) {
        for path in &self.runs {
            let _ = std::fs::remove_file(path);
        }
    }
}

struct RunReader(BufReader<File>);

impl RunReader {
    fn varint(&mut self) -> std::io::Result<Option<u64>> {
        let mut n = 0u64;
        let mut byte = [0u8];
        for i in 0..10 {
            if self.0.read(&mut byte)? == 0 {
                return if i == 0 {
                    Ok(None)
                } else {
                    Err(std::io::ErrorKind::UnexpectedEof.into())
                };
            }
            n |= u64::from(byte[0] & 0x7F) << (7 * i);
            if byte[0] & 0x80 == 0 {
                return Ok(Some(n));
            }
        }
        Err(std::io::ErrorKind::InvalidData.into())
    }

    fn bytes(&mut self) -> std::io::Result<Vec<u8>> {
        let len = self.varint()?.ok_or(std::io::ErrorKind::UnexpectedEof)?;
        let mut out = vec![0; len as usize];
        self.0.read_exact(&mut out)?;
        Ok(out)
    }

    fn item(&mut self) -> std::io::Result<Option<Item>> {
        let Some(len) = self.varint()? else {
            return Ok(None);
        };
        let mut key = vec![0; len as usize];
        self.0.read_exact(&mut key)?;
        let value = self.bytes()?;
        let origin = self.varint()?.ok_or(std::io::ErrorKind::UnexpectedEof)?;
        Ok(Some(Item { key, origin, value }))
    }
}

impl Iterator for RunReader {
    type Item = Result<Item, StoreError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.item().map_err(io).transpose()
    }
}

/// The merge of sorted sources.
pub struct Merged<'a> {
    sources: Vec<Box<dyn Iterator<Item = Result<Item, StoreError>> + 'a>>,
    heap: BinaryHeap<Reverse<(Item, usize)>>,
}

impl<'a> Merged<'a> {
    fn new(
        mut sources: Vec<Box<dyn Iterator<Item = Result<Item, StoreError>> + 'a>>,
    ) -> Result<Merged<'a>, StoreError> {
        let mut heap = BinaryHeap::with_capacity(sources.len());
        for (i, source) in sources.iter_mut().enumerate() {
            if let Some(item) = source.next() {
                heap.push(Reverse((item?, i)));
            }
        }
        Ok(Merged { sources, heap })
    }
}

impl Iterator for Merged<'_> {
    type Item = Result<Item, StoreError>;
    fn next(&mut self) -> Option<Self::Item> {
        let Reverse((item, i)) = self.heap.pop()?;
        match self.sources[i].next() {
            Some(Ok(next)) => self.heap.push(Reverse((next, i))),
            Some(Err(e)) => return Some(Err(e)),
            None => {}
        }
        Some(Ok(item))
    }
}

#[cfg(test)]
mod tests;
