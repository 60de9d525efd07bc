//! An article's links to vehicles: every linkage, the linked targets, and the details of chosen links.

use crate::server::soap::articles::pegasus::LinkageTarget;
use poem_openapi::Object;
use serde::{Deserialize, Serialize};

request!(
    /// `getArticleLinkages`: every vehicle an article fits, in one call.
    GetArticleLinkagesRequest {
        /// The brand (data supplier) of the article.
        data_supplier_id: u32,
        /// The article number, written any way (`0 986 494 048` or `0986-494.048`).
        article_number: String,
    }
);

/// A vehicle an article fits, and how.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleLinkage {
    /// The vehicle.
    pub linkage_target: LinkageTarget,
    /// Where on the vehicle (front, rear, …); empty if not given.
    pub position: String,
    /// How many the vehicle takes.
    pub quantity: u32,
    /// Fitting notes; empty if none.
    pub notes: String,
}

/// `getArticleLinkages`.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleLinkages {
    /// The article's brand.
    pub data_supplier_id: u32,
    /// The article number as the maker writes it.
    pub article_number: String,
    /// Every vehicle the article fits.
    pub linkages: Vec<ArticleLinkage>,
}

request!(
    /// `getArticleLinkedAllLinkingTarget4` (Pegasus's
    /// `articleLinkedAllLinkingTarget4Request`): the vehicle types an article fits, by the
    /// article's numeric id (`legacyArticleId` of `getArticles`).
    GetArticleLinkedAllLinkingTargetRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The article's numeric id (`genericArticles[].legacyArticleId` of `getArticles`).
        article_id: Option<i64>,
        /// A country (ISO 3166-1, any case): every vehicle is valid in each.
        country: Option<String>,
        /// true: `country` names a country group (`tecdocCode` of `getCountryGroups`),
        /// not a country.
        country_group_flag: Option<bool>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// Only this vehicle type (Ktype); absent or 0: every one.
        linking_target_id: Option<i64>,
        /// Only vehicles of this maker (`manuId` of `getManufacturers`); absent, 0 or -1:
        /// every maker.
        linking_target_manu_id: Option<i64>,
        /// Only vehicle types of this kind (`P`, `L`, `B`, `C`, `T`, `M`, `A`, `K`; `V` = P
        /// and L, `O` = C and T).
        linking_target_type: Option<String>,
        /// true: also the vehicle types of the kits the article is part of
        /// (`mainArticleLinkages`).
        with_main_articles: Option<bool>,
    }
);

/// One vehicle type an article fits (Pegasus's `articleLinkedAllLinkingTargetDetailsRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleLinkedAllLinkingTargetDetailsRecord",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct LinkedTargetRecord {
    /// The link's id: the article's id times 2³² plus the Ktype.
    pub article_link_id: i64,
    /// Always true: partscat lists the links the article has.
    pub linked: bool,
    /// The Ktype (0 where it is not a number).
    pub linking_target_id: i64,
    /// `P`: a vehicle type.
    pub linking_target_type: String,
}

/// The vehicle types an article fits.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articleLinkedAllLinkingTargetDetailsRecordSeq")]
pub struct LinkedTargetRecordSeq {
    /// The vehicle types, in Ktype order.
    pub array: Vec<LinkedTargetRecord>,
}

/// One vehicle type a kit holding the article fits (Pegasus's
/// `mainArticleLinkedVehiclesRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "mainArticleLinkedVehiclesRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct MainArticleLinkRecord {
    /// The kit's link's id: the kit's id times 2³² plus the Ktype.
    pub article_link_id: i64,
    /// The Ktype (0 where it is not a number).
    pub linking_target_id: i64,
    /// The kit's numeric id.
    pub main_article_id: i64,
}

/// The vehicle types of the kits holding the article.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "mainArticleLinkedVehiclesRecordSeq")]
pub struct MainArticleLinkRecordSeq {
    /// The kits' vehicle types (with withMainArticles).
    pub array: Vec<MainArticleLinkRecord>,
}

/// An article's vehicle types (Pegasus's `articleLinkedAllLinkingTarget4Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleLinkedAllLinkingTarget4Record",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct ArticleLinkedTargetsRecord {
    /// The vehicle types the article fits.
    pub article_linkages: LinkedTargetRecordSeq,
    /// The vehicle types of the kits the article is part of (with withMainArticles).
    pub main_article_linkages: MainArticleLinkRecordSeq,
}

record_list!(
    /// `getArticleLinkedAllLinkingTarget4`: one record for the article; none for an id the
    /// catalogue does not hold or a brand the caller may not see.
    ArticleLinkedTargetsList,
    ArticleLinkedTargetsRecordSeq,
    "articleLinkedAllLinkingTarget4RecordSeq",
    ArticleLinkedTargetsRecord
);

