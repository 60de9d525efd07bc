//! The legacy vehicle tree: makes, model series, vehicle types by criteria, and the
//! assembly groups of a tree or of a vehicle type. Each maps its request to one call of
//! `service::vehicles::vehicle_path` or `vehicle_criteria` (the request's country, country-group and
//! favoured-list fields handed as `Asked`) and the answer to Pegasus's records.

use serde_json::Value;

use super::messages::*;
use crate::catalogue::YearMonth;
use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::codes::{favoured_list, target_types};
use crate::server::soap::vehicles::records::yyyymm;
use crate::service::ServiceError;
use crate::service::asked::{Asked, Unheld};
use crate::service::field::Field;
use crate::service::vehicles::vehicle_criteria::{self, Criteria};
use crate::service::vehicles::vehicle_path::{self, Targets};

/// The request's country (`field`), country-group flag and favoured list.
fn for_the_catalogue<'a>(
    field: &'static str,
    country: &'a Option<String>,
    group: Option<bool>,
    favoured: Option<i32>,
) -> Result<Asked<'a>, ServiceError> {
    favoured_list("favouredList", favoured)?;
    Ok(Asked::new()
        .place(field, country.as_deref())
        .country_groups(group))
}

/// The types of a maker or model series and of some kinds, with the displacement
/// (`cylinderCapacityFrom`/`To`), power (`powerFrom`/`To`, `powerHpType`) and
/// `yearOfConstruction` the request gives, as the requests that take them name them.
pub(super) fn measured<'a>(
    maker: Field<Option<i64>>,
    series: Field<Option<i64>>,
    targets: Targets<'a>,
    ccm: (Option<i32>, Option<i32>),
    power: (Option<i32>, Option<i32>),
    power_hp_type: Option<bool>,
    year: Option<i32>,
) -> Result<Criteria<'a>, ServiceError> {
    Ok(Criteria {
        maker,
        series,
        targets,
        ccm: (
            amount("cylinderCapacityFrom", ccm.0)?,
            amount("cylinderCapacityTo", ccm.1)?,
        ),
        power: (amount("powerFrom", power.0)?, amount("powerTo", power.1)?),
        power_in_hp: power_hp_type.unwrap_or(false),
        built_in: year.map(year_of_construction).transpose()?,
        name_holds: None,
    })
}

/// A non-negative count field (`cylinderCapacityFrom`, `powerTo`…).
fn amount(field: &'static str, value: Option<i32>) -> Result<Option<u32>, ServiceError> {
    value
        .map(|v| {
            u32::try_from(v)
                .map_err(|_| ServiceError::bad_parameter(field, format!("{v} is negative")))
        })
        .transpose()
}

pub fn get_manufacturers2(call: &Call<'_>, r: GetManufacturers2Request) -> Result<Value, Failure> {
    let asked = for_the_catalogue("country", &r.country, r.country_group_flag, r.favoured_list)?;
    let targets = target_types("linkingTargetType", r.linking_target_type.as_deref())?;
    let records = vehicle_path::vehicle_makes(call.context, &asked, targets)?
        .into_iter()
        .map(|make| Manufacturer2Record {
            favor_flag: 0,
            linking_target_types: make.target_types.iter().map(|t| t.code()).collect(),
            manu_id: make.maker.id.into(),
            manu_name: make.maker.name,
        })
        .collect();
    answer(&Manufacturer2List::of(records))
}

pub fn get_model_series(call: &Call<'_>, r: GetModelSeriesRequest) -> Result<Value, Failure> {
    model_series(call, r, false)
}

/// `getModelSeries` with `favorFlag`.
pub fn get_model_series2(call: &Call<'_>, r: GetModelSeriesRequest) -> Result<Value, Failure> {
    model_series(call, r, true)
}

fn model_series(
    call: &Call<'_>,
    r: GetModelSeriesRequest,
    favor_flag: bool,
) -> Result<Value, Failure> {
    let asked = for_the_catalogue("country", &r.country, r.country_group_flag, r.favoured_list)?;
    let targets = target_types("linkingTargetType", r.linking_target_type.as_deref())?;
    let maker = Field::new("manuId", r.manu_id);
    let records = vehicle_path::series_of_maker(call.context, &asked, maker, targets)?
        .into_iter()
        .map(|found| {
            let s = found.series;
            ModelSeriesRecord {
                favor_flag: favor_flag.then_some(0),
                model_id: s.id.into(),
                modelname: s.name,
                year_of_constr_from: yyyymm(&s.year_from),
                year_of_constr_to: s.year_to.as_ref().map(yyyymm),
            }
        })
        .collect();
    answer(&ModelSeriesList::of(records))
}

/// `yearOfConstruction`: YYYY or YYYYMM.
fn year_of_construction(value: i32) -> Result<YearMonth, ServiceError> {
    let text = match value {
        1000..=9999 => value.to_string(),
        100_000..=999_999 => format!("{}-{:02}", value / 100, value % 100),
        _ => String::new(),
    };
    YearMonth::parse(&text).map_err(|_| {
        ServiceError::bad_parameter(
            "yearOfConstruction",
            format!("{value} is not YYYY or YYYYMM"),
        )
    })
}

pub fn get_vehicle_ids_by_criteria(
    call: &Call<'_>,
    r: GetVehicleIdsByCriteriaRequest,
) -> Result<Value, Failure> {
    let asked = for_the_catalogue(
        "countriesCarSelection",
        &r.countries_car_selection,
        r.country_group_flag,
        r.favoured_list,
    )?
    .value(
        "axisConfigurationId",
        r.axis_configuration_id.is_some(),
        Unheld::AxleConfigurations,
    )
    .value(
        "constructionTypeId",
        r.construction_type_id.is_some(),
        Unheld::ConstructionTypeIds,
    )
    .value("fuelTypeId", r.fuel_type_id.is_some(), Unheld::FuelTypeIds)
    .value("tonnageFrom", r.tonnage_from.is_some(), Unheld::Tonnages)
    .value("tonnageTo", r.tonnage_to.is_some(), Unheld::Tonnages);
    let criteria = Criteria {
        name_holds: r
            .model_description
            .map(|t| t.trim().to_owned())
            .filter(|t| !t.is_empty()),
        ..measured(
            Field::new("manuId", r.manu_id),
            Field::new("modId", r.mod_id),
            target_types("carType", r.car_type.as_deref())?,
            (r.cylinder_capacity_from, r.cylinder_capacity_to),
            (r.power_from, r.power_to),
            r.power_hp_type,
            r.year_of_construction,
        )?
    };
    let records = vehicle_criteria::vehicle_types(call.context, &asked, &criteria)?
        .into_iter()
        .map(|v| VehicleIdRecord {
            car_id: v.ktype.trim().parse().unwrap_or(0),
            car_name: format!("{} {} {}", v.make, v.model, v.type_name),
            car_type: v.target_type.code().to_string(),
        })
        .collect();
    answer(&VehicleIdList::of(records))
}
