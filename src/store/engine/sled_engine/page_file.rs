//! The page file: where the engine keeps the values of its paged trees (`engine::PAGED`) out
//! of sled's log. sled appends a new copy of a leaf each time it changes and cleans its log
//! when its threads find time, so how much of a bulk load's superseded copies its file still
//! holds varies from one import to the next; the packed tables' pages are written once and
//! deleted whole, and need none of that. Their bytes go here, in stretches this file hands
//! out itself; sled keeps each value's place (`Extent`) under its key.
//!
//! Order on disk: a value's bytes are made durable before any write to another tree (the
//! root that names the page, the manifest that names the root) is applied, and a deleted
//! value's stretch is handed out again only once the deletion is durable (`Engine::flush`),
//! so a crash never leaves a committed key whose bytes were lost or overwritten. Before the
//! first write, every stretch no key names is free: what a crash left unnamed is given back.
//! After a clean close that is known without reading the places (`kept_room`).

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use super::kept_room::{self, Kept};
use crate::store::error::StoreError;

/// The page file's name in the engine's directory.
pub const FILE: &str = "pages";

/// Where a value lies in the page file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    pub offset: u64,
    pub len: u32,
}

impl Extent {
    /// How sled keeps it: the offset, then the length, big-endian.
    pub fn stored(&self) -> [u8; 12] {
        let mut out = [0u8; 12];
        out[..8].copy_from_slice(&self.offset.to_be_bytes());
        out[8..].copy_from_slice(&self.len.to_be_bytes());
        out
    }

    pub fn parse(stored: &[u8]) -> Result<Extent, StoreError> {
        let bad = || StoreError::Damaged("a page's place in the page file cannot be read".into());
        let stored: &[u8; 12] = stored.try_into().map_err(|_| bad())?;
        Ok(Extent {
            offset: u64::from_be_bytes(stored[..8].try_into().map_err(|_| bad())?),
            len: u32::from_be_bytes(stored[8..].try_into().map_err(|_| bad())?),
        })
    }

    fn end(&self) -> u64 {
        self.offset + u64::from(self.len)
    }
}

pub struct PageFile {
    file: File,
    /// Which stretches are free: read before the first write, not at open (a store opened to
    /// be read never needs it), from the room the last clean close kept, else from the trees
    /// (reading every place takes about a tenth of a second a million articles).
    room: Mutex<Option<Room>>,
    /// The file the room was read from (`kept_room`), removed before the first write.
    kept: Mutex<Option<PathBuf>>,
    /// Stretches of deleted values, free once their deletion is durable.
    released: Mutex<Vec<(u64, u64)>>,
    /// Bytes were written since the file was last made durable.
    dirty: AtomicBool,
}

#[derive(Default)]
struct Room {
    /// Stretches free to hand out: offset → length, none adjacent to another.
    free: BTreeMap<u64, u64>,
    /// The same stretches by length, then offset: the smallest that fits is found at once.
    by_len: BTreeSet<(u64, u64)>,
    /// Where the file ends as far as values go: nothing at or past it is held.
    end: u64,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn unread() -> StoreError {
    StoreError::Internal("the page file was written before its free room was read".into())
}

impl PageFile {
    /// Opens (or creates) the page file in `dir`.
    pub fn open(dir: &Path) -> Result<PageFile, StoreError> {
        let path = dir.join(FILE);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| StoreError::io(&format!("opening {}", path.display()), e))?;
        Ok(PageFile {
            file,
            room: Mutex::new(None),
            kept: Mutex::new(None),
            released: Mutex::default(),
            dirty: AtomicBool::new(false),
        })
    }

