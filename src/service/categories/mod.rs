//! The assembly-group trees (the categories): their nodes, the generic articles under them
//! the nodes a shop's category page shows and the shortcuts into them.

pub mod category_tree;
pub mod child_nodes;
pub mod shortcuts;
