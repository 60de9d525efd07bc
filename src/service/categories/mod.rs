//! The assembly-group trees (the categories): their nodes, the generic articles under them
//! and the nodes a shop's category page shows.

pub mod category_tree;
pub mod child_nodes;
