//! `getVehiclesByVIN`: the vehicle types a VIN names (`service::vehicles::vins`), with their
//! makers and model series, in Pegasus's record.

use serde_json::Value;

use super::messages::*;
use crate::server::soap::call::{Call, Failure, answer};
use crate::service::asked::Asked;
use crate::service::field::Field;
use crate::service::vehicles::vins::{self, VinAsked};

pub fn get_vehicles_by_vin(call: &Call<'_>, r: GetVehiclesByVinRequest) -> Result<Value, Failure> {
    let asked = Asked::new().country("country", r.country.as_deref());
    let question = VinAsked {
        vin: Field::new("vin", r.vin.as_deref().unwrap_or("")),
        maker: Field::new("manuId", r.manu_id),
        series: Field::new("modelId", r.model_id),
        most: Field::new("maxVehiclesToReturn", r.max_vehicles_to_return),
    };
    let found = vins::vehicles_of_vin(call.context, &asked, &question)?;
    let id = |id: Option<u32>| id.map_or(0, i64::from);
    let vehicles = found
        .vehicles
        .into_iter()
        .map(|m| {
            let v = m.vehicle;
            let car_name = super::records::car_name(&v);
            VinVehicleRecord {
                manu_id: id(m.maker.map(|(id, _)| id)),
                model_id: id(m.series.map(|(id, _)| id)),
                car_id: v.ktype.trim().parse().unwrap_or(0),
                vehicle_type_description: v.type_name,
                car_name,
            }
        })
        .collect();
    answer(&VehiclesByVin {
        data: VinMatchesRecord {
            matching_manufacturers: VinManufacturerSeq {
                array: (found.makers.into_iter())
                    .map(|(manu_id, manu_name)| VinManufacturerRecord {
                        manu_id: manu_id.into(),
                        manu_name,
                    })
                    .collect(),
            },
            matching_models: VinModelSeq {
                array: (found.series.into_iter())
                    .map(|(maker, model_id, model_name)| VinModelRecord {
                        manu_id: id(maker),
                        model_id: model_id.into(),
                        model_name,
                    })
                    .collect(),
            },
            matching_vehicles: VinVehicleSeq { array: vehicles },
            matching_vehicles_count: found.count as i64,
        },
    })
}
