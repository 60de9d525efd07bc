//! The catalogue records the lookups, exports and SOAP operations answer with. Each type is a named schema
//! of the OpenAPI document; its doc comments are the document's descriptions.

use poem_openapi::{Enum, Object};
use serde::Serialize;

use crate::catalogue as model;
use crate::service::articles::article_detail::{ArticleDetail, Parts};
use crate::service::names::NamedArticle;

/// An article's lifecycle status.
#[derive(Debug, Clone, Copy, Enum, Serialize)]
#[oai(rename = "ArticleStatus", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum ArticleStatus {
    Active,
    Announced,
    Discontinued,
}

impl From<model::ArticleStatus> for ArticleStatus {
    fn from(s: model::ArticleStatus) -> Self {
        match s {
            model::ArticleStatus::Active => ArticleStatus::Active,
            model::ArticleStatus::Announced => ArticleStatus::Announced,
            model::ArticleStatus::Discontinued => ArticleStatus::Discontinued,
        }
    }
}

/// What kind of number a cross-reference is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize)]
#[oai(rename = "CrossReferenceKind", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum CrossKind {
    /// A vehicle maker's original-equipment number.
    Oe,
    /// Another parts maker's number for the same part.
    Competitor,
    /// A reference of one of the maker's other brands.
    Internal,
    /// A trade number.
    Trade,
    /// An EAN/GTIN of the article.
    Ean,
}

impl From<model::CrossKind> for CrossKind {
    fn from(k: model::CrossKind) -> Self {
        match k {
            model::CrossKind::Oe => CrossKind::Oe,
            model::CrossKind::Competitor => CrossKind::Competitor,
            model::CrossKind::Internal => CrossKind::Internal,
            model::CrossKind::Trade => CrossKind::Trade,
            model::CrossKind::Ean => CrossKind::Ean,
        }
    }
}

/// A technical criterion of an article.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "Criterion", example)]
pub struct Criterion {
    /// What is measured (`Brake Disc Diameter`).
    pub name: String,
    /// The value, as text.
    pub value: String,
    /// Empty where the value has no unit.
    pub unit: String,
}

/// Another number an article carries.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ArticleNumber", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct ArticleNumber {
    /// What kind of number it is.
    pub kind: CrossKind,
    /// The number as written.
    pub number: String,
    /// The vehicle maker (OE) or parts maker (competitor) of the number.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manufacturer_id: Option<u32>,
    /// That manufacturer's name.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manufacturer_name: Option<String>,
}

/// A price of an article.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "Price", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct Price {
    /// `list` at least; `net` and others as the maker publishes them.
    pub price_type: String,
    /// ISO 4217 code.
    pub currency: String,
    /// A decimal number as text (`19.27`), so no precision is lost.
    pub amount: String,
    /// First day of validity (`YYYY-MM-DD`), if limited.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid_from: Option<String>,
    /// Last day of validity (`YYYY-MM-DD`), if limited.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub valid_to: Option<String>,
}

impl From<&model::Price> for Price {
    fn from(p: &model::Price) -> Self {
        Price {
            price_type: p.price_type.clone(),
            currency: p.currency.clone(),
            amount: p.amount.to_string(),
            valid_from: p.valid_from.map(|d| d.to_string()),
            valid_to: p.valid_to.map(|d| d.to_string()),
        }
    }
}

/// An image, a document or one frame of a 360-degree spin set.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "Media", example)]
pub struct Media {
    /// `image`, `document` or `spin360`.
    pub kind: String,
    /// The 360 set a frame belongs to.
    pub set: String,
    /// Order within the article (frames: within the set).
    pub position: u32,
    /// Where the file is (relative to the maker's media base).
    pub uri: String,
    /// A caption; empty if none.
    pub description: String,
}

impl From<&model::Media> for Media {
    fn from(m: &model::Media) -> Self {
        Media {
            kind: media_kind(m.kind).into(),
            set: m.set.clone(),
            position: m.position,
            uri: m.uri.clone(),
            description: m.description.clone(),
        }
    }
}

