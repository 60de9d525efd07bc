//! The import data sets: their names, CSV columns, and how a row becomes a record.
//! `docs/import-formats.md` describes the same columns for people; keep the two in step.

use super::csv_source::{CHANGE, Column, ColumnSpec, Row, may, must};
use crate::catalogue::*;
use crate::store::{Origin, Record, Replace, Staging, StoreError, TreeName};

/// A kind of import file. A directory import takes them in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ImportType {
    Brands,
    Manufacturers,
    GenericArticles,
    Vehicles,
    Articles,
    Criteria,
    CrossReferences,
    CompetitorReferences,
    Links,
    Prices,
    Kits,
    Media,
    Plates,
}

impl ImportType {
    pub const ALL: [ImportType; 13] = [
        ImportType::Brands,
        ImportType::Manufacturers,
        ImportType::GenericArticles,
        ImportType::Vehicles,
        ImportType::Articles,
        ImportType::Criteria,
        ImportType::CrossReferences,
        ImportType::CompetitorReferences,
        ImportType::Links,
        ImportType::Prices,
        ImportType::Kits,
        ImportType::Media,
        ImportType::Plates,
    ];

    /// The name used by `--type`, `importType` and the `<name>.csv` file of a directory.
    pub fn name(self) -> &'static str {
        match self {
            ImportType::Brands => "brands",
            ImportType::Manufacturers => "manufacturers",
            ImportType::GenericArticles => "genarts",
            ImportType::Vehicles => "vehicles",
            ImportType::Articles => "articles",
            ImportType::Criteria => "criteria",
            ImportType::CrossReferences => "crossrefs",
            ImportType::CompetitorReferences => "competitor_refs",
            ImportType::Links => "links",
            ImportType::Prices => "prices",
            ImportType::Kits => "kits",
            ImportType::Media => "media",
            ImportType::Plates => "plates",
        }
    }

    pub fn from_name(name: &str) -> Option<ImportType> {
        Self::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }

    /// The allowed names, for error messages.
    pub fn names() -> String {
        Self::ALL.map(ImportType::name).join(", ")
    }

    /// The columns of this data set's files, in the order partscat writes them (the
    /// generator, the demo catalogue); a file may order them as it likes.
    pub fn columns(self) -> ColumnSpec {
        let columns: &[Column] = match self {
            ImportType::Brands => const { &[must("brand_id"), must("name")] },
            ImportType::Manufacturers => {
                const { &[must("manufacturer_id"), must("name"), must("kind")] }
            }
            ImportType::GenericArticles => const { &[must("genart_id"), must("name")] },
            ImportType::Vehicles => {
                const {
                    &[
                        must("ktype"),
                        must("make"),
                        must("model"),
                        may("type"),
                        may("engine"),
                        may("fuel"),
                        may("kw"),
                        may("hp"),
                        may("ccm"),
                        must("year_from"),
                        may("year_to"),
                    ]
                }
            }
            ImportType::Articles => {
                const {
                    &[
                        must("brand_id"),
                        must("reference"),
                        must("genart_id"),
                        may("description"),
                        may("status"),
                        may("eans"),
                        may("packaging_unit"),
                        may("replaced_by"),
                    ]
                }
            }
            ImportType::Criteria => {
                const {
                    &[
                        must("brand_id"),
                        must("reference"),
                        must("name"),
                        must("value"),
                        may("unit"),
                    ]
                }
            }
            ImportType::CrossReferences => {
                const {
                    &[
                        must("brand_id"),
                        must("reference"),
                        must("kind"),
                        may("manufacturer_id"),
                        must("number"),
                    ]
                }
            }
            ImportType::CompetitorReferences => {
                const {
                    &[
                        must("brand_id"),
                        must("reference"),
                        must("manufacturer_id"),
                        must("competitor_reference"),
                    ]
                }
            }
            ImportType::Links => {
                const {
                    &[
                        must("brand_id"),
                        must("reference"),
                        must("ktype"),
                        may("position"),
                        may("quantity"),
                        may("notes"),
                    ]
                }
            }
            ImportType::Prices => {
                const {
                    &[
                        must("brand_id"),
                        must("reference"),
                        may("price_type"),
                        must("currency"),
                        must("amount"),
                        may("valid_from"),
                        may("valid_to"),
                    ]
                }
            }
            ImportType::Kits => {
                const {
                    &[
                        must("kit_brand_id"),
                        must("kit_reference"),
                        must("ktype"),
                        must("component_brand_id"),
                        must("component_reference"),
                        may("quantity"),
                    ]
                }
            }
            ImportType::Media => {
                const {
                    &[
                        must("brand_id"),
                        must("reference"),
                        must("kind"),
                        may("set"),
                        may("position"),
                        must("uri"),
                        may("description"),
                    ]
                }
            }
            ImportType::Plates => {
                const {
                    &[
                        must("country"),
                        must("plate"),
                        must("ktype"),
                        may("key_system"),
                    ]
                }
            }
        };
        ColumnSpec { columns }
    }

    /// What a replace of this data set retires, besides the rows the file holds: every row
    /// of the brands the file's rows name where the data set is per brand, every row of the
    /// table otherwise. Cross-references and competitor references share a table: a replace
    /// of `crossrefs` retires OE, internal and trade numbers, one of `competitor_refs`
    /// competitor numbers.
    pub fn replace_scope(self, file: u16) -> Replace {
        let per_brand = !matches!(
            self,
            ImportType::Brands
                | ImportType::Manufacturers
                | ImportType::GenericArticles
                | ImportType::Vehicles
                | ImportType::Plates
        );
        let kinds = match self {
            ImportType::CrossReferences => {
                Some(vec![CrossKind::Oe, CrossKind::Internal, CrossKind::Trade])
            }
            ImportType::CompetitorReferences => Some(vec![CrossKind::Competitor]),
            _ => None,
        };
        Replace {
            file,
            per_brand,
            kinds,
        }
    }

    /// The table the rows of this type go to.
    pub fn tree(self) -> TreeName {
        match self {
            ImportType::Brands => TreeName::Brands,
            ImportType::Manufacturers => TreeName::Manufacturers,
            ImportType::GenericArticles => TreeName::GenericArticles,
            ImportType::Vehicles => TreeName::Vehicles,
            ImportType::Articles => TreeName::Articles,
            ImportType::Criteria => TreeName::Criteria,
            ImportType::CrossReferences | ImportType::CompetitorReferences => {
                TreeName::CrossReferences
            }
            ImportType::Links => TreeName::Links,
            ImportType::Prices => TreeName::Prices,
            ImportType::Kits => TreeName::Kits,
            ImportType::Media => TreeName::Media,
            ImportType::Plates => TreeName::Plates,
        }
    }

    /// Validates one row against the catalogue as it will be, and stages it.
    /// `Ok(Err(message))` is a rejected row; `Err` a failure of the store.
    pub fn stage(
        self,
        row: &Row<'_>,
        file: u16,
        staging: &mut Staging<'_>,
    ) -> Result<Result<(), String>, StoreError> {
        let parsed = match self {
            ImportType::Brands => brand(row).map(Parsed::Brand),
            ImportType::Manufacturers => manufacturer(row).map(Parsed::Manufacturer),
            ImportType::GenericArticles => generic_article(row).map(Parsed::GenericArticle),
            ImportType::Vehicles => vehicle(row).map(Parsed::Vehicle),
            ImportType::Articles => article(row).map(Parsed::Article),
            ImportType::Criteria => criterion(row).map(Parsed::Criterion),
            ImportType::CrossReferences => cross_reference(row).map(Parsed::CrossReference),
            ImportType::CompetitorReferences => {
                competitor_reference(row).map(Parsed::CrossReference)
            }
            ImportType::Links => link(row).map(Parsed::Link),
            ImportType::Prices => price(row).map(Parsed::Price),
            ImportType::Kits => kit_component(row).map(Parsed::KitComponent),
            ImportType::Media => media(row).map(Parsed::Media),
            ImportType::Plates => plate(row).map(Parsed::Plate),
        };
        let parsed = match parsed {
            Ok(p) => p,
            Err(message) => return Ok(Err(message)),
        };
        let origin = Origin {
            file,
            line: row.line,
        };
        let change = row.get(CHANGE);
        if change.eq_ignore_ascii_case("remove") {
            // What a retired row referred to may be retired by the same feed.
            parsed.stage(staging, origin, true)?;
            return Ok(Ok(()));
        }
        if !change.is_empty() && !change.eq_ignore_ascii_case("upsert") {
            return Ok(Err(format!(
                "column '{CHANGE}': '{change}' is not one of upsert, remove"
            )));
        }
        if let Some(message) = parsed.missing_reference(staging)? {
            return Ok(Err(message));
        }
        parsed.stage(staging, origin, false)?;
        Ok(Ok(()))
    }
}

