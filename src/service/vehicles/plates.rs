//! The vehicle types a registration plate or key number names, from the catalogue's `plates`
//! data set.

use super::vehicle_path::Targets;
use crate::catalogue::{Plate, Vehicle, normalise_reference};
use crate::service::ServiceError;
use crate::service::articles::lookups;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;

/// A plate or key number and the vehicle type it names.
#[derive(Debug, Clone)]
pub struct PlateVehicle {
    pub plate: Plate,
    pub vehicle: Vehicle,
    /// The vehicle maker's manufacturer id, where the catalogue names its make.
    pub maker_id: Option<u32>,
}

/// What a request for the vehicles of a plate asks.
pub struct PlateAsked<'a> {
    /// Where the plate was issued (ISO 3166-1 alpha-2).
    pub country: Field<&'a str>,
    /// The plate or key number as the client wrote it.
    pub written: Field<&'a str>,
    /// The kind of number (a plate of no named kind matches any).
    pub key_system: Option<i64>,
    pub targets: Targets<'a>,
}

/// The vehicles the plate `q` writes names, of the vehicle kinds it asks for.
pub fn vehicles_of_plate(
    context: &Context,
    asked: &Asked<'_>,
    q: &PlateAsked<'_>,
) -> Result<Vec<PlateVehicle>, ServiceError> {
    asked.check()?;
    let (key_system, targets) = (q.key_system, q.targets);
    let country = q.country.value.trim();
    if country.len() != 2 || !country.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(ServiceError::bad_parameter(
            q.country.name,
            format!("must be an ISO 3166-1 country code (two letters), not '{country}'"),
        ));
    }
    let written = q.written.value;
    let number = normalise_reference(written);
    if number.is_empty() {
        return Err(ServiceError::bad_parameter(
            q.written.name,
            format!("must hold the plate or key number's letters or digits, not '{written}'"),
        ));
    }
    let catalogue = context.snapshot();
    let mut found = Vec::new();
    for plate in catalogue.plates(&country.to_ascii_uppercase(), &number)? {
        if key_system.is_some_and(|k| plate.key_system != 0 && i64::from(plate.key_system) != k) {
            continue;
        }
        let Some(vehicle) = catalogue.vehicle(&plate.ktype)? else {
            continue;
        };
        if targets.is_some_and(|kinds| !kinds.contains(&vehicle.target_type)) {
            continue;
        }
        let maker_id = lookups::vehicle_maker_id(catalogue, &vehicle.make)?;
        found.push(PlateVehicle {
            plate,
            vehicle: crate::service::articles::article_detail::vehicle_in(
                &context.names(),
                vehicle,
            )?,
            maker_id,
        });
    }
    Ok(found)
}
