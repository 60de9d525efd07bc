//! A change of the catalogue in the making. Rows of each data set go through an external
//! sort; when a data set is complete (another data set needs to look into it, or the import
//! ends) it is *sealed*: compared with the current table, and, if anything differs, made a
//! table of the next generation. A change small enough to hold in memory *patches* the
//! current table (its blocks that change are written again, the rest shared); a larger one
//! is merged with it and written whole, in key order. Indexes whose sources changed are
//! patched article by article after a patch, built again after a rewrite, and `commit`
//! switches to the new generation in one step. Dropped without a commit, a staging leaves
//! nothing behind (and a crash leaves only tables and pages the next open drops).

mod commit;
mod lookups;
mod seal;
mod tables;
mod walk;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, MutexGuard};

use super::Store;
use super::catalogue_view::Catalogue;
use super::engine;
use super::error::StoreError;
use super::layout::{ImportedFile, SyncMark, TreeName};
use super::packed::{Finder, PackedTable, Space};
use super::reclaim::Freed;
use super::records::Record;
use super::sorter::Sorter;
use super::touched::Touched;
use crate::catalogue::{CrossKind, CrossReference};

/// Where a staged row came from: the import's file (by position) and the line of the row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Origin {
    pub file: u16,
    pub line: u64,
}

const FILE_SHIFT: u32 = 48;
/// Marks a staged key as retired rather than written (a change feed's `remove` row).
const RETIRES: u64 = 1 << 47;
const LINE_MASK: u64 = RETIRES - 1;

impl Origin {
    fn packed(self) -> u64 {
        (u64::from(self.file) << FILE_SHIFT) | (self.line & LINE_MASK)
    }
    fn unpacked(n: u64) -> Origin {
        Origin {
            file: (n >> FILE_SHIFT) as u16,
            line: n & LINE_MASK,
        }
    }
}

/// A row whose key an earlier row of the same import already gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Duplicate {
    pub line: u64,
    pub earlier: Origin,
}

/// What the rows of one file do to the catalogue.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally {
    pub added: u64,
    pub changed: u64,
    pub unchanged: u64,
    /// Rows a replace retires: its data set's rows the file does not hold.
    pub removed: u64,
    pub duplicate_count: u64,
    /// The first duplicates, in key order.
    pub duplicates: Vec<Duplicate>,
}

/// A change feed entry's value: the row is added or changed (its value is the catalogue's).
const UPSERT: u8 = 0;
/// The row is retired; its last value follows.
const REMOVED: u8 = super::catalogue_view::CHANGE_REMOVED;

/// Duplicates listed per file; the count covers all of them.
const LISTED_DUPLICATES: usize = 100;

/// What a commit did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Committed { data_version: u64 },
    NothingChanged,
    DryRun,
}

/// Which rows of a data set an import in replace mode retires: the rows it does not hold,
/// within the brands its rows name where the data set is per brand, and of the kinds it
/// covers where two data sets share a table (cross-references).
#[derive(Debug, Clone)]
pub struct Replace {
    /// The file that replaces (its tally counts the removals).
    pub file: u16,
    pub per_brand: bool,
    /// The cross-reference kinds the data set covers; none: every row.
    pub kinds: Option<Vec<CrossKind>>,
}

/// A replace and the brands its rows named.
#[derive(Debug, Clone)]
struct Scope {
    replace: Replace,
    brands: BTreeSet<u32>,
}

impl Scope {
    /// Whether a current row of the table is the replace's to retire if no row mentions it.
    fn covers(&self, tree: TreeName, key: &[u8], value: &[u8]) -> bool {
        if self.replace.per_brand {
            let brand = key.first_chunk::<4>().map(|b| u32::from_be_bytes(*b));
            if !brand.is_some_and(|b| self.brands.contains(&b)) {
                return false;
            }
        }
        match &self.replace.kinds {
            Some(kinds) if tree == TreeName::CrossReferences => {
                CrossReference::decode(key, value).is_some_and(|x| kinds.contains(&x.kind))
            }
            _ => true,
        }
    }
}

enum StagedSet {
    Open(Sorter),
    /// Every row matches the current table: nothing was written.
    Unchanged,
    /// Written as a table of the next generation.
    Written(PackedTable),
    /// A dry run's changed set: its staged keys (for sets other rows refer to), written to
    /// a scratch table beside the sort runs, not into the store, and not held in memory.
    DryRun(Option<PackedTable>),
}

