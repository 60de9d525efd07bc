//! `getVehiclesByKeyNumberPlates`: the vehicle types a registration plate or key number names
//! (`service::vehicles::plates`), in Pegasus's record.

use serde_json::Value;

use super::messages::*;
use crate::server::soap::call::answer;
use crate::server::soap::call::{Call, Failure};
use crate::server::soap::codes::target_types;
use crate::service::asked::{Asked, Unheld};
use crate::service::field::Field;
use crate::service::vehicles::plates::{self, PlateAsked, PlateVehicle};

pub fn get_vehicles_by_plate(
    call: &Call<'_>,
    r: GetVehiclesByKeyNumberPlatesRequest,
) -> Result<Value, Failure> {
    let asked = Asked::new().flag("picture", r.picture, Unheld::VehiclePictures);
    let question = PlateAsked {
        country: Field::new("country", r.country.as_deref().unwrap_or("")),
        written: Field::new(
            "keySystemNumber",
            r.key_system_number.as_deref().unwrap_or(""),
        ),
        key_system: r.key_system_type.filter(|&k| k > 0),
        targets: target_types("linkingTargetType", r.linking_target_type.as_deref())?,
    };
    let details = r.details.unwrap_or(false);
    let mut found = Vec::new();
    for PlateVehicle {
        plate,
        vehicle: v,
        maker_id,
    } in plates::vehicles_of_plate(call.context, &asked, &question)?
    {
        let car_name = super::records::car_name(&v);
        let manu_id = maker_id.map_or(0, i64::from);
        let car_id = v.ktype.trim().parse().unwrap_or(0);
        found.push(PlateVehicleRecord {
            car_id,
            car_name: car_name.clone(),
            country: plate.country.clone(),
            linking_target_type: v.target_type.code().to_string(),
            manu_id,
            vehicle_details: details.then(|| PlateVehicleDetails {
                car_name,
                country: plate.country.clone(),
                engine_capacity: v.ccm.to_string(),
                engine_code: v.engine_text(),
                fuel: v.fuel.clone(),
                ktype_numbers: car_id,
                kw1: v.kw.to_string(),
                linking_target_type: v.target_type.code().to_string(),
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
