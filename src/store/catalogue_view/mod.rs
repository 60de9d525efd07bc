//! A consistent view of one generation of the catalogue, with the lookups the routes need.

use std::sync::{Arc, OnceLock};

mod changes;
mod criteria;
mod kits;
mod lookups;
mod names;
mod numbers;
mod texts;
mod vehicle_summary;

use criteria::CRITERIA_TABLES;
pub use criteria::Criteria;
use names::NAME_TABLES;
pub use names::Names;
pub use texts::Translations;
pub use vehicle_summary::{VehicleEntry, VehicleSummary};

pub(super) use changes::CHANGE_REMOVED;
pub use changes::Change;

use super::engine;
use super::error::StoreError;
use super::indexes::{self, DataTrees};
use super::layout::{Manifest, TreeName};
use super::packed::{PackedTable, Space};
use super::reads::{self, Read, Recent, Stamp};
use super::reclaim::Retirement;
use super::records::Record;

/// One generation of the catalogue. Trees and pages its successor no longer holds go when
/// the last holder of this view (and of every older one) lets go, so a running scan never
/// loses its data under it.
pub struct Catalogue {
    manifest: Manifest,
    trees: Vec<PackedTable>,
    /// Each table's generation, by `TreeName::index`: what a read of it is stamped with.
    generations: Vec<u64>,
    /// Each kept data version's changes (see `ChangeLog`), oldest first.
    changes: Vec<(u64, engine::Tree)>,
    retirement: Arc<Retirement>,
    /// Shared with the next generation while its name tables stay the same.
    names: OnceLock<Arc<Names>>,
    /// The keys the last commits changed (`Stamp`s read under prefixes are checked with it).
    recent: Arc<Recent>,
    /// Shared with the next generation while the vehicles table stays the same.
    vehicle_summary: OnceLock<Arc<VehicleSummary>>,
    /// Shared with the next generation while the texts table stays the same.
    translations: OnceLock<Arc<Translations>>,
    /// Shared with the next generation while the criteria's tables stay the same.
    criteria: OnceLock<Arc<Criteria>>,
}

impl DataTrees for Catalogue {
    fn tree(&self, name: TreeName) -> &PackedTable {
        reads::note_table(name, self.generations[name.index()]);
        &self.trees[name.index()]
    }
}

impl Catalogue {
    pub(super) fn open(space: &Arc<Space>, manifest: Manifest) -> Result<Catalogue, StoreError> {
        let generations = TreeName::ALL
            .iter()
            .map(|&t| manifest.generation_of(t).unwrap_or(0))
            .collect();
        let trees = TreeName::ALL
            .iter()
            .map(|&t| {
                let generation = manifest.generation_of(t).unwrap_or(0);
                space.table(t.name(), &t.stored_name(generation))
            })
            .collect::<Result<_, StoreError>>()?;
        let changes = manifest
            .changes
            .kept
            .iter()
            .map(|&(version, _)| {
                Ok((
                    version,
                    space
                        .db()
                        .open_tree(&super::layout::changes_tree(version))?,
                ))
            })
            .collect::<Result<_, StoreError>>()?;
        Ok(Catalogue {
            manifest,
            trees,
            generations,
            changes,
            retirement: Retirement::new(space.clone()),
            names: OnceLock::new(),
            recent: Arc::default(),
            vehicle_summary: OnceLock::new(),
            translations: OnceLock::new(),
            criteria: OnceLock::new(),
        })
    }

    pub(super) fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The catalogue of `manifest`, a successor of this one: `staged` holds its new tables,
    /// and the tables it keeps are this one's (with their block indexes as read so far).
    /// `changed_keys` has the keys each patched table changed (a table not in it changed in
    /// ways not listed).
    pub(super) fn succeeded(
        &self,
        space: &Arc<Space>,
        manifest: Manifest,
        mut staged: std::collections::BTreeMap<TreeName, PackedTable>,
        mut changed_keys: std::collections::BTreeMap<TreeName, Vec<Vec<u8>>>,
    ) -> Result<Catalogue, StoreError> {
        let mut next = Catalogue::open(space, manifest)?;
        let mut steps = Vec::new();
        for t in TreeName::ALL {
            if let Some(table) = staged.remove(&t) {
                next.trees[t.index()] = table;
            } else if next.manifest.generation_of(t) == self.manifest.generation_of(t) {
                next.trees[t.index()] = self.trees[t.index()].clone();
            }
            let (from, to) = (self.generations[t.index()], next.generations[t.index()]);
            if from != to {
                steps.push((t, from, to, changed_keys.remove(&t)));
            }
        }
        next.recent = Arc::new(self.recent.and(steps));
        let same_names = NAME_TABLES
            .iter()
            .all(|t| self.generations[t.index()] == next.generations[t.index()]);
        if let (true, Some(names)) = (same_names, self.names.get()) {
            let _ = next.names.set(names.clone());
        }
        let vehicles = TreeName::Vehicles.index();
        let same_vehicles = self.generations[vehicles] == next.generations[vehicles];
        if let (true, Some(summary)) = (same_vehicles, self.vehicle_summary.get()) {
            let _ = next.vehicle_summary.set(summary.clone());
        }
        let texts = TreeName::Texts.index();
        if let (true, Some(translations)) = (
            self.generations[texts] == next.generations[texts],
            self.translations.get(),
        ) {
            let _ = next.translations.set(translations.clone());
        }
        let same_criteria = CRITERIA_TABLES
            .iter()
            .all(|t| self.generations[t.index()] == next.generations[t.index()]);
        if let (true, Some(criteria)) = (same_criteria, self.criteria.get()) {
            let _ = next.criteria.set(criteria.clone());
        }
        Ok(next)
    }

