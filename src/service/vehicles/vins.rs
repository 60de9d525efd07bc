//! The vehicle types a vehicle identification number names (`getVehiclesByVIN`), from the
//! catalogue's `vins` data set: every pattern of the VIN's maker (its first three characters)
//! that the VIN matches, with the types' makers and model series, as a shop's VIN box offers
//! them to choose from.

use std::collections::BTreeMap;

use super::vehicle_path::Makers;
use crate::catalogue::{Vehicle, VinPattern};
use crate::service::ServiceError;
use crate::service::articles::article_detail::vehicle_in;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;

/// What a request for the vehicles of a VIN asks.
pub struct VinAsked<'a> {
    /// The VIN as the client wrote it (spaces and case aside).
    pub vin: Field<&'a str>,
    /// Only types of this vehicle maker (`manuId`).
    pub maker: Field<Option<i64>>,
    /// Only types of this model series (`modelId`).
    pub series: Field<Option<i64>>,
    /// At most so many types (`maxVehiclesToReturn`); the count says how many match.
    pub most: Field<Option<i64>>,
}

/// A vehicle type the VIN names, with its maker and model series where the catalogue has
/// them.
pub struct VinVehicle {
    pub vehicle: Vehicle,
    pub maker: Option<(u32, String)>,
    pub series: Option<(u32, String)>,
}

/// The types a VIN names: those answered (at most `most`), how many match, and the makers
/// (id, name) and model series (maker, id, name) of all of them, each in name order.
pub struct VinMatches {
    pub vehicles: Vec<VinVehicle>,
    pub count: usize,
    pub makers: Vec<(u32, String)>,
    pub series: Vec<(Option<u32>, u32, String)>,
}

/// The VIN as a pattern compares it: upper case, without spaces or dashes.
fn written_vin(field: Field<&str>) -> Result<String, ServiceError> {
    let vin: String = field
        .value
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if vin.len() != 17 {
        return Err(ServiceError::bad_parameter(
            field.name,
            format!("must be a VIN of 17 characters, not '{}'", field.value),
        ));
    }
    if let Some(c) = vin.chars().find(|&c| !VinPattern::is_vin_character(c)) {
        return Err(ServiceError::bad_parameter(
            field.name,
            format!(
                "'{}' holds '{c}': a VIN has digits and capitals but I, O and Q",
                field.value
            ),
        ));
    }
    Ok(vin)
}

/// The vehicle types the VIN `q` names, narrowed by maker and series, in Ktype order.
pub fn vehicles_of_vin(
    context: &Context,
    asked: &Asked<'_>,
    q: &VinAsked<'_>,
) -> Result<VinMatches, ServiceError> {
    asked.check()?;
    let vin = written_vin(q.vin)?;
    let most = match q.most.value {
        None | Some(0) => usize::MAX,
        Some(n) if n > 0 => usize::try_from(n).unwrap_or(usize::MAX),
        Some(n) => {
            return Err(ServiceError::bad_parameter(
                q.most.name,
                format!("{n} is not a number of vehicles (0 or absent: all)"),
            ));
        }
    };
    let maker = q.maker.map(|m| m.id())?.filter(|&id| id != 0);
    let series = q.series.map(|s| s.id())?.filter(|&id| id != 0);
    let catalogue = context.snapshot();
    let names = context.names();
    let makers = Makers::read(catalogue)?;
    let mut ktypes = BTreeMap::new();
    for pattern in catalogue.vin_patterns(&vin[..3])? {
        if pattern.matches(&vin) {
            ktypes.insert(
                pattern.ktype.parse::<u64>().unwrap_or(u64::MAX),
                pattern.ktype,
            );
        }
    }
    let mut found = Vec::new();
    for ktype in ktypes.into_values() {
        let Some(vehicle) = catalogue.vehicle(&ktype)? else {
            continue;
        };
        let maker_id = makers.of(&vehicle);
        if maker.is_some_and(|m| maker_id != Some(m))
            || series.is_some_and(|s| vehicle.model_series != Some(s))
        {
            continue;
        }
        let maker = maker_id
            .and_then(|id| makers.maker(id))
            .map(|m| (m.id, m.name.clone()));
        let series = match vehicle.model_series.and_then(|id| makers.series(id)) {
            Some(s) => Some((s.id, names.model_series(s.id, &s.name)?)),
            None => None,
        };
        found.push(VinVehicle {
            vehicle: vehicle_in(&names, vehicle)?,
            maker,
            series,
        });
    }
    let mut makers: Vec<(u32, String)> = found.iter().filter_map(|v| v.maker.clone()).collect();
    makers.sort_by(|a, b| (&a.1, a.0).cmp(&(&b.1, b.0)));
    makers.dedup();
    let mut series: Vec<(Option<u32>, u32, String)> = found
        .iter()
        .filter_map(|v| {
            let (id, name) = v.series.clone()?;
            Some((v.maker.as_ref().map(|m| m.0), id, name))
        })
        .collect();
    series.sort_by(|a, b| (&a.2, a.1).cmp(&(&b.2, b.1)));
    series.dedup();
    let count = found.len();
    found.truncate(most);
    Ok(VinMatches {
        vehicles: found,
        count,
        makers,
        series,
    })
}
