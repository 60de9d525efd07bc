//! The catalogue's data sets written back as import files: each record as a row of its data
//! set's columns, in the order `ImportType::columns` gives, with the values written as the
//! importer reads them. Importing what is written gives the same rows, so a data set can be
//! carried from one store to another with the tools that import files (a full refresh, a
//! change feed).

use std::collections::HashMap;
use std::io::Write;

use super::ImportType;
use super::csv_source::CHANGE;
use super::rows::{CROSS_KINDS, MANUFACTURER_KINDS, MEDIA_KINDS, STATUSES, TARGET_TYPES, name_of};
use crate::catalogue::LIST_SEPARATOR;
use crate::catalogue::*;
use crate::store::{Catalogue, Change, Record, StoreError};

/// The references as the maker writes them, by article key, read once per article:
/// rows keyed by an article hold its normalised reference only. Bounded, so that writing a
/// data set does not grow with the catalogue.
pub struct WrittenReferences {
    known: HashMap<ArticleKey, String>,
}

const REFERENCES_KEPT: usize = 4096;

impl WrittenReferences {
    pub fn new() -> Self {
        WrittenReferences {
            known: HashMap::new(),
        }
    }

    /// The article's reference as written; its normalised form where the article is gone.
    fn of(&mut self, catalogue: &Catalogue, key: &ArticleKey) -> Result<String, StoreError> {
        if let Some(written) = self.known.get(key) {
            return Ok(written.clone());
        }
        if self.known.len() >= REFERENCES_KEPT {
            self.known.clear();
        }
        let written = catalogue
            .article(key)?
            .map_or_else(|| key.reference.clone(), |a| a.reference);
        self.known.insert(key.clone(), written.clone());
        Ok(written)
    }
}

impl Default for WrittenReferences {
    fn default() -> Self {
        Self::new()
    }
}

fn optional<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// A record as the row of its data set's file.
pub trait FileRow: Record {
    /// The data set whose file holds this record (cross-references: by kind).
    fn data_set(&self) -> ImportType;
    fn cells(
        &self,
        catalogue: &Catalogue,
        references: &mut WrittenReferences,
    ) -> Result<Vec<String>, StoreError>;
}

impl FileRow for Brand {
    fn data_set(&self) -> ImportType {
        ImportType::Brands
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![self.id.to_string(), self.name.clone()])
    }
}

impl FileRow for Manufacturer {
    fn data_set(&self) -> ImportType {
        ImportType::Manufacturers
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.id.to_string(),
            self.name.clone(),
            name_of(&MANUFACTURER_KINDS, &self.kind).to_owned(),
        ])
    }
}

impl FileRow for GenericArticle {
    fn data_set(&self) -> ImportType {
        ImportType::GenericArticles
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![self.id.to_string(), self.name.clone()])
    }
}

impl FileRow for Vehicle {
    fn data_set(&self) -> ImportType {
        ImportType::Vehicles
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.ktype.clone(),
            self.make.clone(),
            self.model.clone(),
            self.type_name.clone(),
            self.engines.join(LIST_SEPARATOR),
            self.fuel.clone(),
            self.kw.to_string(),
            self.hp.to_string(),
            self.ccm.to_string(),
            self.year_from.to_string(),
            optional(self.year_to),
            optional(self.model_series),
            name_of(&TARGET_TYPES, &self.target_type).to_owned(),
            self.body_style.clone(),
            self.construction_type.clone(),
            self.engine_kind.clone(),
            optional(self.kw_to),
            optional(self.hp_to),
        ])
    }
}

impl FileRow for ModelSeries {
    fn data_set(&self) -> ImportType {
        ImportType::ModelSeries
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.id.to_string(),
            self.manufacturer_id.to_string(),
            self.name.clone(),
            self.year_from.to_string(),
            optional(self.year_to),
        ])
    }
}

impl FileRow for AssemblyGroup {
    fn data_set(&self) -> ImportType {
        ImportType::AssemblyGroups
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.id.to_string(),
            optional(self.parent),
            name_of(&TARGET_TYPES, &self.target_type).to_owned(),
            self.name.clone(),
            self.sort.to_string(),
        ])
    }
}

impl FileRow for GenartGroup {
    fn data_set(&self) -> ImportType {
        ImportType::GenartGroups
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![self.genart.to_string(), self.node.to_string()])
    }
}

