//! The legacy vehicle tree of Pegasus's DLB schema: makes, a make's model series and the vehicle
//! types a choice names (a vehicle type's assembly groups are `categories`'). Fields partscat has no
//! data for are refused by name when they are given a value (see each field).

use poem_openapi::Object;
use serde::Serialize;

request!(
    /// `getManufacturers2` (Pegasus's `manufacturers2Request`): the vehicle makers with
    /// vehicle types.
    GetManufacturers2Request {
        /// A country (ISO 3166-1, any case): every vehicle is valid in each.
        country: Option<String>,
        /// true: `country` names a country group (`tecdocCode` of `getCountryGroups`),
        /// not a country.
        country_group_flag: Option<bool>,
        /// Must be 0: the catalogue keeps no favoured lists.
        favoured_list: Option<i32>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// Only makers with vehicle types of this kind (`P`, `L`, `B`, `C`, `T`, `M`, `A`,
        /// `K`; `V` = P and L, `O` = C and T).
        linking_target_type: Option<String>,
    }
);

/// A vehicle maker (Pegasus's `manufacturers2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "manufacturers2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct Manufacturer2Record {
    /// 0: no favoured lists.
    pub favor_flag: i32,
    /// The kinds of its vehicle types, one letter each (`P`, `PL`).
    pub linking_target_types: String,
    /// The maker's id (`manuId` of the other operations).
    pub manu_id: i64,
    /// The make (`VW`).
    pub manu_name: String,
}

record_list!(
    /// `getManufacturers2`.
    Manufacturer2List,
    Manufacturer2RecordSeq,
    "manufacturers2RecordSeq",
    Manufacturer2Record
);

request!(
    /// `getModelSeries` and `getModelSeries2` (Pegasus's `modelSeriesRequest`): a maker's
    /// model series.
    GetModelSeriesRequest {
        /// As `getManufacturers2`'s.
        country: Option<String>,
        /// As `getManufacturers2`'s.
        country_group_flag: Option<bool>,
        /// Must be 0.
        favoured_list: Option<i32>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// Only series with vehicle types of this kind.
        linking_target_type: Option<String>,
        /// The maker (`manuId` of `getManufacturers2`). Required.
        manu_id: Option<i64>,
    }
);

/// A model series (Pegasus's `modelSeriesRecord`, and with `favorFlag` `modelSeries2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "modelSeries2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ModelSeriesRecord {
    /// 0: no favoured lists (`getModelSeries2` only).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub favor_flag: Option<i32>,
    /// The model series' id (`modId` of the other operations).
    pub model_id: i64,
    /// Its name (`GOLF VII (5G1, BQ1, BE1, BE2)`).
    pub modelname: String,
    /// First built, YYYYMM.
    pub year_of_constr_from: i32,
    /// Last built, YYYYMM; absent while still built.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year_of_constr_to: Option<i32>,
}

record_list!(
    /// `getModelSeries`, `getModelSeries2`.
    ModelSeriesList,
    ModelSeriesRecordSeq,
    "modelSeries2RecordSeq",
    ModelSeriesRecord
);

request!(
    /// `getVehicleIdsByCriteria` (Pegasus's `vehicleIdsByCriteriaRequest`): the vehicle
    /// types of a maker or model series, narrowed by what the request gives.
    GetVehicleIdsByCriteriaRequest {
        /// Refused: the catalogue has no axle configurations.
        axis_configuration_id: Option<i64>,
        /// Only vehicle types of this kind (as `linkingTargetType`).
        car_type: Option<String>,
        /// Refused: construction types are named (`getVehicleByIds3`), not numbered.
        construction_type_id: Option<i64>,
        /// As `getManufacturers2`'s `country`.
        countries_car_selection: Option<String>,
        /// true: `countriesCarSelection` names a country group (`tecdocCode` of
        /// `getCountryGroups`), not a country.
        country_group_flag: Option<bool>,
        /// Displacement at least this, cm³.
        cylinder_capacity_from: Option<i32>,
        /// Displacement at most this, cm³.
        cylinder_capacity_to: Option<i32>,
        /// Must be 0.
        favoured_list: Option<i32>,
        /// Refused: fuels are named, not numbered.
        fuel_type_id: Option<i64>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// The maker (`manuId`). `manuId` or `modId` is required.
        manu_id: Option<i64>,
        /// The model series (`modelId` of `getModelSeries`).
        mod_id: Option<i64>,
        /// Only types whose name holds this text (case aside).
        model_description: Option<String>,
        /// Power at least this (kW, or HP with `powerHpType`).
        power_from: Option<i32>,
        /// true: `powerFrom` and `powerTo` are HP.
        power_hp_type: Option<bool>,
        /// Power at most this.
        power_to: Option<i32>,
        /// Refused: the catalogue holds no tonnages.
        tonnage_from: Option<i32>,
        /// Refused: the catalogue holds no tonnages.
        tonnage_to: Option<i32>,
        /// Only types built in this year (YYYY) or month (YYYYMM).
        year_of_construction: Option<i32>,
    }
);

/// A vehicle type found (Pegasus's `vehicleIdsByCriteriaRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "vehicleIdsByCriteriaRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VehicleIdRecord {
    /// The Ktype.
    pub car_id: i64,
    /// Make, model series and type.
    pub car_name: String,
    /// Its kind's letter (`P`).
    pub car_type: String,
}

record_list!(
    /// `getVehicleIdsByCriteria`.
    VehicleIdList,
    VehicleIdRecordSeq,
    "vehicleIdsByCriteriaRecordSeq",
    VehicleIdRecord
);
