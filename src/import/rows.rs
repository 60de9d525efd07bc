//! One CSV row of each data set read into its record, each column checked; an error names the
//! column and what it held.

use super::csv_source::Row;
use crate::catalogue::*;

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

pub(super) fn brand(row: &Row<'_>) -> Result<Brand, String> {
    let text = |column: &str| row.get(column).to_owned();
    let country = row.get("country").to_ascii_uppercase();
    let two_letters = country.len() == 2 && country.bytes().all(|b| b.is_ascii_uppercase());
    if !country.is_empty() && !two_letters {
        return Err(format!(
            "column 'country': '{}' is not a two-letter country code (DE, FR)",
            row.get("country")
        ));
    }
    Ok(Brand {
        id: row.positive("brand_id")?,
        name: row.required("name")?.to_owned(),
        address: BrandAddress {
            street: text("street"),
            zip: text("zip"),
            city: text("city"),
            country,
            phone: text("phone"),
            fax: text("fax"),
            email: text("email"),
            website: text("website"),
        },
    })
}

pub(super) fn manufacturer(row: &Row<'_>) -> Result<Manufacturer, String> {
    Ok(Manufacturer {
        id: row.positive("manufacturer_id")?,
        name: row.required("name")?.to_owned(),
        kind: one_of(row, "kind", &MANUFACTURER_KINDS, None)?,
    })
}

pub(super) fn generic_article(row: &Row<'_>) -> Result<GenericArticle, String> {
    Ok(GenericArticle {
        id: row.positive("genart_id")?,
        name: row.required("name")?.to_owned(),
    })
}

pub(super) fn plate(row: &Row<'_>) -> Result<Plate, String> {
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

pub(super) fn vin_pattern(row: &Row<'_>) -> Result<VinPattern, String> {
    let written = row.required("vin_pattern")?;
    let pattern = written.to_ascii_uppercase();
    let bad = |why: &str| {
        Err(format!(
            "column 'vin_pattern': '{written}' {why} (VIN characters — digits and letters but I, O and Q — and ? for any)"
        ))
    };
    if !(3..=17).contains(&pattern.len()) {
        return bad("is not 3 to 17 characters long");
    }
    if let Some(c) = pattern
        .chars()
        .find(|&c| c != '?' && !VinPattern::is_vin_character(c))
    {
        return bad(&format!("holds '{c}'"));
    }
    if pattern[..3].contains('?') {
        return bad("does not give its first three characters (the maker's WMI)");
    }
    Ok(VinPattern {
        pattern,
        ktype: row.required("ktype")?.to_owned(),
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

pub(super) fn article(row: &Row<'_>) -> Result<Article, String> {
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

fn cross_number(row: &Row<'_>, column: &str) -> Result<String, String> {
    let number = row.required(column)?;
    if normalise_reference(number).is_empty() {
        return Err(format!(
            "column '{column}': '{number}' has no letters or digits"
        ));
    }
    Ok(number.to_owned())
}

pub(super) fn cross_reference(row: &Row<'_>) -> Result<CrossReference, String> {
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

pub(super) fn competitor_reference(row: &Row<'_>) -> Result<CrossReference, String> {
    let (article, _) = article_key(row, "brand_id", "reference")?;
    Ok(CrossReference {
        article,
        kind: CrossKind::Competitor,
        manufacturer_id: Some(row.positive("manufacturer_id")?),
        number: cross_number(row, "competitor_reference")?,
    })
}

pub(super) fn link(row: &Row<'_>) -> Result<Link, String> {
    let (article, _) = article_key(row, "brand_id", "reference")?;
    Ok(Link {
        article,
        ktype: row.required("ktype")?.to_owned(),
        position: row.get("position").to_owned(),
        quantity: row.positive_or("quantity", 1)?,
        notes: row.get("notes").to_owned(),
    })
}

pub(super) fn price(row: &Row<'_>) -> Result<Price, String> {
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

pub(super) fn kit_component(row: &Row<'_>) -> Result<KitComponent, String> {
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

pub(super) fn media(row: &Row<'_>) -> Result<Media, String> {
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

mod criteria;
mod texts;
mod vehicles;

pub(super) use criteria::{criterion, criterion_definition, key_value};
pub(super) use texts::{article_text, translation};
pub(super) use vehicles::{TARGET_TYPES, assembly_group, genart_group, model_series, vehicle};

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
