//! A legacy shop's category page and search box: `getArticleIdsWithState` (a vehicle's parts
//! under a node) and `getAutoCompleteSuggestions`. Records and element order as Pegasus's DLB
//! schema declares them; the article page is `articles_by_ids`.

use crate::server::soap::fields::IntegerList;
use poem_openapi::Object;
use serde::Serialize;

request!(
    /// `getAutoCompleteSuggestions`: completions of what is typed into a search box.
    GetAutoCompleteSuggestionsRequest {
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// What is typed so far (1 to 100 characters, at least one letter or digit).
        search_query: Option<String>,
    }
);

/// `getAutoCompleteSuggestions`.
#[derive(Debug, Clone, Object, Serialize)]
pub struct AutoCompleteSuggestions {
    /// Generic-article names with a word that starts with the text (by name, those that
    /// start with it first), then the numbers the caller may see that are or start with it;
    /// at most 20.
    pub suggestions: Vec<String>,
}

request!(
    /// `getArticleIdsWithState` (Pegasus's `articleIdsWithStateRequest`): the parts the
    /// caller may see that fit a vehicle type, optionally under an assembly group and of some
    /// brands and generic articles.
    GetArticleIdsWithStateRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// Only parts whose generic article sits at or below this node of the vehicle's
        /// assembly-group tree (`getChildNodesAllLinkingTarget2`).
        assembly_group_node_id: Option<i64>,
        /// Only these brands (`dataSupplierId`).
        brand_no: Option<IntegerList>,
        /// Only these generic articles.
        generic_article_id: Option<IntegerList>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// The vehicle type (Ktype); required.
        linking_target_id: Option<i64>,
        /// Must name the vehicle type's kind (`P`, `V`, …) where given.
        linking_target_type: Option<String>,
        /// The order: 1 (default) brand name then article number; 2 generic-article name,
        /// brand name, article number.
        sort: Option<i32>,
    }
);

/// A part of a vehicle (Pegasus's `articleIdsWithStateRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articleIdsWithStateRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleIdWithStateRecord {
    /// The article's numeric id (`legacyArticleId`).
    pub article_id: i64,
    /// The link of the article to the vehicle type: the article's id × 2³² + the Ktype.
    pub article_link_id: i64,
    /// The article number as the brand writes it.
    pub article_no: String,
    /// 1 active, 2 announced, 3 discontinued.
    pub article_state_id: i32,
    /// The brand.
    pub brand_name: String,
    /// The brand's id (`dataSupplierId`).
    pub brand_no: i64,
    /// The generic article.
    pub generic_article_id: i64,
    /// Its name.
    pub generic_article_name: String,
    /// The place in the answer, from 1.
    pub sort_no: i32,
}

record_list!(
    /// `getArticleIdsWithState`: the parts, in the order asked.
    ArticleIdsWithStateList,
    ArticleIdWithStateRecordSeq,
    "articleIdsWithStateRecordSeq",
    ArticleIdWithStateRecord
);
