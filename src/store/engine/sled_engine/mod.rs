//! The engine on disk: sled 0.34.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};

use super::{Compaction, Db, Engine, Tree};
use crate::store::error::StoreError;

mod compaction;
pub mod files;
mod kept_room;
mod page_file;
#[cfg(test)]
mod page_file_tests;
mod paged_tree;
mod recording;
mod tree;
mod watchdog;

use page_file::PageFile;
use paged_tree::PagedTree;
use tree::SledTree;

impl From<sled::Error> for StoreError {
    fn from(e: sled::Error) -> Self {
        match e {
            sled::Error::Io(io) if io.kind() == std::io::ErrorKind::StorageFull => {
                StoreError::DiskFull
            }
            e => StoreError::Engine(Box::new(e)),
        }
    }
}

/// sled, reopened after an I/O error: sled 0.34 keeps the first I/O error of its log (a full
/// disk, say) and fails every later write with it, for as long as the process runs. The engine
/// notes the error; the next operation, once the disk has room again, closes the database
/// (every tree handle it gave out lets go of it) and opens it afresh, which recovers from the
/// log as a restart would. Until then operations go on against the old handles, so what can
/// still be read is read.
struct SledEngine(Arc<Shared>);

struct Shared {
    /// The engine's directory, to reopen and compact the database; none for a scratch
    /// database, which is neither.
    path: Option<PathBuf>,
    cache_bytes: u64,
    state: RwLock<State>,
    /// `state.epoch` and `state.failed`, readable without the lock: every tree operation
    /// checks them, and a lock taken on every read costs more than the read under load.
    epoch: AtomicU64,
    failed: AtomicBool,
    /// Every tree handed out, so a reopen can make them let go of the old database.
    trees: Mutex<Vec<Weak<SledTree>>>,
    /// Held shared by every write, alone by a compaction's swap.
    gate: RwLock<()>,
    /// The writes made while a compaction copies.
    recording: Mutex<Option<recording::Recording>>,
    /// Held by the compaction under way: one at a time.
    compacting: Mutex<()>,
    /// Added to sled's ids (see `compaction::ID_TREE`).
    id_floor: AtomicU64,
    /// The writes under way, for the watchdog.
    watch: Arc<watchdog::Watch>,
}

struct State {
    db: Option<sled::Db>,
    /// Where the paged trees' values are; a compaction puts a new one in place with the
    /// database.
    pages: Arc<PageFile>,
    /// Counts opens; a tree handle of an older one is reopened before use.
    epoch: u64,
    failed: bool,
}

/// Room the file system must have before a failed database is reopened: with less, the
/// reopen would fail as the writes did, and the old handles still serve reads.
const ROOM_TO_REOPEN: u64 = 8 << 20;

/// Opens (or creates) the sled database of the store at `dir` (in `files::ENGINE`), its page
/// cache limited to `cache_bytes`.
pub fn open_sled(dir: &Path, cache_bytes: u64) -> Result<Db, StoreError> {
    let path = files::settle(dir).map_err(|e| StoreError::Unopenable(dir.into(), e.to_string()))?;
    let db = open_db(&path, cache_bytes)?;
    let pages = Arc::new(PageFile::open(&path)?);
    engine(db, pages, Some(path), cache_bytes)
}

fn engine(
    db: sled::Db,
    pages: Arc<PageFile>,
    path: Option<PathBuf>,
    cache_bytes: u64,
) -> Result<Db, StoreError> {
    let id_floor = AtomicU64::new(compaction::id_floor(&db)?);
    Ok(Arc::new(SledEngine(Arc::new(Shared {
        path,
        cache_bytes,
        state: RwLock::new(State {
            db: Some(db),
            pages,
            epoch: 0,
            failed: false,
        }),
        epoch: AtomicU64::new(0),
        failed: AtomicBool::new(false),
        trees: Mutex::new(Vec::new()),
        gate: RwLock::new(()),
        recording: Mutex::new(None),
        compacting: Mutex::new(()),
        id_floor,
        watch: watchdog::Watch::watched(),
    }))))
}

