//! The columns of each data set's files, in the order partscat writes them (the generator,
//! the demo catalogue); a file may order them as it likes. `must` columns need a value,
//! `may` columns may be left out or empty.

use super::ImportType;
use super::csv_source::{Column, ColumnSpec, may, must};

const BRANDS: &[Column] = &[
    must("brand_id"),
    must("name"),
    may("street"),
    may("zip"),
    may("city"),
    may("country"),
    may("phone"),
    may("fax"),
    may("email"),
    may("website"),
];
const MANUFACTURERS: &[Column] = &[must("manufacturer_id"), must("name"), must("kind")];
const GENERIC_ARTICLES: &[Column] = &[must("genart_id"), must("name")];
const VEHICLES: &[Column] = &[
    must("ktype"),
    must("make"),
    must("model"),
    may("type"),
    may("engine"),
    may("fuel"),
    may("kw"),
    may("hp"),
    may("ccm"),
    must("year_from"),
    may("year_to"),
    may("model_series_id"),
    may("target_type"),
    may("body_style"),
    may("construction_type"),
    may("engine_kind"),
    may("kw_to"),
    may("hp_to"),
];
const MODEL_SERIES: &[Column] = &[
    must("model_series_id"),
    must("manufacturer_id"),
    must("name"),
    must("year_from"),
    may("year_to"),
];
const ASSEMBLY_GROUPS: &[Column] = &[
    must("node_id"),
    may("parent_id"),
    may("target_type"),
    must("name"),
    may("sort"),
];
const GENART_GROUPS: &[Column] = &[must("genart_id"), must("node_id")];
const TEXTS: &[Column] = &[must("kind"), must("key"), must("language"), must("text")];
const ARTICLE_TEXTS: &[Column] = &[
    must("brand_id"),
    must("reference"),
    must("language"),
    must("description"),
];
const ARTICLES: &[Column] = &[
    must("brand_id"),
    must("reference"),
    must("genart_id"),
    may("description"),
    may("status"),
    may("eans"),
    may("packaging_unit"),
    may("replaced_by"),
];
const CRITERIA: &[Column] = &[
    must("brand_id"),
    must("reference"),
    must("name"),
    must("value"),
    may("unit"),
    may("criterion_id"),
];
const CRITERION_DEFINITIONS: &[Column] = &[
    must("criterion_id"),
    must("name"),
    may("short_name"),
    may("type"),
    may("unit"),
    may("interval"),
    may("successor_id"),
    may("key_table_id"),
];
const KEY_VALUES: &[Column] = &[must("key_table_id"), must("key"), must("value")];
const CROSS_REFERENCES: &[Column] = &[
    must("brand_id"),
    must("reference"),
    must("kind"),
    may("manufacturer_id"),
    must("number"),
];
const COMPETITOR_REFERENCES: &[Column] = &[
    must("brand_id"),
    must("reference"),
    must("manufacturer_id"),
    must("competitor_reference"),
];
const LINKS: &[Column] = &[
    must("brand_id"),
    must("reference"),
    must("ktype"),
    may("position"),
    may("quantity"),
    may("notes"),
];
const PRICES: &[Column] = &[
    must("brand_id"),
    must("reference"),
    may("price_type"),
    must("currency"),
    must("amount"),
    may("valid_from"),
    may("valid_to"),
];
const KITS: &[Column] = &[
    must("kit_brand_id"),
    must("kit_reference"),
    must("ktype"),
    must("component_brand_id"),
    must("component_reference"),
    may("quantity"),
];
const MEDIA: &[Column] = &[
    must("brand_id"),
    must("reference"),
    must("kind"),
    may("set"),
    may("position"),
    must("uri"),
    may("description"),
];
const PLATES: &[Column] = &[
    must("country"),
    must("plate"),
    must("ktype"),
    may("key_system"),
];

const VINS: &[Column] = &[must("vin_pattern"), must("ktype")];

pub(super) fn of(data_set: ImportType) -> ColumnSpec {
    let columns = match data_set {
        ImportType::Brands => BRANDS,
        ImportType::Manufacturers => MANUFACTURERS,
        ImportType::ModelSeries => MODEL_SERIES,
        ImportType::GenericArticles => GENERIC_ARTICLES,
        ImportType::AssemblyGroups => ASSEMBLY_GROUPS,
        ImportType::GenartGroups => GENART_GROUPS,
        ImportType::Vehicles => VEHICLES,
        ImportType::Texts => TEXTS,
        ImportType::ArticleTexts => ARTICLE_TEXTS,
        ImportType::Articles => ARTICLES,
        ImportType::KeyValues => KEY_VALUES,
        ImportType::CriterionDefinitions => CRITERION_DEFINITIONS,
        ImportType::Criteria => CRITERIA,
        ImportType::CrossReferences => CROSS_REFERENCES,
        ImportType::CompetitorReferences => COMPETITOR_REFERENCES,
        ImportType::Links => LINKS,
        ImportType::Prices => PRICES,
        ImportType::Kits => KITS,
        ImportType::Media => MEDIA,
        ImportType::Plates => PLATES,
        ImportType::Vins => VINS,
    };
    ColumnSpec { columns }
}
