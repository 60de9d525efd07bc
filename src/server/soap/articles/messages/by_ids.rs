//! A legacy shop's article page: `getDirectArticlesByIds6`'s and `…7`'s answer, the articles by id with
//! the lists each flag asks for (its request is `by_ids_request.rs`). Records and element
//! order as Pegasus's DLB schema declares them.

use poem_openapi::Object;
use serde::Serialize;

/// A criterion of an article (Pegasus's `assignedArticleAttributs2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "assignedArticleAttributs2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleAttributeRecord {
    /// The criterion's number (`criteriaId` of `getCriteria2`).
    pub attr_id: i64,
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
}

seq!(
    /// Criteria.
    ArticleAttributeRecordSeq,
    "assignedArticleAttributs2RecordSeq",
    ArticleAttributeRecord
);

/// A document or picture of an article (Pegasus's `articleDocuments2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articleDocuments2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleDocumentRecord {
    /// The file's name.
    pub doc_file_name: String,
    /// `image`, `image360` or `document`.
    pub doc_file_type_name: String,
    /// Where the media store serves it (`/svc/mediaFile/{articleId}?uri=…`'s `uri`).
    pub doc_id: String,
    /// Its description.
    pub doc_text: String,
    /// Its kind by number: 1 a picture, 2 a document, 3 a frame of a 360° picture.
    pub doc_type_id: i64,
    /// Its kind in the asked language.
    pub doc_type_name: String,
    /// Its address as the catalogue names it.
    pub doc_url: String,
}

seq!(
    /// Documents.
    ArticleDocumentRecordSeq,
    "articleDocuments2RecordSeq",
    ArticleDocumentRecord
);

/// A note on an article (Pegasus's `assignedArticleInfosRecord`); partscat keeps none.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "assignedArticleInfosRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleInfoRecord {
    /// The note.
    pub info_text: String,
}

seq!(
    /// Notes.
    ArticleInfoRecordSeq,
    "assignedArticleInfosRecordSeq",
    ArticleInfoRecord
);

/// A price of an article (Pegasus's `articlePricesRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articlePricesRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticlePriceRecord {
    /// ISO 4217 code.
    pub currency: String,
    /// The price in the currency's hundredths (cents).
    pub price: i64,
    /// The price type (`list`, `net`, `exchange`…).
    pub price_type_name: String,
    /// Valid from, YYYYMMDD; absent: always.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid_date_from: Option<i32>,
    /// Valid to, YYYYMMDD; absent: open.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid_date_to: Option<i32>,
}

seq!(
    /// Prices.
    ArticlePriceRecordSeq,
    "articlePricesRecordSeq",
    ArticlePriceRecord
);

/// A picture of an article (Pegasus's `thumbnailByArticleIdRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "thumbnailByArticleIdRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ThumbnailRecord {
    /// Its `uri` for `/svc/mediaFile/{articleId}`.
    pub thumb_doc_id: String,
    /// The file's name.
    pub thumb_file_name: String,
    /// Its kind by number, as `docTypeId`: 1 a picture, 3 a frame of a 360° picture.
    pub thumb_type_id: i64,
}

seq!(
    /// Pictures.
    ThumbnailRecordSeq,
    "thumbnailByArticleIdRecordSeq",
    ThumbnailRecord
);

/// An article's basic data (Pegasus's `articleDirectSearchById3Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articleDirectSearchById3Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct DirectArticleRecord {
    /// Its description.
    pub article_add_name: String,
    /// Its numeric id (`legacyArticleId`).
    pub article_id: i64,
    /// Its generic article's name.
    pub article_name: String,
    /// The number as the brand writes it.
    pub article_no: String,
    /// 1 active, 2 announced, 3 discontinued.
    pub article_state: i64,
    /// The state in words.
    pub article_state_name: String,
    /// The brand.
    pub brand_name: String,
    /// The brand's id (`dataSupplierId`).
    pub brand_no: i64,
    /// The generic article.
    pub generic_article_id: i64,
    /// false: partscat has no axle links.
    pub has_axle_link: bool,
    /// Whether it has documents or pictures.
    pub has_documents: bool,
    /// Whether it has OE numbers.
    #[oai(rename = "hasOEN")]
    #[serde(rename = "hasOEN")]
    pub has_oen: bool,
    /// Whether it is a kit with components.
    pub has_part_list: bool,
    /// Whether it has prices.
    pub has_prices: bool,
    /// Whether it has trade numbers.
    pub has_usage: bool,
    /// Whether it fits a vehicle type.
    pub has_vehicle_link: bool,
    /// How many a pack holds.
    pub packing_unit: i32,
}

/// A code of an article (Pegasus's `eanNumbersRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "eanNumbersRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct EanRecord {
    /// The EAN/GTIN.
    pub ean_number: String,
}

seq!(
    /// Codes.
    EanRecordSeq,
    "eanNumbersRecordSeq",
    EanRecord
);