/// Data sets other rows refer to, whose staged keys a dry run keeps for those lookups (and a
/// criterion definition's value: a criterion's row is checked against its name).
const REFERRED_TO: [TreeName; 9] = [
    TreeName::Brands,
    TreeName::Manufacturers,
    TreeName::ModelSeries,
    TreeName::GenericArticles,
    TreeName::AssemblyGroups,
    TreeName::Vehicles,
    TreeName::Articles,
    TreeName::KeyValues,
    TreeName::CriterionDefinitions,
];

pub struct Staging<'s> {
    store: &'s Store,
    _writer: MutexGuard<'s, ()>,
    base: Arc<Catalogue>,
    generation: u64,
    dry_run: bool,
    /// A dry run's scratch tables in the sort directory, opened when first needed (declared
    /// before that directory, so they close before the directory is removed).
    scratch: Option<Arc<Space>>,
    /// Sort runs of this change; removed with it.
    spill: tempfile::TempDir,
    sets: BTreeMap<TreeName, StagedSet>,
    tallies: BTreeMap<u16, Tally>,
    files: Vec<(TreeName, ImportedFile, bool)>,
    /// Where rows' references are looked up, per sealed data set.
    finders: BTreeMap<TreeName, Finder>,
    /// A dry run's lookups in the staged keys of a data set.
    dry_run_finders: BTreeMap<TreeName, Finder>,
    /// Data sets replaced rather than merged.
    replacing: BTreeMap<TreeName, Scope>,
    /// Rows each data set retires.
    removed: BTreeMap<TreeName, u64>,
    /// The keys this change adds, changes and retires, for the change feed: the tree index
    /// byte, then the row's key; the value `UPSERT`, or `REMOVED` and the retired value.
    changes: Option<engine::Tree>,
    /// A table was loaded from empty, its rows not kept as changes: a feed from before this
    /// change cannot be complete.
    unrecorded: bool,
    /// How far the upstream has been followed once this change commits.
    synced: Option<SyncMark>,
    /// Trees of the new generation written so far, dropped again unless committed.
    written: Vec<String>,
    /// The first page id this change writes: every later one is dropped unless it commits.
    first_page: u64,
    /// Pages of the current tables the new generation no longer holds.
    freed: Freed,
    /// The keys each patched table changed: what lets answers read under other keys stay
    /// kept across the commit (`reads::Recent`).
    changed_keys: BTreeMap<TreeName, Vec<Vec<u8>>>,
    /// The articles whose rows the patched data sets changed; `None` once a data set that
    /// feeds an index was written whole (its indexes are then built whole too).
    touched: Option<Touched>,
    committed: bool,
}

impl<'s> Staging<'s> {
    /// The bounds on the fields and rows staged.
    pub fn limits(&self) -> crate::limits::Limits {
        self.store.limits()
    }

    /// Whether texts in `language` are kept (the catalogue serves it).
    pub fn keeps_text_language(&self, language: &str) -> bool {
        self.store.keeps_text_language(language)
    }

