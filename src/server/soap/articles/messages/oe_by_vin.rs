//! `getOEArticlesByVIN`, as Pegasus's DLB schema declares it (`oEArticlesByVINRequest`,
//! `oEArticlesByVINResponse`).

use poem_openapi::Object;
use serde::Serialize;

use super::{AssemblyGroupFacetOptions, Sort};
use crate::server::soap::articles::pegasus;

request!(
    /// `getOEArticlesByVIN`: the vehicle makers' (OE) part numbers for the vehicle a VIN
    /// names, as the catalogue's articles linked to its vehicle types cross to them.
    GetOeArticlesByVinRequest {
        /// The VIN: 17 characters (spaces, dashes and case aside), read against the `vins`
        /// data set. Required.
        vin: Option<String>,
        /// A country (ISO 3166-1, any case): every article is valid in each.
        article_country: Option<String>,
        /// Only the aftermarket articles of these brands (data suppliers); at most 100.
        #[oai(validator(max_items = 100))]
        aftermarket_data_supplier_ids: Vec<u32>,
        /// Only OE parts of these generic articles; at most 1000.
        #[oai(validator(max_items = 1000))]
        generic_article_ids: Vec<u32>,
        /// Only OE parts whose generic article sits at or below one of these assembly groups
        /// (`assemblyGroupNodeId` of `getChildNodesAllLinkingTarget2`); at most 1000.
        #[oai(validator(max_items = 1000))]
        assembly_group_node_ids: Vec<i64>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// 0 to 100 (default 10); 0: counts and facets only.
        per_page: Option<u32>,
        /// From 1 (default).
        page: Option<u32>,
        /// `mfrName` (the vehicle maker's name, the default), `articleNumber` or
        /// `genericArticleName`; the first entry decides.
        sort: Vec<Sort>,
        /// Each OE part's aftermarket articles (`matchingAftermarketArticles`); default false.
        include_aftermarket_matches: Option<bool>,
        /// OE parts per generic article (`genericArticleFacets`); default false.
        include_generic_article_facets: Option<bool>,
        /// OE parts per brand of the articles crossing to them
        /// (`aftermarketDataSupplierFacets`); default false.
        include_aftermarket_data_supplier_facets: Option<bool>,
        /// OE parts per assembly group of their generic articles (`assemblyGroupFacets`).
        assembly_group_facet_options: Option<AssemblyGroupFacetOptions>,
    }
);

/// A key and value TecDoc gives an OE part (Pegasus's `OEAttributeRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "OEAttributeRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct OeAttribute {
    /// What the attribute says.
    pub key: String,
    /// Its value.
    pub value: String,
}

/// A vehicle maker's part (Pegasus's `OEArticleRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "OEArticleRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct OeArticleRecord {
    /// The OE number, as the first article crossing to it writes it.
    pub article_number: String,
    /// The vehicle maker (`manuId` of `getManufacturers2`); 0 where the data names none.
    pub mfr_id: u32,
    /// The vehicle maker's name; empty where there is none.
    pub mfr_name: String,
    /// The generic article of the articles crossing to it.
    pub generic_article_id: u32,
    /// Its name, in the asked language.
    pub generic_article_description: String,
    /// Always empty: the catalogue keeps no successors of OE numbers.
    pub replaced_by_articles: Vec<String>,
    /// Always empty: the catalogue keeps criteria of its own articles only.
    pub tec_doc_criteria: Vec<pegasus::CriteriaRecord>,
    /// Always empty: the catalogue keeps no attributes of OE numbers.
    pub oe_attributes: Vec<OeAttribute>,
    /// The catalogue's articles that cross to it (with `includeAftermarketMatches`), by
    /// brand name and number.
    pub matching_aftermarket_articles: Vec<pegasus::ArticleRef>,
}

/// `getOEArticlesByVIN`'s answer (Pegasus's `oEArticlesByVINResponse`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct OeArticlesByVin {
    /// How many OE parts match, on every page.
    #[oai(rename = "totalMatchingOEArticles")]
    #[serde(rename = "totalMatchingOEArticles")]
    pub total_matching_oe_articles: i64,
    /// The page asked for.
    pub oe_articles: Vec<OeArticleRecord>,
    /// OE parts per brand of the articles crossing to them
    /// (`includeAftermarketDataSupplierFacets`).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aftermarket_data_supplier_facets: Option<pegasus::DataSupplierFacets>,
    /// OE parts per generic article (`includeGenericArticleFacets`).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generic_article_facets: Option<pegasus::GenericArticleFacets>,
    /// OE parts per assembly group (`assemblyGroupFacetOptions.enabled`).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assembly_group_facets: Option<pegasus::AssemblyGroupFacets>,
}
