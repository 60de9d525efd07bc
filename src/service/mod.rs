//! What partscat does, whatever protocol asks: lookups, prices, export scans, dynamic access,
//! provider administration and the job runner. No HTTP and no storage engine here: the
//! `/svc` handlers, the SOAP and JSON operations and the command line are adapters that
//! turn requests into these calls and their results into answers, and the store is reached
//! through `crate::store`'s catalogue and records.

pub mod access;
pub mod admin;
pub mod articles;
pub mod asked;
pub mod caller;
pub mod categories;
pub mod compaction;
pub mod context;
pub mod deliveries;
pub mod dmm;
mod error;
pub mod exports;
pub mod field;
pub mod jobs;
pub mod language;
pub mod media_files;
pub mod media_inventory;
pub mod media_links;
pub mod names;
pub mod prices;
pub mod reference_lists;
pub mod snapshot;
pub mod status;
pub mod sync;
pub mod upload;
pub mod vehicles;

pub use error::ServiceError;
pub use snapshot::Snapshot;
