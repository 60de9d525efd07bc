//! The search facets of `getArticles`' answer: matches per brand and per generic article
//! (those per assembly group are in `assembly_groups.rs`).

use poem_openapi::Object;
use serde::Serialize;

/// A count of matches per brand.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "DataSupplierFacetCount", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct DataSupplierFacetCount {
    /// The brand.
    pub data_supplier_id: i32,
    /// The brand again (Pegasus gives the brand's manufacturer).
    pub mfr_id: i32,
    /// The brand's name.
    pub mfr_name: String,
    /// Matches of the brand.
    pub count: i64,
}

/// Matches per brand (`includeDataSupplierFacets`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "DataSupplierFacetCounts", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct DataSupplierFacets {
    /// How many counts there are.
    pub total: i32,
    /// One per brand with matches.
    pub counts: Vec<DataSupplierFacetCount>,
}

/// A count of matches per generic article.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "GenericArticleFacetCount", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct GenericArticleFacetCount {
    /// The generic article (genart).
    pub generic_article_id: i32,
    /// Its name.
    pub generic_article_description: String,
    /// Matches of the generic article.
    pub count: i64,
}

/// Matches per generic article (`includeGenericArticleFacets`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "GenericArticleFacetCounts", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct GenericArticleFacets {
    /// How many counts there are.
    pub total: i32,
    /// One per generic article with matches.
    pub counts: Vec<GenericArticleFacetCount>,
}