enum Parsed {
    Brand(Brand),
    Manufacturer(Manufacturer),
    GenericArticle(GenericArticle),
    Vehicle(Vehicle),
    Article(Article),
    Criterion(Criterion),
    CrossReference(CrossReference),
    Link(Link),
    Price(Price),
    KitComponent(KitComponent),
    Media(Media),
    Plate(Plate),
}

fn show(a: &ArticleKey) -> String {
    format!("brand {} reference {}", a.brand_id, a.reference)
}

impl Parsed {
    /// Stages the row, or its key's retirement.
    fn stage(&self, s: &mut Staging<'_>, o: Origin, retire: bool) -> Result<(), StoreError> {
        fn one<R: Record>(
            s: &mut Staging<'_>,
            r: &R,
            o: Origin,
            retire: bool,
        ) -> Result<(), StoreError> {
            if retire { s.retire(r, o) } else { s.put(r, o) }
        }
        match self {
            Parsed::Brand(r) => one(s, r, o, retire),
            Parsed::Manufacturer(r) => one(s, r, o, retire),
            Parsed::GenericArticle(r) => one(s, r, o, retire),
            Parsed::Vehicle(r) => one(s, r, o, retire),
            Parsed::Article(r) => one(s, r, o, retire),
            Parsed::Criterion(r) => one(s, r, o, retire),
            Parsed::CrossReference(r) => one(s, r, o, retire),
            Parsed::Link(r) => one(s, r, o, retire),
            Parsed::Price(r) => one(s, r, o, retire),
            Parsed::KitComponent(r) => one(s, r, o, retire),
            Parsed::Media(r) => one(s, r, o, retire),
            Parsed::Plate(r) => one(s, r, o, retire),
        }
    }

