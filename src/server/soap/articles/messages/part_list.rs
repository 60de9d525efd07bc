//! A kit's part list: `getArticlePartList`'s request and answer, as Pegasus's DLB schema
//! declares them (the drawing coordinates of `csgDocumentData` left out: partscat keeps no
//! exploded drawings).

use poem_openapi::Object;
use serde::Serialize;

request!(
    /// `getArticlePartList` (Pegasus's `articlePartListRequest`): the components of a kit.
    GetArticlePartListRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The kit's numeric id (`genericArticles[].legacyArticleId` of `getArticles`).
        article_id: Option<i64>,
        /// One of the kit's links (`articleLinkId` of `getArticleLinkedAllLinkingTarget4`):
        /// the components the kit holds for that link's vehicle type.
        article_link_id: Option<i64>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// A Ktype: the components the kit holds for that vehicle type (absent: for any of
        /// its vehicle types, each with its largest quantity).
        linking_target_id: Option<i64>,
        /// The kind of `linkingTargetId`'s vehicle type (`P`, `O`, `V`, several together such
        /// as `PO`, or `U` for any).
        linking_target_type: Option<String>,
        /// `hasPrices` says whether a component has prices valid on this day (YYYYMMDD).
        price_date: Option<i32>,
    }
);

/// A criterion of a component (Pegasus's `articlePartListAttributsRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articlePartListAttributsRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PartListAttributeRecord {
    /// The criterion's number (`criteriaId` of `getCriteria2`).
    pub attr_id: i64,
    /// false: the criterion holds whatever vehicle the kit fits.
    pub attr_is_conditional: bool,
    /// Whether the value is a range, as the criterion's definition says.
    pub attr_is_interval: bool,
    /// What is measured.
    pub attr_name: String,
    /// `N` a number, `A` text, `K` a key of a key table, `D` a date, `V` no value.
    pub attr_type: String,
    /// The unit, where the value has one.
    pub attr_unit: String,
    /// The value (a key-table criterion's key's text).
    pub attr_value: String,
    /// false: a criterion of the component's article, not of its place in the list.
    pub is_partlist_attr: bool,
}

seq!(
    /// A component's criteria.
    PartListAttributeRecordSeq,
    "articlePartListAttributsRecordSeq",
    PartListAttributeRecord
);

/// A component as the list shows it (Pegasus's `articlePartList2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articlePartList2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PartListDetailRecord {
    /// Its description.
    pub article_add_name: String,
    /// Its generic article's name.
    pub article_name: String,
    /// Its number, as written.
    pub article_no: String,
    /// 1 active, 2 announced, 3 discontinued.
    pub article_state: i64,
    /// The state's name.
    pub article_state_name: String,
    /// Its brand's name.
    pub brand_name: String,
    /// Its brand's id.
    pub brand_no: i64,
    /// Its generic article's id.
    pub generic_article_id: i64,
    /// Its generic article's name.
    pub generic_article_name: String,
    /// false: partscat links articles to vehicle types only.
    pub has_axle_link: bool,
    /// Whether it has documents or pictures.
    pub has_documents: bool,
    /// false: partscat links articles to vehicle types only.
    pub has_mark_link: bool,
    /// false: partscat links articles to vehicle types only.
    pub has_motor_link: bool,
    /// Whether it has OE numbers.
    #[oai(rename = "hasOEN")]
    #[serde(rename = "hasOEN")]
    pub has_oen: bool,
    /// Whether it is a kit itself.
    pub has_part_list: bool,
    /// Whether it has prices (valid on `priceDate`, where one is asked).
    pub has_prices: bool,
    /// false: partscat keeps no safety notes.
    pub has_security_info: bool,
    /// Whether it fits a vehicle type of its own.
    pub has_vehicle_link: bool,
    /// How many pieces a pack holds.
    pub packing_unit: i32,
    /// Its numeric id (`legacyArticleId`).
    pub part_article_id: i64,
    /// How many of it the kit holds.
    pub quantity: i32,
}

/// A row of the part list (Pegasus's `articlePartList3Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articlePartList3Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PartListItemRecord {
    /// The component's criteria.
    pub partlist_attributs: PartListAttributeRecordSeq,
    /// The component.
    pub partlist_details: PartListDetailRecord,
}

seq!(
    /// The rows of a part list.
    PartListItemRecordSeq,
    "articlePartList3RecordSeq",
    PartListItemRecord
);

/// A kit's part list (Pegasus's `articlePartListRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articlePartListRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PartListRecord {
    /// Its rows, one per component.
    pub partlist_info: PartListItemRecordSeq,
}

record_list!(
    /// `getArticlePartList`: one part list for a kit the caller may see; none for an id the
    /// catalogue does not hold, of a brand the caller may not see, or of an article that is no
    /// kit (for the vehicle type asked).
    ArticlePartListList,
    PartListRecordSeq,
    "articlePartListRecordSeq",
    PartListRecord
);
