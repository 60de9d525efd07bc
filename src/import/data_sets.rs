//! The import data sets: their names, CSV columns, and how a row becomes a record.
//! `docs/import-formats.md` describes the same columns for people; keep the two in step.

use super::columns;
use super::csv_source::{CHANGE, ColumnSpec, Row};
use super::rows::*;
use crate::catalogue::*;
use crate::store::{Origin, Record, Replace, Staging, StoreError, TreeName};

/// A kind of import file. A directory import takes them in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ImportType {
    Brands,
    Manufacturers,
    ModelSeries,
    GenericArticles,
    AssemblyGroups,
    GenartGroups,
    Vehicles,
    Texts,
    Articles,
    ArticleTexts,
    KeyValues,
    CriterionDefinitions,
    Criteria,
    CrossReferences,
    CompetitorReferences,
    Links,
    Prices,
    Kits,
    Media,
    Plates,
    Vins,
}

impl ImportType {
    pub const ALL: [ImportType; 21] = [
        ImportType::Brands,
        ImportType::Manufacturers,
        ImportType::ModelSeries,
        ImportType::GenericArticles,
        ImportType::AssemblyGroups,
        ImportType::GenartGroups,
        ImportType::Vehicles,
        ImportType::Texts,
        ImportType::Articles,
        ImportType::ArticleTexts,
        ImportType::KeyValues,
        ImportType::CriterionDefinitions,
        ImportType::Criteria,
        ImportType::CrossReferences,
        ImportType::CompetitorReferences,
        ImportType::Links,
        ImportType::Prices,
        ImportType::Kits,
        ImportType::Media,
        ImportType::Plates,
        ImportType::Vins,
    ];

