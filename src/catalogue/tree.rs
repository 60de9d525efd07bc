//! The rule an assembly-group tree keeps: every node's parent is a node of the same target
//! type, and walking up from any node reaches a root.

use std::collections::{HashMap, HashSet};

use super::model::AssemblyGroup;

/// What is wrong with `node`'s place in `tree`, if anything.
pub fn place_problem(node: &AssemblyGroup, tree: &HashMap<u32, AssemblyGroup>) -> Option<String> {
    let parent_id = node.parent?;
    let Some(parent) = tree.get(&parent_id) else {
        return Some(format!(
            "its parent, node {parent_id}, is not in the catalogue"
        ));
    };
    if parent.target_type != node.target_type {
        return Some(format!(
            "its parent, node {parent_id}, is of target type {}, node {} of {}",
            parent.target_type.code(),
            node.id,
            node.target_type.code()
        ));
    }
    // Up from the parent: a walk that comes back to the node is a cycle.
    let mut path = vec![node.id, parent_id];
    let mut seen = HashSet::from([node.id]);
    let mut at = parent;
    while let Some(up) = at.parent {
        if !seen.insert(at.id) || up == node.id {
            path.push(up);
            let shown: Vec<String> = path.iter().map(u32::to_string).collect();
            return Some(format!("makes a cycle ({})", shown.join(" → ")));
        }
        path.push(up);
        at = tree.get(&up)?;
    }
    None
}
