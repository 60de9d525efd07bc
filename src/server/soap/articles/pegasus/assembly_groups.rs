//! `getArticles`' assembly-group facets (`assemblyGroupFacetOptions`): the matches per node of
//! a tree, as Pegasus answers them.

use poem_openapi::Object;
use serde::Serialize;

/// One node's count (Pegasus's `AssemblyGroupFacetCount`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "AssemblyGroupFacetCount", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct AssemblyGroupFacetCount {
    /// The node (`assemblyGroupNodeIds` of `getArticles`).
    pub assembly_group_node_id: i64,
    /// Its name.
    pub assembly_group_name: String,
    /// Its tree's linkage-target type (`P`).
    pub assembly_group_type: String,
    /// Its parent; absent for a root.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_node_id: Option<i64>,
    /// How many child nodes it has in the tree.
    pub children: i32,
    /// The matches whose generic article sits at or below the node.
    pub count: i64,
}

/// The matches per node (`assemblyGroupFacetOptions.enabled`), parents first.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "AssemblyGroupFacetCounts", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct AssemblyGroupFacets {
    /// How many counts there are.
    pub total: i32,
    /// One per node with matches (every node with `includeCompleteTree`).
    pub counts: Vec<AssemblyGroupFacetCount>,
}
