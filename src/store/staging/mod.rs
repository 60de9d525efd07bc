//! A change of the catalogue in the making. Rows of each data set go through an external
//! sort; when a data set is complete (another data set needs to look into it, or the import
//! ends) it is *sealed*: compared with the current table, and, if anything differs, made a
//! table of the next generation. A change small enough to hold in memory *patches* the
//! current table (its blocks that change are written again, the rest shared); a larger one
//! is merged with it and written whole, in key order. Indexes whose sources changed are
//! patched article by article after a patch, built again after a rewrite, and `commit`
//! switches to the new generation in one step. Dropped without a commit, a staging leaves
//! nothing behind (and a crash leaves only tables and pages the next open drops).

mod tables;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use super::Store;
use super::catalogue_view::Catalogue;
use super::engine;
use super::error::StoreError;
use super::index_changes::Touched;
use super::indexes::DataTrees;
use super::keys::{self, KeyBuf};
use super::layout::{ImportedFile, SyncMark, TreeName};
use super::packed::{Finder, PackedTable, PackedWriter, Space};
use super::reclaim::{self, Freed};
use super::records::Record;
use super::sorter::Sorter;
use crate::catalogue::ArticleKey;
use crate::catalogue::{CrossKind, CrossReference};
use tables::{Effective, Gathered, PATCH_ARTICLES};

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

