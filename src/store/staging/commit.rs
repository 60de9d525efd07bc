//! The commit: the staged tables and the indexes they touch, the references checked, the
//! freed pages listed, everything flushed, then the next manifest switched to in one step.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use super::tables::{Effective, PATCH_ARTICLES};
use super::{Outcome, REFERRED_TO, StagedSet, Staging};
use crate::store::error::StoreError;
use crate::store::layout::{ImportedFile, Manifest, TreeName};
use crate::store::packed::PackedTable;
use crate::store::reclaim;

impl Staging<'_> {
    /// Makes the staged rows the catalogue, in one durable step. `phase` hears what it does.
    pub fn commit(mut self, phase: &mut dyn FnMut(&str)) -> Result<Outcome, StoreError> {
        self.seal()?;
        if self.dry_run {
            return Ok(Outcome::DryRun);
        }
        let changed: Vec<TreeName> = self
            .sets
            .iter()
            .filter(|(_, s)| matches!(s, StagedSet::Written(_)))
            .map(|(&t, _)| t)
            .collect();
        if changed.is_empty() {
            self.commit_sync_mark()?;
            return Ok(Outcome::NothingChanged);
        }
        let rebuilt: Vec<TreeName> = TreeName::INDEXES
            .iter()
            .copied()
            .filter(|i| i.sources().iter().any(|s| changed.contains(s)))
            .collect();
        let mut staged: BTreeMap<TreeName, PackedTable> = self
            .sets
            .iter()
            .filter_map(|(t, s)| match s {
                StagedSet::Written(table) => Some((*t, table.clone())),
                _ => None,
            })
            .collect();
        self.check_references(&staged, phase)?;
        let names: Vec<&str> = rebuilt.iter().map(|i| i.name()).collect();
        phase(&format!("indexing {}", names.join(", ")));
        let whole = match self.touched.take().filter(|t| t.len() <= PATCH_ARTICLES) {
            Some(touched) => self.patch_indexes(&rebuilt, &mut staged, &touched)?,
            None => rebuilt.clone(),
        };
        if !whole.is_empty() {
            let built = self.build_whole(&whole, &staged)?;
            staged.extend(built);
        }
        phase("writing to disk");
        let freed_any = self.write_out()?;
        let (manifest, retired) = self.next_manifest(&changed, &rebuilt);
        let catalogue = self.base.succeeded(
            &self.store.space,
            manifest.clone(),
            staged,
            std::mem::take(&mut self.changed_keys),
        )?;
        self.store.publish(&manifest, catalogue)?;
        self.committed = true;
        crate::store::crash_point("commit:switched");
        if self.base.data_version() == 0 {
            // The first catalogue of a store is written afresh: the size to compact back to.
            self.store.note_compacted_size()?;
        }
        self.base.succeeded_by(
            &self.store.catalogue(),
            retired,
            freed_any.then_some(self.generation),
        );
        // Staged sets whose rows were all unchanged were never switched to.
        for name in self.written.drain(..) {
            if !manifest.names_tree(&name) {
                self.store.space.db().drop_tree(&name)?;
            }
        }
        Ok(Outcome::Committed {
            data_version: manifest.data_version,
        })
    }

    /// A change of no row: only a new sync mark, where it moved, is published.
    fn commit_sync_mark(&mut self) -> Result<(), StoreError> {
        let Some(mark) = self.synced.take() else {
            return Ok(());
        };
        if mark == self.base.manifest().synced {
            return Ok(());
        }
        let mut manifest = self.base.manifest().clone();
        manifest.synced = mark;
        let catalogue = self.base.succeeded(
            &self.store.space,
            manifest.clone(),
            BTreeMap::new(),
            BTreeMap::new(),
        )?;
        self.store.publish(&manifest, catalogue)?;
        self.committed = true;
        self.base
            .succeeded_by(&self.store.catalogue(), Vec::new(), None);
        Ok(())
    }

    /// Retired rows others refer to: the references must still hold.
    fn check_references(
        &self,
        staged: &BTreeMap<TreeName, PackedTable>,
        phase: &mut dyn FnMut(&str),
    ) -> Result<(), StoreError> {
        let shrunk: Vec<TreeName> = self
            .removed
            .iter()
            .filter(|(t, n)| **n > 0 && REFERRED_TO.contains(t))
            .map(|(t, _)| *t)
            .collect();
        if shrunk.is_empty() {
            return Ok(());
        }
        phase("checking what refers to the retired rows");
        let effective = Effective {
            base: &self.base,
            staged: staged.clone(),
        };
        let (count, first) = crate::store::check::dangling(&effective, &shrunk)?;
        if count > 0 {
            return Err(StoreError::StillReferred { count, first });
        }
        Ok(())
    }

    /// Lists the pages the new generation frees and flushes what the change wrote; whether
    /// it freed any.
    fn write_out(&mut self) -> Result<bool, StoreError> {
        crate::store::crash_point("commit:written");
        for (table, ids) in &self.freed {
            tracing::debug!(
                table = table.name(),
                freed = ids.len(),
                "pages the new generation no longer holds"
            );
        }
        tracing::debug!(
            written = self.store.space.next_page() - self.first_page,
            "pages written by the change"
        );
        let freed_any = self.freed.iter().any(|(_, ids)| !ids.is_empty());
        if freed_any {
            reclaim::record(self.store.space.db(), self.generation, &self.freed)?;
        }
        crate::store::crash_point("commit:freed-listed");
        self.store.space.db().flush()?;
        crate::store::crash_point("commit:flushed");
        Ok(freed_any)
    }

    /// The manifest of the next data version: the changed tables and rebuilt indexes at the
    /// new generation, the feed kept, the sync mark and the files imported; with the stored
    /// trees the switch retires.
    fn next_manifest(
        &mut self,
        changed: &[TreeName],
        rebuilt: &[TreeName],
    ) -> (Manifest, Vec<String>) {
        let mut manifest = self.base.manifest().clone();
        manifest.generation = self.generation;
        manifest.data_version += 1;
        manifest.next_page = self.store.space.next_page();
        manifest.updated_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let mut retired = Vec::new();
        for name in changed.iter().chain(rebuilt) {
            if let Some(entry) = manifest.trees.iter_mut().find(|(n, _)| n == name.name()) {
                retired.push(name.stored_name(entry.1));
                entry.1 = self.generation;
            } else {
                manifest
                    .trees
                    .push((name.name().to_owned(), self.generation));
            }
        }
        self.keep_changes(&mut manifest, &mut retired);
        if let Some(mark) = self.synced.take() {
            manifest.synced = mark;
        }
        self.note_imported_files(&mut manifest, changed);
        (manifest, retired)
    }

    /// Keeps this change's feed entries under its data version, and lets go of what the
    /// retention no longer keeps (their trees join `retired`). After a load into an empty
    /// table nothing before it is kept: a feed from an earlier version would miss its rows.
    fn keep_changes(&self, manifest: &mut Manifest, retired: &mut Vec<String>) {
        let (version, now) = (manifest.data_version, manifest.updated_at);
        let log = &mut manifest.changes;
        if self.unrecorded {
            retired.extend(
                log.kept
                    .drain(..)
                    .map(|(v, _)| crate::store::layout::changes_tree(v)),
            );
            log.complete_since = version;
        } else if self.changes.is_some() {
            log.kept.push((version, now));
        }
        let keep = self.store.change_retention();
        while let Some(&(v, at)) = log.kept.first() {
            let too_many = log.kept.len() > keep.versions as usize;
            let too_old = at.saturating_add(u64::from(keep.days) * 86_400) < now;
            if !too_many && !too_old {
                break;
            }
            log.kept.remove(0);
            log.complete_since = v;
            retired.push(crate::store::layout::changes_tree(v));
        }
    }

    /// Which files the new catalogue holds every row of: the ones this import read, and the
    /// earlier ones of tables it did not change. A file recognised and skipped is dropped if
    /// its table changed: its rows were not checked against this import's.
    fn note_imported_files(&self, manifest: &mut Manifest, changed: &[TreeName]) {
        let generation_of = |tree: TreeName| manifest.generation_of(tree).unwrap_or(0);
        let mut imported: Vec<ImportedFile> = manifest
            .imported
            .iter()
            .filter(|f| {
                let tree = TreeName::from_name(&f.tree);
                !self
                    .files
                    .iter()
                    .any(|(_, g, _)| g.import_type == f.import_type)
                    && tree.is_some_and(|t| !changed.contains(&t))
            })
            .cloned()
            .collect();
        for (tree, file, skipped) in &self.files {
            if *skipped && changed.contains(tree) {
                continue;
            }
            let mut file = file.clone();
            file.tree_generation = generation_of(*tree);
            imported.push(file);
        }
        manifest.imported = imported;
    }
}
