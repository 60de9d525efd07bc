//! Parameter examples for the OpenAPI document: what "Try it out" in `/docs` starts from, each
//! present in the demo catalogue (the answers' examples are in `examples.rs`).

use super::data_set::{DataSet, DataSetOrAll};
use crate::import::ImportType;

pub fn provider() -> String {
    "demo".into()
}

pub fn reference() -> String {
    "0 986 494 958".into()
}

/// What a clerk has typed of the example reference so far.
pub fn typed_number() -> String {
    "0986 494".into()
}

/// The demo's 0 986 494 958 (brake pads), which has a picture.
pub fn article_id() -> u32 {
    462
}

pub fn media_uri() -> String {
    "media/1/0986494958.jpg".into()
}

pub fn ktype() -> String {
    "10219".into()
}

/// The demo's VW.
pub fn vehicle_maker() -> u32 {
    1
}

/// The demo's GOLF VII.
pub fn model_series() -> u32 {
    101
}

pub fn brand_id() -> u32 {
    1
}

pub fn manufacturer_id() -> u32 {
    102
}

/// Brake discs: priced articles that fit the example Ktype.
pub fn genart() -> u32 {
    82
}

/// The demo's own prices file, which `serve --demo` puts into an empty inbox.
pub fn import_type() -> DataSet {
    DataSet::of(ImportType::Prices)
}

pub fn import_type_or_all() -> DataSetOrAll {
    DataSetOrAll::of(Some(ImportType::Prices))
}

/// `dryRun`: the example import validates and writes nothing.
pub fn dry_run() -> bool {
    true
}

/// `refresh`: only what changed.
pub fn refresh() -> bool {
    false
}

pub fn file_id() -> String {
    "prices.csv".into()
}

/// The job of the first import since the server started (the `importArticles` example's).
pub fn job_id() -> u32 {
    1
}
