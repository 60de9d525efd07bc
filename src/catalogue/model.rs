//! The catalogue's records, as PRODUCT.md describes them. Storage keys and encodings live in
//! `store`; this module only says what a catalogue holds.

use serde::Serialize;

use super::target_type::TargetType;
use super::values::{Amount, Date, YearMonth};

/// An article is identified by its brand and its normalised reference.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ArticleKey {
    pub brand_id: u32,
    /// The reference after `normalise_reference`.
    pub reference: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Brand {
    pub id: u32,
    pub name: String,
    pub address: BrandAddress,
}

/// Where a brand's maker is reached (TecDoc's brand address); a part not known is empty.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BrandAddress {
    pub street: String,
    pub zip: String,
    pub city: String,
    /// ISO 3166-1 alpha-2.
    pub country: String,
    pub phone: String,
    pub fax: String,
    pub email: String,
    pub website: String,
}

impl BrandAddress {
    /// The parts in the order the files write them.
    pub fn parts(&self) -> [&str; 8] {
        [
            &self.street,
            &self.zip,
            &self.city,
            &self.country,
            &self.phone,
            &self.fax,
            &self.email,
            &self.website,
        ]
    }

    pub fn is_empty(&self) -> bool {
        self.parts().iter().all(|p| p.is_empty())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ManufacturerKind {
    /// A vehicle maker, whose part numbers are OE numbers.
    VehicleMaker,
    /// Another parts maker, whose part numbers are competitor references.
    PartsMaker,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Manufacturer {
    pub id: u32,
    pub name: String,
    pub kind: ManufacturerKind,
}

/// A generic article (genart): what kind of part an article is.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenericArticle {
    pub id: u32,
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArticleStatus {
    Active,
    Announced,
    Discontinued,
}

impl ArticleStatus {
    /// Its name in the catalogue's default language, the term a `texts` row translates.
    pub fn name(self) -> &'static str {
        match self {
            ArticleStatus::Active => "active",
            ArticleStatus::Announced => "announced",
            ArticleStatus::Discontinued => "discontinued",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Article {
    pub key: ArticleKey,
    /// The reference as the maker writes it.
    pub reference: String,
    pub genart: u32,
    pub description: String,
    pub status: ArticleStatus,
    /// EAN/GTIN codes, digits only.
    pub eans: Vec<String>,
    pub packaging_unit: u32,
    /// References (same brand, as written) that replace this article.
    pub replaced_by: Vec<String>,
}

/// A technical criterion of an article (one per name).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Criterion {
    pub article: ArticleKey,
    pub name: String,
    pub value: String,
    pub unit: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
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
    /// An EAN/GTIN of the article (kept on the article, indexed as a cross number).
    Ean,
}

/// A link from an article to another number that identifies the same part.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CrossReference {
    pub article: ArticleKey,
    pub kind: CrossKind,
    /// The maker of the number: a vehicle maker for OE numbers, a parts maker for
    /// competitor references; absent for internal and trade numbers.
    pub manufacturer_id: Option<u32>,
    /// The number as written.
    pub number: String,
}

/// A vehicle maker's model series (`GOLF VII`), which its vehicle types belong to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelSeries {
    pub id: u32,
    /// The vehicle maker (a `vehicle` manufacturer).
    pub manufacturer_id: u32,
    pub name: String,
    pub year_from: YearMonth,
    pub year_to: Option<YearMonth>,
}

/// A vehicle type, identified by its Ktype.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Vehicle {
    pub ktype: String,
    pub make: String,
    pub model: String,
    pub type_name: String,
    /// The engine codes, as the maker writes them (several where one type has several).
    pub engines: Vec<String>,
    pub fuel: String,
    pub kw: u16,
    pub hp: u16,
    pub ccm: u32,
    pub year_from: YearMonth,
    pub year_to: Option<YearMonth>,
    /// The model series it belongs to; `None` in catalogues without model series.
    pub model_series: Option<u32>,
    pub target_type: TargetType,
    /// `Hatchback`, `Saloon`, `Estate`…
    pub body_style: String,
    /// `Closed Off-Road Vehicle`, `Box`… where the maker says more than the body style.
    pub construction_type: String,
    /// The kind of engine (`Otto`, `Diesel`, `Electric`, `Otto/Electric`…).
    pub engine_kind: String,
    /// The upper end of the power where a type spans a range.
    pub kw_to: Option<u16>,
    pub hp_to: Option<u16>,
}

impl Vehicle {
    /// The engine codes as one text (`CZCA, CZDA`), for answers that have one field.
    pub fn engine_text(&self) -> String {
        self.engines.join(", ")
    }
}

/// A node of an assembly-group tree (*Brake system → Brake pads*): the categories parts are
/// found under. Each linkage-target type has a tree of its own.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AssemblyGroup {
    pub id: u32,
    /// `None` for a root.
    pub parent: Option<u32>,
    pub target_type: TargetType,
    pub name: String,
    /// Siblings are listed by this, then by name.
    pub sort: u32,
}

