//! The first step of a fitment list: the vehicle makers of the vehicle types an article fits
//! (`getArticleLinkedAllLinkingTargetManufacturer2` and the older `…Manufacturer`), each make
//! then opened with `getArticleLinkedAllLinkingTarget4`'s `linkingTargetManuId`.

use poem_openapi::Object;
use serde::Serialize;

request!(
    /// `getArticleLinkedAllLinkingTargetManufacturer2` (Pegasus's
    /// `articleLinkedAllLinkingTargetManufacturer2Request`).
    GetFitmentMakers2Request {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The article's numeric id (`genericArticles[].legacyArticleId` of `getArticles`).
        article_id: Option<i64>,
        /// A country (ISO 3166-1, any case): every vehicle is valid in each.
        country: Option<String>,
        /// true: `country` names a country group (`tecdocCode` of `getCountryGroups`),
        /// not a country.
        country_group_flag: Option<bool>,
        /// Only the makers of vehicle types of this kind (`P`, `O`, `V`, several together
        /// such as `PO`, or `U` for any).
        linking_target_type: Option<String>,
    }
);

request!(
    /// `getArticleLinkedAllLinkingTargetManufacturer` (Pegasus's
    /// `articleLinkedAllLinkingTargetManufacturerRequest`).
    GetFitmentMakersRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The article's numeric id (`genericArticles[].legacyArticleId` of `getArticles`).
        article_id: Option<i64>,
        /// Only the makers of vehicle types of this kind.
        linking_target_type: Option<String>,
    }
);

/// A vehicle maker of an article's vehicle types (Pegasus's
/// `articleLinkedAllLinkingTargetManufacturer2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleLinkedAllLinkingTargetManufacturer2Record",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct FitmentMaker2Record {
    /// The maker's id (`linkingTargetManuId` of `getArticleLinkedAllLinkingTarget4`).
    pub manu_id: u32,
    /// Its name.
    pub manu_name: String,
}

record_list!(
    /// `getArticleLinkedAllLinkingTargetManufacturer2`: the makers, in name order; none for
    /// an id the catalogue does not hold or of a brand the caller may not see.
    FitmentMakers2List,
    FitmentMaker2RecordSeq,
    "articleLinkedAllLinkingTargetManufacturer2RecordSeq",
    FitmentMaker2Record
);

/// A vehicle maker of an article's vehicle types (Pegasus's
/// `articleLinkedAllLinkingTargetManufacturerRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleLinkedAllLinkingTargetManufacturerRecord",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct FitmentMakerRecord {
    /// The maker's id.
    pub manu_id: u32,
    /// Its name.
    pub manu_name: String,
}

record_list!(
    /// `getArticleLinkedAllLinkingTargetManufacturer`: as `…Manufacturer2`.
    FitmentMakersList,
    FitmentMakerRecordSeq,
    "articleLinkedAllLinkingTargetManufacturerRecordSeq",
    FitmentMakerRecord
);
