//! Vehicle types chosen by criteria, as `getVehicleIdsByCriteria` asks: a maker or a model
//! series, and optionally a kind, displacement, power, a year of construction and a text of
//! the type's name.

use super::vehicle_path::{Makers, Targets};
use crate::catalogue::{Vehicle, YearMonth};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;

/// The most vehicle types one answer holds.
pub const MAX_TYPES: usize = 5000;

/// What a vehicle type must be to be chosen, as the request gives it.
#[derive(Debug)]
pub struct Criteria<'a> {
    /// The maker's id; it or `series` is required.
    pub maker: Field<Option<i64>>,
    pub series: Field<Option<i64>>,
    pub targets: Targets<'a>,
    pub ccm: (Option<u32>, Option<u32>),
    /// In kW, or in HP where `power_in_hp`.
    pub power: (Option<u32>, Option<u32>),
    pub power_in_hp: bool,
    /// Built in this year (month 0) or month.
    pub built_in: Option<YearMonth>,
    /// A text the type's name holds (case aside).
    pub name_holds: Option<String>,
}

fn within(value: u32, (from, to): (Option<u32>, Option<u32>)) -> bool {
    from.is_none_or(|f| value >= f) && to.is_none_or(|t| value <= t)
}

/// Whether `v` was built in `when`: a year, or a month.
fn built_in(v: &Vehicle, when: YearMonth) -> bool {
    let key = |y: YearMonth, last: bool| {
        let month = match (y.month, last) {
            (0, false) => 1,
            (0, true) => 12,
            (m, _) => m,
        };
        u32::from(y.year) * 100 + u32::from(month)
    };
    let (from, to) = (key(when, false), key(when, true));
    key(v.year_from, false) <= to && v.year_to.is_none_or(|end| key(end, true) >= from)
}

/// The maker and the model series a question names, as the store's ids.
struct Named {
    maker: Option<u32>,
    series: Option<u32>,
}

impl Criteria<'_> {
    fn chooses(&self, named: &Named, v: &Vehicle, maker: Option<u32>) -> bool {
        let power = match self.power_in_hp {
            true => (v.hp, v.hp_to.unwrap_or(v.hp)),
            false => (v.kw, v.kw_to.unwrap_or(v.kw)),
        };
        // A type whose power is a range is chosen where the range meets the asked one.
        let power_fits = self.power.0.is_none_or(|f| u32::from(power.1) >= f)
            && self.power.1.is_none_or(|t| u32::from(power.0) <= t);
        named.series.is_none_or(|s| v.model_series == Some(s))
            && named.maker.is_none_or(|m| maker == Some(m))
            && self.targets.is_none_or(|ts| ts.contains(&v.target_type))
            && within(v.ccm, self.ccm)
            && power_fits
            && self.built_in.is_none_or(|when| built_in(v, when))
            && self
                .name_holds
                .as_ref()
                .is_none_or(|text| v.type_name.to_lowercase().contains(&text.to_lowercase()))
    }
}

/// The vehicle types the criteria choose, by Ktype; a maker or a model series is required,
/// and at most `MAX_TYPES` are answered (more is a bad parameter asking to narrow).
pub fn vehicle_types(
    context: &Context,
    asked: &Asked<'_>,
    criteria: &Criteria<'_>,
) -> Result<Vec<Vehicle>, ServiceError> {
    asked.check()?;
    let (maker_field, series_field) = (criteria.maker.name, criteria.series.name);
    let named = Named {
        maker: criteria.maker.map(Field::id)?,
        series: criteria.series.map(Field::id)?,
    };
    if named.maker.is_none() && named.series.is_none() {
        return Err(ServiceError::bad_parameter(
            maker_field,
            format!("or '{series_field}' is required"),
        ));
    }
    let catalogue = context.snapshot();
    let makers = Makers::read(catalogue)?;
    let mut found = Vec::new();
    for v in catalogue.vehicles() {
        let v = v?;
        let maker = makers.of(&v);
        if criteria.chooses(&named, &v, maker) {
            if found.len() == MAX_TYPES {
                return Err(ServiceError::bad_parameter(
                    maker_field,
                    format!(
                        "chooses more than {MAX_TYPES} vehicle types: give {series_field} or more criteria"
                    ),
                ));
            }
            found.push(v);
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ym(year: u16, month: u8) -> YearMonth {
        YearMonth { year, month }
    }

    #[test]
    fn a_year_or_a_month_of_construction_meets_the_years_built() {
        let mut v = crate::catalogue::Vehicle {
            ktype: "1".into(),
            make: "VW".into(),
            model: "GOLF".into(),
            type_name: "1.0 TSI".into(),
            engines: vec![],
            fuel: String::new(),
            kw: 70,
            hp: 95,
            ccm: 999,
            year_from: ym(2012, 8),
            year_to: Some(ym(2016, 3)),
            model_series: None,
            target_type: crate::catalogue::TargetType::PassengerCar,
            body_style: String::new(),
            construction_type: String::new(),
            engine_kind: String::new(),
            kw_to: None,
            hp_to: None,
        };
        assert!(built_in(&v, ym(2012, 0)));
        assert!(!built_in(&v, ym(2012, 7)));
        assert!(built_in(&v, ym(2016, 3)));
        assert!(!built_in(&v, ym(2016, 4)));
        v.year_to = None;
        assert!(built_in(&v, ym(2030, 0)));
    }
}
