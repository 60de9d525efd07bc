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

/// Bytes of items held in memory before a run is written out.
pub const HELD_BYTES: usize = 96 << 20;
/// Bookkeeping bytes per held item (two vectors and the origin), counted against the bound.
const ITEM_OVERHEAD: usize = 56;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Item {
    pub key: Vec<u8>,
    pub origin: u64,
    pub value: Vec<u8>,
}

pub struct Sorter {
    dir: PathBuf,
    held: Vec<Item>,
    held_bytes: usize,
    bound: usize,
    runs: Vec<PathBuf>,
}

fn io(e: std::io::Error) -> StoreError {
    StoreError::Engine(format!("a sort file could not be written or read: {e}"))
}

impl Sorter {
    /// Run files go to `dir`, which the caller owns and removes.
    pub fn new(dir: &Path) -> Sorter {
        Self::with_bound(dir, HELD_BYTES)
    }

    pub fn with_bound(dir: &Path, bound: usize) -> Sorter {
        Sorter {
            dir: dir.into(),
            held: Vec::new(),
            held_bytes: 0,
            bound,
            runs: Vec::new(),
        }
    }

    pub fn push(&mut self, key: Vec<u8>, value: Vec<u8>, origin: u64) -> Result<(), StoreError> {
        self.held_bytes += key.len() + value.len() + ITEM_OVERHEAD;
        self.held.push(Item { key, origin, value });
        if self.held_bytes >= self.bound {
            self.spill()?;
        }
        Ok(())
    }

    fn spill(&mut self) -> Result<(), StoreError> {
        self.held.sort_unstable();
        static RUN: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = self.dir.join(format!("run-{}-{n}", std::process::id()));
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&path).map_err(io)?);
        let mut buf = Vec::with_capacity(64);
        for item in self.held.drain(..) {
            buf.clear();
            put_varint(&mut buf, item.key.len() as u64);
            buf.extend_from_slice(&item.key);
            put_varint(&mut buf, item.value.len() as u64);
            buf.extend_from_slice(&item.value);
            put_varint(&mut buf, item.origin);
            out.write_all(&buf).map_err(io)?;
        }
        out.flush().map_err(io)?;
        self.held_bytes = 0;
        self.runs.push(path);
        Ok(())
    }

    /// Every item in order. May be called again: each call reads the items from the start.
    pub fn sorted(&mut self) -> Result<Merged<'_>, StoreError> {
        self.held.sort_unstable();
        let mut sources: Vec<Box<dyn Iterator<Item = Result<Item, StoreError>> + '_>> =
            Vec::with_capacity(self.runs.len() + 1);
        for path in &self.runs {
            let file = File::open(path).map_err(io)?;
            sources.push(Box::new(RunReader(BufReader::with_capacity(1 << 20, file))));
        }
        sources.push(Box::new(self.held.iter().cloned().map(Ok)));
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

fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
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
mod tests {
    use super::*;

    #[test]
    fn items_come_out_sorted_across_runs_and_twice() {
        let dir = tempfile::tempdir().unwrap();
        let mut sorter = Sorter::with_bound(dir.path(), 2000);
        let mut expected = Vec::new();
        for i in 0..3000u64 {
            let key = ((i * 7919) % 1000).to_be_bytes().to_vec();
            let value = vec![i as u8; (i % 9) as usize];
            expected.push(Item {
                key: key.clone(),
                origin: i,
                value: value.clone(),
            });
            sorter.push(key, value, i).unwrap();
        }
        expected.sort();
        assert!(sorter.runs.len() > 5, "spilled");
        for _ in 0..2 {
            let got: Vec<Item> = sorter.sorted().unwrap().map(|i| i.unwrap()).collect();
            assert_eq!(got, expected);
        }
        let runs = sorter.runs.clone();
        drop(sorter);
        assert!(runs.iter().all(|r| !r.exists()));
    }
}
