//! The assembly groups (Pegasus's search tree): of a tree, or of a vehicle type with the
//! count of its parts under each (`service::categories::child_nodes`), and the shortcuts
//! into it (`service::categories::shortcuts`).

use serde_json::Value;

pub mod messages;

use messages::*;

use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::codes::target_types;
use crate::service::asked::Asked;
use crate::service::categories::child_nodes::{self, ChildNodesAsked};
use crate::service::categories::shortcuts::{self, ShortcutsAsked};
use crate::service::field::Field;

pub fn get_child_nodes(call: &Call<'_>, r: GetChildNodesRequest) -> Result<Value, Failure> {
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    let kinds = "linkingTargetType";
    let question = ChildNodesAsked {
        parent: Field::new("parentNodeId", r.parent_node_id),
        shortcut: Field::new("shortCutId", r.short_cut_id),
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

pub fn get_short_cuts2(call: &Call<'_>, r: GetShortCuts2Request) -> Result<Value, Failure> {
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    let kinds = "linkingTargetType";
    let question = ShortcutsAsked {
        vehicle: Field::new("linkingTargetId", r.linking_target_id),
        kinds: Field::new(
            kinds,
            target_types(kinds, r.linking_target_type.as_deref())?,
        ),
        linked: Field::new("linked", r.linked.unwrap_or(false)),
    };
    let records = shortcuts::shortcuts(call.context, &asked, &question)?
        .into_iter()
        .map(|group| ShortCuts2Record {
            short_cut_id: group.id.into(),
            short_cut_name: group.name,
        })
        .collect();
    answer(&ShortCuts2List::of(records))
}