    /// Reads which stretches are free, unless that is known: from the room a clean close kept
    /// in `kept_in` (the engine's directory, `kept_room`), else every stretch but the values'
    /// (`held`: their places, as the trees name them now), and the file is cut after the last
    /// value. Called before anything is written or deleted: a deletion's stretch must not be
    /// read as free before the deletion is durable.
    pub fn ready(
        &self,
        kept_in: Option<&Path>,
        held: impl FnOnce() -> Result<Vec<Extent>, StoreError>,
    ) -> Result<(), StoreError> {
        let mut room = lock(&self.room);
        if room.is_none() {
            let mut read = Room::default();
            let kept = match kept_in {
                Some(dir) => kept_room::read(dir, self.len()?)?.map(|kept| (dir, kept)),
                None => None,
            };
            match kept {
                Some((dir, kept)) => {
                    read.end = kept.end;
                    kept.free.into_iter().for_each(|(o, l)| read.insert(o, l));
                    *lock(&self.kept) = Some(dir.to_path_buf());
                }
                None => {
                    let mut held = held()?;
                    held.sort_by_key(|e| e.offset);
                    for extent in held {
                        if extent.offset > read.end {
                            read.insert(read.end, extent.offset - read.end);
                        }
                        read.end = read.end.max(extent.end());
                    }
                }
            }
            self.cut(read.end)?;
            *room = Some(read);
        }
        Ok(())
    }

    /// Called before the first write to the file or to a place: the room kept by the last
    /// close, if it was read, is removed (durably) first, so that it is never believed once
    /// it may be out of date.
    pub fn writing(&self) -> Result<(), StoreError> {
        let mut kept = lock(&self.kept);
        if let Some(dir) = kept.as_deref() {
            kept_room::discard(dir)?;
            *kept = None;
        }
        Ok(())
    }

    /// Keeps which stretches are free in `dir` for the next open (`kept_room`): for the
    /// engine's last moment, once every write and deletion is durable and the deleted
    /// values' stretches are free. A room never read needs nothing: nothing was written.
    pub fn keep_room(&self, dir: &Path) -> Result<(), StoreError> {
        let room = lock(&self.room);
        let Some(room) = room.as_ref() else {
            return Ok(());
        };
        if !lock(&self.released).is_empty() || self.len()? != room.end {
            return Ok(());
        }
        let free = room.free.iter().map(|(&o, &l)| (o, l)).collect();
        kept_room::keep(
            dir,
            &Kept {
                end: room.end,
                free,
            },
        )
    }

    /// Cuts the file at `end` if it is longer.
    fn cut(&self, end: u64) -> Result<(), StoreError> {
        if self.len()? > end {
            (self.file.set_len(end)).map_err(|e| StoreError::io("shortening the page file", e))?;
        }
        Ok(())
    }

    fn len(&self) -> Result<u64, StoreError> {
        Ok(self
            .file
            .metadata()
            .map_err(|e| StoreError::io("reading the page file's length", e))?
            .len())
    }

    /// Whether which stretches are free is known.
    pub fn is_ready(&self) -> bool {
        lock(&self.room).is_some()
    }

    /// Where each of values of `lens` bytes goes: one stretch for them all, end to end, if
    /// one fits (an import's pages: one write); else each in the smallest free stretch it
    /// fits (a change's pages, in the room of the pages it replaced), else at the end.
    fn place(&self, lens: &[u64]) -> Result<Vec<u64>, StoreError> {
        let mut room = lock(&self.room);
        let room = room.as_mut().ok_or_else(unread)?;
        let total = lens.iter().sum();
        let start = room.take(total);
        let mut next = start.unwrap_or(0);
        Ok(lens
            .iter()
            .map(|&len| match start {
                Some(_) => {
                    next += len;
                    next - len
                }
                None => room.take(len).unwrap_or_else(|| room.append(len)),
            })
            .collect())
    }

    /// Writes `values` where `place` puts them; where each lies.
    pub fn write(&self, values: &[&[u8]]) -> Result<Vec<Extent>, StoreError> {
        let mut lens = Vec::with_capacity(values.len());
        for value in values {
            lens.push(
                u32::try_from(value.len())
                    .map_err(|_| StoreError::Internal("a page of 4 GiB or more".into()))?,
            );
        }
        let offsets = self.place(&lens.iter().map(|&l| u64::from(l)).collect::<Vec<_>>())?;
        let extents: Vec<Extent> = (offsets.iter().zip(&lens))
            .map(|(&offset, &len)| Extent { offset, len })
            .collect();
        if let Err(e) = self.write_runs(values, &extents) {
            for extent in &extents {
                self.free_now(extent.offset, u64::from(extent.len));
            }
            return Err(StoreError::io("writing the page file", e));
        }
        self.dirty.store(true, Ordering::Release);
        Ok(extents)
    }

