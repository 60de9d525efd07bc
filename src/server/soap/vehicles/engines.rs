//! `getMotorIdsByManuIdCriteria2` and `getVehicleIdsByMotor2` over
//! `service::vehicles::engines`: a maker's engines by code, then the vehicle types carrying
//! one, as a shop's engine-code box walks them.

use serde_json::Value;

use super::messages::*;
use super::records::car_name;
use super::tree::measured;
use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::codes::target_types;
use crate::service::asked::{Asked, Unheld};
use crate::service::field::Field;
use crate::service::vehicles::engines::{self, EnginesAsked};

pub fn get_motor_ids_by_manu_id_criteria2(
    call: &Call<'_>,
    r: GetMotorIdsByManuIdCriteria2Request,
) -> Result<Value, Failure> {
    let asked = Asked::new()
        .place("country", r.country.as_deref())
        .country_groups(r.country_group_flag)
        .value("fuelTypeId", r.fuel_type_id.is_some(), Unheld::FuelTypeIds)
        .absent(
            "sellsTerm",
            r.sells_term.is_some(),
            Unheld::EngineSalesTerms,
        )
        .absent(
            "searchExactTerm",
            r.search_exact_term.is_some(),
            Unheld::EngineSalesTerms,
        );
    let question = EnginesAsked {
        types: measured(
            Field::new("manuId", r.manu_id),
            Field::new("modId", None),
            None,
            (r.cylinder_capacity_from, r.cylinder_capacity_to),
            (r.power_from, r.power_to),
            r.power_hp_type,
            r.year_of_construction,
        )?,
        code: Field::new("motorCode", r.motor_code.as_deref()),
        exact: r.search_exact_code.unwrap_or(true),
    };
    let ids = engines::engine_ids(call.context, &asked, &question)?;
    let records = ids
        .into_iter()
        .map(|id| MotorIdRecord {
            motor_id: id as i64,
        })
        .collect();
    answer(&MotorIdList::of(records))
}

pub fn get_vehicle_ids_by_motor2(
    call: &Call<'_>,
    r: GetVehicleIdsByMotor2Request,
) -> Result<Value, Failure> {
    let asked = Asked::new()
        .place(
            "countriesCarSelection",
            r.countries_car_selection.as_deref(),
        )
        .country_groups(r.country_group_flag);
    let targets = target_types("carType", r.car_type.as_deref())?;
    let vehicles = engines::vehicles_of_engine(
        call.context,
        &asked,
        Field::new("motorId", r.motor_id),
        targets,
        call.budget,
    )?;
    let records = vehicles
        .iter()
        .map(|v| VehicleIdByMotorRecord {
            car_id: v.ktype.trim().parse().unwrap_or(0),
            car_name: car_name(v),
        })
        .collect();
    answer(&VehicleIdByMotorList::of(records))
}
