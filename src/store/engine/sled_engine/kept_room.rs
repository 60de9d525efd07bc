//! The page file's free room, kept in a file beside it when the engine closes cleanly, so
//! that the next open learns it without reading every value's place from sled: a tenth of a
//! second a million articles, and most of the first part of a small change's import (which
//! is a process of its own).
//!
//! Believed only when it cannot be out of date:
//! - it is written as the engine closes, after everything the engine wrote is durable and
//!   nothing can write any more (`Shared`'s drop);
//! - it is removed, the removal durable, before the first write to the page file or to a
//!   place (`PageFile::writing`): a process that ends after writing, however it ends, leaves
//!   no file to believe, and the next open reads the places again. A process that only reads
//!   leaves it for the next;
//! - it names the page file's length and ends with a SHA-256 of what it holds, so a torn
//!   write or a file of another store is not believed.
//!
//! Store format 13 and later: a binary of format 12 or earlier, which would write without
//! removing it, refuses the store.

use std::io::ErrorKind;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::Shared;
use crate::store::error::StoreError;

/// The file's name in the engine's directory.
pub const FILE: &str = "pages.room";
const MAGIC: &[u8; 16] = b"partscat-room-1\n";

/// What was kept: where the values end, and the free stretches (offset, length) before it.
pub struct Kept {
    pub end: u64,
    pub free: Vec<(u64, u64)>,
}

impl Drop for Shared {
    /// The engine's last moment (no tree handle or thread holds it any more): with every
    /// write and deletion durable, the page file's free room is kept for the next open.
    /// A scratch database, one that failed, or one a compaction was copying keeps none.
    fn drop(&mut self) {
        let Some(dir) = self.path.clone().filter(|_| !self.recording()) else {
            return;
        };
        let state = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        let Some(db) = state.db.as_ref().filter(|_| !state.failed) else {
            return;
        };
        let pages = &state.pages;
        let kept = pages.sync().and_then(|()| {
            let released = pages.take_released();
            db.flush()?;
            pages.reuse(released)?;
            pages.keep_room(&dir)
        });
        if let Err(e) = kept {
            tracing::debug!(error = %e, "the page file's free room was not kept");
        }
    }
}

/// The room kept in `dir`, if a file there holds one that fits a page file of `file_len`
/// bytes; a file that does not is removed.
pub fn read(dir: &Path, file_len: u64) -> Result<Option<Kept>, StoreError> {
    let path = dir.join(FILE);
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(StoreError::io("reading the page file's kept room", e)),
    };
    let kept = parse(&bytes).filter(|kept| kept.end == file_len);
    if kept.is_none() {
        tracing::warn!(file = %path.display(), "the page file's kept room did not fit it; reading every place instead");
        discard(dir)?;
    }
    Ok(kept)
}

/// Removes the room kept in `dir`, if any, and makes the removal durable.
pub fn discard(dir: &Path) -> Result<(), StoreError> {
    match std::fs::remove_file(dir.join(FILE)) {
        Ok(()) => sync_dir(dir),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(StoreError::io("removing the page file's kept room", e)),
    }
}

/// Keeps `kept` in `dir` for the next open (written whole under another name, then renamed:
/// a torn file fails its checksum).
pub fn keep(dir: &Path, kept: &Kept) -> Result<(), StoreError> {
    let mut bytes = Vec::with_capacity(MAGIC.len() + 16 * (kept.free.len() + 2) + 32);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&kept.end.to_be_bytes());
    bytes.extend_from_slice(&(kept.free.len() as u64).to_be_bytes());
    for (offset, len) in &kept.free {
        bytes.extend_from_slice(&offset.to_be_bytes());
        bytes.extend_from_slice(&len.to_be_bytes());
    }
    let digest = Sha256::digest(&bytes);
    bytes.extend_from_slice(&digest);
    let writing = dir.join(format!("{FILE}.writing"));
    std::fs::write(&writing, &bytes)
        .and_then(|()| std::fs::rename(&writing, dir.join(FILE)))
        .map_err(|e| {
            let _ = std::fs::remove_file(&writing);
            StoreError::io("keeping the page file's free room", e)
        })
}

/// The room `bytes` hold, if they are whole and sound: free stretches in increasing order,
/// apart from each other, all before the end.
fn parse(bytes: &[u8]) -> Option<Kept> {
    let (held, digest) = bytes.split_at_checked(bytes.len().checked_sub(32)?)?;
    if Sha256::digest(held).as_slice() != digest {
        return None;
    }
    let mut numbers = held
        .strip_prefix(MAGIC)?
        .chunks(8)
        .map(|n| n.try_into().ok().map(u64::from_be_bytes));
    let end = numbers.next()??;
    let count = usize::try_from(numbers.next()??).ok()?;
    let mut free = Vec::with_capacity(count.min(1 << 20));
    let mut after = 0;
    for _ in 0..count {
        let (offset, len) = (numbers.next()??, numbers.next()??);
        let stretch_end = offset.checked_add(len)?;
        if len == 0 || offset < after || stretch_end >= end {
            return None;
        }
        after = stretch_end + 1;
        free.push((offset, len));
    }
    numbers.next().is_none().then_some(Kept { end, free })
}

/// Makes a removal in `dir` durable.
fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| StoreError::io("making the page file's directory durable", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_room_is_believed_only_when_whole_and_fitting() {
        let dir = tempfile::tempdir().unwrap();
        let room = Kept {
            end: 10_000,
            free: vec![(0, 100), (500, 20), (9_000, 999)],
        };
        keep(dir.path(), &room).unwrap();
        let found = read(dir.path(), 10_000).unwrap().unwrap();
        assert_eq!((found.end, found.free), (room.end, room.free.clone()));
        // Reading leaves it; discarding removes it.
        assert!(dir.path().join(FILE).exists());
        discard(dir.path()).unwrap();
        assert!(read(dir.path(), 10_000).unwrap().is_none());
        discard(dir.path()).unwrap();
        // A page file of another length (written since) is not believed, and the file goes.
        keep(dir.path(), &room).unwrap();
        assert!(read(dir.path(), 10_001).unwrap().is_none());
        assert!(!dir.path().join(FILE).exists());
        // Nor a torn or altered file.
        keep(dir.path(), &room).unwrap();
        let bytes = std::fs::read(dir.path().join(FILE)).unwrap();
        std::fs::write(dir.path().join(FILE), &bytes[..bytes.len() - 1]).unwrap();
        assert!(read(dir.path(), 10_000).unwrap().is_none());
        let mut altered = bytes.clone();
        altered[MAGIC.len() + 20] ^= 1;
        std::fs::write(dir.path().join(FILE), &altered).unwrap();
        assert!(read(dir.path(), 10_000).unwrap().is_none());
        // Stretches out of order, touching, reaching the end or empty are refused though
        // summed right.
        for free in [
            vec![(500, 20), (0, 100)],
            vec![(0, 100), (100, 5)],
            vec![(9_990, 10)],
            vec![(5, 0)],
        ] {
            keep(dir.path(), &Kept { end: 10_000, free }).unwrap();
            assert!(read(dir.path(), 10_000).unwrap().is_none());
        }
    }
}
