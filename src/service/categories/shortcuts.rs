//! The search tree's shortcuts (`getShortCuts2`): its first level, the ways in a shop lists
//! above the tree. A shortcut's id is its node's, which `getChildNodesAllLinkingTarget2`
//! takes as `shortCutId`.

use super::child_nodes::{self, ChildNodesAsked};
use crate::catalogue::{AssemblyGroup, TargetType};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;

/// Which shortcuts a request asks for.
pub struct ShortcutsAsked {
    /// The vehicle type whose tree is asked.
    pub vehicle: Field<Option<i64>>,
    /// The tree's kind; with a vehicle, it must be the vehicle's.
    pub kinds: Field<Option<&'static [TargetType]>>,
    /// Only the shortcuts with parts of the vehicle below them.
    pub linked: Field<bool>,
}

/// The shortcuts `q` asks for, in tree order.
pub fn shortcuts(
    context: &Context,
    asked: &Asked<'_>,
    q: &ShortcutsAsked,
) -> Result<Vec<AssemblyGroup>, ServiceError> {
    let roots = ChildNodesAsked {
        parent: Field::new("parentNodeId", None),
        shortcut: Field::new("shortCutId", None),
        below: false,
        vehicle: q.vehicle,
        kinds: q.kinds,
        linked: q.linked,
    };
    Ok(child_nodes::child_nodes(context, asked, &roots)?
        .into_iter()
        .map(|node| node.group)
        .collect())
}
