//! What partscat does, whatever protocol asks: lookups, prices, export scans, dynamic access,
//! provider administration and the job runner. No HTTP and no storage engine here: the
//! `/svc` handlers, the SOAP and JSON operations and the command line are adapters that
//! turn requests into these calls and their results into answers, and the store is reached
//! through `crate::store`'s catalogue and records.

pub mod access;
pub mod admin;
pub mod article_detail;
pub mod article_links;
pub mod article_page;
pub mod article_query;
pub mod article_search;
pub mod article_view;
pub mod articles_by_ids;
pub mod asked;
pub mod autocomplete;
pub mod caller;
pub mod category_tree;
pub mod child_nodes;
pub mod compaction;
pub mod context;
pub mod deliveries;
pub mod direct_search;
pub mod dmm;
mod error;
pub mod exports;
pub mod field;
pub mod free_text;
pub mod jobs;
pub mod kit_parts;
pub mod language;
pub mod linkage_targets;
pub mod locales;
pub mod lookups;
pub mod media_files;
pub mod media_inventory;
pub mod names;
pub mod plates;
pub mod prices;
pub mod reference_lists;
pub mod snapshot;
pub mod status;
pub mod suggestions;
pub mod sync;
pub mod upload;
pub mod vehicle_articles;
pub mod vehicle_criteria;
pub mod vehicle_parts;
pub mod vehicle_path;

pub use error::ServiceError;
pub use snapshot::Snapshot;
