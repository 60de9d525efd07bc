//! Which trees a backup may hold, and the check of a backup's frames against that before a
//! restore writes anything.

use std::path::Path;

use super::{Frame, RestoreError};
use crate::store::META;
use crate::store::engine;
use crate::store::layout::{TreeName, parse_stored_name};
use crate::store::reclaim::FREED_PAGES;

/// The trees a backup of partscat's may hold outside the catalogue's generations.
fn fixed_trees() -> [&'static str; 9] {
    [
        META,
        FREED_PAGES,
        SLED_DEFAULT_TREE,
        crate::store::audit::AUDIT,
        crate::store::providers::PROVIDERS,
        crate::store::providers::KEYS,
        crate::store::grants::ADDRESSES,
        crate::store::grants::KEYS,
        crate::store::grants::BY_EXPIRY,
    ]
}

/// The storage engine's own tree, which every backup lists.
const SLED_DEFAULT_TREE: &str = "__sled__default";

/// Whether `name` is a tree partscat's own backups hold: a fixed one, or a generation of a
/// catalogue tree (`<tree>@<n>`) or of the change feed (`changes@<n>`).
fn known_tree(name: &str) -> bool {
    fixed_trees().contains(&name)
        || TreeName::ALL.iter().any(|t| {
            // A backup of a store before format 11 holds the pages in their logged trees.
            name == crate::store::packed::pages_tree_name(t.name())
                || name == crate::store::packed::logged_pages_tree_name(t.name())
        })
        || parse_stored_name(name).is_some_and(|(tree, generation)| {
            (tree == "changes" || TreeName::ALL.iter().any(|t| t.name() == tree))
                && format!("{tree}@{generation}") == name
        })
}

/// Checks the frames' structure: each tree known and named once, every entry inside one,
/// the meta tree there, and every generation tree one its manifest names.
pub(super) fn checked_structure(name: &str) -> impl FnMut(Frame) -> Result<(), RestoreError> {
    let name = name.to_owned();
    let mut trees: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut meta = engine::Batch::default();
    move |frame| {
        let damaged = |why: String| RestoreError::Damaged(name.clone(), why);
        match frame {
            Frame::Tree(tree) => {
                if !known_tree(&tree) {
                    let shown: String = tree.chars().take(80).collect();
                    return Err(damaged(format!(
                        "it holds a tree '{shown}', which partscat's backups do not"
                    )));
                }
                if !seen.insert(tree.clone()) {
                    return Err(damaged(format!("it holds tree '{tree}' twice")));
                }
                trees.push(tree);
            }
            Frame::Entry(..) if trees.is_empty() => {
                return Err(damaged("it holds an entry before any tree".into()));
            }
            Frame::Entry(k, v) => {
                if trees.last().is_some_and(|t| t == META) {
                    meta.insert(k, v);
                }
            }
            Frame::End => {
                if !seen.contains(META) {
                    return Err(damaged(format!("it lacks the {META} tree")));
                }
                let db = engine::MemoryEngine::new_db();
                let tree = db.open_tree(META)?;
                tree.apply(std::mem::take(&mut meta))?;
                let (_, manifest) = crate::store::read_manifest(&tree, Path::new(&name))
                    .map_err(|e| damaged(format!("its manifest cannot be read: {e}")))?;
                if let Some(stray) = trees
                    .iter()
                    .find(|t| parse_stored_name(t).is_some() && !manifest.names_tree(t))
                {
                    return Err(damaged(format!(
                        "it holds tree '{stray}', which its manifest does not name"
                    )));
                }
            }
        }
        Ok(())
    }
}
