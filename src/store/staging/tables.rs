//! Writing a change's tables: a data set patched with the changes it gathered or merged and
//! written whole, and the indexes that follow it, patched article by article or built again.

use std::collections::BTreeMap;

use super::super::catalogue_view::Catalogue;
use super::super::engine;
use super::super::error::StoreError;
use super::super::index_changes;
use super::super::indexes::{self, DataTrees};
use super::super::layout::TreeName;
use super::super::packed::{Change, PackedTable, PackedWriter, Patched};
use super::super::reads;
use super::super::sorter::Sorter;
use super::super::touched::{Touched, article_of};
use super::{REMOVED, Scope, Staging, UPSERT};

/// The most a data set's changes may take in memory to be patched into its table; a larger
/// change rewrites the table.
pub(super) const PATCH_BYTES: usize = 32 << 20;

/// The most articles a patch touches for its indexes to be patched too; past it they are
/// built again (reading the data sets once costs less than this many article lookups).
pub(super) const PATCH_ARTICLES: usize = 100_000;

/// A data set's changes gathered for a patch, while they stay under `PATCH_BYTES`.
#[derive(Default)]
pub(super) struct Gathered {
    pub(super) changes: Vec<Change>,
    /// The current values of the keys retired, in order, for the change feed.
    retired: Vec<Vec<u8>>,
    bytes: usize,
    pub(super) overflow: bool,
}

impl Gathered {
    pub(super) fn add(&mut self, key: &[u8], value: Option<&[u8]>, old: Option<&[u8]>) {
        if self.overflow {
            return;
        }
        self.bytes += key.len() + value.map_or(0, <[u8]>::len) + old.map_or(0, <[u8]>::len) + 64;
        if self.bytes > PATCH_BYTES {
            // What was gathered is let go: the table is written whole.
            *self = Gathered {
                overflow: true,
                ..Gathered::default()
            };
            return;
        }
        if value.is_none() {
            self.retired.push(old.unwrap_or_default().to_vec());
        }
        self.changes.push(Change {
            key: key.to_vec(),
            value: value.map(<[u8]>::to_vec),
        });
    }
}

/// Whether rows of `tree` feed an index.
pub(super) fn feeds_an_index(tree: TreeName) -> bool {
    TreeName::INDEXES
        .iter()
        .any(|i| i.sources().contains(&tree))
}

/// The tables as they will be after the commit: staged where written, current elsewhere.
pub(super) struct Effective<'a> {
    pub(super) base: &'a Catalogue,
    pub(super) staged: BTreeMap<TreeName, PackedTable>,
}

impl DataTrees for Effective<'_> {
    fn tree(&self, name: TreeName) -> &PackedTable {
        self.staged
            .get(&name)
            .unwrap_or_else(|| self.base.tree(name))
    }
}

