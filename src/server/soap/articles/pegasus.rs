//! `getArticles`' answer in the shapes of TecDoc Pegasus 3.0's `articlesResponse` (element
//! names, nesting and types of its public DLB schema), so that client code written for
//! Pegasus reads it. partscat's own extras follow Pegasus's fields in each record.
//!
//! Criteria carry their numbers (their definitions', or the store's); a fitting's position
//! and quantity, which Pegasus numbers as linkage criteria, carry 0 and their names; articles
//! have numeric ids of their own (`legacyArticleId`); the keys partscat assigns (article
//! status, price kind, linkage target type) are listed in docs/coming-from-tecdoc.md.

mod assembly_groups;
mod facets;
mod media;

pub use assembly_groups::{AssemblyGroupFacetCount, AssemblyGroupFacets};
pub use facets::{
    CriteriaFacetCount, CriteriaFacets, DataSupplierFacetCount, DataSupplierFacets,
    GenericArticleFacetCount, GenericArticleFacets,
};
pub use media::{ImageRecord, PdfRecord, file_name};
use poem_openapi::Object;
use serde::Serialize;

use crate::catalogue::{self as model, ArticleStatus, CriterionType};
use crate::service::articles::criteria::ShownCriterion;

/// Another article's number: a vehicle maker's, another parts maker's, or the maker's own.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ArticleRefRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleRef {
    /// The number as written.
    pub article_number: String,
    /// The brand, where the number is one of the maker's own articles.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_supplier_id: Option<u32>,
    /// The vehicle maker (OE), parts maker (comparable) or brand (the maker's own) of the
    /// number; 0 where the catalogue names none (trade and internal numbers).
    pub mfr_id: u32,
    /// That maker's name; empty where there is none.
    pub mfr_name: String,
}

/// Status, packaging and description of an article (`includeMisc`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "MiscArticleDataRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct MiscArticleData {
    /// The article's own description.
    pub additional_description: String,
    /// 1 active, 2 announced, 3 discontinued.
    pub article_status_id: i32,
    /// `active`, `announced` or `discontinued`, in the asked language.
    pub article_status_description: String,
    /// Pieces per package.
    pub quantity_per_package: i32,
}

/// An article state as Pegasus numbers it.
pub fn status_id(status: ArticleStatus) -> i32 {
    match status {
        ArticleStatus::Active => 1,
        ArticleStatus::Announced => 2,
        ArticleStatus::Discontinued => 3,
    }
}

impl MiscArticleData {
    /// `a`'s, with its status named `status_name` (in the reader's language).
    pub fn of(a: &model::Article, status_name: String) -> MiscArticleData {
        MiscArticleData {
            additional_description: a.description.clone(),
            article_status_id: status_id(a.status),
            article_status_description: status_name,
            quantity_per_package: i32::try_from(a.packaging_unit).unwrap_or(i32::MAX),
        }
    }
}

/// The generic article an article is (`includeGenericArticles`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "GenericArticleRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct GenericArticleRef {
    /// The generic article's id (genart).
    pub generic_article_id: i32,
    /// What kind of part it is (`Brake Disc`).
    pub generic_article_description: String,
    /// The article's numeric id, which `getArticleLinkedAllLinkingTarget4` takes as
    /// `articleId`: given at import, kept as long as the article is in the catalogue, never
    /// given to another.
    pub legacy_article_id: i32,
}

/// A text of an article (Pegasus's `articleText`); partscat answers none.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ArticleTextRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleText {
    /// The kind of text.
    pub information_type_key: i32,
    /// Whether a client shows it at once.
    pub is_immediate_display: bool,
    /// Its lines.
    pub text: Vec<String>,
}

/// A technical criterion, of an article or of how it fits a vehicle.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "CriteriaRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct CriteriaRecord {
    /// The criterion's number (0 for a fitting's position and quantity).
    pub criteria_id: i32,
    /// What is measured (`Brake Disc Diameter`).
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
    /// The criterion that replaces this one.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub successor_criteria_id: Option<i32>,
    /// The value as the catalogue holds it (a key-table criterion's key).
    pub raw_value: String,
    /// The value's text with its unit (`300 mm`).
    pub formatted_value: String,
    /// false: partscat's criteria are facts of the article, not choices.
    pub is_mandatory: bool,
    /// Whether the value is a range, as the criterion's definition says.
    pub is_interval: bool,
}

