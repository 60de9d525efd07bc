//! The rows of every export, with their stable column sets. JSON keys are camelCase; CSV
//! headers are the same names in snake_case, column for column (`docs/exports.md`).

use poem_openapi::Object;
use serde::Serialize;

use super::schema::{Article, Vehicle};
use crate::server::streaming::CsvRow;

fn join(values: &[String]) -> String {
    values.join("|")
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(T::to_string).unwrap_or_default()
}

/// How an article fits one vehicle.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "Fitment", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct Fitment {
    pub ktype: String,
    pub position: String,
    pub quantity: u32,
    pub notes: String,
}

/// `exportCatalogue`: an article with everything on it and the vehicles it fits. As CSV,
/// one row per article; the lists are `|`-separated and the nested parts summarised.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "CatalogueArticle", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct CatalogueArticle {
    #[oai(flatten)]
    #[serde(flatten)]
    pub article: Article,
    pub vehicles: Vec<Fitment>,
}

impl CsvRow for CatalogueArticle {
    const COLUMNS: &'static [&'static str] = &[
        "brand_id",
        "brand_name",
        "reference",
        "normalised_reference",
        "genart",
        "genart_name",
        "description",
        "status",
        "eans",
        "packaging_unit",
        "replaced_by",
        "list_price",
        "currency",
        "oe_numbers",
        "ktypes",
    ];

    fn cells(&self, out: &mut Vec<String>) {
        let a = &self.article;
        let list = a.prices.iter().find(|p| p.price_type == "list");
        let oe: Vec<String> = a
            .numbers
            .iter()
            .filter(|n| n.kind == super::schema::CrossKind::Oe)
            .map(|n| n.number.clone())
            .collect();
        let ktypes: Vec<String> = self.vehicles.iter().map(|v| v.ktype.clone()).collect();
        out.extend([
            a.brand_id.to_string(),
            a.brand_name.clone(),
            a.reference.clone(),
            a.normalised_reference.clone(),
            a.genart.to_string(),
            a.genart_name.clone(),
            a.description.clone(),
            status_name(a.status).into(),
            join(&a.eans),
            a.packaging_unit.to_string(),
            join(&a.replaced_by),
            list.map(|p| p.amount.clone()).unwrap_or_default(),
            list.map(|p| p.currency.clone()).unwrap_or_default(),
            join(&oe),
            join(&ktypes),
        ]);
    }
}

pub fn status_name(s: super::schema::ArticleStatus) -> &'static str {
    use super::schema::ArticleStatus::*;
    match s {
        Active => "active",
        Announced => "announced",
        Discontinued => "discontinued",
    }
}

/// `exportCatalogue` with `is_flat_export=true`: one row per article × vehicle. An article
/// that fits no vehicle has one row with empty vehicle columns, so none goes missing.
#[derive(Debug, Clone, Default, Object, Serialize)]
#[oai(rename = "FlatCatalogueRow", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct FlatCatalogueRow {
    pub brand_id: u32,
    pub brand_name: String,
    pub reference: String,
    pub genart: u32,
    pub genart_name: String,
    pub description: String,
    pub status: String,
    /// The first EAN.
    pub ean: String,
    pub ktype: String,
    pub make: String,
    pub model: String,
    pub type_name: String,
    pub engine: String,
    pub fuel: String,
    pub kw: Option<u16>,
    pub hp: Option<u16>,
    pub ccm: Option<u32>,
    pub year_from: String,
    pub year_to: String,
    pub position: String,
    pub quantity: Option<u32>,
}

impl CsvRow for FlatCatalogueRow {
    const COLUMNS: &'static [&'static str] = &[
        "brand_id",
        "brand_name",
        "reference",
        "genart",
        "genart_name",
        "description",
        "status",
        "ean",
        "ktype",
        "make",
        "model",
        "type_name",
        "engine",
        "fuel",
        "kw",
        "hp",
        "ccm",
        "year_from",
        "year_to",
        "position",
        "quantity",
    ];

    fn cells(&self, out: &mut Vec<String>) {
        out.extend([
            self.brand_id.to_string(),
            self.brand_name.clone(),
            self.reference.clone(),
            self.genart.to_string(),
            self.genart_name.clone(),
            self.description.clone(),
            self.status.clone(),
            self.ean.clone(),
            self.ktype.clone(),
            self.make.clone(),
            self.model.clone(),
            self.type_name.clone(),
            self.engine.clone(),
            self.fuel.clone(),
            opt(&self.kw),
            opt(&self.hp),
            opt(&self.ccm),
            self.year_from.clone(),
            self.year_to.clone(),
            self.position.clone(),
            opt(&self.quantity),
        ]);
    }
}

impl FlatCatalogueRow {
    pub fn set_vehicle(&mut self, v: &Vehicle) {
        self.ktype.clone_from(&v.ktype);
        self.make.clone_from(&v.make);
        self.model.clone_from(&v.model);
        self.type_name.clone_from(&v.type_name);
        self.engine.clone_from(&v.engine);
        self.fuel.clone_from(&v.fuel);
        self.kw = Some(v.kw);
        self.hp = Some(v.hp);
        self.ccm = Some(v.ccm);
        self.year_from.clone_from(&v.year_from);
        self.year_to = v.year_to.clone().unwrap_or_default();
    }
}

