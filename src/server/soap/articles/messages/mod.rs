//! Finding articles: the search with its filters, sort and facets, its records, and the direct search over every number.

use crate::server::soap::articles::pegasus;
mod by_ids;
mod by_ids_request;
mod fitment_makers;
mod legacy;
mod linkages;
mod linked_targets3;
mod oe_by_vin;
mod part_list;

pub use by_ids::*;
pub use by_ids_request::*;
pub use fitment_makers::*;
pub use legacy::*;
pub use linkages::*;
pub use linked_targets3::*;
pub use oe_by_vin::*;
pub use part_list::*;

use poem_openapi::{Enum, Object};
use serde::{Deserialize, Serialize};

/// How a number must match: on normalised numbers (letters and digits, upper case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize, Serialize)]
#[oai(rename = "SearchMatchType", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum SearchMatchType {
    Exact,
    Prefix,
    Suffix,
    PrefixOrSuffix,
}

/// A criterion value articles must carry (`criteriaFilters`).
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "CriteriaFilter", rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CriteriaFilter {
    /// The criterion's number (`criteriaId` of `getCriteria2` and of the articles'
    /// criteria).
    pub criteria_id: i32,
    /// The value as the articles' criteria hold it (`rawValue`: a key-table criterion's
    /// key); a number matches the same number however written.
    pub raw_value: String,
}

/// An order for the articles (`sort`).
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "Sort", rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sort {
    /// getArticles: `score` (the default order: brand id, then normalised number),
    /// `mfrName` (brand name), `articleNumber` (normalised number); `articleCreatedOn`,
    /// `linkageCreatedOn` and `linkageSortNum` are accepted and keep the default order
    /// (partscat keeps no creation dates or linkage order numbers). getOEArticlesByVIN:
    /// `mfrName` (the vehicle maker's name, the default), `articleNumber`,
    /// `genericArticleName`.
    pub field: String,
    /// `asc` or `desc`.
    pub direction: String,
}

/// Assembly group facets: the matches per node of a tree (`assemblyGroupFacets`).
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "AssemblyGroupFacetOptions", rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AssemblyGroupFacetOptions {
    /// true: answer `assemblyGroupFacets`.
    pub enabled: Option<bool>,
    /// The tree (`P` by default; one type, not a group).
    pub assembly_group_type: Option<String>,
    /// true: every node of the tree, those without matches with count 0.
    pub include_complete_tree: Option<bool>,
    /// The deepest level answered (the roots are 1).
    pub max_depth: Option<i32>,
}