pub fn media_kind(kind: model::MediaKind) -> &'static str {
    match kind {
        model::MediaKind::Image => "image",
        model::MediaKind::Document => "document",
        model::MediaKind::Spin360 => "spin360",
    }
}

/// An article with everything the catalogue holds on it but its vehicles.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "Article", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct Article {
    pub brand_id: u32,
    pub brand_name: String,
    /// The reference as the maker writes it.
    pub reference: String,
    /// Upper-case letters and digits only: what every lookup compares.
    pub normalised_reference: String,
    pub genart: u32,
    pub genart_name: String,
    pub description: String,
    pub status: ArticleStatus,
    /// EAN/GTIN codes.
    pub eans: Vec<String>,
    pub packaging_unit: u32,
    /// References of the same brand that replace this article.
    pub replaced_by: Vec<String>,
    pub criteria: Vec<Criterion>,
    /// OE, competitor, internal and trade numbers of the article.
    pub numbers: Vec<ArticleNumber>,
    pub prices: Vec<Price>,
    pub media: Vec<Media>,
}

/// An article in a list: who makes it, what it is, and how it fits.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ArticleSummary", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct ArticleSummary {
    pub brand_id: u32,
    pub brand_name: String,
    pub reference: String,
    pub genart: u32,
    pub genart_name: String,
    pub description: String,
    pub status: ArticleStatus,
}

/// A vehicle type.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "Vehicle", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct Vehicle {
    pub ktype: String,
    pub make: String,
    pub model: String,
    pub type_name: String,
    pub engine: String,
    pub fuel: String,
    pub kw: u16,
    pub hp: u16,
    pub ccm: u32,
    /// `YYYY` or `YYYY-MM`.
    pub year_from: String,
    /// `YYYY` or `YYYY-MM`; absent while the type is built.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year_to: Option<String>,
}

impl From<&model::Vehicle> for Vehicle {
    fn from(v: &model::Vehicle) -> Self {
        Vehicle {
            ktype: v.ktype.clone(),
            make: v.make.clone(),
            model: v.model.clone(),
            type_name: v.type_name.clone(),
            engine: v.engine_text(),
            fuel: v.fuel.clone(),
            kw: v.kw,
            hp: v.hp,
            ccm: v.ccm,
            year_from: v.year_from.to_string(),
            year_to: v.year_to.map(|y| y.to_string()),
        }
    }
}

impl From<NamedArticle> for ArticleSummary {
    fn from(named: NamedArticle) -> Self {
        let a = named.article;
        ArticleSummary {
            brand_id: a.key.brand_id,
            brand_name: named.brand_name,
            reference: a.reference,
            genart: a.genart,
            genart_name: named.genart_name,
            description: a.description,
            status: a.status.into(),
        }
    }
}

/// What an `Article` answer holds of an article.
pub const ARTICLE_PARTS: Parts = Parts {
    numbers: true,
    criteria: true,
    prices: true,
    media: true,
    applications: false,
    id: false,
    replaced: false,
};

impl From<ArticleDetail> for Article {
    fn from(d: ArticleDetail) -> Self {
        let a = d.article;
        Article {
            brand_id: a.key.brand_id,
            brand_name: d.brand_name,
            reference: a.reference,
            normalised_reference: a.key.reference,
            genart: a.genart,
            genart_name: d.genart_name,
            description: a.description,
            status: a.status.into(),
            eans: a.eans,
            packaging_unit: a.packaging_unit,
            replaced_by: a.replaced_by,
            criteria: d
                .criteria
                .into_iter()
                .map(|c| Criterion {
                    name: c.name,
                    value: c.value,
                    unit: c.unit,
                })
                .collect(),
            numbers: d
                .numbers
                .into_iter()
                .map(|n| ArticleNumber {
                    kind: n.number.kind.into(),
                    number: n.number.number,
                    manufacturer_id: n.number.manufacturer_id,
                    manufacturer_name: n.manufacturer_name,
                })
                .collect(),
            prices: d.prices.iter().map(Price::from).collect(),
            media: d.media.iter().map(Media::from).collect(),
        }
    }
}
