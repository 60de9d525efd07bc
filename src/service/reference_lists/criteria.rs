//! The catalogue's criteria as reference lists (Pegasus's `getCriteria2` and
//! `getKeyValues`): every numbered criterion with what its definition says, and the keys of
//! a key table, their texts in the reader's language.

use crate::catalogue::CriterionType;
use crate::service::ServiceError;
use crate::service::context::Context;
use crate::service::field::Field;

/// A criterion as the list shows it; what only a definition says is absent for one
/// without.
pub struct CriterionListed {
    pub id: u32,
    pub name: String,
    pub short_name: Option<String>,
    pub kind: Option<CriterionType>,
    pub unit: Option<String>,
    pub interval: bool,
    pub successor: Option<u32>,
}

/// Every criterion the catalogue numbers, in the numbers' order.
pub fn criteria(context: &Context) -> Result<Vec<CriterionListed>, ServiceError> {
    let names = context.names();
    let criteria = context.snapshot().criteria()?;
    let some = |text: &str| -> Result<Option<String>, ServiceError> {
        (!text.is_empty()).then(|| names.term(text)).transpose()
    };
    criteria
        .all()
        .map(|(id, name)| {
            let definition = criteria.definition(id);
            Ok(CriterionListed {
                id,
                name: names.term(name)?,
                short_name: some(definition.map_or("", |d| &d.short_name))?,
                kind: definition.map(|d| d.kind),
                unit: some(definition.map_or("", |d| &d.unit))?,
                interval: definition.is_some_and(|d| d.interval),
                successor: definition.and_then(|d| d.successor),
            })
        })
        .collect()
}

/// The keys of key table `table` (which the question cannot go without) with their texts,
/// in the keys' order; none for a table the catalogue does not hold.
pub fn key_values(
    context: &Context,
    table: Field<Option<i64>>,
) -> Result<Vec<(String, String)>, ServiceError> {
    let table = table.required()?.id()?;
    let names = context.names();
    let criteria = context.snapshot().criteria()?;
    criteria
        .key_table(table)
        .unwrap_or_default()
        .iter()
        .map(|(key, text)| Ok((key.clone(), names.term(text)?)))
        .collect()
}