impl CriteriaRecord {
    /// An article's criterion.
    pub fn of(c: &ShownCriterion) -> CriteriaRecord {
        CriteriaRecord {
            criteria_id: i32::try_from(c.id).unwrap_or(0),
            criteria_description: c.name.clone(),
            criteria_abbr_description: (!c.short_name.is_empty()).then(|| c.short_name.clone()),
            criteria_unit_description: (!c.unit.is_empty()).then(|| c.unit.clone()),
            criteria_type: c.kind.letter().into(),
            successor_criteria_id: c.successor.and_then(|s| i32::try_from(s).ok()),
            raw_value: c.raw_value.clone(),
            formatted_value: c.formatted_value(),
            is_mandatory: false,
            is_interval: c.interval,
        }
    }

    /// A criterion of how an article fits a vehicle (its position, its quantity).
    pub fn new(name: &str, value: &str, unit: &str) -> CriteriaRecord {
        CriteriaRecord {
            criteria_id: 0,
            criteria_description: name.to_owned(),
            criteria_abbr_description: None,
            criteria_unit_description: (!unit.is_empty()).then(|| unit.to_owned()),
            criteria_type: CriterionType::of_value(value).letter().into(),
            successor_criteria_id: None,
            raw_value: value.to_owned(),
            formatted_value: if unit.is_empty() {
                value.to_owned()
            } else {
                format!("{value} {unit}")
            },
            is_mandatory: false,
            is_interval: false,
        }
    }
}

/// A text on how an article fits a vehicle.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "LinkageTextRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct LinkageText {
    /// 0: a fitting note.
    pub information_type_key: i32,
    /// true: a client shows it with the vehicle.
    pub is_immediate_display: bool,
    /// The note.
    pub text: Vec<String>,
}

/// A vehicle an article fits (Pegasus's ids), then the vehicle itself and how the article
/// fits it (partscat's: every linkage in one call).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ArticleLinkageRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleLinkageRecord {
    /// 2: a vehicle type (partscat links articles to vehicle types only).
    pub linkage_target_type_id: i32,
    /// The Ktype as a number (0 where it is not one; `linkageTarget` has it as written).
    pub linkage_target_id: i64,
    /// Pegasus's numeric link id; partscat has none: 0.
    pub legacy_article_link_id: i32,
    /// The article's generic article (genart).
    pub generic_article_id: i32,
    /// Its name.
    pub generic_article_description: String,
    /// The position (`Position`) and quantity (`Quantity`) of the part on the vehicle.
    pub linkage_criteria: Vec<CriteriaRecord>,
    /// The fitting notes.
    pub linkage_text: Vec<LinkageText>,
    /// The vehicle.
    pub linkage_target: LinkageTarget,
    /// Where on the vehicle (front, rear, …); empty if not given.
    pub position: String,
    /// How many the vehicle takes.
    pub quantity: u32,
    /// Fitting notes; empty if none.
    pub notes: String,
}

impl ArticleLinkageRecord {
    pub fn new(
        genart: (u32, &str),
        target: LinkageTarget,
        position: String,
        quantity: u32,
        notes: String,
    ) -> ArticleLinkageRecord {
        let mut linkage_criteria = Vec::new();
        if !position.is_empty() {
            linkage_criteria.push(CriteriaRecord::new("Position", &position, ""));
        }
        linkage_criteria.push(CriteriaRecord::new("Quantity", &quantity.to_string(), ""));
        ArticleLinkageRecord {
            linkage_target_type_id: 2,
            linkage_target_id: target.linkage_target_id.trim().parse().unwrap_or(0),
            legacy_article_link_id: 0,
            generic_article_id: number(genart.0),
            generic_article_description: genart.1.to_owned(),
            linkage_criteria,
            linkage_text: if notes.is_empty() {
                Vec::new()
            } else {
                vec![LinkageText {
                    information_type_key: 0,
                    is_immediate_display: true,
                    text: vec![notes.clone()],
                }]
            },
            linkage_target: target,
            position,
            quantity,
            notes,
        }
    }
}