    /// The first thing this row refers to that the catalogue does not hold.
    fn missing_reference(&self, s: &mut Staging<'_>) -> Result<Option<String>, StoreError> {
        fn article(s: &mut Staging<'_>, a: &ArticleKey) -> Result<Option<String>, StoreError> {
            Ok((!s.has_article(a)?).then(|| {
                format!(
                    "refers to article {} which is not in the catalogue",
                    show(a)
                )
            }))
        }
        fn vehicle(s: &mut Staging<'_>, ktype: &str) -> Result<Option<String>, StoreError> {
            Ok((!s.has_vehicle(ktype)?)
                .then(|| format!("refers to ktype {ktype} which is not in the catalogue")))
        }
        Ok(match self {
            Parsed::Brand(_)
            | Parsed::Manufacturer(_)
            | Parsed::GenericArticle(_)
            | Parsed::Vehicle(_) => None,
            Parsed::Article(a) => {
                if !s.has_brand(a.key.brand_id)? {
                    Some(format!(
                        "refers to brand {} which is not in the catalogue",
                        a.key.brand_id
                    ))
                } else if !s.has_generic_article(a.genart)? {
                    Some(format!(
                        "refers to genart {} which is not in the catalogue",
                        a.genart
                    ))
                } else {
                    None
                }
            }
            Parsed::Criterion(c) => article(s, &c.article)?,
            Parsed::CrossReference(c) => match c.manufacturer_id {
                Some(m) if !s.has_manufacturer(m)? => Some(format!(
                    "refers to manufacturer {m} which is not in the catalogue"
                )),
                _ => article(s, &c.article)?,
            },
            Parsed::Link(l) => match article(s, &l.article)? {
                None => vehicle(s, &l.ktype)?,
                missing => missing,
            },
            Parsed::Price(p) => article(s, &p.article)?,
            Parsed::KitComponent(k) => match article(s, &k.kit)? {
                None => match article(s, &k.component)? {
                    None => vehicle(s, &k.ktype)?,
                    missing => missing,
                },
                missing => missing,
            },
            Parsed::Media(m) => article(s, &m.article)?,
            Parsed::Plate(p) => vehicle(s, &p.ktype)?,
        })
    }
}

