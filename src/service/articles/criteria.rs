//! An article's criteria as answers show them: numbered (by the definition that has the
//! criterion's name, or by the store), with the definition's kind of value, unit and short
//! name, a key-table criterion's key with its text, every word in the reader's language.

use crate::catalogue::{Criterion, CriterionType};
use crate::service::ServiceError;
use crate::service::names::Names;
use crate::store::Criteria;

/// A criterion as an answer shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownCriterion {
    /// Its number (TecDoc's `criteriaId`).
    pub id: u32,
    pub name: String,
    pub short_name: String,
    pub kind: CriterionType,
    /// The value as the catalogue holds it: a key-table criterion's key.
    pub raw_value: String,
    /// The value's text: a key-table criterion's key's.
    pub value: String,
    pub unit: String,
    pub interval: bool,
    pub successor: Option<u32>,
}

impl ShownCriterion {
    /// The value with its unit (`300 mm`).
    pub fn formatted_value(&self) -> String {
        match self.unit.is_empty() {
            true => self.value.clone(),
            false => format!("{} {}", self.value, self.unit),
        }
    }
}

/// The text and unit a criterion's row shows (in the default language): a key-table
/// criterion's key's text, the definition's unit where the row gives none.
pub fn displayed<'a>(
    criteria: &'a Criteria,
    name: &str,
    value: &'a str,
    unit: &'a str,
) -> (&'a str, &'a str) {
    let Some(definition) = criteria.id_of(name).and_then(|id| criteria.definition(id)) else {
        return (value, unit);
    };
    let value = match definition.key_table {
        Some(table) => criteria.key_text(table, value).unwrap_or(value),
        None => value,
    };
    let unit = if unit.is_empty() {
        &definition.unit
    } else {
        unit
    };
    (value, unit)
}

/// `c` (its texts in the default language) as an answer in the names' language shows it.
pub fn shown(
    names: &Names<'_>,
    criteria: &Criteria,
    c: Criterion,
) -> Result<ShownCriterion, ServiceError> {
    let id = criteria.id_of(&c.name).unwrap_or(0);
    let definition = criteria.definition(id);
    let kind = definition.map_or_else(|| CriterionType::of_value(&c.value), |d| d.kind);
    let (value, unit) = displayed(criteria, &c.name, &c.value, &c.unit);
    Ok(ShownCriterion {
        id,
        name: names.term(&c.name)?,
        short_name: names.term(definition.map_or("", |d| &d.short_name))?,
        kind,
        value: names.term(value)?,
        unit: names.term(unit)?,
        interval: definition.is_some_and(|d| d.interval),
        successor: definition.and_then(|d| d.successor),
        raw_value: c.value,
    })
}