    /// Notes that `next` succeeds this generation: `trees` go once neither is read, and the
    /// pages the commit that made generation `freed_by` freed.
    pub(super) fn succeeded_by(&self, next: &Catalogue, trees: Vec<String>, freed_by: Option<u64>) {
        self.retirement
            .succeeded_by(&next.retirement, trees, freed_by);
    }

    /// Reads every table's block index now, so that no lookup waits for one.
    pub fn warm(&self) -> Result<(), StoreError> {
        self.trees.iter().try_for_each(PackedTable::warm)
    }

    /// Counts every committed change; 0 for a store that was never imported into.
    pub fn data_version(&self) -> u64 {
        reads::note(reads::DATA_VERSION, self.manifest.data_version);
        self.manifest.data_version
    }

    /// Whether every table `stamp` names is still at the generation it names: an answer read
    /// from those is this catalogue's answer too.
    pub fn still_current(&self, stamp: &Stamp) -> bool {
        stamp.tables().all(|(table, generation, read)| match table {
            reads::DATA_VERSION => self.manifest.data_version == generation,
            t => match self.generations.get(usize::from(t)) {
                Some(&now) if now == generation => true,
                Some(&now) => match read {
                    Read::Under(prefixes) => self.recent.untouched(t, generation, now, prefixes),
                    Read::Whole => false,
                },
                None => false,
            },
        })
    }

    /// `stamp` at this catalogue's generations, where a commit moved a table it names; only
    /// for a stamp `still_current` accepted.
    pub fn advanced(&self, stamp: &Stamp) -> Option<Stamp> {
        stamp.advanced(|table| match table {
            reads::DATA_VERSION => Some(self.manifest.data_version),
            t => self.generations.get(usize::from(t)).copied(),
        })
    }

    /// How far this store has followed its upstream.
    pub fn sync_mark(&self) -> &super::SyncMark {
        &self.manifest.synced
    }

    /// Unix seconds of the last committed change.
    pub fn updated_at(&self) -> u64 {
        reads::note(reads::DATA_VERSION, self.manifest.data_version);
        self.manifest.updated_at
    }

    /// Number of records in a tree (reads every block: for reports, not for request paths).
    pub fn count(&self, tree: TreeName) -> Result<u64, StoreError> {
        self.tree(tree).len()
    }

    pub fn is_empty(&self) -> bool {
        TreeName::DATA.iter().all(|&t| self.tree(t).is_empty())
    }

    /// At most the bytes an import that changes these data sets writes beside the current
    /// tables: each changed table and every index derived from one is written anew.
    pub fn rewrite_bound(&self, data_sets: &[TreeName]) -> Result<u64, StoreError> {
        let mut bytes = 0;
        for &tree in TreeName::ALL.iter() {
            let rewritten = data_sets.contains(&tree)
                || (tree.is_index() && tree.sources().iter().any(|s| data_sets.contains(s)));
            if rewritten {
                bytes += self.tree(tree).rewrite_bound()?;
            }
        }
        Ok(bytes)
    }

    fn get<R: Record>(&self, key: &[u8]) -> Result<Option<R>, StoreError> {
        match self.tree(R::TREE).get(key)? {
            Some(v) => R::decode(key, &v)
                .map(Some)
                .ok_or_else(|| StoreError::undecodable(R::TREE)),
            None => Ok(None),
        }
    }

    /// The iteration owns what it reads, so it may outlive this borrow (an export keeps it
    /// from chunk to chunk while holding the generation).
    fn scan<R: Record>(
        &self,
        prefix: Vec<u8>,
    ) -> impl Iterator<Item = Result<R, StoreError>> + Send + 'static {
        indexes::records(self.tree(R::TREE).scan_prefix(prefix))
    }

    /// Every record of a data set, in key order, read as the iteration goes.
    pub fn records<R: Record>(
        &self,
    ) -> impl Iterator<Item = Result<R, StoreError>> + Send + 'static {
        self.scan(Vec::new())
    }

    /// The records under `prefix`, decoded as they are read (no copy of each entry first).
    fn all_under<R: Record>(&self, prefix: &[u8]) -> Result<Vec<R>, StoreError> {
        let mut found = Vec::new();
        let table = R::TREE.index();
        // A read of these keys only: commits that change others leave the answer current.
        reads::note_prefix(R::TREE, self.generations[table], prefix);
        self.trees[table].visit_prefix(prefix, |k, v| {
            found.push(R::decode(k, v).ok_or_else(|| StoreError::undecodable(R::TREE))?);
            Ok(())
        })?;
        Ok(found)
    }
}
