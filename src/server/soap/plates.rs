//! `getVehiclesByKeyNumberPlates`: the vehicle types a registration plate or key number names,
//! from the catalogue's `plates` data set.

use serde_json::Value;

use super::call::answer;
use super::call::{Call, Failure};
use super::messages::*;
use crate::catalogue::normalise_reference;
use crate::service::lookups;

pub fn get_vehicles_by_plate(
    call: &Call<'_>,
    r: GetVehiclesByKeyNumberPlatesRequest,
) -> Result<Value, Failure> {
    let country = r.country.as_deref().map(str::trim).unwrap_or("");
    if country.len() != 2 || !country.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(Failure::bad(format!(
            "Field 'country' must be an ISO 3166-1 country code (two letters), not '{country}'"
        )));
    }
    let written = r.key_system_number.as_deref().unwrap_or("");
    let number = normalise_reference(written);
    if number.is_empty() {
        return Err(Failure::bad(format!(
            "Field 'keySystemNumber' must hold the plate or key number's letters or digits, not '{written}'"
        )));
    }
    let kind = r.key_system_type.filter(|&k| k > 0);
    let details = r.details.unwrap_or(false);
    let catalogue = call.state.store.catalogue();
    let mut found = Vec::new();
    for plate in catalogue.plates(&country.to_ascii_uppercase(), &number)? {
        if kind.is_some_and(|k| plate.key_system != 0 && i64::from(plate.key_system) != k) {
            continue;
        }
        let Some(v) = catalogue.vehicle(&plate.ktype)? else {
            continue;
        };
        let car_name = [v.make.as_str(), &v.model, &v.type_name]
            .iter()
            .filter(|part| !part.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        let manu_id = lookups::vehicle_maker_id(&catalogue, &v.make)?.map_or(0, i64::from);
        let car_id = v.ktype.trim().parse().unwrap_or(0);
        found.push(PlateVehicleRecord {
            car_id,
            car_name: car_name.clone(),
            country: plate.country.clone(),
            linking_target_type: "P".into(),
            manu_id,
            vehicle_details: details.then(|| PlateVehicleDetails {
                car_name,
                country: plate.country.clone(),
                engine_capacity: v.ccm.to_string(),
                engine_code: v.engine.clone(),
                fuel: v.fuel.clone(),
                ktype_numbers: car_id,
                kw1: v.kw.to_string(),
                linking_target_type: "P".into(),
                manu_id,
                mark: v.make.clone(),
                model: v.model.clone(),
                registration_number: plate.written.clone(),
                year_from: v.year_from.to_string(),
            }),
        });
    }
    answer(&PlateVehicleList::of(found))
}
