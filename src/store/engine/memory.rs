//! An engine in memory: the same store without files, for tests of everything above the
//! engine. Nothing is durable; `flush` has nothing to do.

use std::collections::BTreeMap;
use std::ops::Bound;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use super::{Batch, Compaction, Db, Engine, Range, Repr, Tree, TreeEngine, Value};
use crate::store::error::StoreError;

type Map = BTreeMap<Arc<[u8]>, Arc<[u8]>>;

#[derive(Default)]
pub struct MemoryEngine {
    trees: Mutex<BTreeMap<String, Arc<MemoryTree>>>,
    ids: AtomicU64,
}

#[derive(Default)]
struct MemoryTree(RwLock<Map>);

impl MemoryEngine {
    pub fn new_db() -> Db {
        Arc::new(MemoryEngine::default())
    }
}

fn shared(bytes: &Arc<[u8]>) -> Value {
    Value(Repr::Shared(bytes.clone()))
}

impl Engine for MemoryEngine {
    fn open_tree(&self, name: &str) -> Result<Tree, StoreError> {
        let mut trees = self.trees.lock().unwrap_or_else(|e| e.into_inner());
        let tree = trees.entry(name.to_owned()).or_default().clone();
        Ok(Tree::new(tree))
    }

    fn tree_names(&self) -> Vec<String> {
        let trees = self.trees.lock().unwrap_or_else(|e| e.into_inner());
        trees.keys().cloned().collect()
    }

    fn drop_tree(&self, name: &str) -> Result<(), StoreError> {
        let mut trees = self.trees.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tree) = trees.remove(name) {
            // Handles still held see an empty tree, as with a dropped tree on disk.
            tree.0.write().unwrap_or_else(|e| e.into_inner()).clear();
        }
        Ok(())
    }

    fn flush(&self) -> Result<(), StoreError> {
        Ok(())
    }

    fn generate_id(&self) -> Result<u64, StoreError> {
        Ok(self.ids.fetch_add(1, Ordering::Relaxed))
    }

    fn bytes(&self) -> u64 {
        0
    }

    fn compact(&self) -> Result<Compaction, StoreError> {
        Ok(Compaction::default())
    }
}

impl TreeEngine for MemoryTree {
    fn get(&self, key: &[u8]) -> Result<Option<Value>, StoreError> {
        let map = self.0.read().unwrap_or_else(|e| e.into_inner());
        Ok(map.get(key).map(shared))
    }

    /// A copy of the range as it is now: the map is not held locked while a caller iterates.
    fn range(&self, from: Bound<&[u8]>, to: Bound<&[u8]>) -> Range {
        let map = self.0.read().unwrap_or_else(|e| e.into_inner());
        let empty = match (from, to) {
            (Bound::Included(a) | Bound::Excluded(a), Bound::Included(b) | Bound::Excluded(b)) => {
                a > b || (a == b && !matches!((from, to), (Bound::Included(_), Bound::Included(_))))
            }
            _ => false,
        };
        let entries: Vec<_> = if empty {
            Vec::new()
        } else {
            map.range::<[u8], _>((from, to))
                .map(|(k, v)| Ok((shared(k), shared(v))))
                .collect()
        };
        Box::new(entries.into_iter())
    }

    fn apply_each(&self, batch: Batch) -> Result<(), StoreError> {
        self.apply(batch)
    }

    fn apply(&self, batch: Batch) -> Result<(), StoreError> {
        let mut map = self.0.write().unwrap_or_else(|e| e.into_inner());
        for (key, write) in batch.writes {
            match write {
                Some(v) => map.insert(key.into(), v.into()),
                None => map.remove(key.as_slice()),
            };
        }
        Ok(())
    }

    fn is_empty(&self) -> bool {
        self.0.read().unwrap_or_else(|e| e.into_inner()).is_empty()
    }

    fn clear(&self) -> Result<(), StoreError> {
        self.0.write().unwrap_or_else(|e| e.into_inner()).clear();
        Ok(())
    }
}