impl FileRow for Article {
    fn data_set(&self) -> ImportType {
        ImportType::Articles
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.key.brand_id.to_string(),
            self.reference.clone(),
            self.genart.to_string(),
            self.description.clone(),
            name_of(&STATUSES, &self.status).to_owned(),
            self.eans.join(LIST_SEPARATOR),
            self.packaging_unit.to_string(),
            self.replaced_by.join(LIST_SEPARATOR),
        ])
    }
}

impl FileRow for Criterion {
    fn data_set(&self) -> ImportType {
        ImportType::Criteria
    }
    fn cells(
        &self,
        c: &Catalogue,
        refs: &mut WrittenReferences,
    ) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.article.brand_id.to_string(),
            refs.of(c, &self.article)?,
            self.name.clone(),
            self.value.clone(),
            self.unit.clone(),
        ])
    }
}

impl FileRow for CrossReference {
    fn data_set(&self) -> ImportType {
        match self.kind {
            CrossKind::Competitor => ImportType::CompetitorReferences,
            _ => ImportType::CrossReferences,
        }
    }
    fn cells(
        &self,
        c: &Catalogue,
        refs: &mut WrittenReferences,
    ) -> Result<Vec<String>, StoreError> {
        let (brand, reference) = (
            self.article.brand_id.to_string(),
            refs.of(c, &self.article)?,
        );
        Ok(match self.data_set() {
            ImportType::CompetitorReferences => vec![
                brand,
                reference,
                optional(self.manufacturer_id),
                self.number.clone(),
            ],
            _ => vec![
                brand,
                reference,
                name_of(&CROSS_KINDS, &self.kind).to_owned(),
                optional(self.manufacturer_id),
                self.number.clone(),
            ],
        })
    }
}

impl FileRow for Link {
    fn data_set(&self) -> ImportType {
        ImportType::Links
    }
    fn cells(
        &self,
        c: &Catalogue,
        refs: &mut WrittenReferences,
    ) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.article.brand_id.to_string(),
            refs.of(c, &self.article)?,
            self.ktype.clone(),
            self.position.clone(),
            self.quantity.to_string(),
            self.notes.clone(),
        ])
    }
}

impl FileRow for Price {
    fn data_set(&self) -> ImportType {
        ImportType::Prices
    }
    fn cells(
        &self,
        c: &Catalogue,
        refs: &mut WrittenReferences,
    ) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.article.brand_id.to_string(),
            refs.of(c, &self.article)?,
            self.price_type.clone(),
            self.currency.clone(),
            self.amount.to_string(),
            optional(self.valid_from),
            optional(self.valid_to),
        ])
    }
}

impl FileRow for KitComponent {
    fn data_set(&self) -> ImportType {
        ImportType::Kits
    }
    fn cells(
        &self,
        c: &Catalogue,
        refs: &mut WrittenReferences,
    ) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.kit.brand_id.to_string(),
            refs.of(c, &self.kit)?,
            self.ktype.clone(),
            self.component.brand_id.to_string(),
            refs.of(c, &self.component)?,
            self.quantity.to_string(),
        ])
    }
}

impl FileRow for Media {
    fn data_set(&self) -> ImportType {
        ImportType::Media
    }
    fn cells(
        &self,
        c: &Catalogue,
        refs: &mut WrittenReferences,
    ) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.article.brand_id.to_string(),
            refs.of(c, &self.article)?,
            name_of(&MEDIA_KINDS, &self.kind).to_owned(),
            self.set.clone(),
            self.position.to_string(),
            self.uri.clone(),
            self.description.clone(),
        ])
    }
}

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

impl FileRow for Plate {
    fn data_set(&self) -> ImportType {
        ImportType::Plates
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.country.clone(),
            self.written.clone(),
            self.ktype.clone(),
            match self.key_system {
                0 => String::new(),
                n => n.to_string(),
            },
        ])
    }
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
        ImportType::Articles => rows.write::<Article>(),
        ImportType::Criteria => rows.write::<Criterion>(),
        ImportType::CrossReferences | ImportType::CompetitorReferences => {
            rows.write::<CrossReference>()
        }
        ImportType::Links => rows.write::<Link>(),
        ImportType::Prices => rows.write::<Price>(),
        ImportType::Kits => rows.write::<KitComponent>(),
        ImportType::Media => rows.write::<Media>(),
        ImportType::Plates => rows.write::<Plate>(),
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
