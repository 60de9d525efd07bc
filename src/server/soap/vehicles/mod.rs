//! Vehicle types: by id, by make, by registration plate or key number.

use serde_json::Value;

mod engines;
pub mod messages;
mod plates;
pub mod records;
mod tree;
mod vins;

pub use engines::{get_motor_ids_by_manu_id_criteria2, get_vehicle_ids_by_motor2};
pub use plates::get_vehicles_by_plate;
pub use tree::{
    get_manufacturers2, get_model_series, get_model_series2, get_vehicle_ids_by_criteria,
};
pub use vins::get_vehicles_by_vin;

use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::codes::target_types;
use crate::service::asked::{Asked, Unheld};
use crate::service::field::Field;
use crate::service::vehicles::linkage_targets::{self, MAX_PER_PAGE, NamedTarget, TargetQuery};
use crate::service::{ServiceError, reference_lists};
use messages::*;
use records::target_list;

pub fn get_linkage_targets(call: &Call<'_>, r: GetLinkageTargetsRequest) -> Result<Value, Failure> {
    let country = r.linkage_target_country.as_deref();
    let asked = Asked::new().country("linkageTargetCountry", country);
    let kind = r.linkage_target_type.as_deref().map(str::trim);
    let ids = r
        .linkage_target_ids
        .iter()
        .map(|named| {
            let kinds = target_types("linkageTargetIds", named.kind.as_deref())?;
            Ok(NamedTarget {
                ktype: named.id.trim().to_owned(),
                kinds,
            })
        })
        .collect::<Result<Vec<_>, ServiceError>>()?;
    let question = TargetQuery {
        kinds: target_types("linkageTargetType", kind)?,
        ids: Some(Field::new("linkageTargetIds", ids)),
        makers: r.mfr_ids,
        model_series: r.vehicle_model_series_ids,
        make_name: r.mfr_name.as_deref().filter(|m| !m.trim().is_empty()),
        page: Field::new("page", r.page.unwrap_or(1) as usize),
        per_page: Field::new("perPage", r.per_page.map_or(MAX_PER_PAGE, |n| n as usize)),
        maker_counts: r.include_mfr_facets.unwrap_or(false),
        series_counts: r.include_vehicle_model_series_facets.unwrap_or(false),
    };
    let found = linkage_targets::linkage_targets(call.context, &asked, &question)?;
    answer(&target_list(found))
}

/// The fields of a `getVehicleByIds3` request that ask for what the catalogue has not.
fn vehicle_request_asked(r: &GetVehicleByIdsRequest) -> Asked<'_> {
    let plate_type = r.numberplate_type;
    Asked::new()
        .country("articleCountry", r.article_country.as_deref())
        .country("country", r.country.as_deref())
        .place(
            "countriesCarSelection",
            r.countries_car_selection.as_deref(),
        )
        .country_groups(r.country_group_flag)
        .flag("axles", r.axles, Unheld::Axles)
        .flag("cabs", r.cabs, Unheld::Cabs)
        .flag("kbaData", r.kba_data, Unheld::KbaNumbers)
        .flag("protoTypes", r.proto_types, Unheld::Prototypes)
        .flag(
            "registrationInfo",
            r.registration_info,
            Unheld::RegistrationData,
        )
        .zero("numberplateType", plate_type, Unheld::RegistrationData)
        .flag("secondaryTypes", r.secondary_types, Unheld::SecondaryTypes)
        .flag("wheelbases", r.wheelbases, Unheld::Wheelbases)
}

pub fn get_vehicle_by_ids(call: &Call<'_>, r: GetVehicleByIdsRequest) -> Result<Value, Failure> {
    let asked = vehicle_request_asked(&r);
    let ids = r.car_ids.as_ref().map_or(&[][..], |l| &l.array);
    let ktypes: Vec<String> = ids.iter().map(i64::to_string).collect();
    let motor_codes = r.motor_codes.unwrap_or(false);
    let ktypes = Field::new("carIds", &ktypes[..]);
    let found = reference_lists::vehicle_types(call.context, &asked, ktypes)?
        .iter()
        .map(|(v, maker)| records::vehicle_by_ids(v, motor_codes, *maker))
        .collect();
    answer(&VehicleByIdsList::of(found))
}
