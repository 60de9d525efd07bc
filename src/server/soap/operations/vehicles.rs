//! Vehicle types: by id, by make, by registration plate or key number.

use serde_json::Value;

use super::{Operation, operation};
use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::messages::*;
use crate::server::soap::vehicles::linkage_target;
use crate::service::vehicle_path::Makers;
use crate::service::{ServiceError, Snapshot, market, reference_lists};

pub(super) fn operations() -> Vec<Operation> {
    vec![
        operation::<GetVehicleByIdsRequest, VehicleByIdsList>(
            "getVehicleByIds3",
            "Vehicle types by Ktype (carIds), with their details and, with motorCodes, their engine codes: Pegasus's getVehicleByIds3.",
            get_vehicle_by_ids,
        ).cached(),
        operation::<GetVehicleByIdsRequest, VehicleByIdsList>(
            "getVehicleByIds4",
            "The same as getVehicleByIds3 (Pegasus's getVehicleByIds4; partscat has no vehicle documents).",
            get_vehicle_by_ids,
        ).cached(),
        operation::<GetVehiclesByKeyNumberPlatesRequest, PlateVehicleList>(
            "getVehiclesByKeyNumberPlates",
            "The vehicle types a registration plate or key number (keySystemNumber) names in a country, from the catalogue's plates data set, with details on request: Pegasus's getVehiclesByKeyNumberPlates.",
            crate::server::soap::plates::get_vehicles_by_plate,
        ).cached(),
        operation::<GetLinkageTargetsRequest, LinkageTargetList>(
            "getLinkageTargets",
            "Vehicle types by Ktype or by make, with their details.",
            get_linkage_targets,
        ).cached(),
    ]
}

fn get_linkage_targets(call: &Call<'_>, r: GetLinkageTargetsRequest) -> Result<Value, Failure> {
    let make = r
        .mfr_name
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty());
    if r.linkage_target_ids.is_empty() && make.is_none() {
        return Err(Failure::bad(
            "Field 'linkageTargetIds' or 'mfrName' is required",
        ));
    }
    let store = &call.state.store;
    let ids = &r.linkage_target_ids;
    let linkage_targets = reference_lists::vehicle_types(store, ids, make, "linkageTargetIds")?
        .iter()
        .map(linkage_target)
        .collect();
    answer(&LinkageTargetList { linkage_targets })
}

/// The fields of a `getVehicleByIds3` request that ask for what the catalogue has not.
fn vehicle_request_held(call: &Call<'_>, r: &GetVehicleByIdsRequest) -> Result<(), ServiceError> {
    let countries = &call.state.settings.catalogue_countries;
    market::country("articleCountry", r.article_country.as_deref(), countries)?;
    market::country("country", r.country.as_deref(), countries)?;
    let selection = r.countries_car_selection.as_deref();
    market::country("countriesCarSelection", selection, countries)?;
    market::no_country_group(r.country_group_flag)?;
    market::flag_not_held("axles", r.axles, "the catalogue has no axle data")?;
    market::flag_not_held("cabs", r.cabs, "the catalogue has no cab data")?;
    market::flag_not_held("kbaData", r.kba_data, "the catalogue has no KBA numbers")?;
    market::flag_not_held(
        "protoTypes",
        r.proto_types,
        "the catalogue has no prototypes",
    )?;
    let registration = "the catalogue has no registration data";
    market::flag_not_held("registrationInfo", r.registration_info, registration)?;
    let plate_type = r.numberplate_type.filter(|t| *t != 0);
    market::not_held(
        "numberplateType",
        &plate_type,
        &format!("must be 0: {registration}"),
    )?;
    let secondary = "the catalogue has no secondary types";
    market::flag_not_held("secondaryTypes", r.secondary_types, secondary)?;
    market::flag_not_held(
        "wheelbases",
        r.wheelbases,
        "the catalogue has no wheelbases",
    )
}

fn get_vehicle_by_ids(call: &Call<'_>, r: GetVehicleByIdsRequest) -> Result<Value, Failure> {
    vehicle_request_held(call, &r)?;
    let ids = r.car_ids.map(|l| l.array).unwrap_or_default();
    if ids.is_empty() {
        return Err(Failure::bad(
            "Field 'carIds' must hold at least one vehicle type (Ktype)",
        ));
    }
    let ktypes: Vec<String> = ids.iter().map(i64::to_string).collect();
    let motor_codes = r.motor_codes.unwrap_or(false);
    let makers = Makers::read(&Snapshot::of(&call.state.store))?;
    let found = reference_lists::vehicle_types(&call.state.store, &ktypes, None, "carIds")?
        .iter()
        .map(|v| crate::server::soap::vehicles::vehicle_by_ids(v, motor_codes, makers.of(v)))
        .collect();
    answer(&VehicleByIdsList::of(found))
}
