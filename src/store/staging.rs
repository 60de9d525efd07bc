//! A change of the catalogue in the making: rows go into staging trees of the next
//! generation, beside the current one, and become the catalogue in one step at `commit`.
//! Dropped without a commit, a staging leaves nothing behind (and a crash leaves only
//! trees the next open drops).

use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use super::Store;
use super::catalogue_view::Catalogue;
use super::error::StoreError;
use super::indexes::{self, DataTrees};
use super::keys::{self, KeyBuf};
use super::layout::TreeName;
use super::records::Record;
use crate::catalogue::ArticleKey;

/// What writing one row would do to the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Added,
    Changed,
    Unchanged,
    /// The same key was already given earlier in this change.
    Duplicate,
}

/// What a commit did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Committed { data_version: u64 },
    NothingChanged,
    DryRun,
}

/// Where the staged rows of one data set go: a real tree, or (dry run) only their keys.
enum Staged {
    Tree(sled::Tree),
    Keys(HashSet<Box<[u8]>>),
}

struct StagedSet {
    rows: Staged,
    changed: bool,
}

pub struct Staging<'s> {
    store: &'s Store,
    _writer: MutexGuard<'s, ()>,
    base: Arc<Catalogue>,
    generation: u64,
    dry_run: bool,
    sets: BTreeMap<TreeName, StagedSet>,
    /// Trees of the new generation written so far, dropped again unless committed.
    written: Vec<String>,
    committed: bool,
}

/// The data trees as they will be after the commit: staged where staged, current elsewhere.
struct Effective<'a> {
    base: &'a Catalogue,
    staged: BTreeMap<TreeName, &'a sled::Tree>,
}

impl DataTrees for Effective<'_> {
    fn tree(&self, name: TreeName) -> &sled::Tree {
        self.staged
            .get(&name)
            .copied()
            .unwrap_or_else(|| self.base.tree(name))
    }
}

