//! The catalogue's data sets written back as import files: each record as a row of its data
//! set's columns, in the order `ImportType::columns` gives, with the values written as the
//! importer reads them. Importing what is written gives the same rows, so a data set can be
//! carried from one store to another with the tools that import files (a full refresh, a
//! change feed).

use std::io::Write;

use super::ImportType;
use super::csv_source::CHANGE;
use super::file_rows::{FileRow, WrittenReferences};
use crate::catalogue::*;
use crate::store::{Catalogue, Change, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the file cannot be written: {0}")]
    Csv(#[from] csv::Error),
}

/// Writes the data set's file: its header, then each of its records as a row, in key order,
/// read as it goes. Returns the rows written.
pub fn write_data_set(
    catalogue: &Catalogue,
    data_set: ImportType,
    out: impl Write,
) -> Result<u64, WriteError> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(data_set.columns().names())?;
    let rows = of_record_type(
        data_set,
        WholeSet {
            catalogue,
            data_set,
            w: &mut w,
        },
    )?;
    w.flush().map_err(csv::Error::from)?;
    Ok(rows)
}

/// Writes what changed in the data set after data version `since` as its file with the
/// `change` column: each changed row as the catalogue holds it now (`upsert`), or as it was
/// last (`remove`). Importing it into a store that was at `since` brings the data set to
/// this catalogue's. Returns the rows written; a version the feed no longer keeps is
/// `ChangesGone`.
pub fn write_changes(
    catalogue: &Catalogue,
    data_set: ImportType,
    since: u64,
    out: impl Write,
) -> Result<u64, WriteError> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(data_set.columns().names().chain([CHANGE]))?;
    let rows = of_record_type(
        data_set,
        Changes {
            catalogue,
            data_set,
            since,
            w: &mut w,
        },
    )?;
    w.flush().map_err(csv::Error::from)?;
    Ok(rows)
}

/// Writes rows of one record type.
trait RowsOf {
    fn write<R: FileRow>(self) -> Result<u64, WriteError>;
}

/// Calls `rows` with the record type whose table holds the data set.
fn of_record_type(data_set: ImportType, rows: impl RowsOf) -> Result<u64, WriteError> {
    match data_set {
        ImportType::Brands => rows.write::<Brand>(),
        ImportType::Manufacturers => rows.write::<Manufacturer>(),
        ImportType::ModelSeries => rows.write::<ModelSeries>(),
        ImportType::GenericArticles => rows.write::<GenericArticle>(),
        ImportType::AssemblyGroups => rows.write::<AssemblyGroup>(),
        ImportType::GenartGroups => rows.write::<GenartGroup>(),
        ImportType::Vehicles => rows.write::<Vehicle>(),
        ImportType::Texts => rows.write::<Translation>(),
        ImportType::ArticleTexts => rows.write::<ArticleText>(),
        ImportType::Articles => rows.write::<Article>(),
        ImportType::KeyValues => rows.write::<KeyValue>(),
        ImportType::CriterionDefinitions => rows.write::<CriterionDefinition>(),
        ImportType::Criteria => rows.write::<Criterion>(),
        ImportType::CrossReferences | ImportType::CompetitorReferences => {
            rows.write::<CrossReference>()
        }
        ImportType::Links => rows.write::<Link>(),
        ImportType::Prices => rows.write::<Price>(),
        ImportType::Kits => rows.write::<KitComponent>(),
        ImportType::Media => rows.write::<Media>(),
        ImportType::Plates => rows.write::<Plate>(),
        ImportType::Vins => rows.write::<VinPattern>(),
    }
}

struct WholeSet<'a, W: Write> {
    catalogue: &'a Catalogue,
    data_set: ImportType,
    w: &'a mut csv::Writer<W>,
}

impl<W: Write> RowsOf for WholeSet<'_, W> {
    fn write<R: FileRow>(self) -> Result<u64, WriteError> {
        let mut references = WrittenReferences::new();
        let mut rows = 0;
        for record in self.catalogue.records::<R>() {
            let record = record?;
            if record.data_set() == self.data_set {
                self.w
                    .write_record(record.cells(self.catalogue, &mut references)?)?;
                rows += 1;
            }
        }
        Ok(rows)
    }
}

struct Changes<'a, W: Write> {
    catalogue: &'a Catalogue,
    data_set: ImportType,
    since: u64,
    w: &'a mut csv::Writer<W>,
}

impl<W: Write> RowsOf for Changes<'_, W> {
    fn write<R: FileRow>(self) -> Result<u64, WriteError> {
        let mut references = WrittenReferences::new();
        let mut rows = 0;
        for change in self.catalogue.changes_since::<R>(self.since)? {
            let (record, change) = match change {
                Change::Upsert(r) => (r, "upsert"),
                Change::Removed(r) => (r, "remove"),
            };
            if record.data_set() == self.data_set {
                let mut cells = record.cells(self.catalogue, &mut references)?;
                cells.push(change.to_owned());
                self.w.write_record(cells)?;
                rows += 1;
            }
        }
        Ok(rows)
    }
}
