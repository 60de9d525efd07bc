//! The engine on disk: sled 0.34.

use std::ops::Bound;
use std::path::Path;
use std::sync::Arc;

use super::{Batch, Db, Engine, Range, Repr, Tree, TreeEngine, Value};
use crate::store::error::StoreError;

impl From<sled::Error> for StoreError {
    fn from(e: sled::Error) -> Self {
        match e {
            sled::Error::Io(io) if io.kind() == std::io::ErrorKind::StorageFull => {
                StoreError::DiskFull
            }
            e => StoreError::Engine(e.to_string()),
        }
    }
}

struct SledEngine(sled::Db);
struct SledTree(sled::Tree);

/// Opens (or creates) the sled database in `path`, its page cache limited to `cache_bytes`.
pub fn open_sled(path: &Path, cache_bytes: u64) -> Result<Db, StoreError> {
    remove_incomplete_snapshots(path);
    let config = sled::Config::new().path(path).cache_capacity(cache_bytes);
    // sled panics on some damaged files instead of returning an error.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| config.open())) {
        Ok(Ok(db)) => Ok(Arc::new(SledEngine(db))),
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
    let db = sled::Config::new()
        .path(path)
        .temporary(true)
        .cache_capacity(16 << 20)
        .open()?;
    Ok(Arc::new(SledEngine(db)))
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

fn value(v: sled::IVec) -> Value {
    Value(Repr::Sled(v))
}

impl Engine for SledEngine {
    fn open_tree(&self, name: &str) -> Result<Tree, StoreError> {
        Ok(Tree::new(Arc::new(SledTree(self.0.open_tree(name)?))))
    }

    fn tree_names(&self) -> Vec<String> {
        self.0
            .tree_names()
            .iter()
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .collect()
    }

    fn drop_tree(&self, name: &str) -> Result<(), StoreError> {
        self.0.drop_tree(name)?;
        Ok(())
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.0.flush()?;
        Ok(())
    }

    fn generate_id(&self) -> Result<u64, StoreError> {
        Ok(self.0.generate_id()?)
    }
}

impl TreeEngine for SledTree {
    fn get(&self, key: &[u8]) -> Result<Option<Value>, StoreError> {
        Ok(self.0.get(key)?.map(value))
    }

    fn range(&self, from: Bound<&[u8]>, to: Bound<&[u8]>) -> Range {
        Box::new(
            self.0
                .range::<&[u8], _>((from, to))
                .map(|e| e.map(|(k, v)| (value(k), value(v))).map_err(Into::into)),
        )
    }

    fn apply(&self, batch: Batch) -> Result<(), StoreError> {
        let mut sled_batch = sled::Batch::default();
        for (key, write) in batch.writes {
            match write {
                Some(v) => sled_batch.insert(key, v),
                None => sled_batch.remove(key),
            }
        }
        self.0.apply_batch(sled_batch)?;
        Ok(())
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn clear(&self) -> Result<(), StoreError> {
        self.0.clear()?;
        Ok(())
    }
}