    /// Writes each value at its place, values placed end to end in one write.
    fn write_runs(&self, values: &[&[u8]], extents: &[Extent]) -> std::io::Result<()> {
        let mut run: Vec<u8> = Vec::new();
        let mut run_start = 0;
        for (value, extent) in values.iter().zip(extents) {
            if extent.offset != run_start + run.len() as u64 {
                self.file.write_all_at(&run, run_start)?;
                run.clear();
                run_start = extent.offset;
            }
            run.extend_from_slice(value);
        }
        self.file.write_all_at(&run, run_start)
    }

    pub fn read(&self, extent: Extent) -> Result<Vec<u8>, StoreError> {
        let mut bytes = vec![0; extent.len as usize];
        match self.file.read_exact_at(&mut bytes, extent.offset) {
            Ok(()) => Ok(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Err(StoreError::Damaged(
                "a page lies past the end of the page file".into(),
            )),
            Err(e) => Err(StoreError::io("reading the page file", e)),
        }
    }

    /// Makes what was written durable, if anything was since the last time.
    pub fn sync(&self) -> Result<(), StoreError> {
        if self.dirty.swap(false, Ordering::AcqRel)
            && let Err(e) = self.file.sync_data()
        {
            self.dirty.store(true, Ordering::Release);
            return Err(StoreError::io("making the page file durable", e));
        }
        Ok(())
    }

    /// Notes that the value at `extent` was deleted: its stretch is free once that is durable.
    pub fn release(&self, extent: Extent) {
        if extent.len > 0 {
            lock(&self.released).push((extent.offset, u64::from(extent.len)));
        }
    }

    /// The stretches released so far; given to `reuse` once their deletions are durable, or
    /// back to `unreused` if that failed.
    pub fn take_released(&self) -> Vec<(u64, u64)> {
        std::mem::take(&mut lock(&self.released))
    }

    pub fn unreused(&self, released: Vec<(u64, u64)>) {
        lock(&self.released).extend(released);
    }

    /// Frees stretches whose deletions are durable; the file is cut where its end is free.
    pub fn reuse(&self, released: Vec<(u64, u64)>) -> Result<(), StoreError> {
        if released.is_empty() {
            return Ok(());
        }
        // Cut under the lock: a stretch handed out meanwhile would lie past the cut.
        let mut room = lock(&self.room);
        let room = room.as_mut().ok_or_else(unread)?;
        for (offset, len) in released {
            room.free_stretch(offset, len);
        }
        self.cut(room.end)
    }

    fn free_now(&self, offset: u64, len: u64) {
        if let Some(room) = lock(&self.room).as_mut() {
            room.free_stretch(offset, len);
        }
    }
}

impl Room {
    fn insert(&mut self, offset: u64, len: u64) {
        self.free.insert(offset, len);
        self.by_len.insert((len, offset));
    }

    fn remove(&mut self, offset: u64) -> Option<u64> {
        let len = self.free.remove(&offset)?;
        self.by_len.remove(&(len, offset));
        Some(len)
    }

    /// The smallest free stretch of at least `len` bytes, its rest left free.
    fn take(&mut self, len: u64) -> Option<u64> {
        let &(free, offset) = self.by_len.range((len, 0)..).next()?;
        self.remove(offset);
        if free > len {
            self.insert(offset + len, free - len);
        }
        Some(offset)
    }

    fn append(&mut self, len: u64) -> u64 {
        self.end += len;
        self.end - len
    }

    /// Frees a stretch, joined to the free ones beside it; a free end shortens the file.
    fn free_stretch(&mut self, mut offset: u64, mut len: u64) {
        if let Some((&before, &before_len)) = self.free.range(..offset).next_back()
            && before + before_len == offset
        {
            self.remove(before);
            offset = before;
            len += before_len;
        }
        if let Some(after_len) = self.remove(offset + len) {
            len += after_len;
        }
        if offset + len >= self.end {
            self.end = offset;
        } else {
            self.insert(offset, len);
        }
    }
}
