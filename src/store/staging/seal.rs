//! Sealing a data set: its staged rows compared with the current table once nothing more
//! comes for it, and made a patch, a merged table, or (in a dry run) the staged keys that
//! later rows may refer to; and what the change will hold, for validating references.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::tables::{Gathered, two_at_a_time};
use super::{REFERRED_TO, StagedSet, Staging, Tally};
use crate::store::engine;
use crate::store::error::StoreError;
use crate::store::indexes::DataTrees;
use crate::store::layout::TreeName;
use crate::store::packed::{Change, PackedTable, PackedWriter, Patched, Space};

/// A data set's patch: its table, the writer of its next generation and the changes.
type SetPatch = (TreeName, PackedTable, PackedWriter, Vec<Change>);

/// A data set's patch written: its table, what was patched, the changes.
type SetPatched = (TreeName, Patched, Vec<Change>);

/// Writes a data set's patch; on any thread (it borrows nothing of the staging).
fn patch_set((tree, base, writer, changes): SetPatch) -> Result<SetPatched, StoreError> {
    Ok((tree, base.patch(writer, &changes)?, changes))
}

/// What comparing a data set came to.
enum Sealing {
    Done(StagedSet),
    Patch(Box<SetPatch>),
}

impl Staging<'_> {
    /// Seals every data set still open and says, file by file, what its rows do.
    /// The sets' patches are written two at a time once every set is compared: a small
    /// change's files each patch their own table, and no row refers to them any more.
    pub fn seal(&mut self) -> Result<BTreeMap<u16, Tally>, StoreError> {
        let open: Vec<TreeName> = self.sets.keys().copied().collect();
        let mut patches = Vec::new();
        for tree in open {
            match self.compare_set(tree)? {
                Some(Sealing::Patch(patch)) => patches.push(*patch),
                Some(Sealing::Done(set)) => {
                    self.sets.insert(tree, set);
                }
                None => {}
            }
        }
        for patched in two_at_a_time(patches, patch_set)? {
            let tree = patched.0;
            let set = self.written(patched);
            self.sets.insert(tree, set);
        }
        Ok(self.tallies.clone())
    }

    /// Seals one data set, if it is still open.
    pub(super) fn seal_set(&mut self, tree: TreeName) -> Result<(), StoreError> {
        let set = match self.compare_set(tree)? {
            Some(Sealing::Patch(patch)) => self.written(patch_set(*patch)?),
            Some(Sealing::Done(set)) => set,
            None => return Ok(()),
        };
        self.sets.insert(tree, set);
        Ok(())
    }

    /// A data set whose patch is written, its freed pages and changed keys noted.
    fn written(&mut self, (tree, patched, changes): SetPatched) -> StagedSet {
        StagedSet::Written(self.note_patched(tree, patched, &changes))
    }

    /// Compares an open data set with its table: what it seals to, or the patch that
    /// writes it; `None` where the set is not open.
    fn compare_set(&mut self, tree: TreeName) -> Result<Option<Sealing>, StoreError> {
        if !matches!(self.sets.get(&tree), Some(StagedSet::Open(_))) {
            return Ok(None);
        }
        let Some(StagedSet::Open(mut sorter)) = self.sets.remove(&tree) else {
            return Ok(None);
        };
        let base = self.base.tree(tree).clone();
        let scope = self.replacing.get(&tree).cloned();
        let scope = (tree, scope.as_ref());
        let sealed = if self.dry_run {
            let keys_out = match REFERRED_TO.contains(&tree) {
                true => Some(self.scratch_table(tree)?),
                false => None,
            };
            let written = keys_out.is_some();
            match self
                .walk(&mut sorter, &base, scope, true, keys_out, None, None)?
                .0
            {
                true if written => StagedSet::DryRun(Some(
                    self.scratch_space()?
                        .table(tree.name(), &tree.stored_name(0))?,
                )),
                true => StagedSet::DryRun(None),
                false => StagedSet::Unchanged,
            }
        } else if base.is_empty() {
            // Every row is new: one pass counts and writes.
            StagedSet::Written(self.write_merged(&mut sorter, &base, (tree, None), true)?)
        } else {
            let mut gathered = Gathered::default();
            let gather = Some(&mut gathered);
            if !self
                .walk(&mut sorter, &base, scope, true, None, None, gather)?
                .0
            {
                StagedSet::Unchanged
            } else if !gathered.overflow {
                let (writer, changes) = self.prepare_patch(tree, gathered)?;
                return Ok(Some(Sealing::Patch(Box::new((
                    tree, base, writer, changes,
                )))));
            } else {
                StagedSet::Written(self.write_merged(&mut sorter, &base, scope, false)?)
            }
        };
        Ok(Some(Sealing::Done(sealed)))
    }

    /// The tree of this change's feed entries, `changes@<its data version>`.
    pub(super) fn changes_tree(&mut self) -> Result<engine::Tree, StoreError> {
        if let Some(tree) = &self.changes {
            return Ok(tree.clone());
        }
        let version = self.base.manifest().data_version + 1;
        let tree = self.new_stored_tree(crate::store::layout::changes_tree(version))?;
        Ok(self.changes.insert(tree).clone())
    }

    /// The dry run's scratch tables, beside the sort runs.
    pub(super) fn scratch_space(&mut self) -> Result<Arc<Space>, StoreError> {
        if let Some(space) = &self.scratch {
            return Ok(space.clone());
        }
        let db = engine::open_scratch(&self.spill.path().join("dry-run"))?;
        let space = Space::new(db, 1, self.store.space.cache());
        Ok(self.scratch.insert(space).clone())
    }

    /// A writer of the dry run's scratch table for the staged keys of `tree`.
    pub(super) fn scratch_table(&mut self, tree: TreeName) -> Result<PackedWriter, StoreError> {
        self.scratch_space()?
            .writer(tree.name(), &tree.stored_name(0))
    }

    pub(super) fn contains(&mut self, tree: TreeName, key: &[u8]) -> Result<bool, StoreError> {
        self.seal_set(tree)?;
        let table = match self.sets.get(&tree) {
            Some(StagedSet::Written(table)) => table,
            Some(StagedSet::DryRun(Some(staged)))
                if self
                    .dry_run_finders
                    .entry(tree)
                    .or_insert_with(|| staged.finder())
                    .contains(key)? =>
            {
                return Ok(true);
            }
            _ => self.base.tree(tree),
        };
        self.finders
            .entry(tree)
            .or_insert_with(|| table.finder())
            .contains(key)
    }

    /// The value under `key` in `tree`, as this change will leave it.
    pub(super) fn value_of(
        &mut self,
        tree: TreeName,
        key: &[u8],
    ) -> Result<Option<Vec<u8>>, StoreError> {
        self.seal_set(tree)?;
        match self.sets.get(&tree) {
            Some(StagedSet::Written(table)) => table.get(key),
            Some(StagedSet::DryRun(Some(staged))) => match staged.get(key)? {
                Some(value) => Ok(Some(value)),
                None => self.base.tree(tree).get(key),
            },
            _ => self.base.tree(tree).get(key),
        }
    }
}