impl Staging<'_> {
    /// A writer of `name`'s table of the next generation.
    pub(super) fn new_table(&mut self, name: TreeName) -> Result<PackedWriter, StoreError> {
        let stored = name.stored_name(self.generation);
        self.written.push(stored.clone());
        self.store.space.writer(name.name(), &stored)
    }

    /// Notes that the new generation holds none of `table`'s pages.
    pub(super) fn free_whole(
        &mut self,
        name: TreeName,
        table: &PackedTable,
    ) -> Result<(), StoreError> {
        self.freed.push((name, table.page_ids()?));
        Ok(())
    }

    /// Writes the next generation of `tree`: the staged rows merged with the current ones.
    pub(super) fn write_merged(
        &mut self,
        sorter: &mut Sorter,
        base: &PackedTable,
        scope: (TreeName, Option<&Scope>),
        count: bool,
    ) -> Result<PackedTable, StoreError> {
        let writer = self.new_table(scope.0)?;
        let table = self
            .walk(sorter, base, scope, count, None, Some(writer), None)?
            .1;
        self.free_whole(scope.0, base)?;
        if feeds_an_index(scope.0) {
            self.touched = None;
        }
        table.ok_or_else(|| StoreError::Internal("a merge wrote no table".into()))
    }

    /// Readies the next generation of `tree` as the current table with `gathered` applied:
    /// keeps the changes for the feed and for the indexes; the writer and the changes to
    /// patch the table with.
    pub(super) fn prepare_patch(
        &mut self,
        tree: TreeName,
        gathered: Gathered,
    ) -> Result<(PackedWriter, Vec<Change>), StoreError> {
        let feed = self.changes_tree()?;
        let mut batch = engine::Batch::default();
        let mut retired = gathered.retired.iter();
        for change in &gathered.changes {
            let mut key = Vec::with_capacity(change.key.len() + 1);
            key.push(tree.index() as u8);
            key.extend_from_slice(&change.key);
            let entry = match &change.value {
                Some(_) => vec![UPSERT],
                None => [&[REMOVED][..], retired.next().map_or(&[][..], |v| v)].concat(),
            };
            batch.insert(key, entry);
        }
        feed.apply_each(batch)?;
        if feeds_an_index(tree)
            && let Some(touched) = &mut self.touched
        {
            for change in &gathered.changes {
                match article_of(tree, &change.key) {
                    Some(article) => touched.insert(tree, article),
                    // A table whose rows are not an article's (the texts, whose generic
                    // articles' names the records refer to) bounds no index's changes.
                    None => {
                        self.touched = None;
                        break;
                    }
                }
            }
        }
        Ok((self.new_table(tree)?, gathered.changes))
    }

    /// Notes what a patch of `tree` freed and the keys it changed (up to what
    /// `reads::Recent` keeps); its table.
    pub(super) fn note_patched(
        &mut self,
        tree: TreeName,
        patched: Patched,
        changes: &[Change],
    ) -> PackedTable {
        if changes.len() <= reads::MAX_KEPT_KEYS {
            let keys = changes.iter().map(|c| c.key.clone()).collect();
            self.changed_keys.insert(tree, keys);
        }
        self.freed.push((tree, patched.freed));
        patched.table
    }

    /// Builds `indexes` whole from the tables as they will be (`staged` where written), two
    /// at a time, one per core of a small machine; the current ones are freed whole.
    pub(super) fn build_whole(
        &mut self,
        indexes: &[TreeName],
        staged: &BTreeMap<TreeName, PackedTable>,
    ) -> Result<Vec<(TreeName, PackedTable)>, StoreError> {
        let mut writers = Vec::new();
        for &index in indexes {
            writers.push((index, self.new_table(index)?));
            let current = self.base.tree(index).clone();
            self.free_whole(index, &current)?;
        }
        let effective = Effective {
            base: &self.base,
            staged: staged.clone(),
        };
        let spill = self.spill.path();
        two_at_a_time(writers, |(index, mut writer)| {
            let started = std::time::Instant::now();
            indexes::build(index, &effective, spill, &mut |k, v| writer.push(k, v))?;
            let table = writer.finish()?.0;
            tracing::debug!(index = index.name(), took = ?started.elapsed(), "index built");
            Ok((index, table))
        })
    }

    /// Patches the `indexes` whose changes `touched` bounds, two at a time; returns those to
    /// build whole (an index whose changes cannot be bounded). Each index is found and
    /// patched in one go, its reversed index (whose changes are read from the forward
    /// index's changes and patched table) right after it, so that no index waits for the
    /// others to be found or patched; the costliest go first, so that the two threads
    /// finish together rather than one waiting on the last long patch.
    pub(super) fn patch_indexes(
        &mut self,
        indexes: &[TreeName],
        staged: &mut BTreeMap<TreeName, PackedTable>,
        touched: &Touched,
    ) -> Result<Vec<TreeName>, StoreError> {
        let follower = |forward: TreeName| {
            indexes
                .iter()
                .copied()
                .find(|&i| index_changes::forward_of(i) == Some(forward))
        };
        let mut chains: Vec<(TreeName, Option<TreeName>)> = indexes
            .iter()
            .filter(|i| index_changes::forward_of(**i).is_none())
            .map(|&i| (i, follower(i)))
            .collect();
        // A record is read and written again for every article touched; a chain patches two
        // indexes; the rest cost about the same.
        chains.sort_by_key(|&(index, reversed)| {
            (index != TreeName::ArticleRecords, reversed.is_none())
        });
        let mut whole: Vec<TreeName> = indexes
            .iter()
            .copied()
            .filter(|&i| {
                index_changes::forward_of(i).is_some_and(|f| !chains.iter().any(|c| c.0 == f))
            })
            .collect();

        let effective = Effective {
            base: &self.base,
            staged: staged.clone(),
        };
        let created = std::sync::Mutex::new(Vec::new());
        let (space, generation) = (&self.store.space, self.generation);
        let patch = |index: TreeName, changes: Vec<Change>| -> Result<Patch, StoreError> {
            let stored = index.stored_name(generation);
            created
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(stored.clone());
            let started = std::time::Instant::now();
            let writer = space.writer(index.name(), &stored)?;
            let patched = self.base.tree(index).patch(writer, &changes)?;
            tracing::debug!(index = index.name(), took = ?started.elapsed(), rows = changes.len(), "index patched");
            Ok((index, patched, changes))
        };
        let base = self.base.as_ref();
        let done = two_at_a_time(chains, |(index, reversed)| {
            let started = std::time::Instant::now();
            let found = index_changes::changes(index, base, &effective, touched)?;
            tracing::debug!(index = index.name(), took = ?started.elapsed(), "index changes found");
            let Some(changes) = found else {
                return Ok(Chain::Whole([Some(index), reversed]));
            };
            let forward = patch(index, changes)?;
            let Some(reversed) = reversed else {
                return Ok(Chain::Patched(vec![forward]));
            };
            let mut new = Effective {
                base: &self.base,
                staged: effective.staged.clone(),
            };
            new.staged.insert(index, forward.1.table.clone());
            let changes = index_changes::reversed_changes(reversed, base, &new, &forward.2)?;
            Ok(Chain::Patched(vec![forward, patch(reversed, changes)?]))
        });
        self.written
            .extend(created.into_inner().unwrap_or_else(|e| e.into_inner()));
        for chain in done? {
            match chain {
                Chain::Whole(indexes) => whole.extend(indexes.into_iter().flatten()),
                Chain::Patched(patches) => {
                    for (index, patched, changes) in patches {
                        let table = self.note_patched(index, patched, &changes);
                        staged.insert(index, table);
                    }
                }
            }
        }
        Ok(whole)
    }
}