request!(
    /// `getArticles`: articles by number, with filters, include flags, facets and paging.
    /// Every field of Pegasus 3.0's `articlesRequest` is taken; those partscat has no data
    /// for must be unset, and are refused naming the field otherwise.
    GetArticlesRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The number searched for, written any way.
        search_query: Option<String>,
        /// 0 article number, 1 OE, 2 trade, 3 comparable (competitor), 4 replacement (the
        /// articles replacing it), 5 replaced (the articles it replaces), 6 EAN, 10 any
        /// (default), 99 free text (any number, or every word in the article's description
        /// or generic article name).
        search_type: Option<u32>,
        /// exact (default), prefix, suffix or prefix_or_suffix.
        search_match_type: Option<SearchMatchType>,
        /// Only these articles, by their numeric ids (`genericArticles[].legacyArticleId`); at
        /// most 1000 different ones. Without `searchQuery`, these are the articles listed.
        #[oai(validator(max_items = 1000))]
        legacy_article_ids: Vec<i64>,
        /// Only these brands; at most 100 different ones (repeats are merged).
        #[oai(validator(max_items = 100))]
        data_supplier_ids: Vec<u32>,
        /// Only these generic articles; at most 1000 different ones (repeats are merged).
        #[oai(validator(max_items = 1000))]
        generic_article_ids: Vec<u32>,
        /// Only articles whose generic article sits at or below one of these assembly
        /// groups (`assemblyGroupNodeId` of `getChildNodesAllLinkingTarget2`).
        #[oai(validator(max_items = 1000))]
        assembly_group_node_ids: Vec<i64>,
        /// Only articles with these criterion values: several values of one criterion are
        /// alternatives, several criteria must all hold.
        criteria_filters: Vec<CriteriaFilter>,
        /// Only articles linked to this vehicle type (Ktype).
        linkage_target_id: Option<String>,
        /// The kind of `linkageTargetId` (`P`, `V`, `L`, `B`, `O`, `C`, `T`, `M`, `A`, `K`):
        /// a vehicle type of another kind is refused.
        linkage_target_type: Option<String>,
        /// A country (ISO 3166-1, any case): every vehicle is valid in each.
        linkage_target_country: Option<String>,
        /// Must be absent: partscat keeps no creation dates.
        new_articles_date_from: Option<String>,
        /// Must be absent: partscat keeps no creation dates.
        new_articles_date_to: Option<String>,
        /// Must be absent: partscat keeps no creation dates of linkages.
        new_linkages_date_from: Option<String>,
        /// Must be absent: partscat keeps no creation dates of linkages.
        new_linkages_date_to: Option<String>,
        /// Must be absent: partscat keeps no creation dates of linkages.
        new_linkages_mfr_id: Option<i32>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// 1 to 1000 (default 100); 0: counts and facets only.
        per_page: Option<u32>,
        /// From 1 (default) to maxAllowedPage.
        page: Option<u32>,
        /// Linkages per article, 1 to 1000 (with includeLinkages); absent: every linkage
        /// (partscat answers them in one call). `totalLinkages` counts them all.
        linkages_per_page: Option<u32>,
        /// From 1 (default): which page of each article's linkages.
        linkages_page: Option<u32>,
        /// How the articles are ordered; the first entry decides (default `score`).
        #[oai(validator(max_items = 10))]
        sort: Vec<Sort>,
        /// Every include flag below.
        include_all: Option<bool>,
        /// Status, packaging and the article's own description (`misc`).
        include_misc: Option<bool>,
        /// The article's generic article (`genericArticles`).
        include_generic_articles: Option<bool>,
        /// Article texts: partscat's articles have one, their description (also in `misc`).
        include_article_text: Option<bool>,
        /// The article's GTINs (EANs).
        #[oai(rename = "includeGTINs")]
        #[serde(rename = "includeGTINs")]
        include_gtins: Option<bool>,
        /// The article's trade numbers.
        include_trade_numbers: Option<bool>,
        /// The vehicle makers' (OE) numbers of the article.
        #[oai(rename = "includeOEMNumbers")]
        #[serde(rename = "includeOEMNumbers")]
        include_oem_numbers: Option<bool>,
        /// The articles this one replaces.
        include_replaces_articles: Option<bool>,
        /// The numbers that replace the article.
        include_replaced_by_articles: Option<bool>,
        /// The article's technical criteria.
        include_article_criteria: Option<bool>,
        /// Every vehicle the article fits.
        include_linkages: Option<bool>,
        /// The article's documents (`pdfs`).
        #[oai(rename = "includePDFs")]
        #[serde(rename = "includePDFs")]
        include_pdfs: Option<bool>,
        /// Images and 360-degree frames.
        include_images: Option<bool>,
        /// Counts of the matches per brand.
        include_data_supplier_facets: Option<bool>,
        /// Counts of the matches per generic article.
        include_generic_article_facets: Option<bool>,
        /// Matches per assembly group (`assemblyGroupFacets`).
        assembly_group_facet_options: Option<AssemblyGroupFacetOptions>,
        /// Matches per criterion value (`criteriaFacets`).
        include_criteria_facets: Option<bool>,
        /// Competitor and internal numbers of the article.
        include_comparable_numbers: Option<bool>,
        /// Must be false: the catalogue keeps no links (`includeAll` answers `links` empty).
        include_links: Option<bool>,
        /// Every price of the article.
        include_prices: Option<bool>,
        /// A kit's components (`partsListArticles`).
        include_parts_list_articles: Option<bool>,
        /// The kits the article is a component of (`partOfKits`).
        include_part_of_kits: Option<bool>,
        /// The `nextCursor` of the previous page: pages through a result of any size
        /// (`page` is then ignored).
        cursor: Option<String>,
    }
);

/// An article as `getArticles` answers it, in Pegasus's `ArticleRecord` shape: the lists
/// are filled as the include flags ask, and stay `[]` otherwise.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ArticleRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleRecord {
    /// The brand (data supplier).
    pub data_supplier_id: u32,
    /// As the maker writes it.
    pub article_number: String,
    /// The brand again (Pegasus gives the brand's manufacturer).
    pub mfr_id: u32,
    /// The brand's name.
    pub mfr_name: String,
    /// Status, packaging and description (with includeMisc).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub misc: Option<pegasus::MiscArticleData>,
    /// The generic article (with includeGenericArticles).
    pub generic_articles: Vec<pegasus::GenericArticleRef>,
    /// Article texts: partscat answers none (the description is in `misc`).
    pub article_text: Vec<pegasus::ArticleText>,
    /// GTIN (EAN) codes (with includeGTINs).
    #[oai(rename = "gtins")]
    #[serde(rename = "gtins")]
    pub gtins: Vec<String>,
    /// Trade numbers (with includeTradeNumbers).
    pub trade_numbers: Vec<String>,
    /// Vehicle makers' numbers (with includeOEMNumbers).
    pub oem_numbers: Vec<pegasus::ArticleRef>,
    /// The articles of the same brand this one replaces: those naming it as replaced-by
    /// (with includeReplacesArticles).
    pub replaces_articles: Vec<pegasus::ArticleRef>,
    /// The articles of the same brand that replace it (with includeReplacedByArticles).
    pub replaced_by_articles: Vec<pegasus::ArticleRef>,
    /// Technical criteria (with includeArticleCriteria).
    pub article_criteria: Vec<pegasus::CriteriaRecord>,
    /// Vehicles it fits (with includeLinkages), each with the vehicle itself.
    pub linkages: Vec<pegasus::ArticleLinkageRecord>,
    /// Documents (with includePDFs).
    pub pdfs: Vec<pegasus::PdfRecord>,
    /// Images and 360-degree frames (with includeImages).
    pub images: Vec<pegasus::ImageRecord>,
    /// Competitor and internal numbers (with includeComparableNumbers).
    pub comparable_numbers: Vec<pegasus::ArticleRef>,
    /// The article's numbers that matched `searchQuery` (none without a query, or for an
    /// article found by its description).
    pub search_query_matches: Vec<pegasus::SearchQueryMatch>,
    /// Links: partscat keeps none.
    pub links: Vec<pegasus::LinkRecord>,
    /// Every vehicle it fits, over all linkage pages (with includeLinkages).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_linkages: Option<u32>,
    /// Prices (with includePrices).
    pub prices: Vec<pegasus::PriceRecord>,
    /// TecDoc's logistics criteria (packed weight and sizes): the catalogue keeps none, so
    /// the list is always there and empty, as TecDoc answers an article without them.
    pub article_logistics_criteria: Vec<pegasus::CriteriaRecord>,
    /// Upper-case letters and digits only: what searches compare.
    pub normalised_article_number: String,
    /// A kit's components, once each, among the brands the caller sees (with
    /// includePartsListArticles); `[]` for an article that is no kit.
    pub parts_list_articles: Vec<PartsListArticle>,
    /// The kits the article is a component of, once each, among the brands the caller sees
    /// (with includePartOfKits); `quantity` is how many of the article each kit holds.
    pub part_of_kits: Vec<PartsListArticle>,
}

