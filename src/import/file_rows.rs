//! Each record as the row of its data set's file: its cells in the order
//! `ImportType::columns` gives, each written as the importer reads it back.

use std::collections::HashMap;

use super::ImportType;
use super::rows::{CROSS_KINDS, MANUFACTURER_KINDS, MEDIA_KINDS, STATUSES, TARGET_TYPES, name_of};
use crate::catalogue::LIST_SEPARATOR;
use crate::catalogue::*;
use crate::store::{Catalogue, Record, StoreError};

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
        let mut cells = vec![self.id.to_string(), self.name.clone()];
        cells.extend(self.address.parts().map(str::to_owned));
        Ok(cells)
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
            // Numbered by its name: the definition that has it, or the store.
            String::new(),
        ])
    }
}

impl FileRow for Translation {
    fn data_set(&self) -> ImportType {
        ImportType::Texts
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.kind.name().to_owned(),
            self.key.clone(),
            self.language.clone(),
            self.text.clone(),
        ])
    }
}

impl FileRow for ArticleText {
    fn data_set(&self) -> ImportType {
        ImportType::ArticleTexts
    }
    fn cells(
        &self,
        c: &Catalogue,
        refs: &mut WrittenReferences,
    ) -> Result<Vec<String>, StoreError> {
        Ok(vec![
            self.article.brand_id.to_string(),
            refs.of(c, &self.article)?,
            self.language.clone(),
            self.description.clone(),
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

impl FileRow for VinPattern {
    fn data_set(&self) -> ImportType {
        ImportType::Vins
    }
    fn cells(&self, _: &Catalogue, _: &mut WrittenReferences) -> Result<Vec<String>, StoreError> {
        Ok(vec![self.pattern.clone(), self.ktype.clone()])
    }
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
