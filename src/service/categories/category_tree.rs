//! The assembly-group tree of one linkage-target type and where each generic article sits in
//! it: which nodes a question names, the generic articles below a node, and a search's
//! matches counted per node (`getArticles`' assembly-group facets).

use std::collections::{BTreeMap, BTreeSet};

use crate::catalogue::{AssemblyGroup, GenartGroup, TargetType};
use crate::service::ServiceError;
use crate::service::context::Context;
use crate::service::field::Field;
use crate::service::names::Names;
use crate::store::Catalogue;

/// Which nodes of a tree a question wants; a node named is named by a request's field.
#[derive(Debug, Clone, Copy)]
pub enum Nodes {
    /// The children of a node, or the roots.
    Children(Option<Field<u32>>),
    /// Every node below a node, or the whole tree.
    Below(Option<Field<u32>>),
}

/// The assembly-group tree of one target type, and where each generic article sits.
pub struct Tree {
    pub(in crate::service) nodes: BTreeMap<u32, AssemblyGroup>,
    pub(in crate::service) children: BTreeMap<Option<u32>, Vec<u32>>,
    pub(in crate::service) genarts: BTreeMap<u32, BTreeSet<u32>>,
}

impl Tree {
    pub fn read(catalogue: &Catalogue, target: TargetType) -> Result<Tree, ServiceError> {
        Tree::read_where(catalogue, |node| node.target_type == target)
    }

    /// The nodes `keep` keeps (every tree's, where it keeps all).
    fn read_where(
        catalogue: &Catalogue,
        keep: impl Fn(&AssemblyGroup) -> bool,
    ) -> Result<Tree, ServiceError> {
        let mut nodes = BTreeMap::new();
        for node in catalogue.records::<AssemblyGroup>() {
            let node = node?;
            if keep(&node) {
                nodes.insert(node.id, node);
            }
        }
        let mut children: BTreeMap<Option<u32>, Vec<u32>> = BTreeMap::new();
        for node in nodes.values() {
            children.entry(node.parent).or_default().push(node.id);
        }
        for list in children.values_mut() {
            list.sort_by_key(|id| (nodes[id].sort, nodes[id].name.clone(), *id));
        }
        let mut genarts: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
        for g in catalogue.records::<GenartGroup>() {
            let g = g?;
            if nodes.contains_key(&g.node) {
                genarts.entry(g.node).or_default().insert(g.genart);
            }
        }
        Ok(Tree {
            nodes,
            children,
            genarts,
        })
    }

    pub fn contains(&self, node: u32) -> bool {
        self.nodes.contains_key(&node)
    }

    /// Whether `node` is `ancestor` or lies below it.
    pub fn is_within(&self, node: u32, ancestor: u32) -> bool {
        let mut at = Some(node);
        while let Some(id) = at {
            if id == ancestor {
                return true;
            }
            at = self.nodes.get(&id).and_then(|n| n.parent);
        }
        false
    }

    /// `node` and every node below it, parents before children.
    fn subtree(&self, node: u32) -> Vec<u32> {
        let mut out = vec![node];
        let mut at = 0;
        while at < out.len() {
            out.extend(self.children.get(&Some(out[at])).into_iter().flatten());
            at += 1;
        }
        out
    }

    /// The generic articles placed at or below `node`.
    pub fn genarts_below(&self, node: u32) -> BTreeSet<u32> {
        self.subtree(node)
            .iter()
            .filter_map(|n| self.genarts.get(n))
            .flatten()
            .copied()
            .collect()
    }

    /// The generic articles placed at or below any of `nodes`; `Err` names the first node the
    /// tree does not hold.
    pub fn genarts_below_all(&self, nodes: &[u32]) -> Result<BTreeSet<u32>, u32> {
        let mut genarts = BTreeSet::new();
        for &node in nodes {
            if !self.contains(node) {
                return Err(node);
            }
            genarts.extend(self.genarts_below(node));
        }
        Ok(genarts)
    }

