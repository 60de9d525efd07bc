//! One tree of the sled engine: its operations on the database in use now, which a reopen
//! or a compaction may replace under it.

use std::ops::Bound;
use std::sync::Arc;
use std::sync::RwLock;
use std::sync::atomic::Ordering;

use super::{Shared, read, recording, write};
use crate::store::engine::{Batch, Range, Repr, TreeEngine, Value};
use crate::store::error::StoreError;

pub(super) struct SledTree {
    pub(super) shared: Arc<Shared>,
    pub(super) name: String,
    /// The sled tree, and the database open it belongs to (`Shared::epoch`).
    pub(super) handle: RwLock<Option<(u64, sled::Tree)>>,
}

fn value(v: sled::IVec) -> Value {
    Value(Repr::Sled(v))
}

impl SledTree {
    /// Runs `op` on the sled tree of the database in use now; the common case takes only
    /// this handle's lock.
    pub(super) fn with<T>(
        &self,
        op: impl FnOnce(&sled::Tree) -> sled::Result<T>,
    ) -> Result<T, StoreError> {
        let usable = !(self.shared.failed.load(Ordering::Acquire) && self.shared.has_room());
        if usable {
            let epoch = self.shared.epoch.load(Ordering::Acquire);
            // The tree is cloned out of the handle so no lock is held while `op` runs: a swap
            // of the database takes the handles' locks while it holds the state's.
            let current = read(&self.handle)
                .as_ref()
                .filter(|(e, _)| *e == epoch)
                .map(|(_, tree)| tree.clone());
            if let Some(tree) = current {
                return self.shared.checked(op(&tree));
            }
        }
        let tree = self.tree()?;
        self.shared.checked(op(&tree))
    }

    /// The sled tree of the database in use now.
    pub(super) fn tree(&self) -> Result<sled::Tree, StoreError> {
        let (epoch, db) = self.shared.db()?;
        if let Some((e, tree)) = &*read(&self.handle)
            && *e == epoch
        {
            return Ok(tree.clone());
        }
        let tree = self.shared.checked(db.open_tree(&self.name))?;
        *write(&self.handle) = Some((epoch, tree.clone()));
        Ok(tree)
    }
}

impl TreeEngine for SledTree {
    fn get(&self, key: &[u8]) -> Result<Option<Value>, StoreError> {
        Ok(self.with(|t| t.get(key))?.map(value))
    }

    fn range(&self, from: Bound<&[u8]>, to: Bound<&[u8]>) -> Range {
        let tree = match self.tree() {
            Ok(tree) => tree,
            Err(e) => return Box::new(std::iter::once(Err(e))),
        };
        let shared = self.shared.clone();
        Box::new(
            tree.range::<&[u8], _>((from, to))
                .map(move |e| shared.checked(e).map(|(k, v)| (value(k), value(v)))),
        )
    }

    fn apply(&self, batch: Batch) -> Result<(), StoreError> {
        let _writing = read(&self.shared.gate);
        self.shared.pages_durable()?;
        let recorded = self.shared.recording().then(|| batch.writes.clone());
        let mut sled_batch = sled::Batch::default();
        for (key, write) in batch.writes {
            match write {
                Some(v) => sled_batch.insert(key, v),
                None => sled_batch.remove(key),
            }
        }
        let watched = self.shared.watch.start("batch");
        self.with(|t| t.apply_batch(sled_batch))?;
        drop(watched);
        if let Some(writes) = recorded {
            self.shared
                .recorded(|| recording::Op::Apply(self.name.clone(), writes));
        }
        Ok(())
    }

    fn apply_each(&self, batch: Batch) -> Result<(), StoreError> {
        let _writing = read(&self.shared.gate);
        self.shared.pages_durable()?;
        let recorded = self.shared.recording().then(|| batch.writes.clone());
        let watched = self.shared.watch.start("batch");
        self.with(|t| {
            for (key, write) in batch.writes {
                match write {
                    Some(v) => drop(t.insert(key, v)?),
                    None => drop(t.remove(key)?),
                }
            }
            Ok(())
        })?;
        drop(watched);
        if let Some(writes) = recorded {
            self.shared
                .recorded(|| recording::Op::Apply(self.name.clone(), writes));
        }
        Ok(())
    }

    fn is_empty(&self) -> bool {
        self.with(|t| Ok(t.is_empty())).unwrap_or(true)
    }

    fn clear(&self) -> Result<(), StoreError> {
        let _writing = read(&self.shared.gate);
        self.shared.pages_durable()?;
        let watched = self.shared.watch.start("tree clearing");
        self.with(|t| t.clear())?;
        drop(watched);
        self.shared
            .recorded(|| recording::Op::Clear(self.name.clone()));
        Ok(())
    }
}