    pub(super) fn new(
        store: &'s Store,
        writer: MutexGuard<'s, ()>,
        dry_run: bool,
    ) -> Result<Staging<'s>, StoreError> {
        let base = store.catalogue();
        let generation = base.manifest().generation + 1;
        Ok(Staging {
            store,
            _writer: writer,
            base,
            generation,
            dry_run,
            spill: store.spill_dir()?,
            sets: BTreeMap::new(),
            tallies: BTreeMap::new(),
            files: Vec::new(),
            finders: BTreeMap::new(),
            dry_run_finders: BTreeMap::new(),
            scratch: None,
            replacing: BTreeMap::new(),
            removed: BTreeMap::new(),
            changes: None,
            unrecorded: false,
            synced: None,
            written: Vec::new(),
            first_page: store.space.next_page(),
            freed: Vec::new(),
            changed_keys: BTreeMap::new(),
            touched: Some(Touched::new()),
            committed: false,
        })
    }

    fn new_stored_tree(&mut self, stored: String) -> Result<engine::Tree, StoreError> {
        let tree = self.store.db.open_tree(&stored)?;
        self.written.push(stored);
        // An earlier attempt whose trees could not be dropped may have left rows under this name.
        tree.clear()?;
        Ok(tree)
    }

    /// Makes an import of `tree` replace rather than merge. Called before its rows are
    /// staged; a data set replaced with no rows at all retires every row in its scope. Two
    /// data sets of one table replaced in one import (cross-references and competitor
    /// references) replace it together: the first file's tally counts the removals.
    pub fn replace(&mut self, tree: TreeName, replace: Replace) -> Result<(), StoreError> {
        if let Some(scope) = self.replacing.get_mut(&tree) {
            scope.replace.kinds = match (scope.replace.kinds.take(), replace.kinds) {
                (Some(mut kinds), Some(more)) => {
                    kinds.extend(more);
                    Some(kinds)
                }
                _ => None,
            };
            return Ok(());
        }
        if self.sets.contains_key(&tree) {
            return Err(StoreError::Internal(format!(
                "{} is replaced after rows of it were staged",
                tree.name()
            )));
        }
        self.sets
            .insert(tree, StagedSet::Open(Sorter::new(self.spill.path())));
        self.replacing.insert(
            tree,
            Scope {
                replace,
                brands: BTreeSet::new(),
            },
        );
        Ok(())
    }

    /// Stages one record. What it changes is known when its data set is sealed.
    pub fn put<R: Record>(&mut self, record: &R, origin: Origin) -> Result<(), StoreError> {
        if let Some(scope) = self.replacing.get_mut(&R::TREE)
            && scope.replace.per_brand
            && let Some(brand) = record.key().first_chunk::<4>()
        {
            scope.brands.insert(u32::from_be_bytes(*brand));
        }
        let set = match self.sets.get_mut(&R::TREE) {
            Some(set) => set,
            None => self
                .sets
                .entry(R::TREE)
                .or_insert_with(|| StagedSet::Open(Sorter::new(self.spill.path()))),
        };
        match set {
            StagedSet::Open(sorter) => sorter.push(&record.key(), &record.value(), origin.packed()),
            _ => Err(StoreError::Internal(format!(
                "rows of {} were staged after other rows were checked against it",
                R::TREE.name()
            ))),
        }
    }

    /// Stages the retirement of a record's key: whatever row the catalogue holds under it
    /// goes (a change feed's `remove` row). A key the catalogue does not hold is unchanged.
    pub fn retire<R: Record>(&mut self, record: &R, origin: Origin) -> Result<(), StoreError> {
        match self
            .sets
            .entry(R::TREE)
            .or_insert_with(|| StagedSet::Open(Sorter::new(self.spill.path())))
        {
            StagedSet::Open(sorter) => sorter.push(&record.key(), &[], origin.packed() | RETIRES),
            _ => Err(StoreError::Internal(format!(
                "rows of {} were retired after other rows were checked against it",
                R::TREE.name()
            ))),
        }
    }

    /// Records, with this change, how far it follows the upstream. Committed even when the
    /// rows change nothing: the upstream moved on all the same.
    pub fn mark_synced(&mut self, mark: SyncMark) {
        self.synced = Some(mark);
    }

    /// The hash and row count of the last file of this type, if the catalogue still holds
    /// every row of it as it was.
    pub fn recorded_import(&self, import_type: &str, tree: TreeName) -> Option<([u8; 32], u64)> {
        let current = self.base.manifest().generation_of(tree)?;
        self.base
            .manifest()
            .imported
            .iter()
            .find(|f| f.import_type == import_type && f.tree_generation == current)
            .map(|f| (f.sha256, f.rows))
    }

    /// Records a file of this import; `skipped` when it was recognised as previously imported
    /// and not read.
    pub fn note_file(
        &mut self,
        import_type: &str,
        tree: TreeName,
        sha256: [u8; 32],
        rows: u64,
        skipped: bool,
    ) {
        let file = ImportedFile {
            import_type: import_type.into(),
            tree: tree.name().into(),
            sha256,
            rows,
            tree_generation: 0,
        };
        self.files.push((tree, file, skipped));
    }
}

impl Drop for Staging<'_> {
    fn drop(&mut self) {
        if self.committed || self.written.is_empty() {
            return;
        }
        let db = self.store.space.db();
        for name in self.written.drain(..) {
            if let Err(e) = db.drop_tree(&name) {
                tracing::warn!(tree = %name, error = %e, "could not drop a staging tree; it is dropped at the next start");
            }
        }
        // Pages only this change wrote (no other writes while it runs).
        if self.store.space.next_page() > self.first_page {
            for table in TreeName::ALL {
                let freed = self
                    .store
                    .space
                    .pages(table.name())
                    .and_then(|pages| pages.free_from(self.first_page));
                if let Err(e) = freed {
                    tracing::warn!(table = table.name(), error = %e, "could not delete the pages of a change that did not commit; they are deleted at the next start");
                }
            }
        }
        let _ = db.flush();
    }
}