fn open_db(path: &Path, cache_bytes: u64) -> Result<sled::Db, StoreError> {
    remove_incomplete_snapshots(path);
    let config = sled::Config::new().path(path).cache_capacity(cache_bytes);
    // A database this process has just closed stays locked until sled's I/O threads let go of
    // its file, a few milliseconds later: wait for them. They may let go between the open that
    // found it locked and the look at this process's files: an open is tried once more when
    // the files are no longer ours, and only a lock that outlives them (another process's) is
    // refused.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let mut once_more = true;
    loop {
        match open_config(&config, path) {
            Err(StoreError::InUse(_)) if std::time::Instant::now() < deadline => {
                if open_in_this_process(path) {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                } else if !std::mem::take(&mut once_more) {
                    return Err(StoreError::InUse(path.into()));
                }
            }
            other => return other,
        }
    }
}

/// Whether this process still has the database's file open.
fn open_in_this_process(path: &Path) -> bool {
    let Ok(file) = path.join("db").canonicalize() else {
        return false;
    };
    let Ok(fds) = std::fs::read_dir("/proc/self/fd") else {
        return false;
    };
    fds.flatten()
        .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|target| target == file))
}

fn open_config(config: &sled::Config, path: &Path) -> Result<sled::Db, StoreError> {
    // sled panics on some damaged files instead of returning an error.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| config.open())) {
        Ok(Ok(db)) => Ok(db),
        Ok(Err(sled::Error::Io(e)))
            if e.kind() == std::io::ErrorKind::WouldBlock || e.to_string().contains("lock") =>
        {
            Err(StoreError::InUse(path.into()))
        }
        Ok(Err(sled::Error::Io(e))) if e.kind() == std::io::ErrorKind::StorageFull => {
            Err(StoreError::DiskFull)
        }
        Ok(Err(sled::Error::Io(e))) => Err(StoreError::Unopenable(path.into(), e.to_string())),
        Ok(Err(e)) => Err(StoreError::Corrupt(path.into(), e.to_string())),
        Err(_) => Err(StoreError::Corrupt(
            path.into(),
            "the storage engine could not read its files".into(),
        )),
    }
}

/// A scratch database in `path`, removed when dropped: room on disk for what must not be
/// held in memory and must not touch the store.
pub fn open_scratch(path: &Path) -> Result<Db, StoreError> {
    let cache_bytes = 16 << 20;
    let db = sled::Config::new()
        .path(path)
        .temporary(true)
        .cache_capacity(cache_bytes)
        .open()?;
    let pages = Arc::new(PageFile::open(path)?);
    engine(db, pages, None, cache_bytes)
}

/// sled writes a snapshot as `snap.*.generating` and renames it when complete. One left by a
/// write that failed (a full disk) is empty or torn, and sled 0.34 then refuses the whole
/// database as corrupt although its log is whole: such files are never a snapshot to read.
fn remove_incomplete_snapshots(path: &Path) {
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("snap.") && name.ends_with(".generating") {
            match std::fs::remove_file(entry.path()) {
                Ok(()) => tracing::info!(file = %name, "removed an incomplete engine snapshot"),
                Err(e) => {
                    tracing::warn!(file = %name, error = %e, "cannot remove an incomplete engine snapshot")
                }
            }
        }
    }
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|e| e.into_inner())
}

fn lock<T>(lock: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    lock.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// The database to use now, reopened first if it failed and the disk has room.
    fn db(&self) -> Result<(u64, sled::Db), StoreError> {
        {
            let state = read(&self.state);
            if let Some(db) = &state.db
                && !(state.failed && self.has_room())
            {
                return Ok((state.epoch, db.clone()));
            }
        }
        self.reopen()
    }

    fn page_file(&self) -> Arc<PageFile> {
        read(&self.state).pages.clone()
    }

    /// Makes the values written to paged trees durable: done before any other write, so
    /// that nothing durable names a value that is not.
    fn pages_durable(&self) -> Result<(), StoreError> {
        self.page_file().sync()
    }

    fn has_room(&self) -> bool {
        self.path.as_deref().is_some_and(|path| {
            crate::store::free_bytes(path).is_ok_and(|free| free >= ROOM_TO_REOPEN)
        })
    }

    fn reopen(&self) -> Result<(u64, sled::Db), StoreError> {
        let mut state = write(&self.state);
        if let Some(db) = &state.db
            && !state.failed
        {
            return Ok((state.epoch, db.clone()));
        }
        let Some(path) = self.path.clone() else {
            return Err(StoreError::Internal("a scratch database failed".into()));
        };
        // The files close once the last handle is gone (an operation under way may still
        // hold one: then the open below finds them locked, and the next operation retries).
        self.let_go(&mut state);
        let db = open_db(&path, self.cache_bytes)?;
        self.install(&mut state, db.clone());
        tracing::warn!(path = %path.display(), "reopened the storage engine after an I/O error");
        Ok((state.epoch, db))
    }

    /// Lets go of the database: every tree handle drops its sled tree.
    fn let_go(&self, state: &mut State) {
        for tree in lock(&self.trees).iter().filter_map(Weak::upgrade) {
            *write(&tree.handle) = None;
        }
        state.db = None;
    }

    /// Puts `db` in use; tree handles of the one before reopen their trees on it.
    fn install(&self, state: &mut State, db: sled::Db) {
        state.db = Some(db);
        state.epoch += 1;
        state.failed = false;
        self.epoch.store(state.epoch, Ordering::Release);
        self.failed.store(false, Ordering::Release);
    }

    fn generate_id(&self) -> Result<u64, StoreError> {
        let (_, db) = self.db()?;
        let id = self.checked(db.generate_id())?;
        Ok(self.id_floor.load(Ordering::Acquire) + id)
    }

    /// Notes an error of the engine; an I/O error makes the next operation reopen.
    fn checked<T>(&self, result: sled::Result<T>) -> Result<T, StoreError> {
        result.map_err(|e| {
            if matches!(e, sled::Error::Io(_)) {
                write(&self.state).failed = true;
                self.failed.store(true, Ordering::Release);
            }
            e.into()
        })
    }
}

