//! Media files: the local content-addressed store (`media_dir`), fetching from
//! `media_source`, a brand's DMM package, and publishing it to `publish_target`.

pub mod package;
pub mod publish;
pub mod sizes;
pub mod source;
pub mod store;

pub use package::{Package, PackageError};
pub use publish::PublishTarget;
pub use source::{FetchLimits, MediaSource};
pub use store::{MediaStore, Stored};
