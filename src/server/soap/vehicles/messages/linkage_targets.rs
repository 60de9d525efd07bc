//! `getLinkageTargets`: the vehicle selector of Pegasus's modern operations (makes, a make's
//! model series and a series' vehicle types, each one call with counts).

use poem_openapi::Object;
use serde::{Deserialize, Serialize};

/// A vehicle type named by id, and optionally by kind (`{"type": "P", "id": 10219}`); a bare
/// number or Ktype text is read as `{"id": …}`.
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "linkageTargetIdRecord")]
#[serde(deny_unknown_fields)]
pub struct LinkageTargetIdRecord {
    /// The kind it must be (`P`, `L`, `B`, `C`, `T`, `M`, `A`, `K`, or the groups `V`, `O`);
    /// a type of another kind is not answered.
    #[oai(rename = "type")]
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    /// The vehicle type (Ktype).
    pub id: String,
}

request!(
    /// `getLinkageTargets`: vehicle types narrowed by kind, id, maker and model series, a
    /// page of them, and the counts of their makers and model series. Every narrowing may be
    /// combined; none given: every vehicle type.
    GetLinkageTargetsRequest {
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        linkage_target_country: Option<String>,
        /// Only vehicle types of this kind: `P` passenger car, `L` light commercial, `B`
        /// motorcycle, `C` commercial vehicle, `T` tractor, `M` engine, `A` axle, `K` body
        /// type; `V` is P and L, `O` is C and T.
        linkage_target_type: Option<String>,
        /// Only these vehicle types (Ktypes, or `{type, id}`); at most 100 different ones.
        #[oai(validator(max_items = 100))]
        linkage_target_ids: Vec<LinkageTargetIdRecord>,
        /// Only the vehicle types of these makers (`mfrId`, `manuId` of
        /// `getManufacturers2`); at most 100 different ones.
        #[oai(validator(max_items = 100))]
        mfr_ids: Vec<u32>,
        /// Only the vehicle types of these model series (`vehicleModelSeriesId`, `modelId`
        /// of `getModelSeries`); at most 1000 different ones.
        #[oai(validator(max_items = 1000))]
        vehicle_model_series_ids: Vec<u32>,
        /// Only the vehicle types whose make is written so (case-insensitive): partscat's.
        mfr_name: Option<String>,
        /// The page, from 1 (default 1).
        page: Option<u32>,
        /// Vehicle types a page (0 to 100, default 100); 0 answers the counts alone.
        per_page: Option<u32>,
        /// true: `mfrFacets`, the makers of every matching vehicle type with their counts.
        include_mfr_facets: Option<bool>,
        /// true: `vehicleModelSeriesFacets`, the model series of every matching vehicle type
        /// with their counts.
        include_vehicle_model_series_facets: Option<bool>,
    }
);

/// An engine of a vehicle type.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "linkageTargetEngine")]
pub struct LinkageTargetEngine {
    /// The engine code (`CHZD`).
    pub code: String,
}

/// A vehicle type (Pegasus's `linkageTargets` record).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "linkageTargetRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct LinkageTargetRecord {
    /// The Ktype (0 where the catalogue's Ktype is not a number).
    pub linkage_target_id: i64,
    /// TecDoc's group of the type: `P` (passenger cars, light commercial vehicles,
    /// motorcycles), `O` (commercial vehicles, tractors), else its own kind (`M`, `A`, `K`).
    pub linkage_target_type: String,
    /// The type's own kind (`V` a passenger car, `L`, `B`, `C`, `T`, …).
    pub sub_linkage_target_type: String,
    /// The type (`1.0 TSI`).
    pub description: String,
    /// The vehicle maker (`manuId` of `getManufacturers2`); absent where the catalogue does
    /// not name the make's maker.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mfr_id: Option<i64>,
    /// The make.
    pub mfr_name: String,
    /// The model series; absent without model series.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vehicle_model_series_id: Option<i64>,
    /// The model series' name, or the model as the vehicle row writes it.
    pub vehicle_model_series_name: String,
    /// First built, `YYYY-MM` (`YYYY` where only the year is known).
    pub begin_year_month: String,
    /// Last built; absent while the type is built.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_year_month: Option<String>,
    /// Power in kW.
    pub kilo_watts_from: i32,
    /// Power in kW, the upper end where the type's power is a range.
    pub kilo_watts_to: i32,
    /// Power in HP.
    pub horse_power_from: i32,
    /// Power in HP, the upper end.
    pub horse_power_to: i32,
    /// Displacement in cm³.
    #[oai(rename = "capacityCC")]
    #[serde(rename = "capacityCC")]
    pub capacity_cc: i64,
    /// Fuel.
    pub fuel_type: String,
    /// The engine kind (`Otto`, `Diesel`).
    pub engine_type: String,
    /// The body style (`Hatchback`); empty where the catalogue has none.
    pub body_style: String,
    /// The construction type, where the maker says more than the body style.
    pub construction_type: String,
    /// The engine codes.
    pub engines: Vec<LinkageTargetEngine>,
    /// `vehicleModelSeriesName`'s first spelling (the model as the vehicle row writes it),
    /// kept for clients of partscat's first releases (docs/compatibility.md).
    pub model: String,
    /// `description`'s first spelling.
    pub type_name: String,
    /// The engine codes as one text (`CZCA, CZDA`): `engines`' first spelling.
    pub engine: String,
    /// `fuelType`'s first spelling.
    pub fuel: String,
    /// `kiloWattsFrom`'s first spelling.
    pub kw: i32,
    /// `horsePowerFrom`'s first spelling.
    pub hp: i32,
    /// `capacityCC`'s first spelling.
    pub ccm: i64,
    /// `beginYearMonth`'s first spelling.
    pub year_from: String,
    /// `endYearMonth`'s first spelling.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year_to: Option<String>,
}

/// A maker or model series with how many matching vehicle types it has.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "linkageTargetFacetCount", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct LinkageTargetFacetCount {
    /// The maker (`mfrId`) or model series (`vehicleModelSeriesId`).
    pub id: i64,
    /// Its name.
    pub name: String,
    /// A model series' first month of construction (`YYYYMM`).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub begin_year_month: Option<i32>,
    /// A model series' last month of construction (`YYYYMM`), where it has ended.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_year_month: Option<i32>,
    /// How many of the matching vehicle types it has.
    pub count: i64,
}

/// The counts of a facet, by name.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "linkageTargetFacet")]
pub struct LinkageTargetFacet {
    /// How many makers or model series.
    pub total: i64,
    /// Each with its count.
    pub counts: Vec<LinkageTargetFacetCount>,
}

/// `getLinkageTargets`.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct LinkageTargetList {
    /// How many vehicle types match, on every page.
    pub total: i64,
    /// This page's vehicle types, by make, model series, type and Ktype.
    pub linkage_targets: Vec<LinkageTargetRecord>,
    /// With includeMfrFacets.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mfr_facets: Option<LinkageTargetFacet>,
    /// With includeVehicleModelSeriesFacets.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vehicle_model_series_facets: Option<LinkageTargetFacet>,
}