impl Engine for SledEngine {
    fn open_tree(&self, name: &str) -> Result<Tree, StoreError> {
        let _writing = read(&self.0.gate);
        let (epoch, db) = self.0.db()?;
        let tree = self.0.checked(db.open_tree(name))?;
        self.0.recorded(|| recording::Op::Open(name.to_owned()));
        let tree = Arc::new(SledTree {
            shared: self.0.clone(),
            name: name.to_owned(),
            handle: RwLock::new(Some((epoch, tree))),
        });
        let mut trees = lock(&self.0.trees);
        trees.retain(|t| t.strong_count() > 0);
        trees.push(Arc::downgrade(&tree));
        Ok(match super::is_paged(name) {
            true => Tree::new(Arc::new(PagedTree { places: tree })),
            false => Tree::new(tree),
        })
    }

    fn tree_names(&self) -> Vec<String> {
        let Ok((_, db)) = self.0.db() else {
            return Vec::new();
        };
        db.tree_names()
            .iter()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .filter(|n| n != compaction::ID_TREE)
            .collect()
    }

    fn drop_tree(&self, name: &str) -> Result<(), StoreError> {
        let _writing = read(&self.0.gate);
        let (_, db) = self.0.db()?;
        let _watched = self.0.watch.start("tree removal");
        self.0.pages_durable()?;
        let held = match super::is_paged(name) {
            true => {
                let pages = self.0.writable_pages()?;
                let held = paged_tree::places(&self.0.checked(db.open_tree(name))?)?;
                Some((pages, held))
            }
            false => None,
        };
        self.0.checked(db.drop_tree(name))?;
        if let Some((pages, held)) = held {
            held.into_iter().for_each(|p| pages.release(p));
        }
        self.0.recorded(|| recording::Op::Drop(name.to_owned()));
        Ok(())
    }

    /// Makes every write durable; then the page file's stretches whose values were deleted
    /// before are handed out again (not while a compaction copies: it may still read them).
    fn flush(&self) -> Result<(), StoreError> {
        let (_, db) = self.0.db()?;
        let _watched = self.0.watch.start("flush");
        let pages = self.0.page_file();
        pages.sync()?;
        let released = pages.take_released();
        match self.0.checked(db.flush()) {
            Ok(_) if !self.0.recording() => pages.reuse(released),
            Ok(_) => {
                pages.unreused(released);
                Ok(())
            }
            Err(e) => {
                pages.unreused(released);
                Err(e)
            }
        }
    }

    fn generate_id(&self) -> Result<u64, StoreError> {
        let _writing = read(&self.0.gate);
        self.0.generate_id()
    }

    fn bytes(&self) -> u64 {
        self.0.path.as_deref().map_or(0, files::bytes_of)
    }

    fn compact(&self) -> Result<Compaction, StoreError> {
        self.0.compact()
    }

    /// Reads which stretches of the page file are free on a thread of its own, while the
    /// change is staged (`Shared::read_room_ahead`).
    fn writes_coming(&self) {
        self.0.read_room_ahead();
    }
}