/// Data sets other rows refer to, whose staged keys a dry run keeps for those lookups.
const REFERRED_TO: [TreeName; 5] = [
    TreeName::Brands,
    TreeName::Manufacturers,
    TreeName::GenericArticles,
    TreeName::Vehicles,
    TreeName::Articles,
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

    fn seal_set(&mut self, tree: TreeName) -> Result<(), StoreError> {
        if !matches!(self.sets.get(&tree), Some(StagedSet::Open(_))) {
            return Ok(());
        }
        let Some(StagedSet::Open(mut sorter)) = self.sets.remove(&tree) else {
            return Ok(());
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
                StagedSet::Written(self.write_patched(tree, &base, gathered)?)
            } else {
                StagedSet::Written(self.write_merged(&mut sorter, &base, scope, false)?)
            }
        };
        self.sets.insert(tree, sealed);
        Ok(())
    }

    /// The tree of this change's feed entries, `changes@<its data version>`.
    fn changes_tree(&mut self) -> Result<engine::Tree, StoreError> {
        if let Some(tree) = &self.changes {
            return Ok(tree.clone());
        }
        let version = self.base.manifest().data_version + 1;
        let tree = self.new_stored_tree(super::layout::changes_tree(version))?;
        Ok(self.changes.insert(tree).clone())
    }

    /// The dry run's scratch tables, beside the sort runs.
    fn scratch_space(&mut self) -> Result<Arc<Space>, StoreError> {
        if let Some(space) = &self.scratch {
            return Ok(space.clone());
        }
        let db = engine::open_scratch(&self.spill.path().join("dry-run"))?;
        let space = Space::new(db, 1, self.store.space.cache());
        Ok(self.scratch.insert(space).clone())
    }

    /// A writer of the dry run's scratch table for the staged keys of `tree`.
    fn scratch_table(&mut self, tree: TreeName) -> Result<PackedWriter, StoreError> {
        self.scratch_space()?
            .writer(tree.name(), &tree.stored_name(0))
    }

    /// Walks the staged rows of `tree` in key order beside its current table: counts what
    /// each row does (when `count`), writes the staged keys to `keys_out` if given, and, given
    /// a writer, writes the merge of both (a staged row replaces the current row of its key;
    /// rows the import does not mention stay, unless a replace's scope covers them: those are
    /// retired) and keeps what it changes for the change feed. Given `gather`, a count alone
    /// gathers what each row changes for a patch. Says whether any row adds, changes or
    /// retires something, with the table written.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &mut self,
        sorter: &mut Sorter,
        base: &PackedTable,
        (tree, scope): (TreeName, Option<&Scope>),
        count: bool,
        mut keys_out: Option<PackedWriter>,
        mut writer: Option<PackedWriter>,
        mut gather: Option<&mut Gathered>,
    ) -> Result<(bool, Option<PackedTable>), StoreError> {
        let mut changed = false;
        // Rows the replace's scope retires, and rows `remove` rows retire.
        let mut removed = 0u64;
        let mut retired = 0u64;
        let mut cursor = base.cursor();
        let mut current = base.iter().peekable();
        // What a written merge changes goes to the feed, unless the table was empty: a load
        // is not kept key by key.
        let feed = match &writer {
            Some(_) if base.is_empty() => {
                self.unrecorded = true;
                None
            }
            Some(_) => Some(self.changes_tree()?),
            None => None,
        };
        let record = |key: &[u8], entry: &[u8]| -> Result<(), StoreError> {
            if let Some(changes) = &feed {
                let mut k = Vec::with_capacity(key.len() + 1);
                k.push(tree.index() as u8);
                k.extend_from_slice(key);
                changes.insert(&k, entry)?;
            }
            Ok(())
        };
        // A current row no staged row mentions: kept, or retired by the replace.
        let mut unmentioned = |k: &[u8],
                               v: &[u8],
                               writer: &mut Option<PackedWriter>,
                               gather: &mut Option<&mut Gathered>| {
            if scope.is_some_and(|s| s.covers(tree, k, v)) {
                removed += 1;
                if let Some(gathered) = gather {
                    gathered.add(k, None, Some(v));
                }
                let mut entry = vec![REMOVED];
                entry.extend_from_slice(v);
                return record(k, &entry);
            }
            match writer.as_mut() {
                Some(writer) => writer.push(k, v),
                None => Ok(()),
            }
        };
        let mut previous: Option<(Vec<u8>, Origin)> = None;
        for item in sorter.sorted()? {
            let item = item?;
            let origin = Origin::unpacked(item.origin);
            let retires = item.origin & RETIRES != 0;
            if let Some((key, earlier)) = &previous
                && *key == item.key
            {
                if count {
                    let tally = self.tallies.entry(origin.file).or_default();
                    tally.duplicate_count += 1;
                    if tally.duplicates.len() < LISTED_DUPLICATES {
                        tally.duplicates.push(Duplicate {
                            line: origin.line,
                            earlier: *earlier,
                        });
                    }
                }
                continue;
            }
            // Whether the current table holds the key, and with the same value. A merge walks
            // the current rows beside the staged ones; a count alone looks each key up.
            let same = if writer.is_some() || scope.is_some() {
                while let Some(entry) =
                    current.next_if(|e| !matches!(e, Ok((k, _)) if *k >= item.key))
                {
                    let (k, v) = entry?;
                    unmentioned(&k, &v, &mut writer, &mut gather)?;
                }
                let old = current.next_if(|e| matches!(e, Ok((k, _)) if *k == item.key));
                let old = old.transpose()?.map(|(_, v)| v);
                if let Some(gathered) = gather.as_deref_mut() {
                    match retires {
                        true if old.is_some() => gathered.add(&item.key, None, old.as_deref()),
                        false if old.as_ref() != Some(&item.value) => {
                            gathered.add(&item.key, Some(&item.value), None)
                        }
                        _ => {}
                    }
                }
                if retires {
                    if let Some(old) = &old {
                        let mut entry = vec![REMOVED];
                        entry.extend_from_slice(old);
                        record(&item.key, &entry)?;
                    }
                } else if let Some(writer) = writer.as_mut() {
                    writer.push(&item.key, &item.value)?;
                }
                old.map(|v| v == item.value)
            } else {
                let old = cursor.find(&item.key)?;
                let same = old.map(|v| v == item.value.as_slice());
                if let Some(gathered) = gather.as_deref_mut() {
                    match retires {
                        true if old.is_some() => gathered.add(&item.key, None, old),
                        false if same != Some(true) => {
                            gathered.add(&item.key, Some(&item.value), None)
                        }
                        _ => {}
                    }
                }
                same
            };
            if retires {
                // Retiring a key the catalogue holds changes it; one it lacks, nothing.
                let held = same.is_some();
                changed |= held;
                if held {
                    retired += 1;
                }
                if count {
                    let tally = self.tallies.entry(origin.file).or_default();
                    match held {
                        true => tally.removed += 1,
                        false => tally.unchanged += 1,
                    }
                }
                previous = Some((item.key, origin));
                continue;
            }
            changed |= same != Some(true);
            if same != Some(true) {
                record(&item.key, &[UPSERT])?;
            }
            if count {
                let tally = self.tallies.entry(origin.file).or_default();
                match same {
                    Some(true) => tally.unchanged += 1,
                    Some(false) => tally.changed += 1,
                    None => tally.added += 1,
                }
            }
            if let Some(keys) = keys_out.as_mut() {
                keys.push(&item.key, &[])?;
            }
            previous = Some((item.key, origin));
        }
        if writer.is_some() || scope.is_some() {
            for entry in current {
                let (k, v) = entry?;
                unmentioned(&k, &v, &mut writer, &mut gather)?;
            }
        }
        let written = match writer {
            Some(writer) => Some(writer.finish()?.0),
            None => None,
        };
        if let Some(keys) = keys_out {
            keys.finish()?;
        }
        if let Some(s) = scope
            && count
        {
            self.tallies.entry(s.replace.file).or_default().removed += removed;
        }
        if count {
            self.removed.insert(tree, removed + retired);
        }
        Ok((changed || removed > 0, written))
    }

    fn contains(&mut self, tree: TreeName, key: &[u8]) -> Result<bool, StoreError> {
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

    pub fn has_brand(&mut self, id: u32) -> Result<bool, StoreError> {
        self.contains(TreeName::Brands, &KeyBuf::new().u32(id).done())
    }

    pub fn has_manufacturer(&mut self, id: u32) -> Result<bool, StoreError> {
        self.contains(TreeName::Manufacturers, &KeyBuf::new().u32(id).done())
    }

    pub fn has_generic_article(&mut self, id: u32) -> Result<bool, StoreError> {
        self.contains(TreeName::GenericArticles, &KeyBuf::new().u32(id).done())
    }

    pub fn has_vehicle(&mut self, ktype: &str) -> Result<bool, StoreError> {
        self.contains(TreeName::Vehicles, ktype.as_bytes())
    }

    pub fn has_article(&mut self, article: &ArticleKey) -> Result<bool, StoreError> {
        self.contains(TreeName::Articles, &keys::article_key(article))
    }

    /// Seals every data set still open and says, file by file, what its rows do.
    pub fn seal(&mut self) -> Result<BTreeMap<u16, Tally>, StoreError> {
        let open: Vec<TreeName> = self.sets.keys().copied().collect();
        for tree in open {
            self.seal_set(tree)?;
        }
        Ok(self.tallies.clone())
    }

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
            if let Some(mark) = self.synced.take()
                && mark != self.base.manifest().synced
            {
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
            }
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
        // Retired rows others refer to: the references must still hold.
        let shrunk: Vec<TreeName> = self
            .removed
            .iter()
            .filter(|(t, n)| **n > 0 && REFERRED_TO.contains(t))
            .map(|(t, _)| *t)
            .collect();
        if !shrunk.is_empty() {
            phase("checking what refers to the retired rows");
            let effective = Effective {
                base: &self.base,
                staged: staged.clone(),
            };
            let (count, first) = super::check::dangling(&effective, &shrunk)?;
            if count > 0 {
                return Err(StoreError::StillReferred { count, first });
            }
        }
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
        super::crash_point("commit:written");
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
        super::crash_point("commit:freed-listed");
        self.store.space.db().flush()?;
        super::crash_point("commit:flushed");

        let mut manifest = self.base.manifest().clone();
        manifest.generation = self.generation;
        manifest.data_version += 1;
        manifest.next_page = self.store.space.next_page();
        manifest.updated_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let mut retired = Vec::new();
        for name in changed.iter().chain(&rebuilt) {
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
        self.note_imported_files(&mut manifest, &changed);
        let catalogue = self.base.succeeded(
            &self.store.space,
            manifest.clone(),
            staged,
            std::mem::take(&mut self.changed_keys),
        )?;
        self.store.publish(&manifest, catalogue)?;
        self.committed = true;
        super::crash_point("commit:switched");
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

    /// Keeps this change's feed entries under its data version, and lets go of what the
    /// retention no longer keeps (their trees join `retired`). After a load into an empty
    /// table nothing before it is kept: a feed from an earlier version would miss its rows.
    fn keep_changes(&self, manifest: &mut super::layout::Manifest, retired: &mut Vec<String>) {
        let (version, now) = (manifest.data_version, manifest.updated_at);
        let log = &mut manifest.changes;
        if self.unrecorded {
            retired.extend(
                log.kept
                    .drain(..)
                    .map(|(v, _)| super::layout::changes_tree(v)),
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
            retired.push(super::layout::changes_tree(v));
        }
    }

    /// Which files the new catalogue holds every row of: the ones this import read, and the
    /// earlier ones of tables it did not change. A file recognised and skipped is dropped if
    /// its table changed: its rows were not checked against this import's.
    fn note_imported_files(&self, manifest: &mut super::layout::Manifest, changed: &[TreeName]) {
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
