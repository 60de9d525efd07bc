//! The rows of a file checked whole (its rows refer to each other, or must agree with each
//! other), held until the file ends: each with its line and whether it retires its key.

use std::collections::HashSet;

use super::csv_source::Row;
use super::data_sets::removes;
use crate::store::{Origin, Record, Staging, StoreError};

/// One row of the file.
pub(super) struct HeldRow<T> {
    pub line: u64,
    pub record: T,
    pub remove: bool,
}

/// The rows of one file, up to `max`.
pub(super) struct HeldRows<T> {
    pub rows: Vec<HeldRow<T>>,
    max: usize,
    /// What the file holds, for the message past `max` (`an assembly-group file`).
    what: &'static str,
}

impl<T: Record> HeldRows<T> {
    pub(super) fn new(max: usize, what: &'static str) -> HeldRows<T> {
        HeldRows {
            rows: Vec::new(),
            max,
            what,
        }
    }

    /// Reads one row with `parse`; a row that does not parse, or past `max`, is rejected at
    /// once.
    pub(super) fn take(
        &mut self,
        row: &Row<'_>,
        parse: fn(&Row<'_>) -> Result<T, String>,
    ) -> Result<(), String> {
        if self.rows.len() >= self.max {
            return Err(format!("{} holds at most {} rows", self.what, self.max));
        }
        let record = parse(row)?;
        let remove = removes(row)?;
        self.rows.push(HeldRow {
            line: row.line,
            record,
            remove,
        });
        Ok(())
    }

    /// Stages every row but those `rejected` lists by line.
    pub(super) fn stage_but(
        &self,
        staging: &mut Staging<'_>,
        file: u16,
        rejected: &[(u64, String)],
    ) -> Result<(), StoreError> {
        let rejected: HashSet<u64> = rejected.iter().map(|(line, _)| *line).collect();
        for row in &self.rows {
            if rejected.contains(&row.line) {
                continue;
            }
            let origin = Origin {
                file,
                line: row.line,
            };
            match row.remove {
                true => staging.retire(&row.record, origin)?,
                false => staging.put(&row.record, origin)?,
            }
        }
        Ok(())
    }
}