impl<'s> Staging<'s> {
    pub(super) fn new(store: &'s Store, writer: MutexGuard<'s, ()>, dry_run: bool) -> Staging<'s> {
        let base = store.catalogue();
        let generation = base.manifest().generation + 1;
        Staging {
            store,
            _writer: writer,
            base,
            generation,
            dry_run,
            sets: BTreeMap::new(),
            written: Vec::new(),
            committed: false,
        }
    }

    fn new_tree(&mut self, name: TreeName) -> Result<sled::Tree, StoreError> {
        let stored = name.stored_name(self.generation);
        let tree = self.store.db.open_tree(&stored)?;
        self.written.push(stored);
        // An earlier attempt whose trees could not be dropped may have left rows under this name.
        tree.clear()?;
        Ok(tree)
    }

    /// Stages one record and says what it changes.
    pub fn put<R: Record>(&mut self, record: &R) -> Result<Change, StoreError> {
        let key = record.key();
        let value = record.value();
        // The staging tree is made before the map is borrowed for the row.
        let tree = if self.dry_run || self.sets.contains_key(&R::TREE) {
            None
        } else {
            Some(self.new_tree(R::TREE)?)
        };
        let set = self.sets.entry(R::TREE).or_insert_with(|| StagedSet {
            rows: tree.map_or_else(|| Staged::Keys(HashSet::new()), Staged::Tree),
            changed: false,
        });
        let duplicate = match &mut set.rows {
            Staged::Tree(tree) => tree.insert(&key, value.as_slice())?.is_some(),
            Staged::Keys(keys) => !keys.insert(key.clone().into_boxed_slice()),
        };
        if duplicate {
            return Ok(Change::Duplicate);
        }
        let change = match self.base.tree(R::TREE).get(&key)? {
            None => Change::Added,
            Some(old) if old.as_ref() == value.as_slice() => Change::Unchanged,
            Some(_) => Change::Changed,
        };
        set.changed |= change != Change::Unchanged;
        Ok(change)
    }

    fn contains(&self, tree: TreeName, key: &[u8]) -> Result<bool, StoreError> {
        let staged = match self.sets.get(&tree).map(|s| &s.rows) {
            Some(Staged::Tree(t)) => t.contains_key(key)?,
            Some(Staged::Keys(k)) => k.contains(key),
            None => false,
        };
        Ok(staged || self.base.tree(tree).contains_key(key)?)
    }

    pub fn has_brand(&self, id: u32) -> Result<bool, StoreError> {
        self.contains(TreeName::Brands, &KeyBuf::new().u32(id).done())
    }

    pub fn has_manufacturer(&self, id: u32) -> Result<bool, StoreError> {
        self.contains(TreeName::Manufacturers, &KeyBuf::new().u32(id).done())
    }

    pub fn has_generic_article(&self, id: u32) -> Result<bool, StoreError> {
        self.contains(TreeName::GenericArticles, &KeyBuf::new().u32(id).done())
    }

    pub fn has_vehicle(&self, ktype: &str) -> Result<bool, StoreError> {
        self.contains(TreeName::Vehicles, ktype.as_bytes())
    }

    pub fn has_article(&self, article: &ArticleKey) -> Result<bool, StoreError> {
        self.contains(TreeName::Articles, &keys::article_key(article))
    }

    /// Makes the staged rows the catalogue, in one durable step. `phase` hears what it does.
    pub fn commit(mut self, phase: &mut dyn FnMut(&str)) -> Result<Outcome, StoreError> {
        if self.dry_run {
            return Ok(Outcome::DryRun);
        }
        let changed: Vec<TreeName> = self
            .sets
            .iter()
            .filter(|(_, s)| s.changed)
            .map(|(&t, _)| t)
            .collect();
        if changed.is_empty() {
            return Ok(Outcome::NothingChanged);
        }
        // Rows the import did not mention stay as they are: merge them in.
        for &name in &changed {
            phase(&format!("merging {}", name.name()));
            if let Some(Staged::Tree(staged)) = self.sets.get(&name).map(|s| &s.rows) {
                for entry in self.base.tree(name).iter() {
                    let (k, v) = entry?;
                    if !staged.contains_key(&k)? {
                        staged.insert(k, v)?;
                    }
                }
            }
        }
        let rebuilt: Vec<TreeName> = TreeName::INDEXES
            .iter()
            .copied()
            .filter(|i| i.sources().iter().any(|s| changed.contains(s)))
            .collect();
        let mut index_trees = Vec::new();
        for &index in &rebuilt {
            index_trees.push((index, self.new_tree(index)?));
        }
        {
            let staged = changed
                .iter()
                .filter_map(|t| match self.sets.get(t).map(|s| &s.rows) {
                    Some(Staged::Tree(tree)) => Some((*t, tree)),
                    _ => None,
                })
                .collect();
            let effective = Effective {
                base: &self.base,
                staged,
            };
            for (index, tree) in &index_trees {
                phase(&format!("indexing {}", index.name()));
                // sled takes keys in order markedly faster than scattered ones.
                let mut entries = Vec::new();
                indexes::derive(*index, &effective, &mut |k, v| {
                    entries.push((k, v));
                    Ok(())
                })?;
                entries.sort_unstable();
                for (k, v) in entries {
                    tree.insert(k, v)?;
                }
            }
        }
        phase("writing to disk");
        self.store.db.flush()?;

        let mut manifest = self.base.manifest().clone();
        manifest.generation = self.generation;
        manifest.data_version += 1;
        manifest.updated_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let mut retired = Vec::new();
        for name in changed.iter().chain(&rebuilt) {
            if let Some(entry) = manifest.trees.iter_mut().find(|(n, _)| n == name.name()) {
                retired.push(name.stored_name(entry.1));
                entry.1 = self.generation;
            }
        }
        let catalogue = Catalogue::open(&self.store.db, manifest.clone())?;
        self.store.publish(&manifest, catalogue)?;
        self.committed = true;
        self.base.retire(retired);
        // Staged sets whose rows were all unchanged were never switched to.
        for name in self.written.drain(..) {
            if !manifest.names_tree(name.as_bytes()) {
                self.store.db.drop_tree(name.as_bytes())?;
            }
        }
        Ok(Outcome::Committed {
            data_version: manifest.data_version,
        })
    }
}

impl Drop for Staging<'_> {
    fn drop(&mut self) {
        if self.committed || self.written.is_empty() {
            return;
        }
        for name in self.written.drain(..) {
            if let Err(e) = self.store.db.drop_tree(&name) {
                tracing::warn!(tree = %name, error = %e, "could not drop a staging tree; it is dropped at the next start");
            }
        }
        let _ = self.store.db.flush();
    }
}
