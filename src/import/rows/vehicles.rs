//! The rows of the vehicle → category path: vehicle types, model series, the
//! assembly-group tree and the generic articles' places in it.

use super::one_of;
use crate::catalogue::*;
use crate::import::csv_source::Row;

/// How the files name the target types.
pub(in crate::import) const TARGET_TYPES: [(&str, TargetType); 8] = [
    ("passenger_car", TargetType::PassengerCar),
    ("light_commercial", TargetType::LightCommercial),
    ("motorcycle", TargetType::Motorcycle),
    ("commercial", TargetType::Commercial),
    ("tractor", TargetType::Tractor),
    ("engine", TargetType::Engine),
    ("axle", TargetType::Axle),
    ("body_type", TargetType::BodyType),
];

/// `year_from` and `year_to`, the second not before the first.
fn years(row: &Row<'_>) -> Result<(YearMonth, Option<YearMonth>), String> {
    let year_from = row.parsed("year_from", YearMonth::parse)?;
    let year_to = row.parsed_opt("year_to", YearMonth::parse)?;
    if year_to.is_some_and(|to| to < year_from) {
        return Err("column 'year_to' is before 'year_from'".into());
    }
    Ok((year_from, year_to))
}

/// The `target_type` column; a passenger car where it is empty.
fn target_type(row: &Row<'_>) -> Result<TargetType, String> {
    one_of(
        row,
        "target_type",
        &TARGET_TYPES,
        Some(TargetType::PassengerCar),
    )
}

/// An optional positive id column.
fn optional_id(row: &Row<'_>, column: &str) -> Result<Option<u32>, String> {
    match row.get(column) {
        "" => Ok(None),
        _ => row.positive(column).map(Some),
    }
}

/// The upper end of a range column (`kw_to`), not below its start.
fn upper_end(row: &Row<'_>, column: &str, from: u16) -> Result<Option<u16>, String> {
    if row.get(column).is_empty() {
        return Ok(None);
    }
    let to: u16 = row.count_or(column, 0)?;
    if to < from {
        return Err(format!("column '{column}': {to} is below {from}"));
    }
    Ok(Some(to))
}

pub(in crate::import) fn vehicle(row: &Row<'_>) -> Result<Vehicle, String> {
    let ktype = row.required("ktype")?.to_owned();
    let (year_from, year_to) = years(row)?;
    let kw = row.count_or("kw", 0)?;
    let hp = row.count_or("hp", 0)?;
    Ok(Vehicle {
        ktype,
        make: row.required("make")?.to_owned(),
        model: row.required("model")?.to_owned(),
        type_name: row.get("type").to_owned(),
        engines: row.list("engine").into_iter().map(str::to_owned).collect(),
        fuel: row.get("fuel").to_owned(),
        kw,
        hp,
        ccm: row.count_or("ccm", 0)?,
        year_from,
        year_to,
        model_series: optional_id(row, "model_series_id")?,
        target_type: target_type(row)?,
        body_style: row.get("body_style").to_owned(),
        construction_type: row.get("construction_type").to_owned(),
        engine_kind: row.get("engine_kind").to_owned(),
        kw_to: upper_end(row, "kw_to", kw)?,
        hp_to: upper_end(row, "hp_to", hp)?,
    })
}

pub(in crate::import) fn model_series(row: &Row<'_>) -> Result<ModelSeries, String> {
    let (year_from, year_to) = years(row)?;
    Ok(ModelSeries {
        id: row.positive("model_series_id")?,
        manufacturer_id: row.positive("manufacturer_id")?,
        name: row.required("name")?.to_owned(),
        year_from,
        year_to,
    })
}

pub(in crate::import) fn assembly_group(row: &Row<'_>) -> Result<AssemblyGroup, String> {
    let id = row.positive("node_id")?;
    let parent = optional_id(row, "parent_id")?;
    if parent == Some(id) {
        return Err(format!(
            "column 'parent_id': node {id} cannot be its own parent"
        ));
    }
    Ok(AssemblyGroup {
        id,
        parent,
        target_type: target_type(row)?,
        name: row.required("name")?.to_owned(),
        sort: row.count_or("sort", 0)?,
    })
}

pub(in crate::import) fn genart_group(row: &Row<'_>) -> Result<GenartGroup, String> {
    Ok(GenartGroup {
        genart: row.positive("genart_id")?,
        node: row.positive("node_id")?,
    })
}