fn article_key(
    row: &Row<'_>,
    brand_column: &str,
    reference_column: &str,
) -> Result<(ArticleKey, String), String> {
    let brand_id = row.positive(brand_column)?;
    let written = row.required(reference_column)?;
    let reference = normalise_reference(written);
    if reference.is_empty() {
        return Err(format!(
            "column '{reference_column}': '{written}' has no letters or digits"
        ));
    }
    Ok((
        ArticleKey {
            brand_id,
            reference,
        },
        written.to_owned(),
    ))
}

fn one_of<T: Copy>(
    row: &Row<'_>,
    column: &str,
    choices: &[(&str, T)],
    default: Option<T>,
) -> Result<T, String> {
    let text = row.get(column).to_ascii_lowercase();
    if text.is_empty()
        && let Some(d) = default
    {
        return Ok(d);
    }
    choices
        .iter()
        .find(|(name, _)| *name == text)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
            format!(
                "column '{column}': '{}' is not one of {}",
                row.get(column),
                names.join(", ")
            )
        })
}

/// How the files name the values of each enumerated column, both ways.
pub(super) const MANUFACTURER_KINDS: [(&str, ManufacturerKind); 2] = [
    ("vehicle", ManufacturerKind::VehicleMaker),
    ("parts", ManufacturerKind::PartsMaker),
];
pub(super) const STATUSES: [(&str, ArticleStatus); 3] = [
    ("active", ArticleStatus::Active),
    ("announced", ArticleStatus::Announced),
    ("discontinued", ArticleStatus::Discontinued),
];
pub(super) const CROSS_KINDS: [(&str, CrossKind); 4] = [
    ("oe", CrossKind::Oe),
    ("competitor", CrossKind::Competitor),
    ("internal", CrossKind::Internal),
    ("trade", CrossKind::Trade),
];
pub(super) const MEDIA_KINDS: [(&str, MediaKind); 3] = [
    ("image", MediaKind::Image),
    ("document", MediaKind::Document),
    ("spin360", MediaKind::Spin360),
];

