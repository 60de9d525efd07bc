//! `getVehiclesByVIN`, as Pegasus's DLB schema declares it.

use poem_openapi::Object;
use serde::Serialize;

request!(
    /// `getVehiclesByVIN` (Pegasus's `vehiclesByVINRequest`): the vehicle types a vehicle
    /// identification number names, from the catalogue's `vins` data set.
    GetVehiclesByVinRequest {
        /// A country (ISO 3166-1, any case): the catalogue's VIN patterns hold in every
        /// country.
        country: Option<String>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// The VIN: 17 characters (spaces, dashes and case aside). Required.
        vin: Option<String>,
        /// Only the types of this vehicle maker (`manuId` of `getManufacturers2`); 0 or absent:
        /// any.
        manu_id: Option<i64>,
        /// Only the types of this model series (`modId` of `getModelSeries`); 0 or absent:
        /// any.
        model_id: Option<i64>,
        /// At most so many types in `matchingVehicles` (`matchingVehiclesCount` counts them
        /// all); 0 or absent: all.
        max_vehicles_to_return: Option<i64>,
    }
);

/// A vehicle maker of the VIN's types (Pegasus's `matchingManufacturersByVINRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "matchingManufacturersByVINRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VinManufacturerRecord {
    /// The maker's id (`manuId`).
    pub manu_id: i64,
    /// The maker's name.
    pub manu_name: String,
}

seq!(
    /// The makers.
    VinManufacturerSeq,
    "matchingManufacturersByVINRecordSeq",
    VinManufacturerRecord
);

/// A model series of the VIN's types (Pegasus's `matchingVehicleModelSeriesByVINRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "matchingVehicleModelSeriesByVINRecord",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct VinModelRecord {
    /// The series' maker.
    pub manu_id: i64,
    /// The series' id (`modId`).
    pub model_id: i64,
    /// The series' name, in the asked language.
    pub model_name: String,
}

seq!(
    /// The model series.
    VinModelSeq,
    "matchingVehicleModelSeriesByVINRecordSeq",
    VinModelRecord
);

/// A vehicle type the VIN names (Pegasus's `matchingVehicleIdsByVINRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "matchingVehicleIdsByVINRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VinVehicleRecord {
    /// Its maker; 0 where the catalogue names none.
    pub manu_id: i64,
    /// Its model series; 0 where it has none.
    pub model_id: i64,
    /// The type's Ktype.
    pub car_id: i64,
    /// The type's name (`1.0 TSI`).
    pub vehicle_type_description: String,
    /// Make, model and type.
    pub car_name: String,
}

seq!(
    /// The vehicle types.
    VinVehicleSeq,
    "matchingVehicleIdsByVINRecordSeq",
    VinVehicleRecord
);

/// What a VIN names (Pegasus's `matchesByVINRecord`): the types' makers, their series and
/// the types.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "matchesByVINRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VinMatchesRecord {
    /// The makers of the types, in name order.
    pub matching_manufacturers: VinManufacturerSeq,
    /// Their model series, in name order.
    pub matching_models: VinModelSeq,
    /// The types, in Ktype order (at most `maxVehiclesToReturn`).
    pub matching_vehicles: VinVehicleSeq,
    /// How many types the VIN names.
    pub matching_vehicles_count: i64,
}

/// `getVehiclesByVIN` (Pegasus's `vehiclesByVINResponse`).
#[derive(Debug, Clone, Object, Serialize)]
pub struct VehiclesByVin {
    /// What the VIN names.
    pub data: VinMatchesRecord,
}
