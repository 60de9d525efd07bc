//! The assembly groups (Pegasus's search tree): of a tree, or of a vehicle type with the
//! count of its parts under each (`service::categories::child_nodes`).

use serde_json::Value;

pub mod messages;

use messages::*;

use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::codes::target_types;
use crate::service::asked::{Asked, Unheld};
use crate::service::categories::child_nodes::{self, ChildNodesAsked};
use crate::service::field::Field;

pub fn get_child_nodes(call: &Call<'_>, r: GetChildNodesRequest) -> Result<Value, Failure> {
    let asked = Asked::new()
        .country("articleCountry", r.article_country.as_deref())
        .value(
            "shortCutId",
            r.short_cut_id.is_some(),
            Unheld::TreeShortcuts,
        );
    let kinds = "linkingTargetType";
    let question = ChildNodesAsked {
        parent: Field::new("parentNodeId", r.parent_node_id),
        below: r.child_nodes.unwrap_or(false),
        vehicle: Field::new("linkingTargetId", r.linking_target_id),
        kinds: Field::new(
            kinds,
            target_types(kinds, r.linking_target_type.as_deref())?,
        ),
        linked: Field::new("linked", r.linked.unwrap_or(false)),
    };
    let records: Vec<ChildNodeRecord> = child_nodes::child_nodes(call.context, &asked, &question)?
        .into_iter()
        .map(|node| ChildNodeRecord {
            assembly_group_name: node.group.name,
            assembly_group_node_id: node.group.id.into(),
            has_childs: node.has_children,
            parent_node_id: node.group.parent.map(i64::from),
            article_count: node.articles.map(|n| n as u64),
        })
        .collect();
    answer(&ChildNodeList::of(records))
}