request!(
    /// `getArticleLinkedAllLinkingTargetsByIds3` (Pegasus's
    /// `articleLinkedAllLinkingTargetsByIds3Request`): how an article fits the vehicle types
    /// named by the links `getArticleLinkedAllLinkingTarget4` answered.
    GetArticleLinkedAllLinkingTargetsByIdsRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The article's numeric id (`genericArticles[].legacyArticleId` of `getArticles`).
        article_id: Option<i64>,
        /// true: the position, quantity and notes of each fit
        /// (`linkedArticleImmediateAttributs`).
        immediate_attributs: Option<bool>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// The links: `articleLinkId` and `linkingTargetId` as
        /// `getArticleLinkedAllLinkingTarget4` answered them.
        linked_article_pairs: Option<LinkedArticlePairList>,
        /// Only the links to vehicle types of this kind.
        linking_target_type: Option<String>,
        /// Must be absent or 0: the catalogue answers no registration data.
        numberplate_type: Option<i32>,
    }
);

/// A link of an article to a vehicle type (Pegasus's `linkedArticlePair`).
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "linkedArticlePair", rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LinkedArticlePair {
    /// The link's id (`articleLinkId` of `getArticleLinkedAllLinkingTarget4`).
    pub article_link_id: i64,
    /// The Ktype.
    pub linking_target_id: i64,
}

/// Links, as Pegasus sends them (`{"array": [...]}`).
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "linkedArticlePairSeq")]
#[serde(deny_unknown_fields)]
pub struct LinkedArticlePairList {
    /// The links; at most 100 different ones (repeats are merged).
    #[oai(validator(max_items = 100))]
    pub array: Vec<LinkedArticlePair>,
}

/// One thing to know about how an article fits a vehicle type (Pegasus's
/// `immediateAttributsLinkedElementsRecord`): its position, quantity or notes.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "immediateAttributsLinkedElementsRecord",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct LinkAttributeRecord {
    /// `Position`, `Quantity` or `Notes`.
    pub attr_name: String,
    /// The same.
    pub attr_short_name: String,
    /// `N` a number, `A` text.
    pub attr_type: String,
    /// The value as the catalogue holds it.
    pub attr_value: String,
}

/// How an article fits a vehicle type.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "immediateAttributsLinkedElementsRecordSeq")]
pub struct LinkAttributeRecordSeq {
    /// The position, quantity and notes (with immediateAttributs).
    pub array: Vec<LinkAttributeRecord>,
}

/// A vehicle type an article fits (Pegasus's `articleLinkedVehiclesById2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articleLinkedVehiclesById2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct LinkedVehicleRecord {
    /// The Ktype.
    pub car_id: i64,
    /// The type's name (`1.6 TDI`).
    pub car_desc: String,
    /// Displacement in cm³.
    pub cylinder_capacity: i64,
    /// `P`: a vehicle type.
    pub linking_target_type: String,
    /// The vehicle maker's name.
    pub manu_desc: String,
    /// The vehicle maker (`manuId` of `getManufacturers`; 0 where the catalogue has none).
    pub manu_id: i64,
    /// The model's name.
    pub model_desc: String,
    /// Power in hp.
    pub power_hp_from: i32,
    /// Power in hp.
    pub power_hp_to: i32,
    /// Power in kW.
    pub power_kw_from: i32,
    /// Power in kW.
    pub power_kw_to: i32,
    /// Built from (YYYYMM).
    pub year_of_construction_from: i32,
    /// Built until (YYYYMM); absent while still built.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year_of_construction_to: Option<i32>,
}

/// The vehicle type of a link.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articleLinkedVehiclesById2RecordSeq")]
pub struct LinkedVehicleRecordSeq {
    /// The vehicle type.
    pub array: Vec<LinkedVehicleRecord>,
}

/// How an article fits one vehicle type (Pegasus's
/// `articleLinkedAllLinkingTargetsByIds3Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleLinkedAllLinkingTargetsByIds3Record",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct LinkDetailsRecord {
    /// The link's id, as asked.
    pub article_link_id: i64,
    /// The position, quantity and notes (with immediateAttributs; otherwise empty).
    pub linked_article_immediate_attributs: LinkAttributeRecordSeq,
    /// The vehicle type.
    pub linked_vehicles: LinkedVehicleRecordSeq,
    /// The Ktype.
    pub linking_target_id: i64,
    /// `P`: a vehicle type.
    pub linking_target_type: String,
}

record_list!(
    /// `getArticleLinkedAllLinkingTargetsByIds3`: one record per link the article has, in the
    /// order asked; none for a link of another article or one the catalogue does not hold.
    LinkDetailsList,
    LinkDetailsRecordSeq,
    "articleLinkedAllLinkingTargetsByIds3RecordSeq",
    LinkDetailsRecord
);
