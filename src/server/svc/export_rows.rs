//! The rows of every export, with their stable column sets. JSON keys are camelCase; CSV
//! headers are the same names in snake_case, column for column (`docs/exports.md`).

use poem_openapi::Object;
use serde::Serialize;

use crate::server::answers::records::{Article, Vehicle};
use crate::server::streaming::{CsvLine, CsvRow};

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

    fn write_cells(&self, line: &mut CsvLine<'_>) {
        let a = &self.article;
        let list = a.prices.iter().find(|p| p.price_type == "list");
        line.number(a.brand_id);
        line.text(&a.brand_name);
        line.text(&a.reference);
        line.text(&a.normalised_reference);
        line.number(a.genart);
        line.text(&a.genart_name);
        line.text(&a.description);
        line.text(status_name(a.status));
        line.text(&a.eans.join("|"));
        line.number(a.packaging_unit);
        line.text(&a.replaced_by.join("|"));
        line.text(list.map_or("", |p| p.amount.as_str()));
        line.text(list.map_or("", |p| p.currency.as_str()));
        let oe: Vec<&str> = a
            .numbers
            .iter()
            .filter(|n| n.kind == crate::server::answers::records::CrossKind::Oe)
            .map(|n| n.number.as_str())
            .collect();
        line.text(&oe.join("|"));
        let ktypes: Vec<&str> = self.vehicles.iter().map(|v| v.ktype.as_str()).collect();
        line.text(&ktypes.join("|"));
    }
}

pub fn status_name(s: crate::server::answers::records::ArticleStatus) -> &'static str {
    use crate::server::answers::records::ArticleStatus::*;
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

    fn write_cells(&self, line: &mut CsvLine<'_>) {
        line.number(self.brand_id);
        line.text(&self.brand_name);
        line.text(&self.reference);
        line.number(self.genart);
        line.text(&self.genart_name);
        line.text(&self.description);
        line.text(&self.status);
        line.text(&self.ean);
        line.text(&self.ktype);
        line.text(&self.make);
        line.text(&self.model);
        line.text(&self.type_name);
        line.text(&self.engine);
        line.text(&self.fuel);
        line.maybe(self.kw);
        line.maybe(self.hp);
        line.maybe(self.ccm);
        line.text(&self.year_from);
        line.text(&self.year_to);
        line.text(&self.position);
        line.maybe(self.quantity);
    }
}

impl FlatCatalogueRow {
    pub fn clear_vehicle(&mut self) {
        for field in [
            &mut self.ktype,
            &mut self.make,
            &mut self.model,
            &mut self.type_name,
            &mut self.engine,
            &mut self.fuel,
            &mut self.year_from,
            &mut self.year_to,
            &mut self.position,
        ] {
            field.clear();
        }
        self.kw = None;
        self.hp = None;
        self.ccm = None;
        self.quantity = None;
    }

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
        self.year_to.clear();
        self.year_to.push_str(v.year_to.as_deref().unwrap_or(""));
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

impl GoldaRow {
    /// The vehicle columns: of the vehicle, or only the Ktype where the catalogue lacks it.
    pub fn set_vehicle(&mut self, v: Option<&Vehicle>, ktype: &str) {
        match v {
            Some(v) => {
                self.ktype.clone_from(&v.ktype);
                self.make.clone_from(&v.make);
                self.model.clone_from(&v.model);
                self.year_from.clone_from(&v.year_from);
                self.year_to.clear();
                self.year_to.push_str(v.year_to.as_deref().unwrap_or(""));
            }
            None => {
                for field in [
                    &mut self.make,
                    &mut self.model,
                    &mut self.year_from,
                    &mut self.year_to,
                ] {
                    field.clear();
                }
                self.ktype.clear();
                self.ktype.push_str(ktype);
            }
        }
    }
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

    fn write_cells(&self, line: &mut CsvLine<'_>) {
        line.text(&self.reference);
        line.number(self.brand_id);
        line.text(&self.brand_name);
        line.number(self.genart);
        line.text(&self.genart_name);
        line.text(&self.ktype);
        line.text(&self.make);
        line.text(&self.model);
        line.text(&self.year_from);
        line.text(&self.year_to);
        line.text(&self.ean);
        line.text(&self.price);
        line.text(&self.currency);
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

    fn write_cells(&self, line: &mut CsvLine<'_>) {
        line.number(self.brand_id);
        line.text(&self.brand_name);
        line.text(&self.reference);
        line.number(self.genart);
        line.text(&self.genart_name);
        line.text(&self.criterion);
        line.text(&self.value);
        line.text(&self.unit);
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

    fn write_cells(&self, line: &mut CsvLine<'_>) {
        line.number(self.manufacturer_id);
        line.text(&self.manufacturer_name);
        line.text(&self.competitor_number);
        line.number(self.brand_id);
        line.text(&self.brand_name);
        line.text(&self.reference);
        line.number(self.genart);
        line.text(&self.genart_name);
        line.text(&self.description);
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

    fn write_cells(&self, line: &mut CsvLine<'_>) {
        let uris = |files: &[DmmFile]| {
            files
                .iter()
                .map(|f| f.uri.as_str())
                .collect::<Vec<_>>()
                .join("|")
        };
        let sets: Vec<&str> = self.spin_sets.iter().map(|s| s.set.as_str()).collect();
        let frames: usize = self.spin_sets.iter().map(|s| s.frames.len()).sum();
        line.number(self.brand_id);
        line.text(&self.brand_name);
        line.text(&self.reference);
        line.number(self.genart);
        line.text(&self.genart_name);
        line.text(&uris(&self.images));
        line.text(&uris(&self.documents));
        line.text(&sets.join("|"));
        line.number(frames);
    }
}