/// A criterion shown at once (Pegasus's `immediateAttributs2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "immediateAttributs2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ImmediateAttributeRecord {
    /// The criterion's number (`criteriaId` of `getCriteria2`).
    pub attr_id: i64,
    /// What is measured.
    pub attr_name: String,
    /// `N` a number, `A` text, `K` a key of a key table, `D` a date, `V` no value.
    pub attr_type: String,
    /// The unit, where the value has one.
    pub attr_unit: String,
    /// The value (a key-table criterion's key's text).
    pub attr_value: String,
}

seq!(
    /// Criteria shown at once.
    ImmediateAttributeRecordSeq,
    "immediateAttributs2RecordSeq",
    ImmediateAttributeRecord
);

/// A note shown at once (Pegasus's `immediateInfosRecord`); partscat keeps none.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "immediateInfosRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ImmediateInfoRecord {
    /// The note.
    pub info_text: String,
}

seq!(
    /// Notes shown at once.
    ImmediateInfoRecordSeq,
    "immediateInfosRecordSeq",
    ImmediateInfoRecord
);

/// A kit the article is part of (Pegasus's `mainArticlesRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "mainArticlesRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct MainArticleRecord {
    /// The kit's description.
    pub article_add_name: String,
    /// The kit's numeric id.
    pub article_id: i64,
    /// Its generic article's name.
    pub article_name: String,
    /// Its number as the brand writes it.
    pub article_number: String,
}

seq!(
    /// Kits.
    MainArticleRecordSeq,
    "mainArticlesRecordSeq",
    MainArticleRecord
);

/// An OE number of an article (Pegasus's `articleOENumbersRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articleOENumbersRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct OeNumberRecord {
    /// The vehicle maker.
    pub brand_name: String,
    /// The number as written.
    pub oe_number: String,
    /// Its place in the article's list, from 1.
    pub sort_number: i32,
}

seq!(
    /// OE numbers.
    OeNumberRecordSeq,
    "articleOENumbersRecordSeq",
    OeNumberRecord
);

/// A number that replaces, or that is replaced by, the article (Pegasus's
/// `replacedByNumbersRecord` and `replacedNumbersRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "replacedNumbersRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ReplacementRecord {
    /// The other article's numeric id; 0 where the catalogue does not hold it.
    pub replace_article_id: i64,
    /// Its number as written.
    pub replace_number: String,
}

seq!(
    /// Replacements.
    ReplacementRecordSeq,
    "replacedNumbersRecordSeq",
    ReplacementRecord
);

/// A trade number of an article (Pegasus's `usageNumbers2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "usageNumbers2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct UsageNumberRecord {
    /// true: shown with the article.
    pub display_immediate: bool,
    /// The number as written.
    pub usage_number: String,
}

seq!(
    /// Trade numbers.
    UsageNumberRecordSeq,
    "usageNumbers2RecordSeq",
    UsageNumberRecord
);

/// An article by id (Pegasus's `articlesByIds6Record`): each list present where its flag
/// asked for it.
#[derive(Debug, Clone, Default, Object, Serialize)]
#[oai(rename = "articlesByIds6Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleByIdRecord {
    /// With attributs.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_attributes: Option<ArticleAttributeRecordSeq>,
    /// With documents.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_documents: Option<ArticleDocumentRecordSeq>,
    /// With info.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_info: Option<ArticleInfoRecordSeq>,
    /// With prices.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_prices: Option<ArticlePriceRecordSeq>,
    /// With thumbnails.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article_thumbnails: Option<ThumbnailRecordSeq>,
    /// With basicData.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direct_article: Option<DirectArticleRecord>,
    /// With eanNumbers.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ean_number: Option<EanRecordSeq>,
    /// With immediateAttributs.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub immediate_attributs: Option<ImmediateAttributeRecordSeq>,
    /// With immediateInfo.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub immediate_info: Option<ImmediateInfoRecordSeq>,
    /// With mainArticles.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub main_article: Option<MainArticleRecordSeq>,
    /// With normalAustauschPrice.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normal_austausch_price: Option<ArticlePriceRecordSeq>,
    /// With oeNumbers.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub oen_numbers: Option<OeNumberRecordSeq>,
    /// With replacedByNumbers.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced_by_number: Option<ReplacementRecordSeq>,
    /// With replacedNumbers.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replaced_number: Option<ReplacementRecordSeq>,
    /// With usageNumbers.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usage_numbers2: Option<UsageNumberRecordSeq>,
}

record_list!(
    /// `getDirectArticlesByIds6` and `…7`: the articles found, in the order asked; an id the
    /// catalogue lacks, or of a brand the caller may not see, is left out.
    ArticlesByIds6List,
    ArticleByIdRecordSeq,
    "articlesByIds6RecordSeq",
    ArticleByIdRecord
);
