//! The assembly groups a shop's category page shows (`getChildNodesAllLinkingTarget2`): of
//! a tree, or of a vehicle type's tree with the count of the vehicle's parts under each.

use super::category_tree::{self, Nodes, Tree};
use crate::catalogue::{AssemblyGroup, TargetType};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;
use crate::service::vehicles::vehicle_path;

/// Which assembly groups a request asks for.
pub struct ChildNodesAsked {
    /// The node whose children (or, `below`, every node below) are asked; none: the roots, or
    /// the shortcut's children.
    pub parent: Field<Option<i64>>,
    /// The shortcut (`getShortCuts2`: a root of the tree) the nodes are asked within: the
    /// parent where none is named; a parent outside it answers no nodes.
    pub shortcut: Field<Option<i64>>,
    pub below: bool,
    /// The vehicle type whose tree is asked, with its parts counted.
    pub vehicle: Field<Option<i64>>,
    /// The tree's kind; with a vehicle, it must be the vehicle's.
    pub kinds: Field<Option<&'static [TargetType]>>,
    /// Only the nodes with parts of the vehicle below them.
    pub linked: Field<bool>,
}

/// A node of the answer.
pub struct ChildNode {
    pub group: AssemblyGroup,
    pub has_children: bool,
    /// The vehicle's parts under it, where a vehicle was named.
    pub articles: Option<usize>,
}

/// The nodes `q` asks for, in tree order.
pub fn child_nodes(
    context: &Context,
    asked: &Asked<'_>,
    q: &ChildNodesAsked,
) -> Result<Vec<ChildNode>, ServiceError> {
    asked.check()?;
    let parent = q.parent.map(|p| p.id().map(|id| Field::new(p.name, id)))?;
    let shortcut = q
        .shortcut
        .map(|s| s.id().map(|id| Field::new(s.name, id)))?;
    let (parent, outside) = match (parent, shortcut) {
        (None, shortcut) => (shortcut, None),
        (Some(parent), Some(shortcut)) => (Some(parent), Some((parent.value, shortcut.value))),
        (parent, None) => (parent, None),
    };
    let which = match q.below {
        true => Nodes::Below(parent),
        false => Nodes::Children(parent),
    };
    let (kinds, linked) = (q.kinds, q.linked);
    let Some(ktype) = q.vehicle.value else {
        if linked.value {
            return Err(ServiceError::bad_parameter(
                q.vehicle.name,
                format!("is required when '{}' is true", linked.name),
            ));
        }
        let target = match kinds.value {
            None => TargetType::PassengerCar,
            Some(named) => TargetType::tree_of(named).ok_or_else(|| {
                ServiceError::bad_parameter(
                    kinds.name,
                    format!(
                        "must name one tree (P, O, or one kind) without '{}'",
                        q.vehicle.name
                    ),
                )
            })?,
        };
        if !within_shortcut(context, target, outside)? {
            return Ok(Vec::new());
        }
        let groups = category_tree::groups_of_tree(context, target, which)?;
        return Ok(groups
            .into_iter()
            .map(|(group, has_children)| ChildNode {
                group,
                has_children,
                articles: None,
            })
            .collect());
    };
    let snapshot = context.snapshot();
    let ktype = ktype.to_string();
    let vehicle = vehicle_path::vehicle(snapshot, &ktype, q.vehicle.name)?;
    vehicle_path::kind_of(kinds, &ktype, &vehicle)?;
    if !within_shortcut(context, vehicle.target_type, outside)? {
        return Ok(Vec::new());
    }
    let groups = vehicle_path::groups_for_vehicle(context, &vehicle, which, linked.value)?;
    Ok(groups
        .into_iter()
        .map(|g| ChildNode {
            group: g.group,
            has_children: g.has_children,
            articles: Some(g.articles),
        })
        .collect())
}

/// Whether the parent named beside a shortcut lies within it (`(parent, shortcut)`; none
/// named: it does).
fn within_shortcut(
    context: &Context,
    target: TargetType,
    named: Option<(u32, u32)>,
) -> Result<bool, ServiceError> {
    let Some((parent, shortcut)) = named else {
        return Ok(true);
    };
    Ok(Tree::read(context.snapshot(), target)?.is_within(parent, shortcut))
}
