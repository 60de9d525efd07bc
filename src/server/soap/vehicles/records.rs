//! Vehicles as the operations answer them: a linkage target, and the vehicles an article
//! fits.

use super::messages::{
    LinkageTargetEngine, LinkageTargetFacet, LinkageTargetFacetCount, LinkageTargetList,
    LinkageTargetRecord, MotorCodeRecord, MotorCodeRecordSeq, VehicleByIdsRecord, VehicleDetails,
};
use crate::server::soap::articles::messages::ArticleLinkage;
use crate::server::soap::articles::pegasus::LinkageTarget;
use crate::service::vehicles::linkage_targets::{TargetCount, TargetPage, TargetRow};

/// A vehicle type as a linkage target.
pub fn linkage_target(v: &crate::catalogue::Vehicle) -> LinkageTarget {
    LinkageTarget {
        linkage_target_id: v.ktype.clone(),
        mfr_name: v.make.clone(),
        model: v.model.clone(),
        type_name: v.type_name.clone(),
        engine: v.engine_text(),
        fuel: v.fuel.clone(),
        kw: v.kw.into(),
        hp: v.hp.into(),
        ccm: v.ccm,
        year_from: v.year_from.to_string(),
        year_to: v.year_to.map(|y| y.to_string()),
    }
}

/// A vehicle type's `carName`: make, model and type, those it has.
pub fn car_name(v: &crate::catalogue::Vehicle) -> String {
    [v.make.as_str(), &v.model, &v.type_name]
        .iter()
        .filter(|part| !part.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The vehicles an article fits, with how it fits each.
pub fn linkages(
    links: Vec<(crate::catalogue::Link, crate::catalogue::Vehicle)>,
) -> Vec<ArticleLinkage> {
    links
        .into_iter()
        .map(|(link, v)| ArticleLinkage {
            linkage_target: linkage_target(&v),
            position: link.position,
            quantity: link.quantity,
            notes: link.notes,
        })
        .collect()
}

/// A year and month as Pegasus's YYYYMM number.
pub fn yyyymm(y: &crate::catalogue::YearMonth) -> i32 {
    i32::from(y.year) * 100 + i32::from(y.month)
}

/// A vehicle type as `getVehicleByIds3`/`4` answer it; `motor_codes`: with its engine codes.
/// `maker` is its maker's id, where the catalogue names it.
pub fn vehicle_by_ids(
    v: &crate::catalogue::Vehicle,
    motor_codes: bool,
    maker: Option<u32>,
) -> VehicleByIdsRecord {
    let car_id = v.ktype.trim().parse().unwrap_or(0);
    let ccm = i64::from(v.ccm);
    VehicleByIdsRecord {
        car_id,
        motor_codes: motor_codes.then(|| MotorCodeRecordSeq {
            array: v
                .engines
                .iter()
                .map(|code| MotorCodeRecord {
                    motor_code: code.clone(),
                })
                .collect(),
        }),
        vehicle_details: VehicleDetails {
            car_id,
            ccm_tech: ccm,
            cylinder_capacity_ccm: ccm,
            fuel_type: v.fuel.clone(),
            manu_id: maker.map(i64::from),
            manu_name: v.make.clone(),
            mod_id: v.model_series.map(i64::from),
            model_name: v.model.clone(),
            motor_type: v.engine_kind.clone(),
            power_hp_from: v.hp.into(),
            power_hp_to: v.hp_to.unwrap_or(v.hp).into(),
            power_kw_from: v.kw.into(),
            power_kw_to: v.kw_to.unwrap_or(v.kw).into(),
            type_name: v.type_name.clone(),
            year_of_constr_from: yyyymm(&v.year_from),
            year_of_constr_to: v.year_to.as_ref().map(yyyymm),
        },
    }
}

/// A page of `getLinkageTargets`.
pub fn target_list(page: TargetPage) -> LinkageTargetList {
    let facet = |counts: Vec<TargetCount>| LinkageTargetFacet {
        total: counts.len() as i64,
        counts: counts
            .into_iter()
            .map(|c| LinkageTargetFacetCount {
                id: c.id.into(),
                name: c.name,
                begin_year_month: c.years.map(|(from, _)| yyyymm(&from)),
                end_year_month: c.years.and_then(|(_, to)| to.as_ref().map(yyyymm)),
                count: c.count as i64,
            })
            .collect(),
    };
    LinkageTargetList {
        total: page.total as i64,
        linkage_targets: page.rows.into_iter().map(target_record).collect(),
        mfr_facets: page.maker_counts.map(facet),
        vehicle_model_series_facets: page.series_counts.map(facet),
    }
}

/// A vehicle type as `getLinkageTargets` answers it: TecDoc's group (`P`, `O`) and the
/// type's own kind (`V`, `L`, `B`, `C`, `T`…).
fn target_record(row: TargetRow) -> LinkageTargetRecord {
    let v = row.vehicle;
    LinkageTargetRecord {
        linkage_target_id: v.ktype.trim().parse().unwrap_or(0),
        linkage_target_type: v.target_type.group_code().to_string(),
        sub_linkage_target_type: v.target_type.sub_code().to_string(),
        description: v.type_name.clone(),
        mfr_id: row.maker.as_ref().map(|m| m.id.into()),
        mfr_name: row.maker.map_or_else(|| v.make.clone(), |m| m.name),
        vehicle_model_series_id: row.series.as_ref().map(|s| s.id.into()),
        vehicle_model_series_name: row.series.map_or_else(|| v.model.clone(), |s| s.name),
        begin_year_month: v.year_from.to_string(),
        end_year_month: v.year_to.map(|y| y.to_string()),
        kilo_watts_from: v.kw.into(),
        kilo_watts_to: v.kw_to.unwrap_or(v.kw).into(),
        horse_power_from: v.hp.into(),
        horse_power_to: v.hp_to.unwrap_or(v.hp).into(),
        capacity_cc: v.ccm.into(),
        fuel_type: v.fuel.clone(),
        engine_type: v.engine_kind,
        body_style: v.body_style,
        construction_type: v.construction_type,
        engine: v.engines.join(", "),
        engines: v
            .engines
            .into_iter()
            .map(|code| LinkageTargetEngine { code })
            .collect(),
        model: v.model,
        type_name: v.type_name,
        fuel: v.fuel,
        kw: v.kw.into(),
        hp: v.hp.into(),
        ccm: v.ccm.into(),
        year_from: v.year_from.to_string(),
        year_to: v.year_to.map(|y| y.to_string()),
    }
}
