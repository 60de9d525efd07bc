//! A file of assembly groups is checked whole: its rows refer to each other (a child may come
//! before its parent), so they are held until the file ends, then each is checked against
//! the tree the catalogue will hold (an unknown parent, a parent of another target type, a
//! cycle) and staged or rejected by its line.

use std::collections::{BTreeMap, HashMap};

use super::csv_source::Row;
use super::held_rows::{HeldRow, HeldRows};
use super::rows::assembly_group;
use crate::catalogue::AssemblyGroup;
use crate::catalogue::tree::place_problem;
use crate::store::{Staging, StoreError};

/// The nodes one tree file may hold: TecDoc's trees hold a few thousand each.
pub const MAX_NODES: usize = 200_000;

/// The rows of an assembly-groups file, held until it ends.
pub(super) struct TreeFile(HeldRows<AssemblyGroup>);

impl Default for TreeFile {
    fn default() -> Self {
        TreeFile(HeldRows::new(MAX_NODES, "an assembly-group file"))
    }
}

impl TreeFile {
    /// Reads one row.
    pub(super) fn take(&mut self, row: &Row<'_>) -> Result<(), String> {
        self.0.take(row, assembly_group)
    }

    /// Checks every row against the tree as it will be and stages the sound ones; returns
    /// the rejected rows' lines and reasons. `replacing`: the file is the whole tree (the
    /// catalogue's nodes it does not hold go).
    pub(super) fn stage(
        self,
        staging: &mut Staging<'_>,
        file: u16,
        replacing: bool,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        let current: HashMap<u32, AssemblyGroup> = if replacing {
            HashMap::new()
        } else {
            staging
                .current_assembly_groups()?
                .into_iter()
                .map(|n| (n.id, n))
                .collect()
        };
        let mut tree = current.clone();
        for row in &self.0.rows {
            match row.remove {
                true => tree.remove(&row.record.id),
                false => tree.insert(row.record.id, row.record.clone()),
            };
        }
        let rejected: Vec<_> = unsound(&self.0.rows, &mut tree, &current)
            .into_iter()
            .collect();
        self.0.stage_but(staging, file, &rejected)?;
        Ok(rejected)
    }
}

/// The rows whose node does not hold in `tree`, by line, with the reason. A rejected row
/// leaves its node as `current` holds it (or out of the tree), and the rows under it are
/// checked again against that.
fn unsound(
    rows: &[HeldRow<AssemblyGroup>],
    tree: &mut HashMap<u32, AssemblyGroup>,
    current: &HashMap<u32, AssemblyGroup>,
) -> BTreeMap<u64, String> {
    let mut rejected = BTreeMap::new();
    loop {
        let mut more = false;
        for row in rows.iter().filter(|r| !r.remove) {
            if rejected.contains_key(&row.line) {
                continue;
            }
            if let Some(reason) = place_problem(&row.record, tree) {
                rejected.insert(row.line, format!("column 'parent_id': {reason}"));
                if tree.get(&row.record.id) == Some(&row.record) {
                    match current.get(&row.record.id) {
                        Some(kept) => tree.insert(kept.id, kept.clone()),
                        None => tree.remove(&row.record.id),
                    };
                }
                more = true;
            }
        }
        if !more {
            return rejected;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::TargetType;

    fn node(id: u32, parent: Option<u32>) -> AssemblyGroup {
        AssemblyGroup {
            id,
            parent,
            target_type: TargetType::PassengerCar,
            name: format!("node {id}"),
            sort: 0,
        }
    }

    fn held(line: u64, n: AssemblyGroup) -> HeldRow<AssemblyGroup> {
        HeldRow {
            line,
            record: n,
            remove: false,
        }
    }

    #[test]
    fn unknown_parents_cycles_and_their_children_are_rejected() {
        let rows = vec![
            held(2, node(11, Some(10))), // a child before its parent
            held(3, node(10, None)),
            held(4, node(20, Some(99))), // no such parent
            held(5, node(21, Some(20))), // under a rejected node
            held(6, node(30, Some(31))), // 30 → 31 → 30
            held(7, node(31, Some(30))),
        ];
        let mut tree: HashMap<u32, AssemblyGroup> = rows
            .iter()
            .map(|r| (r.record.id, r.record.clone()))
            .collect();
        let rejected = unsound(&rows, &mut tree, &HashMap::new());
        let lines: Vec<u64> = rejected.keys().copied().collect();
        assert_eq!(lines, vec![4, 5, 6, 7], "{rejected:?}");
        assert!(rejected[&4].contains("node 99, is not in the catalogue"));
        assert!(
            rejected[&6].contains("cycle (30 → 31 → 30)"),
            "{}",
            rejected[&6]
        );
        assert!(tree.contains_key(&11) && tree.contains_key(&10));
    }

    #[test]
    fn a_child_of_another_target_type_is_rejected() {
        let mut truck = node(2, Some(1));
        truck.target_type = TargetType::Commercial;
        let tree = HashMap::from([(1, node(1, None)), (2, truck.clone())]);
        let problem = place_problem(&truck, &tree).unwrap();
        assert!(problem.contains("target type P, node 2 of C"), "{problem}");
    }
}