/// An article of a kit: a component (`partsListArticles`) or a kit (`partOfKits`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "PartsListArticle", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PartsListArticle {
    /// The article's brand (data supplier).
    pub data_supplier_id: u32,
    /// The brand's name.
    pub mfr_name: String,
    /// As the maker writes it.
    pub article_number: String,
    /// Its numeric id, as `genericArticles[].legacyArticleId` gives it.
    pub legacy_article_id: i32,
    /// Its generic article.
    pub generic_article_id: i32,
    /// The generic article's name.
    pub generic_article_description: String,
    /// How many of the component the kit holds.
    pub quantity: u32,
}

/// `getArticles`, in Pegasus's `articlesResponse` shape.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleSearch {
    /// Every match, over all pages.
    pub total_matching_articles: u32,
    /// The last page `page` may ask for at this `perPage`; further, use the cursor.
    pub max_allowed_page: u32,
    /// This page's articles.
    pub articles: Vec<ArticleRecord>,
    /// Matches per brand (with includeDataSupplierFacets).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_supplier_facets: Option<pegasus::DataSupplierFacets>,
    /// Matches per generic article (with includeGenericArticleFacets).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generic_article_facets: Option<pegasus::GenericArticleFacets>,
    /// Matches per assembly group (with assemblyGroupFacetOptions.enabled).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assembly_group_facets: Option<pegasus::AssemblyGroupFacets>,
    /// Matches per criterion value (with includeCriteriaFacets).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criteria_facets: Option<pegasus::CriteriaFacets>,
    /// Pass it as `cursor` for the next page; absent on the last page.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

request!(
    /// `getArticleDirectSearchAllNumbersWithState` (Pegasus's
    /// `articleDirectSearchAllNumbersWithStateRequest`): articles by any of their numbers, one
    /// record per number that matched.
    GetArticleDirectSearchRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The number searched for, written any way.
        article_number: Option<String>,
        /// Only this brand (`dataSupplierId`); absent or 0: every brand.
        brand_id: Option<i64>,
        /// Only this generic article; absent or 0: every one.
        generic_article_id: Option<i64>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// 0 article number, 1 OE, 2 trade, 3 comparable, 4 replacement (the articles
        /// replacing it), 5 replaced (the articles it replaces), 6 EAN, 10 any (default).
        number_type: Option<i32>,
        /// true (default): the whole number; false: numbers that start or end with it.
        search_exact: Option<bool>,
        /// The order: absent, 0 or 1, brand then number (partscat's one order); others are
        /// refused.
        sort_type: Option<i32>,
    }
);

/// An article found by one of its numbers (Pegasus's
/// `articleDirectSearchAllNumbersWithStateRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleDirectSearchAllNumbersWithStateRecord",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct ArticleDirectSearchRecord {
    /// The article's numeric id (`legacyArticleId`).
    pub article_id: i64,
    /// Its generic article's name.
    pub article_name: String,
    /// The article's number as the maker writes it.
    pub article_no: String,
    /// The number that matched, normalised.
    pub article_search_no: String,
    /// 1 active, 2 announced, 3 discontinued.
    pub article_state_id: i32,
    /// The brand's name.
    pub brand_name: String,
    /// The brand (`dataSupplierId`).
    pub brand_no: i64,
    /// The generic article.
    pub generic_article_id: i64,
    /// The kind of number that matched (0, 1, 2, 3, 4, 5 or 6, as `numberType`).
    pub number_type: i32,
}

record_list!(
    /// `getArticleDirectSearchAllNumbersWithState`: at most 1000 records, in brand and
    /// number order.
    ArticleDirectSearchList,
    ArticleDirectSearchRecordSeq,
    "articleDirectSearchAllNumbersWithStateRecordSeq",
    ArticleDirectSearchRecord
);