/// A generic article placed under an assembly-group node (one generic article may sit under
/// several nodes).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct GenartGroup {
    pub genart: u32,
    pub node: u32,
}

/// An article fits a vehicle.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Link {
    pub article: ArticleKey,
    pub ktype: String,
    pub position: String,
    pub quantity: u32,
    pub notes: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Price {
    pub article: ArticleKey,
    /// `list` at least; `net`, `exchange`… as the maker publishes them.
    pub price_type: String,
    /// ISO 4217 code.
    pub currency: String,
    pub valid_from: Option<Date>,
    pub valid_to: Option<Date>,
    pub amount: Amount,
}

impl Price {
    /// A `list` price valid on `day` (its dates are inclusive).
    pub fn is_list_price_on(&self, day: Date) -> bool {
        self.price_type.eq_ignore_ascii_case("list")
            && self.valid_from.is_none_or(|d| d <= day)
            && self.valid_to.is_none_or(|d| d >= day)
    }
}

/// The list price valid on `day`; where several are, the one valid from the latest date.
pub fn current_list_price(prices: Vec<Price>, day: Date) -> Option<Price> {
    prices
        .into_iter()
        .filter(|p| p.is_list_price_on(day))
        .max_by_key(|p| p.valid_from)
}

/// A registration plate or key number that names a vehicle type in one country (a German
/// HSN/TSN key number, a British plate…). One number may name several types.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plate {
    /// ISO 3166-1 alpha-2, upper case.
    pub country: String,
    /// Upper-case letters and digits only: what a search compares.
    pub number: String,
    /// As the file writes it (`0603/BJQ`, `AB12 CDE`).
    pub written: String,
    pub ktype: String,
    /// The kind of number as Pegasus clients send it (`keySystemType`); 0: unnamed.
    pub key_system: u32,
}

/// A VIN pattern that names a vehicle type: a vehicle identification number matches where
/// every character the pattern gives is the VIN's at that place (`?` any character), the
/// VIN being as long as the pattern or longer. One VIN may match several types.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VinPattern {
    /// Upper case, of VIN characters and `?`; its first three (the maker's WMI) given.
    pub pattern: String,
    pub ktype: String,
}

impl VinPattern {
    /// The characters a VIN has (ISO 3779: digits and capitals but I, O and Q).
    pub fn is_vin_character(c: char) -> bool {
        c.is_ascii_digit() || (c.is_ascii_uppercase() && !matches!(c, 'I' | 'O' | 'Q'))
    }

    /// The maker's part (WMI): what a lookup reads the patterns by.
    pub fn wmi(&self) -> &str {
        self.pattern.get(..3).unwrap_or(&self.pattern)
    }

    /// Whether `vin` (upper case) matches.
    pub fn matches(&self, vin: &str) -> bool {
        vin.len() >= self.pattern.len()
            && self
                .pattern
                .bytes()
                .zip(vin.bytes())
                .all(|(p, v)| p == b'?' || p == v)
    }
}

/// One component of a kit article, for a Ktype.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KitComponent {
    pub kit: ArticleKey,
    pub ktype: String,
    pub component: ArticleKey,
    pub quantity: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MediaKind {
    Image,
    Document,
    /// One frame of a 360-degree spin set; frames are ordered by position.
    Spin360,
}

impl MediaKind {
    /// What a reader calls this kind of media in the catalogue's default language: the term
    /// the catalogue's `texts` translate.
    pub fn term(self) -> &'static str {
        match self {
            MediaKind::Image => "Picture",
            MediaKind::Document => "Document",
            MediaKind::Spin360 => "360° picture",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Media {
    pub article: ArticleKey,
    pub kind: MediaKind,
    /// Groups the frames of one 360 set; free for images and documents.
    pub set: String,
    pub position: u32,
    pub uri: String,
    pub description: String,
}
