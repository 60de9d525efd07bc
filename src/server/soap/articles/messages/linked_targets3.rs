//! `getArticleLinkedAllLinkingTarget3`: the older form of `getArticleLinkedAllLinkingTarget4`,
//! without its country fields and its links' `linked`.

use poem_openapi::Object;
use serde::Serialize;

use super::MainArticleLinkRecordSeq;

request!(
    /// `getArticleLinkedAllLinkingTarget3` (Pegasus's
    /// `articleLinkedAllLinkingTarget3Request`): the vehicle types an article fits.
    GetArticleLinkedAllLinkingTarget3Request {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The article's numeric id (`genericArticles[].legacyArticleId` of `getArticles`).
        article_id: Option<i64>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// Only this vehicle type (Ktype); absent or 0: every one.
        linking_target_id: Option<i64>,
        /// Only vehicles of this maker (`manuId` of `getManufacturers`); absent, 0 or -1:
        /// every maker.
        linking_target_manu_id: Option<i64>,
        /// Only vehicle types of this kind (`P`, `O`, `V`, several together such as `PO`, or
        /// `U` for any).
        linking_target_type: Option<String>,
        /// true: also the vehicle types of the kits the article is part of
        /// (`mainArticleLinkages`).
        with_main_articles: Option<bool>,
    }
);

/// One vehicle type an article fits (Pegasus's `articleLinkedAllLinkingTargetRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleLinkedAllLinkingTargetRecord",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct LinkedTarget3Record {
    /// The link's id: the article's id times 2³² plus the Ktype.
    pub article_link_id: i64,
    /// The Ktype (0 where it is not a number).
    pub linking_target_id: i64,
    /// The vehicle type's kind (`P`, `L`, `B`, `C`, `T`, …).
    pub linking_target_type: String,
}

/// The vehicle types an article fits.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articleLinkedAllLinkingTargetRecordSeq")]
pub struct LinkedTarget3RecordSeq {
    /// The vehicle types, in Ktype order.
    pub array: Vec<LinkedTarget3Record>,
}

/// An article's vehicle types (Pegasus's `articleLinkedAllLinkingTarget3Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleLinkedAllLinkingTarget3Record",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct ArticleLinkedTargets3Record {
    /// The vehicle types the article fits.
    pub article_linkages: LinkedTarget3RecordSeq,
    /// The vehicle types of the kits the article is part of (with withMainArticles).
    pub main_article_linkages: MainArticleLinkRecordSeq,
}

record_list!(
    /// `getArticleLinkedAllLinkingTarget3`: one record for the article; none for an id the
    /// catalogue does not hold or of a brand the caller may not see.
    ArticleLinkedTargets3List,
    ArticleLinkedTargets3RecordSeq,
    "articleLinkedAllLinkingTarget3RecordSeq",
    ArticleLinkedTargets3Record
);
