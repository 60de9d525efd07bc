//! Vehicle types: by id, by make, by registration plate or key number.

use serde_json::Value;

pub mod messages;
mod plates;
pub mod records;
mod tree;

pub use plates::get_vehicles_by_plate;
pub use tree::{
    get_manufacturers2, get_model_series, get_model_series2, get_vehicle_ids_by_criteria, id,
};

use crate::server::soap::call::{Call, Failure, answer};
use crate::service::linkage_targets::{self, MAX_PER_PAGE, NamedTarget, TargetQuery};
use crate::service::vehicle_path::Makers;
use crate::service::{ServiceError, market, reference_lists};
use messages::*;
use records::target_list;

pub fn get_linkage_targets(call: &Call<'_>, r: GetLinkageTargetsRequest) -> Result<Value, Failure> {
    let countries = call.context.countries();
    market::country(
        "linkageTargetCountry",
        r.linkage_target_country.as_deref(),
        countries,
    )?;
    let asked = r.linkage_target_type.as_deref().map(str::trim);
    let kinds = market::target_types("linkageTargetType", asked)?;
    let ids = r
        .linkage_target_ids
        .iter()
        .map(|named| {
            let kinds = market::target_types("linkageTargetIds", named.kind.as_deref())?;
            Ok(NamedTarget {
                ktype: named.id.trim().to_owned(),
                kinds,
            })
        })
        .collect::<Result<Vec<_>, ServiceError>>()?;
    let question = TargetQuery {
        kinds,
        ids,
        makers: r.mfr_ids,
        model_series: r.vehicle_model_series_ids,
        make_name: r.mfr_name.as_deref().filter(|m| !m.trim().is_empty()),
        page: r.page.unwrap_or(1) as usize,
        per_page: r.per_page.map_or(MAX_PER_PAGE, |n| n as usize),
        maker_counts: r.include_mfr_facets.unwrap_or(false),
        series_counts: r.include_vehicle_model_series_facets.unwrap_or(false),
    };
    let found = linkage_targets::linkage_targets(call.context, &question)?;
    let group = asked.filter(|a| matches!(*a, "V" | "O"));
    answer(&target_list(found, group))
}

/// The fields of a `getVehicleByIds3` request that ask for what the catalogue has not.
fn vehicle_request_held(call: &Call<'_>, r: &GetVehicleByIdsRequest) -> Result<(), ServiceError> {
    let countries = call.context.countries();
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

pub fn get_vehicle_by_ids(call: &Call<'_>, r: GetVehicleByIdsRequest) -> Result<Value, Failure> {
    vehicle_request_held(call, &r)?;
    let ids = r.car_ids.map(|l| l.array).unwrap_or_default();
    if ids.is_empty() {
        return Err(Failure::bad(
            "Field 'carIds' must hold at least one vehicle type (Ktype)",
        ));
    }
    let ktypes: Vec<String> = ids.iter().map(i64::to_string).collect();
    let motor_codes = r.motor_codes.unwrap_or(false);
    let makers = Makers::read(call.context.snapshot())?;
    let found = reference_lists::vehicle_types(call.context, &ktypes, None, "carIds")?
        .iter()
        .map(|v| records::vehicle_by_ids(v, motor_codes, makers.of(v)))
        .collect();
    answer(&VehicleByIdsList::of(found))
}