/// An index patched: the index, its next generation and the changes it took.
type Patch = (TreeName, Patched, Vec<Change>);

/// What became of an index and the reversed index that follows it.
enum Chain {
    Patched(Vec<Patch>),
    /// Built whole instead, the reversed index (if any) with it.
    Whole([Option<TreeName>; 2]),
}

/// `work` done on every item, on this thread and one more (one per core of a small
/// machine); the results in the order the items were finished. The first error wins.
pub(super) fn two_at_a_time<T: Send, R: Send>(
    items: Vec<T>,
    work: impl Fn(T) -> Result<R, StoreError> + Sync,
) -> Result<Vec<R>, StoreError> {
    let queue = std::sync::Mutex::new(items.into_iter());
    let done = std::sync::Mutex::new(Vec::new());
    let work_through = || -> Result<(), StoreError> {
        loop {
            let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some(item) = next else {
                return Ok(());
            };
            let result = work(item)?;
            done.lock().unwrap_or_else(|e| e.into_inner()).push(result);
        }
    };
    std::thread::scope(|scope| {
        let helper = scope.spawn(work_through);
        let here = work_through();
        let there = helper
            .join()
            .unwrap_or_else(|_| Err(StoreError::Internal("a helper thread failed".into())));
        here.and(there)
    })?;
    Ok(done.into_inner().unwrap_or_else(|e| e.into_inner()))
}
