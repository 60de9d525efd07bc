//! The search facets of `getArticles`' answer: matches per brand, per generic article and
//! per criterion value (those per assembly group are in `assembly_groups.rs`).

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

/// A count of matches per criterion value.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "CriteriaFacetCount", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct CriteriaFacetCount {
    /// The criterion's number (`criteriaFilters` takes it with `rawValue`).
    pub criteria_id: i32,
    /// What is measured.
    pub criteria_description: String,
    /// Its short name, where its definition gives one.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criteria_abbr_description: Option<String>,
    /// The unit, where the value has one.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criteria_unit_description: Option<String>,
    /// `N` a number, `A` text, `K` a key of a key table, `D` a date, `V` no value.
    pub criteria_type: String,
    /// The value as the catalogue holds it (a key-table criterion's key).
    pub raw_value: String,
    /// The value's text with its unit.
    pub formatted_value: String,
    /// Matches with the value.
    pub count: i64,
}

/// Matches per criterion value (`includeCriteriaFacets`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "CriteriaFacetCounts", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct CriteriaFacets {
    /// How many counts there are.
    pub total: i32,
    /// One per criterion value with matches, in the criteria's and values' order.
    pub counts: Vec<CriteriaFacetCount>,
}
