//! Compaction while the store serves. sled reuses the space of deleted data but gives a
//! stretch of its log back only once most of it is dead, and never shrinks its file: a store
//! that takes many small commits holds several times what its catalogue needs. A compaction
//! copies every tree into fresh files beside the old ones (`engine.next/`) while reads and
//! writes go on; writes made during the copy are recorded and applied to the copy. Then, with
//! writes held for the moment it takes, the copy takes the old files' place in one directory
//! exchange, and the engine reopens on it. A process ended at any point leaves either the old
//! files or the new ones in `engine/`, both whole; the other set is removed at the next open.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::page_file::{Extent, PageFile};
use super::recording::{Op, Recording};
use super::{Shared, files, lock, open_db, open_in_this_process, paged_tree, write};
use crate::store::engine::{Compaction, is_paged};
use crate::store::error::StoreError;

/// Writes beyond this during one copy end the compaction (it is tried again later): a
/// compaction is for quiet times, and what it records is held in memory.
const MOST_RECORDED: usize = 64 << 20;
/// How long the swap waits for the last reader of the old files (a range being read) to let
/// go of them; reads wait meanwhile, so it gives up soon and the compaction is tried later.
const LET_GO_WITHIN: Duration = Duration::from_secs(3);
/// Free bytes the copy leaves on the disk at least: the store's own writes come first.
const FREE_FLOOR: u64 = 256 << 20;
/// Bytes copied per batch: a few pages, so a reader waits a fraction of a millisecond.
const COPY_BATCH: usize = 64 << 10;
/// Bytes copied between two looks at the bound and the disk's room.
const COPY_CHECK: usize = 4 << 20;
/// The copy's own page cache: it reads each tree once.
const COPY_CACHE: u64 = 64 << 20;

/// The tree where the engine keeps the floor of the ids it gives out: sled counts ids per set
/// of files, and a compaction's fresh files count from zero again.
pub(super) const ID_TREE: &str = "__partscat_engine";
const ID_FLOOR: &[u8] = b"id_floor";

/// The id floor kept in `db`.
pub(super) fn id_floor(db: &sled::Db) -> sled::Result<u64> {
    let floor = db.open_tree(ID_TREE)?.get(ID_FLOOR)?;
    Ok(floor
        .and_then(|v| <[u8; 8]>::try_from(v.as_ref()).ok())
        .map_or(0, u64::from_be_bytes))
}

impl Shared {
    pub(super) fn compact(&self) -> Result<Compaction, StoreError> {
        let Some(path) = self.path.clone() else {
            return Ok(Compaction::default());
        };
        let Ok(_one_at_a_time) = self.compacting.try_lock() else {
            return Err(StoreError::NotCompacted("another compaction is under way"));
        };
        let next = path.with_file_name(files::NEXT);
        let io = |e: std::io::Error| StoreError::Unopenable(next.clone(), e.to_string());
        if next.exists() {
            std::fs::remove_dir_all(&next).map_err(io)?;
        }
        let bytes_before = files::bytes_of(&path);
        {
            let _writes = write(&self.gate);
            *lock(&self.recording) = Some(Recording::default());
        }
        let switched = self
            .copy_into(&next)
            .and_then(|pages| self.switch_to(&path, &next, pages));
        *lock(&self.recording) = None;
        let removed = std::fs::remove_dir_all(&next);
        switched?;
        removed.map_err(io)?;
        crate::store::crash_point("compact:old-removed");
        Ok(Compaction {
            bytes_before,
            bytes_after: files::bytes_of(&path),
        })
    }

    /// Copies every tree into fresh files at `next`, then opens them once more, closed, so
    /// their recovery (a snapshot of the whole log) is done before the swap and not during it.
    /// The paged trees' values go into a fresh page file, one after the other.
    fn copy_into(&self, next: &Path) -> Result<Arc<PageFile>, StoreError> {
        let (_, old) = self.db()?;
        let fresh = open_db(next, COPY_CACHE)?;
        let (old_pages, pages) = (self.page_file(), Arc::new(PageFile::open(next)?));
        pages.ready(None, || Ok(Vec::new()))?;
        // In small batches: sled holds every reader of the process (the serving database's
        // too) while it applies one, and packs a batch tighter than the same writes one by one.
        for name in old.tree_names() {
            let paged = is_paged(&String::from_utf8_lossy(&name));
            let (from, to) = (old.open_tree(&name)?, fresh.open_tree(&name)?);
            let (mut batch, mut bytes, mut since_check) = (Vec::new(), 0, 0);
            let copy = |batch: Vec<(Vec<u8>, Option<Vec<u8>>)>| {
                let _watched = self.watch.start("compaction's batch");
                match paged {
                    true => paged_tree::apply(&to, &pages, batch, false, StoreError::from),
                    false => Ok(to.apply_batch(sled_batch(batch))?),
                }
            };
            for entry in from.iter() {
                let (key, mut value) = entry?;
                if paged {
                    value = old_pages.read(Extent::parse(&value)?)?.into();
                }
                bytes += key.len() + value.len();
                batch.push((key.to_vec(), Some(value.to_vec())));
                if bytes >= COPY_BATCH {
                    copy(std::mem::take(&mut batch))?;
                    since_check += bytes;
                    bytes = 0;
                }
                if since_check >= COPY_CHECK {
                    since_check = 0;
                    self.within_bound()?;
                    leaves_room(next)?;
                }
            }
            copy(batch)?;
        }
        let watched = self.watch.start("compaction's flush");
        pages.sync()?;
        fresh.flush()?;
        drop(watched);
        drop((old, fresh));
        crate::store::crash_point("compact:copied");
        drop(open_db(next, COPY_CACHE)?);
        Ok(pages)
    }