/// `exportGolda`: the Golda distributor layout, one row per article × vehicle application.
#[derive(Debug, Clone, Default, Object, Serialize)]
#[oai(rename = "GoldaRow", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct GoldaRow {
    pub reference: String,
    pub brand_id: u32,
    pub brand_name: String,
    pub genart: u32,
    pub genart_name: String,
    pub ktype: String,
    pub make: String,
    pub model: String,
    pub year_from: String,
    pub year_to: String,
    /// The first EAN.
    pub ean: String,
    /// The current list price, a decimal number as text.
    pub price: String,
    pub currency: String,
}

impl CsvRow for GoldaRow {
    const COLUMNS: &'static [&'static str] = &[
        "reference",
        "brand_id",
        "brand_name",
        "genart",
        "genart_name",
        "ktype",
        "make",
        "model",
        "year_from",
        "year_to",
        "ean",
        "price",
        "currency",
    ];

    fn cells(&self, out: &mut Vec<String>) {
        out.extend([
            self.reference.clone(),
            self.brand_id.to_string(),
            self.brand_name.clone(),
            self.genart.to_string(),
            self.genart_name.clone(),
            self.ktype.clone(),
            self.make.clone(),
            self.model.clone(),
            self.year_from.clone(),
            self.year_to.clone(),
            self.ean.clone(),
            self.price.clone(),
            self.currency.clone(),
        ]);
    }
}

/// `exportAtc`: one row per article × technical criterion.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "AtcRow", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct AtcRow {
    pub brand_id: u32,
    pub brand_name: String,
    pub reference: String,
    pub genart: u32,
    pub genart_name: String,
    pub criterion: String,
    pub value: String,
    pub unit: String,
}

impl CsvRow for AtcRow {
    const COLUMNS: &'static [&'static str] = &[
        "brand_id",
        "brand_name",
        "reference",
        "genart",
        "genart_name",
        "criterion",
        "value",
        "unit",
    ];

    fn cells(&self, out: &mut Vec<String>) {
        out.extend([
            self.brand_id.to_string(),
            self.brand_name.clone(),
            self.reference.clone(),
            self.genart.to_string(),
            self.genart_name.clone(),
            self.criterion.clone(),
            self.value.clone(),
            self.unit.clone(),
        ]);
    }
}

/// `exportRefConcurrente(Interne)`: a competitor's number and the maker's article it matches.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "CompetitorReferenceRow", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct CompetitorReferenceRow {
    pub manufacturer_id: u32,
    pub manufacturer_name: String,
    /// The competitor's number, as written.
    pub competitor_number: String,
    pub brand_id: u32,
    pub brand_name: String,
    pub reference: String,
    pub genart: u32,
    pub genart_name: String,
    pub description: String,
}

impl CsvRow for CompetitorReferenceRow {
    const COLUMNS: &'static [&'static str] = &[
        "manufacturer_id",
        "manufacturer_name",
        "competitor_number",
        "brand_id",
        "brand_name",
        "reference",
        "genart",
        "genart_name",
        "description",
    ];

    fn cells(&self, out: &mut Vec<String>) {
        out.extend([
            self.manufacturer_id.to_string(),
            self.manufacturer_name.clone(),
            self.competitor_number.clone(),
            self.brand_id.to_string(),
            self.brand_name.clone(),
            self.reference.clone(),
            self.genart.to_string(),
            self.genart_name.clone(),
            self.description.clone(),
        ]);
    }
}

/// One image or document of an article.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "DmmFile", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct DmmFile {
    pub position: u32,
    pub uri: String,
    pub description: String,
}

/// A 360-degree spin set: its frames in order.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "DmmSpinSet", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct DmmSpinSet {
    pub set: String,
    pub frames: Vec<String>,
}

/// `DMM`: the digital media manifest of an article with media. As CSV, one row per article
/// with the URIs `|`-separated.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "DmmArticle", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct DmmArticle {
    pub brand_id: u32,
    pub brand_name: String,
    pub reference: String,
    pub genart: u32,
    pub genart_name: String,
    pub images: Vec<DmmFile>,
    pub documents: Vec<DmmFile>,
    pub spin_sets: Vec<DmmSpinSet>,
}

impl CsvRow for DmmArticle {
    const COLUMNS: &'static [&'static str] = &[
        "brand_id",
        "brand_name",
        "reference",
        "genart",
        "genart_name",
        "images",
        "documents",
        "spin_sets",
        "spin_frames",
    ];

    fn cells(&self, out: &mut Vec<String>) {
        let uris = |files: &[DmmFile]| {
            files
                .iter()
                .map(|f| f.uri.as_str())
                .collect::<Vec<_>>()
                .join("|")
        };
        let sets: Vec<String> = self.spin_sets.iter().map(|s| s.set.clone()).collect();
        let frames: usize = self.spin_sets.iter().map(|s| s.frames.len()).sum();
        out.extend([
            self.brand_id.to_string(),
            self.brand_name.clone(),
            self.reference.clone(),
            self.genart.to_string(),
            self.genart_name.clone(),
            uris(&self.images),
            uris(&self.documents),
            join(&sets),
            frames.to_string(),
        ]);
    }
}