/// The name a file gives a value of an enumerated column.
pub(super) fn name_of<T: PartialEq>(choices: &[(&'static str, T)], value: &T) -> &'static str {
    choices
        .iter()
        .find(|(_, v)| v == value)
        .map_or("", |(name, _)| name)
}

fn brand(row: &Row<'_>) -> Result<Brand, String> {
    Ok(Brand {
        id: row.positive("brand_id")?,
        name: row.required("name")?.to_owned(),
    })
}

fn manufacturer(row: &Row<'_>) -> Result<Manufacturer, String> {
    Ok(Manufacturer {
        id: row.positive("manufacturer_id")?,
        name: row.required("name")?.to_owned(),
        kind: one_of(row, "kind", &MANUFACTURER_KINDS, None)?,
    })
}

fn generic_article(row: &Row<'_>) -> Result<GenericArticle, String> {
    Ok(GenericArticle {
        id: row.positive("genart_id")?,
        name: row.required("name")?.to_owned(),
    })
}

fn vehicle(row: &Row<'_>) -> Result<Vehicle, String> {
    let ktype = row.required("ktype")?.to_owned();
    let year_from = row.parsed("year_from", YearMonth::parse)?;
    let year_to = row.parsed_opt("year_to", YearMonth::parse)?;
    if year_to.is_some_and(|to| to < year_from) {
        return Err("column 'year_to' is before 'year_from'".into());
    }
    Ok(Vehicle {
        ktype,
        make: row.required("make")?.to_owned(),
        model: row.required("model")?.to_owned(),
        type_name: row.get("type").to_owned(),
        engine: row.get("engine").to_owned(),
        fuel: row.get("fuel").to_owned(),
        kw: row.count_or("kw", 0)?,
        hp: row.count_or("hp", 0)?,
        ccm: row.count_or("ccm", 0)?,
        year_from,
        year_to,
    })
}

fn plate(row: &Row<'_>) -> Result<Plate, String> {
    let country = row.required("country")?;
    if country.len() != 2 || !country.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(format!(
            "column 'country': '{country}' is not an ISO 3166-1 country code (two letters)"
        ));
    }
    let written = row.required("plate")?;
    let number = normalise_reference(written);
    if number.is_empty() {
        return Err(format!(
            "column 'plate': '{written}' has no letters or digits"
        ));
    }
    Ok(Plate {
        country: country.to_ascii_uppercase(),
        number,
        written: written.to_owned(),
        ktype: row.required("ktype")?.to_owned(),
        key_system: row.count_or("key_system", 0)?,
    })
}

/// EAN-8, UPC-A (12), EAN-13 or GTIN-14 with a correct check digit.
fn ean(text: &str) -> Result<String, String> {
    let digits: Vec<u32> = text.chars().filter_map(|c| c.to_digit(10)).collect();
    if digits.len() != text.len() || ![8, 12, 13, 14].contains(&digits.len()) {
        return Err(format!(
            "'{text}' is not an EAN/GTIN (8, 12, 13 or 14 digits)"
        ));
    }
    let (body, check) = digits.split_at(digits.len() - 1);
    let sum: u32 = body
        .iter()
        .rev()
        .enumerate()
        .map(|(i, d)| if i % 2 == 0 { d * 3 } else { *d })
        .sum();
    if (10 - sum % 10) % 10 != check[0] {
        return Err(format!("'{text}' has a wrong check digit"));
    }
    Ok(text.to_owned())
}

fn article(row: &Row<'_>) -> Result<Article, String> {
    let (key, reference) = article_key(row, "brand_id", "reference")?;
    let mut eans = Vec::new();
    for text in row.list("eans") {
        let code = ean(text).map_err(|e| format!("column 'eans': {e}"))?;
        if !eans.contains(&code) {
            eans.push(code);
        }
    }
    let mut replaced_by = Vec::new();
    for written in row.list("replaced_by") {
        if normalise_reference(written).is_empty() {
            return Err(format!(
                "column 'replaced_by': '{written}' has no letters or digits"
            ));
        }
        replaced_by.push(written.to_owned());
    }
    Ok(Article {
        key,
        reference,
        genart: row.positive("genart_id")?,
        description: row.get("description").to_owned(),
        status: one_of(row, "status", &STATUSES, Some(ArticleStatus::Active))?,
        eans,
        packaging_unit: row.positive_or("packaging_unit", 1)?,
        replaced_by,
    })
}

fn criterion(row: &Row<'_>) -> Result<Criterion, String> {
    let (article, _) = article_key(row, "brand_id", "reference")?;
    Ok(Criterion {
        article,
        name: row.required("name")?.to_owned(),
        value: row.required("value")?.to_owned(),
        unit: row.get("unit").to_owned(),
    })
}

fn cross_number(row: &Row<'_>, column: &str) -> Result<String, String> {
    let number = row.required(column)?;
    if normalise_reference(number).is_empty() {
        return Err(format!(
            "column '{column}': '{number}' has no letters or digits"
        ));
    }
    Ok(number.to_owned())
}

fn cross_reference(row: &Row<'_>) -> Result<CrossReference, String> {
    let (article, _) = article_key(row, "brand_id", "reference")?;
    let kind = one_of(row, "kind", &CROSS_KINDS, None)?;
    let manufacturer_id = if row.get("manufacturer_id").is_empty() {
        None
    } else {
        Some(row.positive("manufacturer_id")?)
    };
    if manufacturer_id.is_none() && matches!(kind, CrossKind::Oe | CrossKind::Competitor) {
        return Err(
            "column 'manufacturer_id' is empty; OE and competitor numbers name their manufacturer"
                .into(),
        );
    }
    Ok(CrossReference {
        article,
        kind,
        manufacturer_id,
        number: cross_number(row, "number")?,
    })
}

fn competitor_reference(row: &Row<'_>) -> Result<CrossReference, String> {
    let (article, _) = article_key(row, "brand_id", "reference")?;
    Ok(CrossReference {
        article,
        kind: CrossKind::Competitor,
        manufacturer_id: Some(row.positive("manufacturer_id")?),
        number: cross_number(row, "competitor_reference")?,
    })
}

fn link(row: &Row<'_>) -> Result<Link, String> {
    let (article, _) = article_key(row, "brand_id", "reference")?;
    Ok(Link {
        article,
        ktype: row.required("ktype")?.to_owned(),
        position: row.get("position").to_owned(),
        quantity: row.positive_or("quantity", 1)?,
        notes: row.get("notes").to_owned(),
    })
}

fn price(row: &Row<'_>) -> Result<Price, String> {
    let (article, _) = article_key(row, "brand_id", "reference")?;
    let currency = row.required("currency")?;
    if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(format!(
            "column 'currency': '{currency}' is not an ISO 4217 code (three capitals)"
        ));
    }
    let price_type = match row.get("price_type") {
        "" => "list".to_owned(),
        t => t.to_ascii_lowercase(),
    };
    let valid_from = row.parsed_opt("valid_from", Date::parse)?;
    let valid_to = row.parsed_opt("valid_to", Date::parse)?;
    if let (Some(from), Some(to)) = (valid_from, valid_to)
        && to < from
    {
        return Err("column 'valid_to' is before 'valid_from'".into());
    }
    let amount = row.parsed("amount", Amount::parse)?;
    if amount.0 < 0 {
        return Err("column 'amount' is negative".into());
    }
    Ok(Price {
        article,
        price_type,
        currency: currency.to_owned(),
        valid_from,
        valid_to,
        amount,
    })
}

fn kit_component(row: &Row<'_>) -> Result<KitComponent, String> {
    let (kit, _) = article_key(row, "kit_brand_id", "kit_reference")?;
    let (component, _) = article_key(row, "component_brand_id", "component_reference")?;
    if kit == component {
        return Err("a kit cannot be its own component".into());
    }
    Ok(KitComponent {
        kit,
        ktype: row.required("ktype")?.to_owned(),
        component,
        quantity: row.positive_or("quantity", 1)?,
    })
}

fn media(row: &Row<'_>) -> Result<Media, String> {
    let (article, _) = article_key(row, "brand_id", "reference")?;
    let kind = one_of(row, "kind", &MEDIA_KINDS, None)?;
    if kind == MediaKind::Spin360 && (row.get("set").is_empty() || row.get("position").is_empty()) {
        return Err("a spin360 frame needs its 'set' and its 'position'".into());
    }
    Ok(Media {
        article,
        kind,
        set: row.get("set").to_owned(),
        position: row.count_or("position", 0)?,
        uri: row.required("uri")?.to_owned(),
        description: row.get("description").to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::ean;

    #[test]
    fn ean_check_digits() {
        assert!(ean("4006381333931").is_ok());
        assert!(ean("4006381333932").is_err());
        assert!(ean("96385074").is_ok());
        assert!(ean("12345").is_err());
        assert!(ean("40063813339a1").is_err());
    }
}
