//! The search tree's requests and records as Pegasus's DLB schema declares them.

use poem_openapi::Object;
use serde::Serialize;

request!(
    /// `getChildNodesAllLinkingTarget2` (Pegasus's `childNodesAllLinkingTarget2Request`):
    /// the assembly groups of a tree, or of a vehicle type with the parts that fit it.
    GetChildNodesRequest {
        /// As `getManufacturers2`'s `country`.
        article_country: Option<String>,
        /// true: every node below `parentNodeId` (or the whole tree); false: its children
        /// (or the roots).
        child_nodes: Option<bool>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// true: only the nodes with parts that fit `linkingTargetId` (required then).
        linked: Option<bool>,
        /// The vehicle type (Ktype): its tree, and with `linked` its parts.
        linking_target_id: Option<i64>,
        /// The tree's kind; with `linkingTargetId` it must name the vehicle's kind.
        linking_target_type: Option<String>,
        /// The node whose children are asked for; none: the roots.
        parent_node_id: Option<i64>,
        /// A shortcut of `getShortCuts2`: the nodes are those within it (its children
        /// where `parentNodeId` is absent; none where `parentNodeId` lies outside it).
        short_cut_id: Option<i64>,
    }
);

/// An assembly group (Pegasus's `childNodesAllLinkingTarget2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "childNodesAllLinkingTarget2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ChildNodeRecord {
    /// The node's name (`Brake Pads`).
    pub assembly_group_name: String,
    /// The node's id (`assemblyGroupNodeIds` of `getArticles`).
    pub assembly_group_node_id: i64,
    /// Whether a node below it is answered too (with `linked`: has parts for the vehicle).
    pub has_childs: bool,
    /// Absent for a root.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_node_id: Option<i64>,
    /// partscat's: the parts at or below the node that fit the vehicle (with
    /// `linkingTargetId`).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_count: Option<u64>,
}

record_list!(
    /// `getChildNodesAllLinkingTarget2`.
    ChildNodeList,
    ChildNodeRecordSeq,
    "childNodesAllLinkingTarget2RecordSeq",
    ChildNodeRecord
);

request!(
    /// `getShortCuts2` (Pegasus's `shortCuts2Request`): the shortcuts into the search tree,
    /// its first level, of a tree or of a vehicle type.
    GetShortCuts2Request {
        /// As `getManufacturers2`'s `country`.
        article_country: Option<String>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// true: only the shortcuts with parts that fit `linkingTargetId` (required then).
        linked: Option<bool>,
        /// The vehicle type (Ktype) whose tree is asked.
        linking_target_id: Option<i64>,
        /// The tree's kind; with `linkingTargetId` it must name the vehicle's kind.
        linking_target_type: Option<String>,
    }
);

/// A shortcut into the search tree (Pegasus's `shortCuts2Record`): a node of its first
/// level.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "shortCuts2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ShortCuts2Record {
    /// The node's id: `shortCutId` (or `parentNodeId`) of `getChildNodesAllLinkingTarget2`.
    pub short_cut_id: i64,
    /// The node's name.
    pub short_cut_name: String,
}

record_list!(
    /// `getShortCuts2`.
    ShortCuts2List,
    ShortCuts2RecordSeq,
    "shortCuts2RecordSeq",
    ShortCuts2Record
);
