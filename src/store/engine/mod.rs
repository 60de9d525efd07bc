//! The store's engine seam: the few operations the store needs of an ordered key-value
//! engine (named trees; get, range, batch apply, flush). sled is the engine on disk; an
//! in-memory engine runs the same code in tests, and reads a backup's manifest before a
//! restore writes anything. Nothing else in the store names sled.

mod memory;
mod sled_engine;

use std::ops::{Bound, Deref, RangeBounds};
use std::sync::Arc;

pub use memory::MemoryEngine;
pub use sled_engine::files::{self as engine_files};
pub use sled_engine::{open_scratch, open_sled};

use super::error::StoreError;

/// Trees whose names end so hold values that are written once, read by exact key and
/// deleted whole (the packed tables' pages): the engine on disk keeps them out of its log, in
/// a file of their own.
pub const PAGED: &str = ".pagefile";

pub fn is_paged(name: &str) -> bool {
    name.ends_with(PAGED)
}

/// A value (or key) read from an engine, shared with the engine where it can be.
#[derive(Clone)]
pub struct Value(Repr);

#[derive(Clone)]
enum Repr {
    Sled(sled::IVec),
    Shared(Arc<[u8]>),
}

impl Deref for Value {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Repr::Sled(v) => v,
            Repr::Shared(v) => v,
        }
    }
}

impl AsRef<[u8]> for Value {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

/// Entries of a range, in key order (or reversed).
pub type Range = Box<dyn DoubleEndedIterator<Item = Result<(Value, Value), StoreError>> + Send>;

/// Writes applied together: all of them or none.
#[derive(Default)]
pub struct Batch {
    writes: Vec<(Vec<u8>, Option<Vec<u8>>)>,
}

impl Batch {
    pub fn insert(&mut self, key: impl Into<Vec<u8>>, value: impl Into<Vec<u8>>) {
        self.writes.push((key.into(), Some(value.into())));
    }

    pub fn remove(&mut self, key: impl Into<Vec<u8>>) {
        self.writes.push((key.into(), None));
    }
}

/// An engine: a set of named, ordered trees.
pub trait Engine: Send + Sync {
    /// Opens a tree, creating it if it does not exist.
    fn open_tree(&self, name: &str) -> Result<Tree, StoreError>;
    fn tree_names(&self) -> Vec<String>;
    fn drop_tree(&self, name: &str) -> Result<(), StoreError>;
    /// Makes every applied write durable.
    fn flush(&self) -> Result<(), StoreError>;
    /// A number never given out before by this engine.
    fn generate_id(&self) -> Result<u64, StoreError>;
    /// Bytes of the engine's files (none for an engine in memory).
    fn bytes(&self) -> u64;
    /// Writes the engine's trees afresh and puts them in place of the old files, giving back
    /// the space of what was deleted. Reads and writes go on meanwhile.
    fn compact(&self) -> Result<Compaction, StoreError>;
    /// Writes are coming (a change is being staged): the engine may get ready for them
    /// meanwhile.
    fn writes_coming(&self) {}
}

/// What a compaction did.
#[derive(Debug, Default, Clone, Copy, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Compaction {
    pub bytes_before: u64,
    pub bytes_after: u64,
}

/// One ordered tree of an engine.
pub trait TreeEngine: Send + Sync {
    fn get(&self, key: &[u8]) -> Result<Option<Value>, StoreError>;
    fn range(&self, from: Bound<&[u8]>, to: Bound<&[u8]>) -> Range;
    fn apply(&self, batch: Batch) -> Result<(), StoreError>;
    /// Applies the writes one by one, not as one: a crash may leave some of them. For writes
    /// that nothing reads until a later switch (a commit's pages) or that are whole one by
    /// one (pages no generation holds, deleted): sled holds every reader of the process while
    /// it applies a batch, and never while it applies a single write.
    fn apply_each(&self, batch: Batch) -> Result<(), StoreError>;
    fn is_empty(&self) -> bool;
    fn clear(&self) -> Result<(), StoreError>;
}

/// A shared handle on an engine.
pub type Db = Arc<dyn Engine>;

/// A handle on one tree, with the conveniences the store uses built on the engine's few
/// operations.
#[derive(Clone)]
pub struct Tree(Arc<dyn TreeEngine>);

impl Tree {
    pub fn new(tree: Arc<dyn TreeEngine>) -> Tree {
        Tree(tree)
    }

    pub fn get(&self, key: impl AsRef<[u8]>) -> Result<Option<Value>, StoreError> {
        self.0.get(key.as_ref())
    }

    pub fn range<K: AsRef<[u8]>, R: RangeBounds<K>>(&self, range: R) -> Range {
        fn bytes<K: AsRef<[u8]>>(b: Bound<&K>) -> Bound<&[u8]> {
            b.map(|k| k.as_ref())
        }
        self.0
            .range(bytes(range.start_bound()), bytes(range.end_bound()))
    }

    pub fn iter(&self) -> Range {
        self.0.range(Bound::Unbounded, Bound::Unbounded)
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = Result<Value, StoreError>> + use<> {
        self.iter().map(|e| e.map(|(k, _)| k))
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = Result<Value, StoreError>> + use<> {
        self.iter().map(|e| e.map(|(_, v)| v))
    }

    /// Entries whose key starts with `prefix`.
    pub fn scan_prefix(
        &self,
        prefix: &[u8],
    ) -> impl Iterator<Item = Result<(Value, Value), StoreError>> + use<> {
        let prefix = prefix.to_vec();
        self.0
            .range(Bound::Included(&prefix), Bound::Unbounded)
            .take_while(move |e| e.as_ref().map_or(true, |(k, _)| k.starts_with(&prefix)))
    }

    pub fn insert(&self, key: impl AsRef<[u8]>, value: impl AsRef<[u8]>) -> Result<(), StoreError> {
        let mut batch = Batch::default();
        batch.insert(key.as_ref(), value.as_ref());
        self.0.apply(batch)
    }

    pub fn remove(&self, key: impl AsRef<[u8]>) -> Result<(), StoreError> {
        let mut batch = Batch::default();
        batch.remove(key.as_ref());
        self.0.apply(batch)
    }

    pub fn apply(&self, batch: Batch) -> Result<(), StoreError> {
        self.0.apply(batch)
    }

    /// See `TreeEngine::apply_each`.
    pub fn apply_each(&self, batch: Batch) -> Result<(), StoreError> {
        self.0.apply_each(batch)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn clear(&self) -> Result<(), StoreError> {
        self.0.clear()
    }
}

#[cfg(test)]
mod tests;
