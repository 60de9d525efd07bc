//! The assembly groups (Pegasus's search tree): of a tree, or of a vehicle type with the
//! count of its parts under each (`service::category_tree`, `vehicle_path`).

use serde_json::Value;

pub mod messages;

use messages::*;

use crate::catalogue::TargetType;
use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::vehicles::id;
use crate::service::category_tree::{self, Nodes};
use crate::service::vehicle_path;
use crate::service::{ServiceError, market};

pub fn get_child_nodes(call: &Call<'_>, r: GetChildNodesRequest) -> Result<Value, Failure> {
    let countries = call.context.countries();
    market::country("articleCountry", r.article_country.as_deref(), countries)?;
    market::not_held(
        "shortCutId",
        &r.short_cut_id,
        "is not held: the catalogue has no shortcuts into the tree",
    )?;
    let targets = market::target_types("linkingTargetType", r.linking_target_type.as_deref())?;
    let parent = r
        .parent_node_id
        .map(|p| id("parentNodeId", p))
        .transpose()?;
    let which = match r.child_nodes.unwrap_or(false) {
        true => Nodes::Below(parent),
        false => Nodes::Children(parent),
    };
    let linked = r.linked.unwrap_or(false);
    let snapshot = call.context.snapshot();
    let records: Vec<ChildNodeRecord> = match r.linking_target_id {
        Some(ktype) => {
            let vehicle = vehicle_path::vehicle(snapshot, &ktype.to_string(), "linkingTargetId")?;
            if targets.is_some_and(|ts| !ts.contains(&vehicle.target_type)) {
                return Err(ServiceError::bad_parameter(
                    "linkingTargetType",
                    format!(
                        "does not name vehicle type {ktype}'s kind, {}",
                        vehicle.target_type.code()
                    ),
                )
                .into());
            }
            vehicle_path::groups_for_vehicle(call.context, &vehicle, which, linked)?
                .into_iter()
                .map(|g| ChildNodeRecord {
                    assembly_group_name: g.group.name,
                    assembly_group_node_id: g.group.id.into(),
                    has_childs: g.has_children,
                    parent_node_id: g.group.parent.map(i64::from),
                    article_count: Some(g.articles as u64),
                })
                .collect()
        }
        None if linked => {
            return Err(ServiceError::bad_parameter(
                "linkingTargetId",
                "is required when 'linked' is true",
            )
            .into());
        }
        None => {
            let target = match targets {
                None => TargetType::PassengerCar,
                Some([one]) => *one,
                Some(_) => {
                    return Err(ServiceError::bad_parameter(
                        "linkingTargetType",
                        "must name one tree (not a group) without 'linkingTargetId'",
                    )
                    .into());
                }
            };
            category_tree::groups_of_tree(call.context, target, which)?
                .into_iter()
                .map(|(group, has_childs)| ChildNodeRecord {
                    assembly_group_name: group.name,
                    assembly_group_node_id: group.id.into(),
                    has_childs,
                    parent_node_id: group.parent.map(i64::from),
                    article_count: None,
                })
                .collect()
        }
    };
    answer(&ChildNodeList::of(records))
}
