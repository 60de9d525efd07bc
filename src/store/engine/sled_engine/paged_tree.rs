//! A paged tree of the sled engine (`engine::PAGED`): its keys in sled, each with its value's
//! place in the page file, and the values there.

use std::collections::HashMap;
use std::ops::Bound;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::page_file::{Extent, PageFile};
use super::tree::SledTree;
use super::{Shared, read, recording};
use crate::store::engine::{Batch, Range, Repr, TreeEngine, Value};
use crate::store::error::StoreError;

pub(super) struct PagedTree {
    /// The keys and their values' places.
    pub(super) places: Arc<SledTree>,
}

type Writes = Vec<(Vec<u8>, Option<Vec<u8>>)>;

impl PagedTree {
    /// Runs `op` on the page file and the places of one open of the database: a compaction
    /// puts new ones of both in place at once, and an op that straddled it runs again.
    fn consistent<T>(
        &self,
        op: impl Fn(&PageFile) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let shared = &self.places.shared;
        loop {
            let epoch = shared.epoch.load(Ordering::Acquire);
            let file = shared.page_file();
            let result = op(&file);
            if shared.epoch.load(Ordering::Acquire) == epoch {
                return result;
            }
        }
    }

    fn write(&self, writes: Writes, one_by_one: bool) -> Result<(), StoreError> {
        let shared = &self.places.shared;
        let _writing = read(&shared.gate);
        let recorded = shared.recording().then(|| writes.clone());
        let watched = shared.watch.start("batch");
        let (tree, pages) = (self.places.tree()?, shared.writable_pages()?);
        apply(&tree, &pages, writes, one_by_one, |e| {
            shared.checked::<()>(Err(e)).unwrap_err()
        })?;
        drop(watched);
        if let Some(writes) = recorded {
            shared.recorded(|| recording::Op::Apply(self.places.name.clone(), writes));
        }
        Ok(())
    }
}

fn value(bytes: Vec<u8>) -> Value {
    Value(Repr::Shared(bytes.into()))
}

/// Applies `writes` to the paged tree whose places are `tree`: the values into a fresh
/// stretch of `file`, then their places, then the stretches of what they replaced or deleted
/// are released.
pub(super) fn apply(
    tree: &sled::Tree,
    file: &PageFile,
    writes: Writes,
    one_by_one: bool,
    failed: impl Fn(sled::Error) -> StoreError,
) -> Result<(), StoreError> {
    // The last write of a key is the one that counts, as in a batch.
    let mut last = HashMap::with_capacity(writes.len());
    for (i, (key, _)) in writes.iter().enumerate() {
        last.insert(key.as_slice(), i);
    }
    let kept: Vec<&(Vec<u8>, Option<Vec<u8>>)> = (writes.iter().enumerate())
        .filter(|(i, (key, _))| last[key.as_slice()] == *i)
        .map(|(_, write)| write)
        .collect();
    let mut replaced = Vec::new();
    for (key, _) in &kept {
        if let Some(place) = tree.get(key).map_err(&failed)? {
            replaced.push(Extent::parse(&place)?);
        }
    }
    let values: Vec<&[u8]> = kept.iter().filter_map(|(_, v)| v.as_deref()).collect();
    let mut written = file.write(&values)?.into_iter();
    let places: Vec<(&[u8], Option<Extent>)> = kept
        .iter()
        .map(|(key, v)| (key.as_slice(), v.as_ref().and_then(|_| written.next())))
        .collect();
    if one_by_one {
        for (key, place) in places {
            match place {
                Some(place) => drop(tree.insert(key, &place.stored()[..]).map_err(&failed)?),
                None => drop(tree.remove(key).map_err(&failed)?),
            }
        }
    } else {
        let mut batch = sled::Batch::default();
        for (key, place) in &places {
            match place {
                Some(place) => batch.insert(*key, &place.stored()[..]),
                None => batch.remove(*key),
            }
        }
        if let Err(e) = tree.apply_batch(batch) {
            // Nothing names the values just written.
            places
                .iter()
                .filter_map(|(_, p)| *p)
                .for_each(|p| file.release(p));
            return Err(failed(e));
        }
    }
    for extent in replaced {
        file.release(extent);
    }
    Ok(())
}

/// The places of every value of the paged tree whose places are `tree`: released once the
/// tree is cleared or dropped, not before (should that fail, they are still named).
pub(super) fn places(tree: &sled::Tree) -> Result<Vec<Extent>, StoreError> {
    tree.iter().map(|entry| Extent::parse(&entry?.1)).collect()
}

impl TreeEngine for PagedTree {
    fn get(&self, key: &[u8]) -> Result<Option<Value>, StoreError> {
        self.consistent(|file| match self.places.with(|t| t.get(key))? {
            Some(place) => Ok(Some(value(file.read(Extent::parse(&place)?)?))),
            None => Ok(None),
        })
    }

    fn range(&self, from: Bound<&[u8]>, to: Bound<&[u8]>) -> Range {
        let file = self.places.shared.page_file();
        Box::new(self.places.range(from, to).map(move |entry| {
            let (key, place) = entry?;
            Ok((key, value(file.read(Extent::parse(&place)?)?)))
        }))
    }

    fn apply(&self, batch: Batch) -> Result<(), StoreError> {
        self.write(batch.writes, false)
    }

    fn apply_each(&self, batch: Batch) -> Result<(), StoreError> {
        self.write(batch.writes, true)
    }

    fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    fn clear(&self) -> Result<(), StoreError> {
        let shared = &self.places.shared;
        let _writing = read(&shared.gate);
        let watched = shared.watch.start("tree clearing");
        let tree = self.places.tree()?;
        let pages = shared.writable_pages()?;
        let held = places(&tree)?;
        shared.checked(tree.clear())?;
        held.into_iter().for_each(|p| pages.release(p));
        drop(watched);
        shared.recorded(|| recording::Op::Clear(self.places.name.clone()));
        Ok(())
    }
}

/// The places of every value of `db`'s paged trees.
pub(super) fn held_in_pages(db: &sled::Db) -> Result<Vec<Extent>, StoreError> {
    let mut held = Vec::new();
    for name in db.tree_names() {
        if crate::store::engine::is_paged(&String::from_utf8_lossy(&name)) {
            for entry in db.open_tree(name)?.iter() {
                held.push(Extent::parse(&entry?.1)?);
            }
        }
    }
    Ok(held)
}

impl Shared {
    /// The page file, ready to be written to (`PageFile::ready`, `PageFile::writing`).
    pub(super) fn writable_pages(&self) -> Result<Arc<PageFile>, StoreError> {
        let pages = self.readied_pages()?;
        pages.writing()?;
        Ok(pages)
    }

    /// The page file, its free room known (`PageFile::ready`).
    fn readied_pages(&self) -> Result<Arc<PageFile>, StoreError> {
        let pages = self.page_file();
        pages.ready(self.path.as_deref(), || held_in_pages(&self.db()?.1))?;
        Ok(pages)
    }

    /// Reads which stretches of the page file are free on a thread of its own: the first
    /// write waits for that read, if still under way, instead of making it.
    pub(super) fn read_room_ahead(self: &Arc<Self>) {
        if self.page_file().is_ready() {
            return;
        }
        let shared = self.clone();
        let spawned = std::thread::Builder::new()
            .name("partscat-page-room".into())
            .spawn(move || {
                if let Err(e) = shared.readied_pages() {
                    tracing::debug!(error = %e, "the page file's free room was not read ahead");
                }
            });
        if let Err(e) = spawned {
            tracing::debug!(error = %e, "the page file's free room was not read ahead");
        }
    }
}