/// A number of an article that matched the search query (Pegasus's `SearchQueryMatch`).
#[derive(Debug, Clone, PartialEq, Eq, Object, Serialize)]
#[oai(rename = "SearchQueryMatch", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct SearchQueryMatch {
    /// ArticleNumber, OENumber, TradeNumber, ComparableNumber, ReplacesNumber,
    /// ReplacedByNumber or EANNumber.
    pub match_type: String,
    /// The kind of number, in words.
    pub description: String,
    /// The number that matched, as written.
    #[oai(rename = "match")]
    #[serde(rename = "match")]
    pub matched: String,
    /// The number's manufacturer: an OE number's vehicle maker, else the article's brand.
    pub mfr_id: i64,
    /// Its name.
    pub mfr_name: String,
}

/// A link of an article (Pegasus's `LinkRecord`); partscat keeps none.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "LinkRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct LinkRecord {
    /// Where it leads.
    pub url: String,
    /// What it is.
    pub description: String,
}

/// A price of an article (`includePrices`), its fields in Pegasus's order, then partscat's own.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "PriceRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PriceRecord {
    /// ISO 4217 code.
    pub currency_code: String,
    /// The maker's discount group: partscat keeps none, so it is empty.
    pub discount_group: String,
    /// Whether this is a discount price (of the kind `discount`).
    pub is_discount: bool,
    /// The amount (`amount` has it as exact decimal text).
    pub price: f64,
    /// The amount in hundredths (cents), rounded half away from zero; absent beyond the
    /// range of a 32-bit integer.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_cents: Option<i32>,
    /// 1 list, 2 net, 9 any other kind the maker publishes (`kindOfPriceDescription`).
    pub kind_of_price_key: i32,
    /// The kind as the maker names it (`list`, `net`, …).
    pub kind_of_price_description: String,
    /// 1: per piece.
    pub price_unit_key: i32,
    /// `per piece`.
    pub price_unit_description: String,
    /// `1`: pieces.
    pub quantity_unit_key: String,
    /// `piece`.
    pub quantity_unit_description: String,
    /// First day of validity as YYYYMMDD; 0 where unlimited.
    pub valid_date_from: i32,
    /// Last day of validity as YYYYMMDD; 99991231 where unlimited, so a comparison with
    /// today holds either way.
    pub valid_date_to: i32,
    /// The amount as decimal text (`19.27`), so no precision is lost.
    pub amount: String,
}

pub fn yyyymmdd(day: &model::Date) -> i32 {
    day.to_string().replace('-', "").parse().unwrap_or(0)
}

/// `validDateTo` of a price valid without end.
const UNLIMITED_TO: i32 = 99991231;

impl PriceRecord {
    pub fn of(p: &model::Price) -> PriceRecord {
        let amount = p.amount.to_string();
        PriceRecord {
            currency_code: p.currency.clone(),
            discount_group: String::new(),
            is_discount: p.price_type.eq_ignore_ascii_case("discount"),
            price: amount.parse().unwrap_or(0.0),
            price_cents: i32::try_from(p.amount.cents()).ok(),
            kind_of_price_key: match p.price_type.as_str() {
                "list" => 1,
                "net" => 2,
                _ => 9,
            },
            kind_of_price_description: p.price_type.clone(),
            price_unit_key: 1,
            price_unit_description: "per piece".into(),
            quantity_unit_key: "1".into(),
            quantity_unit_description: "piece".into(),
            valid_date_from: p.valid_from.as_ref().map(yyyymmdd).unwrap_or(0),
            valid_date_to: p.valid_to.as_ref().map_or(UNLIMITED_TO, yyyymmdd),
            amount,
        }
    }
}

/// An id as Pegasus's `xs:int`.
pub fn number(id: u32) -> i32 {
    i32::try_from(id).unwrap_or(i32::MAX)
}

/// A vehicle type.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct LinkageTarget {
    /// The Ktype.
    pub linkage_target_id: String,
    /// The make.
    pub mfr_name: String,
    /// The model (`A3 Sportback (8VA, 8VF)`).
    pub model: String,
    /// The type (`1.0 TSI`).
    pub type_name: String,
    /// Engine code.
    pub engine: String,
    /// Fuel.
    pub fuel: String,
    /// Power in kW.
    pub kw: u32,
    /// Power in HP.
    pub hp: u32,
    /// Displacement in cm³.
    pub ccm: u32,
    /// `YYYY` or `YYYY-MM`.
    pub year_from: String,
    /// `YYYY` or `YYYY-MM`; absent while the type is built.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year_to: Option<String>,
}
