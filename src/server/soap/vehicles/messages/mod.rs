//! Vehicle types: by id, by make, by registration plate or key number, by VIN.

use crate::server::soap::fields::IntegerList;
mod engines;
mod linkage_targets;
mod tree;
mod vins;

pub use engines::*;
pub use linkage_targets::*;
pub use tree::*;
pub use vins::*;

use poem_openapi::Object;
use serde::Serialize;

request!(
    /// `getVehicleByIds3` and `getVehicleByIds4` (Pegasus's `vehicleByIds3Request`):
    /// vehicle types by Ktype: each vehicle's details and, with `motorCodes`, its engine
    /// codes. The flags asking for data partscat has not must be false.
    GetVehicleByIdsRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// Must be false: the catalogue has no axle data.
        axles: Option<bool>,
        /// Must be false: the catalogue has no cab data.
        cabs: Option<bool>,
        /// The vehicle types (Ktypes).
        car_ids: Option<IntegerList>,
        /// A country (ISO 3166-1, any case): every vehicle is valid in each.
        countries_car_selection: Option<String>,
        /// A country (ISO 3166-1, any case): every vehicle is valid in each.
        country: Option<String>,
        /// true: `countriesCarSelection` names a country group (`tecdocCode` of
        /// `getCountryGroups`), not a country.
        country_group_flag: Option<bool>,
        /// Must be false: the catalogue has no KBA numbers.
        kba_data: Option<bool>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// true: each vehicle's engine code (`motorCodes`).
        motor_codes: Option<bool>,
        /// Must be absent or 0: the catalogue answers no registration data.
        numberplate_type: Option<i32>,
        /// Must be false: the catalogue has no prototypes.
        proto_types: Option<bool>,
        /// Must be false: the catalogue has no registration data.
        registration_info: Option<bool>,
        /// Must be false: the catalogue has no secondary types.
        secondary_types: Option<bool>,
        /// Must be false: the catalogue has no wheelbases.
        wheelbases: Option<bool>,
    }
);

/// An engine code of a vehicle type.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "motorCodesByCarIdRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct MotorCodeRecord {
    /// The engine code (`CHZD`).
    pub motor_code: String,
}

/// The engine codes of a vehicle type.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "motorCodesByCarIdRecordSeq")]
pub struct MotorCodeRecordSeq {
    /// The codes.
    pub array: Vec<MotorCodeRecord>,
}

/// A vehicle type's details (Pegasus's `vehicleByIdRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "vehicleByIdRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VehicleDetails {
    /// The Ktype.
    pub car_id: i64,
    /// Displacement in cm³.
    pub ccm_tech: i64,
    /// Displacement in cm³.
    pub cylinder_capacity_ccm: i64,
    /// Fuel.
    pub fuel_type: String,
    /// The maker (`manuId` of `getManufacturers2`); absent where the catalogue does not
    /// name the make's maker.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manu_id: Option<i64>,
    /// The make.
    pub manu_name: String,
    /// The model series (`modelId` of `getModelSeries`); absent without model series.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mod_id: Option<i64>,
    /// The model (`A3 Sportback (8VA, 8VF)`).
    pub model_name: String,
    /// The engine kind (`Otto`, `Diesel`).
    pub motor_type: String,
    /// Power in HP.
    pub power_hp_from: i32,
    /// Power in HP, the upper end where the type's power is a range.
    pub power_hp_to: i32,
    /// Power in kW.
    pub power_kw_from: i32,
    /// Power in kW, the upper end where the type's power is a range.
    pub power_kw_to: i32,
    /// The type (`1.0 TSI`).
    pub type_name: String,
    /// First built, YYYYMM (month 00 where only the year is known).
    pub year_of_constr_from: i32,
    /// Last built, YYYYMM; absent while the type is built.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year_of_constr_to: Option<i32>,
}

/// A vehicle type (Pegasus's `vehicleByIds3Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "vehicleByIds3Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VehicleByIdsRecord {
    /// The Ktype.
    pub car_id: i64,
    /// Its engine codes (with motorCodes).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motor_codes: Option<MotorCodeRecordSeq>,
    /// Its details.
    pub vehicle_details: VehicleDetails,
}

record_list!(
    /// `getVehicleByIds3` and `getVehicleByIds4`: the vehicle types found, in the order
    /// asked; a Ktype the catalogue lacks is left out.
    VehicleByIdsList,
    VehicleByIdsRecordSeq,
    "vehicleByIds3RecordSeq",
    VehicleByIdsRecord
);