    fn within_bound(&self) -> Result<(), StoreError> {
        match lock(&self.recording).as_ref() {
            Some(r) if r.bytes > MOST_RECORDED => Err(StoreError::NotCompacted(
                "too much was written while it was being copied",
            )),
            _ => Ok(()),
        }
    }

    /// Applies the recorded writes to the copy and puts it in the old files' place. Writes
    /// wait from the start, reads while the old files close and the new ones open.
    fn switch_to(&self, path: &Path, next: &Path, pages: Arc<PageFile>) -> Result<(), StoreError> {
        let _writes = write(&self.gate);
        self.within_bound()?;
        let recorded = lock(&self.recording).take().unwrap_or_default();
        let floor = self.generate_id()?;
        {
            let fresh = open_db(next, COPY_CACHE)?;
            let _watched = self.watch.start("compaction's replay");
            replay(&fresh, &pages, recorded.ops)?;
            fresh
                .open_tree(ID_TREE)?
                .insert(ID_FLOOR, &floor.to_be_bytes())?;
            pages.sync()?;
            fresh.flush()?;
        }
        files::sync_tree(next).map_err(|e| StoreError::Unopenable(next.into(), e.to_string()))?;
        let mut state = write(&self.state);
        self.let_go(&mut state);
        let swapped = wait_closed(path)
            .and_then(|()| wait_closed(next))
            .and_then(|()| {
                files::exchange(path, next)
                    .map_err(|e| StoreError::Unopenable(path.into(), e.to_string()))
            });
        let exchanged = swapped.is_ok();
        let opened = swapped.and_then(|()| {
            crate::store::crash_point("compact:exchanged");
            files::sync_dir(path.parent().unwrap_or(path))
                .map_err(|e| StoreError::Unopenable(path.into(), e.to_string()))?;
            open_db(path, self.cache_bytes)
        });
        match opened {
            Ok(db) => {
                self.id_floor.store(floor, Ordering::Release);
                state.pages = pages;
                self.install(&mut state, db);
                Ok(())
            }
            Err(e) => {
                // The old files are whole and nothing was written since: back to them.
                if exchanged {
                    files::exchange(path, next)
                        .map_err(|e| StoreError::Unopenable(path.into(), e.to_string()))?;
                }
                let db = open_db(path, self.cache_bytes)?;
                self.install(&mut state, db);
                Err(e)
            }
        }
    }
}

/// Whether the disk still has room for the store's own writes beside the copy.
fn leaves_room(next: &Path) -> Result<(), StoreError> {
    match crate::store::free_bytes(next) {
        Ok(free) if free < FREE_FLOOR => Err(StoreError::NotCompacted(
            "the disk has too little room for a second copy",
        )),
        _ => Ok(()),
    }
}

fn sled_batch(writes: Vec<(Vec<u8>, Option<Vec<u8>>)>) -> sled::Batch {
    let mut batch = sled::Batch::default();
    for (key, value) in writes {
        match value {
            Some(value) => batch.insert(key, value),
            None => batch.remove(key),
        }
    }
    batch
}

/// Applies recorded writes, in their order, to `db` and its page file `pages`.
fn replay(db: &sled::Db, pages: &PageFile, ops: Vec<Op>) -> Result<(), StoreError> {
    for op in ops {
        match op {
            Op::Open(name) => drop(db.open_tree(name)?),
            // Nothing reads the copy before the swap: its writes need not be batches.
            Op::Apply(name, writes) if is_paged(&name) => {
                paged_tree::apply(&db.open_tree(name)?, pages, writes, true, StoreError::from)?
            }
            Op::Apply(name, writes) => {
                let tree = db.open_tree(name)?;
                for (key, value) in writes {
                    match value {
                        Some(value) => drop(tree.insert(key, value)?),
                        None => drop(tree.remove(key)?),
                    }
                }
            }
            Op::Clear(name) if is_paged(&name) => {
                let tree = db.open_tree(&name)?;
                let held = paged_tree::places(&tree)?;
                tree.clear()?;
                held.into_iter().for_each(|p| pages.release(p));
            }
            Op::Drop(name) if is_paged(&name) => {
                let held = paged_tree::places(&db.open_tree(&name)?)?;
                db.drop_tree(&name)?;
                held.into_iter().for_each(|p| pages.release(p));
            }
            Op::Clear(name) => db.open_tree(name)?.clear()?,
            Op::Drop(name) => drop(db.drop_tree(name)?),
        }
    }
    Ok(())
}

/// Waits until this process no longer has the engine's files at `path` open.
fn wait_closed(path: &Path) -> Result<(), StoreError> {
    let deadline = Instant::now() + LET_GO_WITHIN;
    while open_in_this_process(path) {
        if Instant::now() >= deadline {
            return Err(StoreError::NotCompacted("a reader held its files too long"));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(())
}
