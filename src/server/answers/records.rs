//! The catalogue records the lookups, exports and SOAP operations answer with. Each type is a named schema
//! of the OpenAPI document; its doc comments are the document's descriptions.

use poem_openapi::{Enum, Object};
use serde::Serialize;

use crate::catalogue::{self as model, ArticleKey};
use crate::store::{Catalogue, StoreError};

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
            engine: v.engine.clone(),
            fuel: v.fuel.clone(),
            kw: v.kw,
            hp: v.hp,
            ccm: v.ccm,
            year_from: v.year_from.to_string(),
            year_to: v.year_to.map(|y| y.to_string()),
        }
    }
}

/// Names of brands, genarts and manufacturers, from the generation's name tables. An answer
/// copies a name into each record that carries it: the copies one request takes are counted,
/// and past the answer bound the request stops (a store imported under looser limits may
/// hold names of megabytes), so no answer multiplies a long name into gigabytes.
pub struct Names<'a> {
    catalogue: &'a Catalogue,
    copied: std::cell::Cell<u64>,
}

impl<'a> Names<'a> {
    pub fn new(catalogue: &'a Catalogue) -> Self {
        Names {
            catalogue,
            copied: std::cell::Cell::new(0),
        }
    }

    /// `name`, counted against the answer bound.
    fn counted(&self, name: &'a str) -> Result<&'a str, StoreError> {
        let copied = self.copied.get() + name.len() as u64;
        self.copied.set(copied);
        crate::limits::within_answer(copied).map_err(StoreError::Spent)?;
        Ok(name)
    }

    pub fn brand(&self, id: u32) -> Result<String, StoreError> {
        self.brand_name(id).map(str::to_owned)
    }

    /// The brand's name, borrowed (for loops that reuse their buffers); empty if unknown.
    pub fn brand_name(&self, id: u32) -> Result<&'a str, StoreError> {
        self.counted(
            self.catalogue
                .names()?
                .brands
                .get(&id)
                .map_or("", String::as_str),
        )
    }

    pub fn genart(&self, id: u32) -> Result<String, StoreError> {
        self.genart_name(id).map(str::to_owned)
    }

    /// The genart's name, borrowed; empty if unknown.
    pub fn genart_name(&self, id: u32) -> Result<&'a str, StoreError> {
        self.counted(
            self.catalogue
                .names()?
                .generic_articles
                .get(&id)
                .map_or("", String::as_str),
        )
    }

    pub fn manufacturer(&self, id: u32) -> Result<String, StoreError> {
        self.counted(
            self.catalogue
                .names()?
                .manufacturers
                .get(&id)
                .map_or("", String::as_str),
        )
        .map(str::to_owned)
    }

    pub fn summary(&self, a: &model::Article) -> Result<ArticleSummary, StoreError> {
        Ok(ArticleSummary {
            brand_id: a.key.brand_id,
            brand_name: self.brand(a.key.brand_id)?,
            reference: a.reference.clone(),
            genart: a.genart,
            genart_name: self.genart(a.genart)?,
            description: a.description.clone(),
            status: a.status.into(),
        })
    }

    /// The cross numbers an article carries, with their manufacturers' names.
    pub fn numbers(&self, key: &ArticleKey) -> Result<Vec<ArticleNumber>, StoreError> {
        let mut numbers = Vec::new();
        for x in self.catalogue.cross_references_of(key)? {
            let manufacturer_name = match x.manufacturer_id {
                Some(m) => Some(self.manufacturer(m)?),
                None => None,
            };
            numbers.push(ArticleNumber {
                kind: x.kind.into(),
                number: x.number,
                manufacturer_id: x.manufacturer_id,
                manufacturer_name,
            });
        }
        Ok(numbers)
    }

    /// The technical criteria of an article.
    pub fn criteria(&self, key: &ArticleKey) -> Result<Vec<Criterion>, StoreError> {
        Ok(self
            .catalogue
            .criteria_of(key)?
            .into_iter()
            .map(|k| Criterion {
                name: k.name,
                value: k.value,
                unit: k.unit,
            })
            .collect())
    }

    /// The article with its criteria, numbers, prices and media.
    pub fn article(&self, a: &model::Article) -> Result<Article, StoreError> {
        let c = self.catalogue;
        let key = &a.key;
        let numbers = self.numbers(key)?;
        Ok(Article {
            brand_id: key.brand_id,
            brand_name: self.brand(key.brand_id)?,
            reference: a.reference.clone(),
            normalised_reference: key.reference.clone(),
            genart: a.genart,
            genart_name: self.genart(a.genart)?,
            description: a.description.clone(),
            status: a.status.into(),
            eans: a.eans.clone(),
            packaging_unit: a.packaging_unit,
            replaced_by: a.replaced_by.clone(),
            criteria: self.criteria(key)?,
            numbers,
            prices: c.prices_of(key)?.iter().map(Price::from).collect(),
            media: c.media_of(key)?.iter().map(Media::from).collect(),
        })
    }
}
