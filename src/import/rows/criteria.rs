//! The rows of the criteria: `criteria.csv` (an article's criterion, by name and optionally
//! its number), `criterion_definitions.csv` (a criterion's number, names, kind of value and
//! unit) and `key_values.csv` (the keys of a key table), read and written.

use super::{article_key, one_of};
use crate::catalogue::criteria::DEFINED_IDS;
use crate::catalogue::*;
use crate::import::ImportType;
use crate::import::csv_source::Row;
use crate::import::file_rows::{FileRow, WrittenReferences};
use crate::store::{Catalogue, StoreError};

/// How the files write a criterion's type: TecDoc's letters.
pub(in crate::import) const CRITERION_TYPES: [(&str, CriterionType); 5] = [
    ("a", CriterionType::Text),
    ("n", CriterionType::Number),
    ("k", CriterionType::Key),
    ("d", CriterionType::Date),
    ("v", CriterionType::Flag),
];

const FLAGS: [(&str, bool); 6] = [
    ("0", false),
    ("1", true),
    ("false", false),
    ("true", true),
    ("no", false),
    ("yes", true),
];

/// An article's criterion, and the number its row gives it.
pub(in crate::import) fn criterion(row: &Row<'_>) -> Result<(Criterion, Option<u32>), String> {
    let (article, _) = article_key(row, "brand_id", "reference")?;
    let id = match row.get("criterion_id") {
        "" => None,
        _ => Some(defined_id(row, "criterion_id")?),
    };
    Ok((
        Criterion {
            article,
            name: row.required("name")?.to_owned(),
            value: row.required("value")?.to_owned(),
            unit: row.get("unit").to_owned(),
        },
        id,
    ))
}

fn defined_id(row: &Row<'_>, column: &str) -> Result<u32, String> {
    let id = row.positive(column)?;
    if !DEFINED_IDS.contains(&id) {
        return Err(format!(
            "column '{column}': {id} is past {}, the highest criterion number a definition \
             may take (higher ones number the criteria without a definition)",
            DEFINED_IDS.end()
        ));
    }
    Ok(id)
}

pub(in crate::import) fn criterion_definition(
    row: &Row<'_>,
) -> Result<CriterionDefinition, String> {
    let id = defined_id(row, "criterion_id")?;
    let key_table = match row.get("key_table_id") {
        "" => None,
        _ => Some(row.positive("key_table_id")?),
    };
    let default = match key_table {
        Some(_) => CriterionType::Key,
        None => CriterionType::Text,
    };
    let kind = one_of(row, "type", &CRITERION_TYPES, Some(default))?;
    match (kind, key_table) {
        (CriterionType::Key, None) => {
            return Err(
                "column 'key_table_id' is empty: a criterion of type K names the key \
                        table its values are keys of"
                    .into(),
            );
        }
        (kind, Some(table)) if kind != CriterionType::Key => {
            return Err(format!(
                "column 'key_table_id': {table} is given for a criterion of type {}: only \
                 type K takes its values from a key table",
                kind.letter()
            ));
        }
        _ => {}
    }
    let successor = match row.get("successor_id") {
        "" => None,
        _ => Some(defined_id(row, "successor_id")?),
    };
    if successor == Some(id) {
        return Err(format!(
            "column 'successor_id': criterion {id} cannot succeed itself"
        ));
    }
    Ok(CriterionDefinition {
        id,
        name: row.required("name")?.to_owned(),
        short_name: row.get("short_name").to_owned(),
        kind,
        unit: row.get("unit").to_owned(),
        interval: one_of(row, "interval", &FLAGS, Some(false))?,
        successor,
        key_table,
    })
}

pub(in crate::import) fn key_value(row: &Row<'_>) -> Result<KeyValue, String> {
    Ok(KeyValue {
        table: row.positive("key_table_id")?,
        key: row.required("key")?.to_owned(),
        value: row.required("value")?.to_owned(),
    })
}

fn optional(value: Option<u32>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

impl FileRow for CriterionDefinition {
    fn data_set(&self) -> ImportType {
        ImportType::CriterionDefinitions
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.id.to_string(),
            self.name.clone(),
            self.short_name.clone(),
            self.kind.letter().to_owned(),
            self.unit.clone(),
            if self.interval { "1" } else { "0" }.to_owned(),
            optional(self.successor),
            optional(self.key_table),
        ])
    }
}

impl FileRow for KeyValue {
    fn data_set(&self) -> ImportType {
        ImportType::KeyValues
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.table.to_string(),
            self.key.clone(),
            self.value.clone(),
        ])
    }
}
