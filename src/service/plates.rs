//! The vehicle types a registration plate or key number names, from the catalogue's `plates`
//! data set.

use super::ServiceError;
use super::context::Context;
use super::lookups;
use super::vehicle_path::Targets;
use crate::catalogue::{Plate, Vehicle, normalise_reference};

/// A plate or key number and the vehicle type it names.
#[derive(Debug, Clone)]
pub struct PlateVehicle {
    pub plate: Plate,
    pub vehicle: Vehicle,
    /// The vehicle maker's manufacturer id, where the catalogue names its make.
    pub maker_id: Option<u32>,
}

/// The vehicles `written` (a plate or key number, as the client wrote it) names in `country`
/// (ISO 3166-1 alpha-2), of the kind `key_system` where one is given (a plate of no named
/// kind matches any), of the vehicle kinds `targets`.
pub fn vehicles_of_plate(
    context: &Context,
    country: &str,
    written: &str,
    key_system: Option<i64>,
    targets: Targets<'_>,
) -> Result<Vec<PlateVehicle>, ServiceError> {
    let country = country.trim();
    if country.len() != 2 || !country.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(ServiceError::bad_parameter(
            "country",
            format!("must be an ISO 3166-1 country code (two letters), not '{country}'"),
        ));
    }
    let number = normalise_reference(written);
    if number.is_empty() {
        return Err(ServiceError::bad_parameter(
            "keySystemNumber",
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
            vehicle: super::article_detail::vehicle_in(&context.names(), vehicle)?,
            maker_id,
        });
    }
    Ok(found)
}