request!(
    /// `getVehiclesByKeyNumberPlates` (Pegasus's `vehiclesByKeyNumberPlatesRequest`): the
    /// vehicle types a registration plate or key number names in a country, from the
    /// catalogue's `plates` data set. Pegasus forwards this call to plate services with their
    /// own credentials; partscat is its own plate service and needs none, so those fields are
    /// taken and not used.
    GetVehiclesByKeyNumberPlatesRequest {
        /// A plate service's customer name; not used: partscat is its own plate service.
        company_name: Option<String>,
        /// The country of the plate or key number (ISO 3166-1 alpha-2, `DE`).
        country: Option<String>,
        /// true: each vehicle type's details (`vehicleDetails`).
        details: Option<bool>,
        /// A plate service's end-customer password; not used: partscat is its own plate service.
        end_customer_password: Option<String>,
        /// A plate service's end-customer user; not used: partscat is its own plate service.
        end_customer_username: Option<String>,
        /// A plate service's key; not used: partscat is its own plate service.
        id_key: Option<String>,
        /// A plate service's user initials; not used: partscat is its own plate service.
        initials: Option<String>,
        /// The plate or key number as written (`AB12 CDE`, `0603/BJQ`); letters and digits
        /// are compared.
        key_system_number: Option<String>,
        /// The kind of number (`key_system` of the plates file); rows without one match any.
        /// Absent or 0: any kind.
        key_system_type: Option<i64>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// Only vehicle types of this kind (`P`, `L`, `B`, `C`, `T`, `M`, `A`, `K`, or the
        /// groups `V`, `O`).
        linking_target_type: Option<String>,
        /// A plate service's password; not used: partscat is its own plate service.
        mandator_password: Option<String>,
        /// A plate service's user; not used: partscat is its own plate service.
        mandator_username: Option<String>,
        /// Must be false: the catalogue has no pictures of vehicles.
        picture: Option<bool>,
        /// A plate service's product; not used: partscat is its own plate service.
        product_id: Option<String>,
        /// A plate service's name; not used: partscat is its own plate service.
        service_name: Option<String>,
    }
);

/// A vehicle type's details as a plate search answers them (Pegasus's `vehicleDetails`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "vehicleDetails", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PlateVehicleDetails {
    /// Make, model and type (`VW Golf VII 1.6 TDI`).
    pub car_name: String,
    /// The plate's country.
    pub country: String,
    /// Displacement in cm³.
    pub engine_capacity: String,
    /// The engine code.
    pub engine_code: String,
    /// Fuel.
    pub fuel: String,
    /// The vehicle type (Ktype).
    #[oai(rename = "KTypeNumbers")]
    #[serde(rename = "KTypeNumbers")]
    pub ktype_numbers: i64,
    /// Power in kW.
    pub kw1: String,
    /// `P`: a vehicle type.
    pub linking_target_type: String,
    /// The vehicle maker's id (`manuId` of `getManufacturers`; 0 where the make is not one).
    pub manu_id: i64,
    /// The make.
    pub mark: String,
    /// The model.
    pub model: String,
    /// The plate or key number as the catalogue writes it.
    pub registration_number: String,
    /// First built, `YYYY-MM`.
    pub year_from: String,
}

/// A vehicle type a plate names (Pegasus's `vehiclesByKeyNumberPlatesRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "vehiclesByKeyNumberPlatesRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PlateVehicleRecord {
    /// The vehicle type (Ktype; 0 where it is not a number).
    pub car_id: i64,
    /// Make, model and type.
    pub car_name: String,
    /// The plate's country.
    pub country: String,
    /// `P`: a vehicle type.
    pub linking_target_type: String,
    /// The vehicle maker's id (`manuId` of `getManufacturers`; 0 where the make is not one).
    pub manu_id: i64,
    /// Its details (with details).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vehicle_details: Option<PlateVehicleDetails>,
}

record_list!(
    /// `getVehiclesByKeyNumberPlates`: the vehicle types the plate names, in Ktype order;
    /// none for a plate the catalogue does not hold.
    PlateVehicleList,
    PlateVehicleRecordSeq,
    "vehiclesByKeyNumberPlatesRecordSeq",
    PlateVehicleRecord
);
