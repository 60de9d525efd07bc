//! The vehicles: makes, model series and vehicle types (by id, by criteria, by plate), a
//! vehicle's tree and its parts, and the articles and prices of a Ktype.

pub mod engines;
pub mod linkage_targets;
pub mod plates;
pub mod vehicle_articles;
pub mod vehicle_criteria;
pub mod vehicle_parts;
pub mod vehicle_path;
pub mod vins;
