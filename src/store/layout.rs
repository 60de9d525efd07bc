//! Which trees a store holds, and the manifest that names the generation of each.
//!
//! Catalogue trees are stored as `<name>@<generation>`. The manifest (one key of the `meta`
//! tree) says which generation of each tree is current; an import writes new generations
//! beside the current ones and switches by rewriting that one key. Any `@` tree the manifest
//! does not name is a leftover of an interrupted import and is dropped when the store opens.

use bincode::{Decode, Encode};

mod earlier_manifests;

mod tree_name;

pub use earlier_manifests::{ManifestBeforePages, ManifestBeforeSync, ManifestV1, ManifestV3};
pub use tree_name::{TreeName, parse_stored_name};

/// The one record that says what the catalogue is. Written atomically as one key.
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct Manifest {
    /// Generation counter: the next import writes `generation + 1`.
    pub generation: u64,
    /// Counts committed imports that changed something; clients see it as the data version.
    pub data_version: u64,
    /// Unix seconds of the last committed change.
    pub updated_at: u64,
    /// The current generation of each tree, by stored name (so later releases may add trees).
    pub trees: Vec<(String, u64)>,
    /// The last file imported of each import type whose rows the catalogue still holds as
    /// they were: a re-import of the same bytes is known unchanged without reading it.
    pub imported: Vec<ImportedFile>,
    /// Which data versions' changes the change feed keeps.
    pub changes: ChangeLog,
    /// How far this store has followed its upstream, committed with what it took from it.
    pub synced: SyncMark,
    /// The id the next page of a packed table gets: every page a committed table holds has a
    /// smaller one, so pages from here on are what an interrupted change wrote.
    pub next_page: u64,
}

/// How far a downstream has followed its upstream: who the upstream is, and where each data
/// set has reached in it (the upstream's data version, or the name of a source directory's
/// delivery). A mark of another upstream says nothing about this one.
#[derive(Debug, Clone, Default, PartialEq, Encode, Decode)]
pub struct SyncMark {
    pub upstream: String,
    pub reached: Vec<(String, String)>,
}

impl SyncMark {
    /// Where `data_set` has reached in `upstream`.
    pub fn reached(&self, upstream: &str, data_set: &str) -> Option<&str> {
        if self.upstream != upstream {
            return None;
        }
        self.reached
            .iter()
            .find(|(d, _)| d == data_set)
            .map(|(_, p)| p.as_str())
    }

    /// The mark after `data_sets` reached `position` in `upstream` (a mark of another upstream
    /// is dropped).
    pub fn advanced(&self, upstream: &str, data_sets: &[&str], position: &str) -> SyncMark {
        let mut next = if self.upstream == upstream {
            self.clone()
        } else {
            SyncMark {
                upstream: upstream.to_owned(),
                reached: Vec::new(),
            }
        };
        next.reached
            .retain(|(d, _)| !data_sets.contains(&d.as_str()));
        next.reached.extend(
            data_sets
                .iter()
                .map(|d| (d.to_string(), position.to_owned())),
        );
        next.reached.sort();
        next
    }
}

/// The change feed's extent. Each committed import that changed rows of tables already
/// loaded keeps the keys it changed in a tree of its own, `changes@<data version>`; a load
/// into empty tables keeps none (a feed from before it is a full refresh).
#[derive(Debug, Clone, Default, PartialEq, Encode, Decode)]
pub struct ChangeLog {
    /// The oldest data version a feed can start from: every later version's changes are kept.
    pub complete_since: u64,
    /// The data versions whose changes are kept, with their commit times (Unix seconds),
    /// oldest first.
    pub kept: Vec<(u64, u64)>,
}

/// The stored name of a data version's changes.
pub fn changes_tree(data_version: u64) -> String {
    format!("changes@{data_version}")
}

/// A file whose every row the catalogue holds, as long as its data set's tree is still of
/// the generation that import left.
#[derive(Debug, Clone, PartialEq, Encode, Decode)]
pub struct ImportedFile {
    pub import_type: String,
    /// The name of the data set's table.
    pub tree: String,
    pub sha256: [u8; 32],
    pub rows: u64,
    pub tree_generation: u64,
}

impl Manifest {
    pub fn empty() -> Manifest {
        Manifest {
            generation: 0,
            data_version: 0,
            updated_at: 0,
            trees: TreeName::ALL
                .iter()
                .map(|t| (t.name().to_owned(), 0))
                .collect(),
            imported: Vec::new(),
            changes: ChangeLog::default(),
            synced: SyncMark::default(),
            next_page: 1,
        }
    }

    pub fn generation_of(&self, tree: TreeName) -> Option<u64> {
        self.trees
            .iter()
            .find(|(n, _)| n == tree.name())
            .map(|(_, g)| *g)
    }

    /// Names `tree` at `generation`; files recorded against its old generation still hold,
    /// as the rows did not change.
    pub fn set_generation(&mut self, tree: TreeName, generation: u64) {
        let old = self.generation_of(tree);
        for file in &mut self.imported {
            if file.tree == tree.name() && Some(file.tree_generation) == old {
                file.tree_generation = generation;
            }
        }
        match self.trees.iter_mut().find(|(n, _)| n == tree.name()) {
            Some((_, g)) => *g = generation,
            None => self.trees.push((tree.name().to_owned(), generation)),
        }
    }

    pub fn names_tree(&self, stored: &str) -> bool {
        parse_stored_name(stored).is_some_and(|(name, generation)| {
            self.trees
                .iter()
                .any(|(n, g)| n == name && *g == generation)
                || (name == "changes" && self.changes.kept.iter().any(|(v, _)| *v == generation))
        })
    }
}

#[cfg(test)]
mod tests;