    /// The name used by `--type`, `importType` and the `<name>.csv` file of a directory.
    pub fn name(self) -> &'static str {
        match self {
            ImportType::Brands => "brands",
            ImportType::Manufacturers => "manufacturers",
            ImportType::ModelSeries => "model_series",
            ImportType::GenericArticles => "genarts",
            ImportType::AssemblyGroups => "assembly_groups",
            ImportType::GenartGroups => "genart_groups",
            ImportType::Vehicles => "vehicles",
            ImportType::Texts => "texts",
            ImportType::ArticleTexts => "article_texts",
            ImportType::Articles => "articles",
            ImportType::KeyValues => "key_values",
            ImportType::CriterionDefinitions => "criterion_definitions",
            ImportType::Criteria => "criteria",
            ImportType::CrossReferences => "crossrefs",
            ImportType::CompetitorReferences => "competitor_refs",
            ImportType::Links => "links",
            ImportType::Prices => "prices",
            ImportType::Kits => "kits",
            ImportType::Media => "media",
            ImportType::Plates => "plates",
            ImportType::Vins => "vins",
        }
    }

    pub fn from_name(name: &str) -> Option<ImportType> {
        Self::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(name))
    }

    /// The allowed names, for error messages.
    pub fn names() -> String {
        Self::ALL.map(ImportType::name).join(", ")
    }

    /// The columns of this data set's files, in the order partscat writes them (the
    /// generator, the demo catalogue); a file may order them as it likes.
    pub fn columns(self) -> ColumnSpec {
        columns::of(self)
    }

    /// What a replace of this data set retires, besides the rows the file holds: every row
    /// of the brands the file's rows name where the data set is per brand, every row of the
    /// table otherwise. Cross-references and competitor references share a table: a replace
    /// of `crossrefs` retires OE, internal and trade numbers, one of `competitor_refs`
    /// competitor numbers.
    pub fn replace_scope(self, file: u16) -> Replace {
        let per_brand = !matches!(
            self,
            ImportType::Brands
                | ImportType::Manufacturers
                | ImportType::ModelSeries
                | ImportType::GenericArticles
                | ImportType::AssemblyGroups
                | ImportType::GenartGroups
                | ImportType::Vehicles
                | ImportType::Texts
                | ImportType::KeyValues
                | ImportType::CriterionDefinitions
                | ImportType::Plates
                | ImportType::Vins
        );
        let kinds = match self {
            ImportType::CrossReferences => {
                Some(vec![CrossKind::Oe, CrossKind::Internal, CrossKind::Trade])
            }
            ImportType::CompetitorReferences => Some(vec![CrossKind::Competitor]),
            _ => None,
        };
        Replace {
            file,
            per_brand,
            kinds,
        }
    }

    /// The table the rows of this type go to.
    pub fn tree(self) -> TreeName {
        match self {
            ImportType::Brands => TreeName::Brands,
            ImportType::Manufacturers => TreeName::Manufacturers,
            ImportType::ModelSeries => TreeName::ModelSeries,
            ImportType::GenericArticles => TreeName::GenericArticles,
            ImportType::AssemblyGroups => TreeName::AssemblyGroups,
            ImportType::GenartGroups => TreeName::GenartGroups,
            ImportType::Vehicles => TreeName::Vehicles,
            ImportType::Texts => TreeName::Texts,
            ImportType::ArticleTexts => TreeName::ArticleTexts,
            ImportType::Articles => TreeName::Articles,
            ImportType::KeyValues => TreeName::KeyValues,
            ImportType::CriterionDefinitions => TreeName::CriterionDefinitions,
            ImportType::Criteria => TreeName::Criteria,
            ImportType::CrossReferences | ImportType::CompetitorReferences => {
                TreeName::CrossReferences
            }
            ImportType::Links => TreeName::Links,
            ImportType::Prices => TreeName::Prices,
            ImportType::Kits => TreeName::Kits,
            ImportType::Media => TreeName::Media,
            ImportType::Plates => TreeName::Plates,
            ImportType::Vins => TreeName::Vins,
        }
    }

    /// Validates one row against the catalogue as it will be, and stages it.
    /// `Ok(Err(message))` is a rejected row; `Err` a failure of the store.
    pub fn stage(
        self,
        row: &Row<'_>,
        file: u16,
        staging: &mut Staging<'_>,
    ) -> Result<Result<Staged, String>, StoreError> {
        let parsed = match self {
            ImportType::Brands => brand(row).map(Parsed::Brand),
            ImportType::Manufacturers => manufacturer(row).map(Parsed::Manufacturer),
            ImportType::ModelSeries => model_series(row).map(Parsed::ModelSeries),
            ImportType::GenericArticles => generic_article(row).map(Parsed::GenericArticle),
            ImportType::AssemblyGroups => assembly_group(row).map(Parsed::AssemblyGroup),
            ImportType::GenartGroups => genart_group(row).map(Parsed::GenartGroup),
            ImportType::Vehicles => vehicle(row).map(Parsed::Vehicle),
            ImportType::Texts => translation(row).map(Parsed::Translation),
            ImportType::ArticleTexts => article_text(row).map(Parsed::ArticleText),
            ImportType::Articles => article(row).map(Parsed::Article),
            ImportType::KeyValues => key_value(row).map(Parsed::KeyValue),
            ImportType::CriterionDefinitions => {
                criterion_definition(row).map(Parsed::CriterionDefinition)
            }
            ImportType::Criteria => criterion(row).map(|(c, id)| Parsed::Criterion(c, id)),
            ImportType::CrossReferences => cross_reference(row).map(Parsed::CrossReference),
            ImportType::CompetitorReferences => {
                competitor_reference(row).map(Parsed::CrossReference)
            }
            ImportType::Links => link(row).map(Parsed::Link),
            ImportType::Prices => price(row).map(Parsed::Price),
            ImportType::Kits => kit_component(row).map(Parsed::KitComponent),
            ImportType::Media => media(row).map(Parsed::Media),
            ImportType::Plates => plate(row).map(Parsed::Plate),
            ImportType::Vins => vin_pattern(row).map(Parsed::Vin),
        };
        let parsed = match parsed {
            Ok(p) => p,
            Err(message) => return Ok(Err(message)),
        };
        if let Some(language) = parsed.language()
            && !staging.keeps_text_language(language)
        {
            return Ok(Ok(Staged::LeftOut {
                language: language.to_owned(),
            }));
        }
        let origin = Origin {
            file,
            line: row.line,
        };
        match removes(row) {
            Err(message) => return Ok(Err(message)),
            Ok(true) => {
                // What a retired row referred to may be retired by the same feed.
                parsed.stage(staging, origin, true)?;
                return Ok(Ok(Staged::Taken));
            }
            Ok(false) => {}
        }
        if let Some(message) = parsed.missing_reference(staging)? {
            return Ok(Err(message));
        }
        parsed.stage(staging, origin, false)?;
        Ok(Ok(Staged::Taken))
    }
}

