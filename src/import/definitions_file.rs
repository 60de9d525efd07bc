//! A file of criterion definitions is checked whole: articles' criteria find their
//! definition by name, so no two criteria may share one, and a file may rename one criterion
//! and give its old name to another in any order of rows. The rows are held until the file
//! ends, then each is checked against the definitions the catalogue will hold and staged or
//! rejected by its line.

use std::collections::HashMap;

use super::csv_source::Row;
use super::held_rows::{HeldRow, HeldRows};
use super::rows::criterion_definition;
use crate::catalogue::CriterionDefinition;
use crate::store::{Staging, StoreError};

/// The definitions one file may hold: TecDoc's table holds a few thousand.
pub const MAX_DEFINITIONS: usize = 200_000;

/// The rows of a criterion-definitions file, held until it ends.
pub(super) struct DefinitionsFile(HeldRows<CriterionDefinition>);

impl Default for DefinitionsFile {
    fn default() -> Self {
        DefinitionsFile(HeldRows::new(
            MAX_DEFINITIONS,
            "a criterion-definitions file",
        ))
    }
}

impl DefinitionsFile {
    /// Reads one row.
    pub(super) fn take(&mut self, row: &Row<'_>) -> Result<(), String> {
        self.0.take(row, criterion_definition)
    }

    /// Stages every row whose name no other criterion will hold; returns the others' lines
    /// and reasons. `replacing`: the file holds every definition (the others go).
    pub(super) fn stage(
        self,
        staging: &mut Staging<'_>,
        file: u16,
        replacing: bool,
    ) -> Result<Vec<(u64, String)>, StoreError> {
        let mut names: HashMap<u32, String> = if replacing {
            HashMap::new()
        } else {
            staging
                .current_criterion_definitions()?
                .into_iter()
                .map(|d| (d.id, d.name))
                .collect()
        };
        for row in &self.0.rows {
            let d = &row.record;
            match row.remove {
                true => names.remove(&d.id),
                false => names.insert(d.id, d.name.clone()),
            };
        }
        let rejected = shared_names(&self.0.rows, &names);
        self.0.stage_but(staging, file, &rejected)?;
        Ok(rejected)
    }
}

/// The rows that give a criterion a name `names` (the definitions as they will be) also
/// gives another, by line, with the reason.
fn shared_names(
    rows: &[HeldRow<CriterionDefinition>],
    names: &HashMap<u32, String>,
) -> Vec<(u64, String)> {
    let mut owners: HashMap<&str, Vec<u32>> = HashMap::new();
    for (id, name) in names {
        owners.entry(name).or_default().push(*id);
    }
    rows.iter()
        .filter(|r| !r.remove)
        .filter_map(|r| {
            let d = &r.record;
            let mut others: Vec<u32> = owners.get(d.name.as_str())?.clone();
            others.retain(|&id| id != d.id);
            others.sort_unstable();
            let other = others.first()?;
            Some((
                r.line,
                format!(
                    "column 'name': '{}' is also criterion {other}'s name; articles' criteria \
                     find their definition by name, so each criterion needs a name of its own",
                    d.name
                ),
            ))
        })
        .collect()
}