    /// The nodes `which` names, in tree order (parents first, siblings by sort).
    pub(in crate::service) fn select(&self, which: Nodes) -> Result<Vec<u32>, ServiceError> {
        let start = match which {
            Nodes::Children(Some(n)) | Nodes::Below(Some(n)) if !self.contains(n.value) => {
                return Err(ServiceError::bad_parameter(
                    n.name,
                    format!(
                        "{} is not a node of the vehicle's assembly-group tree",
                        n.value
                    ),
                ));
            }
            Nodes::Children(parent) => {
                let parent = parent.map(|p| p.value);
                return Ok(self.children.get(&parent).cloned().unwrap_or_default());
            }
            Nodes::Below(parent) => parent.map(|p| p.value),
        };
        let roots = match start {
            Some(n) => self.children.get(&Some(n)).cloned().unwrap_or_default(),
            None => self.children.get(&None).cloned().unwrap_or_default(),
        };
        let mut out = Vec::new();
        for root in roots {
            // Depth first, so each node comes before its children.
            let mut stack = vec![root];
            while let Some(n) = stack.pop() {
                out.push(n);
                if let Some(kids) = self.children.get(&Some(n)) {
                    stack.extend(kids.iter().rev());
                }
            }
        }
        Ok(out)
    }
}

/// The generic articles placed at or below any of `nodes`, of whichever tree; a node the
/// catalogue does not hold is a bad parameter naming `field`.
pub fn genarts_under(
    catalogue: &Catalogue,
    nodes: &[u32],
    field: &'static str,
) -> Result<BTreeSet<u32>, ServiceError> {
    let tree = Tree::read_where(catalogue, |_| true)?;
    tree.genarts_below_all(nodes).map_err(|node| {
        ServiceError::bad_parameter(
            field,
            format!(
                "{node} is not an assembly group of the catalogue (getChildNodesAllLinkingTarget2)"
            ),
        )
    })
}

/// One node's count among a search's matches.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupFacet {
    pub group: AssemblyGroup,
    /// How many child nodes the node has in the tree.
    pub children: u32,
    pub count: u32,
}

/// A search's matches per node of the `target` tree, from its matches per generic article:
/// a node counts the matches whose generic article sits at or below it. `complete`: every
/// node, else those with matches; `max_depth`: the roots are depth 1. Parents first.
pub fn group_facets(
    context: &Context,
    target: TargetType,
    by_genart: &BTreeMap<u32, u32>,
    complete: bool,
    max_depth: Option<u32>,
) -> Result<Vec<GroupFacet>, ServiceError> {
    let tree = Tree::read(context.snapshot(), target)?;
    let names = context.names();
    let mut facets = Vec::new();
    // Depth first from each root, with each node's depth.
    let mut stack: Vec<(u32, u32)> = tree
        .children
        .get(&None)
        .into_iter()
        .flatten()
        .rev()
        .map(|&id| (id, 1))
        .collect();
    while let Some((id, depth)) = stack.pop() {
        if max_depth.is_some_and(|max| depth > max) {
            continue;
        }
        let count: u32 = tree
            .genarts_below(id)
            .iter()
            .filter_map(|g| by_genart.get(g))
            .sum();
        let kids = tree.children.get(&Some(id));
        if complete || count > 0 {
            facets.push(GroupFacet {
                group: named(&names, &tree.nodes[&id])?,
                children: kids.map_or(0, |k| k.len() as u32),
                count,
            });
        }
        if let Some(kids) = kids {
            stack.extend(kids.iter().rev().map(|&k| (k, depth + 1)));
        }
    }
    Ok(facets)
}

/// The nodes of the `target` tree that `which` names, each with whether a node is below it.
pub fn groups_of_tree(
    context: &Context,
    target: TargetType,
    which: Nodes,
) -> Result<Vec<(AssemblyGroup, bool)>, ServiceError> {
    let tree = Tree::read(context.snapshot(), target)?;
    let names = context.names();
    tree.select(which)?
        .into_iter()
        .map(|id| {
            let has_children = tree.children.contains_key(&Some(id));
            Ok((named(&names, &tree.nodes[&id])?, has_children))
        })
        .collect()
}

/// `node` with its name in the names' language.
pub(in crate::service) fn named(
    names: &Names<'_>,
    node: &AssemblyGroup,
) -> Result<AssemblyGroup, ServiceError> {
    Ok(AssemblyGroup {
        name: names.assembly_group(node.id, &node.name)?,
        ..node.clone()
    })
}