/// What became of a valid row.
pub enum Staged {
    Taken,
    /// A text in a language the catalogue does not serve (`catalogue.languages`): not
    /// stored, counted by its language in the report.
    LeftOut {
        language: String,
    },
}

/// Whether the row retires its key (`change` is `remove`) rather than writes it.
pub(super) fn removes(row: &Row<'_>) -> Result<bool, String> {
    let change = row.get(CHANGE);
    if change.eq_ignore_ascii_case("remove") {
        return Ok(true);
    }
    if !change.is_empty() && !change.eq_ignore_ascii_case("upsert") {
        return Err(format!(
            "column '{CHANGE}': '{change}' is not one of upsert, remove"
        ));
    }
    Ok(false)
}

mod references;

enum Parsed {
    Brand(Brand),
    Manufacturer(Manufacturer),
    ModelSeries(ModelSeries),
    GenericArticle(GenericArticle),
    AssemblyGroup(AssemblyGroup),
    GenartGroup(GenartGroup),
    Vehicle(Vehicle),
    Translation(Translation),
    Article(Article),
    ArticleText(ArticleText),
    KeyValue(KeyValue),
    CriterionDefinition(CriterionDefinition),
    /// With the number its row gives it.
    Criterion(Criterion, Option<u32>),
    CrossReference(CrossReference),
    Link(Link),
    Price(Price),
    KitComponent(KitComponent),
    Media(Media),
    Plate(Plate),
    Vin(VinPattern),
}

impl Parsed {
    /// The language of a text in another language.
    fn language(&self) -> Option<&str> {
        match self {
            Parsed::Translation(t) => Some(&t.language),
            Parsed::ArticleText(t) => Some(&t.language),
            _ => None,
        }
    }
}

impl Parsed {
    /// Stages the row, or its key's retirement.
    fn stage(&self, s: &mut Staging<'_>, o: Origin, retire: bool) -> Result<(), StoreError> {
        fn one<R: Record>(
            s: &mut Staging<'_>,
            r: &R,
            o: Origin,
            retire: bool,
        ) -> Result<(), StoreError> {
            if retire { s.retire(r, o) } else { s.put(r, o) }
        }
        match self {
            Parsed::Brand(r) => one(s, r, o, retire),
            Parsed::Manufacturer(r) => one(s, r, o, retire),
            Parsed::GenericArticle(r) => one(s, r, o, retire),
            Parsed::ModelSeries(r) => one(s, r, o, retire),
            Parsed::AssemblyGroup(r) => one(s, r, o, retire),
            Parsed::GenartGroup(r) => one(s, r, o, retire),
            Parsed::Vehicle(r) => one(s, r, o, retire),
            Parsed::Translation(r) => one(s, r, o, retire),
            Parsed::ArticleText(r) => one(s, r, o, retire),
            Parsed::Article(r) => one(s, r, o, retire),
            Parsed::KeyValue(r) => one(s, r, o, retire),
            Parsed::CriterionDefinition(r) => one(s, r, o, retire),
            Parsed::Criterion(r, _) => one(s, r, o, retire),
            Parsed::CrossReference(r) => one(s, r, o, retire),
            Parsed::Link(r) => one(s, r, o, retire),
            Parsed::Price(r) => one(s, r, o, retire),
            Parsed::KitComponent(r) => one(s, r, o, retire),
            Parsed::Media(r) => one(s, r, o, retire),
            Parsed::Plate(r) => one(s, r, o, retire),
            Parsed::Vin(r) => one(s, r, o, retire),
        }
    }
}
