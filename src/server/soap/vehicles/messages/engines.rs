//! `getMotorIdsByManuIdCriteria2` and `getVehicleIdsByMotor2`, as Pegasus's DLB schema
//! declares them: a maker's engines by code, and the vehicle types carrying one.

use poem_openapi::Object;
use serde::Serialize;

request!(
    /// `getMotorIdsByManuIdCriteria2` (Pegasus's `motorIdsByManuIdCriteria2Request`): the
    /// numbers of a maker's engines (`motorId`), by code and by what the vehicle types
    /// carrying them are.
    GetMotorIdsByManuIdCriteria2Request {
        /// As `getManufacturers2`'s.
        country: Option<String>,
        /// Carried by types of displacement at least this, cm³.
        cylinder_capacity_from: Option<i32>,
        /// Carried by types of displacement at most this, cm³.
        cylinder_capacity_to: Option<i32>,
        /// Refused: fuels are named, not numbered.
        fuel_type_id: Option<i64>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// The vehicle maker (`manuId` of `getManufacturers2`). Required.
        manu_id: Option<i64>,
        /// The engine code, written any way (`CZCA`); absent: every engine of the maker.
        motor_code: Option<String>,
        /// Carried by types of power at least this (kW, or HP with `powerHpType`).
        power_from: Option<i32>,
        /// true: `powerFrom` and `powerTo` are HP.
        power_hp_type: Option<bool>,
        /// Carried by types of power at most this.
        power_to: Option<i32>,
        /// true (default): the whole `motorCode`; false: codes that start with it.
        search_exact_code: Option<bool>,
        /// Must be absent: the catalogue keeps no sales terms of engines.
        search_exact_term: Option<bool>,
        /// Must be absent: the catalogue keeps no sales terms of engines.
        sells_term: Option<String>,
        /// Carried by types built in this year (YYYY) or month (YYYYMM).
        year_of_construction: Option<i32>,
        /// true: `country` names a country group (`tecdocCode` of `getCountryGroups`),
        /// not a country.
        country_group_flag: Option<bool>,
    }
);

/// An engine (Pegasus's `motorIdsByManuIdCriteria2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "motorIdsByManuIdCriteria2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct MotorIdRecord {
    /// The engine's number, as `getVehicleIdsByMotor2` takes it: the same in every store
    /// for the same maker and code.
    pub motor_id: i64,
}

record_list!(
    /// `getMotorIdsByManuIdCriteria2`: the engines, in code order.
    MotorIdList,
    MotorIdRecordSeq,
    "motorIdsByManuIdCriteria2RecordSeq",
    MotorIdRecord
);

request!(
    /// `getVehicleIdsByMotor2` (Pegasus's `vehicleIdsByMotor2Request`): the vehicle types
    /// carrying an engine.
    GetVehicleIdsByMotor2Request {
        /// Only vehicle types of this kind (as `linkingTargetType`).
        car_type: Option<String>,
        /// As `getManufacturers2`'s `country`.
        countries_car_selection: Option<String>,
        /// true: `countriesCarSelection` names a country group (`tecdocCode` of
        /// `getCountryGroups`), not a country.
        country_group_flag: Option<bool>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// The engine (`motorId` of `getMotorIdsByManuIdCriteria2`). Required.
        motor_id: Option<i64>,
    }
);

/// A vehicle type carrying the engine (Pegasus's `vehicleIdsByMotor2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "vehicleIdsByMotor2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VehicleIdByMotorRecord {
    /// The Ktype.
    pub car_id: i64,
    /// Make, model series and type.
    pub car_name: String,
}

record_list!(
    /// `getVehicleIdsByMotor2`: the types, in Ktype order (`firstCountry` is not given: the
    /// catalogue keeps no markets of vehicle types).
    VehicleIdByMotorList,
    VehicleIdByMotorRecordSeq,
    "vehicleIdsByMotor2RecordSeq",
    VehicleIdByMotorRecord
);
