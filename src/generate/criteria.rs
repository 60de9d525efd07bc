//! The generated catalogue's criterion definitions (numbers of its own, not TecDoc's) and
//! its key table: one criterion, the shock absorber's type, takes its values as keys.

use super::Writer;

/// The key table of shock absorber types.
const SHOCK_ABSORBER_TYPES: u32 = 1;

/// Number, name, short name, type, unit and key table of a criterion.
type Definition = (
    u32,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    Option<u32>,
);

/// Every criterion the generator writes.
const DEFINITIONS: [Definition; 13] = [
    (1, "Brake Disc Diameter", "Disc Ø", "N", "mm", None),
    (2, "Brake Disc Thickness", "Disc th.", "N", "mm", None),
    (3, "Number of Holes", "Holes", "N", "", None),
    (4, "Diameter", "Ø", "N", "mm", None),
    (5, "Outer Diameter", "Outer Ø", "N", "mm", None),
    (6, "Height", "H", "N", "mm", None),
    (7, "Length", "L", "N", "mm", None),
    (8, "Width", "W", "N", "mm", None),
    (9, "Thickness", "Th.", "N", "mm", None),
    (10, "Weight", "Wt.", "N", "kg", None),
    (11, "Material", "", "A", "", None),
    (12, "Emission Standard", "", "A", "", None),
    (
        13,
        "Shock Absorber Type",
        "",
        "K",
        "",
        Some(SHOCK_ABSORBER_TYPES),
    ),
];

/// The keys of the shock absorber types, with their texts.
const SHOCK_ABSORBER_KEYS: [(&str, &str); 3] = [
    ("1", "Gas Pressure"),
    ("2", "Oil Pressure"),
    ("3", "Twin-Tube"),
];

/// Writes the definitions and the key table.
pub(super) fn write(definitions: &mut Writer, key_values: &mut Writer) -> csv::Result<()> {
    for (id, name, short, kind, unit, table) in DEFINITIONS {
        let table = table.map(|t| t.to_string()).unwrap_or_default();
        let id = id.to_string();
        definitions.write_record([id.as_str(), name, short, kind, unit, "0", "", &table])?;
    }
    for (key, text) in SHOCK_ABSORBER_KEYS {
        key_values.write_record([SHOCK_ABSORBER_TYPES.to_string().as_str(), key, text])?;
    }
    Ok(())
}

/// The value an article's row holds for criterion `name` of text `text`: a key-table
/// criterion's key, any other's text.
pub(super) fn stored(name: &str, text: &str) -> String {
    let keyed = DEFINITIONS
        .iter()
        .any(|d| d.1 == name && d.5 == Some(SHOCK_ABSORBER_TYPES));
    match SHOCK_ABSORBER_KEYS.iter().find(|(_, t)| *t == text) {
        Some((key, _)) if keyed => (*key).to_owned(),
        _ => text.to_owned(),
    }
}

/// The number of criterion `name`, as its articles' rows write it.
pub(super) fn number_of(name: &str) -> String {
    DEFINITIONS
        .iter()
        .find(|d| d.1 == name)
        .map(|d| d.0.to_string())
        .unwrap_or_default()
}
