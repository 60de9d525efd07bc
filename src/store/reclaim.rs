//! Giving back the pages no generation uses any more.
//!
//! A commit knows which pages of the current generation its own does not hold. It writes
//! their ids into the `freed_pages` tree under its generation, before its switch; they are
//! deleted once no reader holds the generation they came from, nor any older one
//! (`Retirement`). Should the process end first, the next open deletes every list of a
//! generation the manifest reached and forgets the lists of one it did not (a commit that
//! never switched freed nothing).

use std::sync::{Arc, Mutex};

use super::engine::{self, Batch};
use super::error::StoreError;
use super::layout::TreeName;
use super::packed::Space;

/// The tree of freed page lists: `generation ‖ table ‖ sequence` → page ids, 8 bytes each.
pub const FREED_PAGES: &str = "freed_pages";

/// Ids per list entry.
const IDS_PER_ENTRY: usize = 8192;

/// The pages each table no longer holds after a commit.
pub type Freed = Vec<(TreeName, Vec<u64>)>;

/// Writes what the commit that makes `generation` frees (applied at its switch, not before).
pub fn record(db: &engine::Db, generation: u64, freed: &Freed) -> Result<(), StoreError> {
    let tree = db.open_tree(FREED_PAGES)?;
    let mut batch = Batch::default();
    let mut sequence = 0u32;
    for (table, ids) in freed {
        for part in ids.chunks(IDS_PER_ENTRY) {
            let mut key = generation.to_be_bytes().to_vec();
            key.push(table.index() as u8);
            key.extend_from_slice(&sequence.to_be_bytes());
            sequence += 1;
            batch.insert(
                key,
                part.iter()
                    .flat_map(|id| id.to_be_bytes())
                    .collect::<Vec<_>>(),
            );
        }
    }
    tree.apply(batch)
}

/// Deletes the pages the commit that made `generation` freed, and their lists.
fn release(space: &Space, generation: u64) -> Result<(), StoreError> {
    let tree = space.db().open_tree(FREED_PAGES)?;
    for entry in tree.scan_prefix(&generation.to_be_bytes()) {
        let (key, ids) = entry?;
        free_listed(space, &key, &ids)?;
        super::crash_point("reclaim:pages-deleted");
        tree.remove(&key)?;
    }
    Ok(())
}

fn free_listed(space: &Space, key: &[u8], ids: &[u8]) -> Result<(), StoreError> {
    let table = key
        .get(8)
        .and_then(|&i| TreeName::ALL.get(i as usize))
        .ok_or_else(|| StoreError::Damaged("a list of freed pages names no table".into()))?;
    let ids: Vec<u64> = ids
        .chunks_exact(8)
        .filter_map(|id| id.try_into().ok().map(u64::from_be_bytes))
        .collect();
    space.pages(table.name())?.free(&ids)
}

/// At open, before anything reads: deletes what committed generations freed, forgets what
/// uncommitted ones would have, and deletes the pages an uncommitted change wrote.
pub fn at_open(space: &Space, generation: u64, next_page: u64) -> Result<(), StoreError> {
    let tree = space.db().open_tree(FREED_PAGES)?;
    for entry in tree.iter() {
        let (key, ids) = entry?;
        let freed_by = key
            .get(..8)
            .and_then(|g| g.try_into().ok())
            .map(u64::from_be_bytes);
        if freed_by.is_some_and(|g| g <= generation) {
            free_listed(space, &key, &ids)?;
        }
        tree.remove(&key)?;
    }
    for table in TreeName::ALL {
        space.pages(table.name())?.free_from(next_page)?;
    }
    Ok(())
}

/// What goes once a generation is no longer read: the trees only it named, and the pages
/// the next commit freed of it. A generation's retirement waits for every older one (each
/// holds the next), since an older generation may hold the same pages.
pub struct Retirement {
    space: Arc<Space>,
    trees: Mutex<Vec<String>>,
    /// The generation whose commit freed pages of this one (its lists are kept under it).
    freed_by: Mutex<Option<u64>>,
    newer: Mutex<Option<Arc<Retirement>>>,
}

impl Retirement {
    pub fn new(space: Arc<Space>) -> Arc<Retirement> {
        Arc::new(Retirement {
            space,
            trees: Mutex::default(),
            freed_by: Mutex::default(),
            newer: Mutex::default(),
        })
    }

    /// Notes what goes when this generation and every older one are no longer read, and
    /// that `next` retires only after this one.
    pub fn succeeded_by(&self, next: &Arc<Retirement>, trees: Vec<String>, freed_by: Option<u64>) {
        lock(&self.trees).extend(trees);
        if freed_by.is_some() {
            *lock(&self.freed_by) = freed_by;
        }
        *lock(&self.newer) = Some(next.clone());
    }

    /// What this generation leaves to give back: its trees, and the commit whose freed
    /// pages to delete.
    fn leftovers(&mut self) -> (Vec<String>, Option<u64>) {
        let trees = std::mem::take(self.trees.get_mut().unwrap_or_else(|e| e.into_inner()));
        let freed_by = self
            .freed_by
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        (trees, freed_by)
    }
}

/// Drops the trees and deletes the freed pages generations left, oldest first.
fn give_back(space: &Space, leftovers: Vec<(Vec<String>, Option<u64>)>) {
    for (trees, freed_by) in leftovers {
        for name in &trees {
            if let Err(e) = space.db().drop_tree(name) {
                tracing::warn!(tree = %name, error = %e, "could not drop a replaced tree; it is dropped at the next start");
            }
        }
        if let Some(generation) = freed_by
            && let Err(e) = release(space, generation)
        {
            tracing::warn!(generation, error = %e, "could not delete the pages a commit freed; they are deleted at the next start");
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Drop for Retirement {
    /// Queues what this generation, and every newer one no reader holds either, leaves to
    /// give back (`Space::reclaim`): the reader that lets go last, often a lookup, does not
    /// do it itself.
    fn drop(&mut self) {
        let mut leftovers = vec![self.leftovers()];
        // Each retirement holds the next: let go of the chain in a loop, not by recursion.
        let mut next = self
            .newer
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        while let Some(retirement) = next {
            match Arc::try_unwrap(retirement) {
                Ok(mut last_holder) => {
                    leftovers.push(last_holder.leftovers());
                    next = last_holder
                        .newer
                        .get_mut()
                        .unwrap_or_else(|e| e.into_inner())
                        .take();
                }
                Err(_) => break,
            }
        }
        leftovers.retain(|(trees, freed_by)| !trees.is_empty() || freed_by.is_some());
        if !leftovers.is_empty() {
            let space = self.space.clone();
            self.space.reclaim(move || give_back(&space, leftovers));
        }
    }
}
