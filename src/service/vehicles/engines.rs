//! The catalogue's engines, numbered as TecDoc's `motorId`s are: an engine is a vehicle
//! maker's engine code as the vehicle types carrying it write it (`CZCA`), and its number is
//! derived from the maker and the code's letters and digits, so it is the same in every store
//! and after every import. `getMotorIdsByManuIdCriteria2` finds the numbers of a maker's
//! engines by code and by what the types carrying them are; `getVehicleIdsByMotor2` answers
//! the types carrying one.

use std::collections::{BTreeMap, BTreeSet};

use super::vehicle_criteria::{self, Criteria};
use super::vehicle_path::{Makers, Targets};
use crate::budget::Budget;
use crate::catalogue::{Vehicle, normalise_reference};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;

/// Engine numbers stay below 2⁵³, so that every JSON client reads them exactly.
const ID_BITS: u64 = (1 << 53) - 1;

/// The number of the engine `code` (written any way) of the vehicle maker `maker`: 64-bit
/// FNV-1a over the maker's id and the code's letters and digits, kept to 53 bits, never 0.
pub fn engine_id(maker: Option<u32>, code: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let maker = maker.unwrap_or(0).to_le_bytes();
    let code = normalise_reference(code);
    for byte in maker.iter().chain(b":").chain(code.as_bytes()) {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (hash & ID_BITS).max(1)
}

/// What a search for a maker's engines asks: the types carrying them chosen by `types`
/// (its maker required), and the code.
pub struct EnginesAsked<'a> {
    pub types: Criteria<'a>,
    /// The engine code, written any way; none: every engine of the chosen types.
    pub code: Field<Option<&'a str>>,
    /// The whole code (default); false: codes that start with it.
    pub exact: bool,
}

/// The numbers of the engines the question names, in code order.
pub fn engine_ids(
    context: &Context,
    asked: &Asked<'_>,
    q: &EnginesAsked<'_>,
) -> Result<Vec<u64>, ServiceError> {
    let wanted = match q.code.value.map(normalise_reference) {
        Some(code) if code.is_empty() => {
            return Err(ServiceError::bad_parameter(
                q.code.name,
                "must hold at least one letter or digit",
            ));
        }
        wanted => wanted,
    };
    let makers = Makers::read(context.snapshot())?;
    let mut found = BTreeMap::new();
    for v in vehicle_criteria::vehicle_types(context, asked, &q.types)? {
        let maker = makers.of(&v);
        for code in &v.engines {
            let written = normalise_reference(code);
            let named = match &wanted {
                None => true,
                Some(w) if q.exact => written == *w,
                Some(w) => written.starts_with(w.as_str()),
            };
            if named && !written.is_empty() {
                found.insert((written, maker), engine_id(maker, code));
            }
        }
    }
    let mut ids: Vec<u64> = Vec::with_capacity(found.len());
    for id in found.into_values() {
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    Ok(ids)
}

/// The vehicle types carrying engine `id` (of `targets`), in Ktype order. An id that names
/// no engine names no type. Every type is read, charged to the request's budget.
pub fn vehicles_of_engine(
    context: &Context,
    asked: &Asked<'_>,
    id: Field<Option<i64>>,
    targets: Targets<'_>,
    budget: &Budget,
) -> Result<Vec<Vehicle>, ServiceError> {
    asked.check()?;
    let wanted = match id.value {
        Some(n) if n > 0 => n as u64,
        Some(n) => {
            return Err(ServiceError::bad_parameter(
                id.name,
                format!("{n} is not an engine's number (getMotorIdsByManuIdCriteria2)"),
            ));
        }
        None => return Err(ServiceError::bad_parameter(id.name, "is required")),
    };
    let catalogue = context.snapshot();
    let makers = Makers::read(catalogue)?;
    // Each engine of that number, so that two engines sharing one is told, not merged.
    let mut engines = BTreeSet::new();
    let mut found = BTreeMap::new();
    for (i, v) in catalogue.vehicles().enumerate() {
        budget.check_every(i).map_err(ServiceError::from)?;
        let v = v?;
        let maker = makers.of(&v);
        let carries = v.engines.iter().find(|c| engine_id(maker, c) == wanted);
        if let Some(code) = carries {
            engines.insert((maker, normalise_reference(code)));
            if targets.is_none_or(|ts| ts.contains(&v.target_type)) {
                found.insert(v.ktype.trim().parse::<u64>().unwrap_or(u64::MAX), v);
            }
        }
    }
    if engines.len() > 1 {
        let codes: Vec<&str> = engines.iter().map(|(_, c)| c.as_str()).collect();
        return Err(ServiceError::bad_parameter(
            id.name,
            format!(
                "{wanted} is the number of {} engines ({}): ask by their codes with getMotorIdsByManuIdCriteria2",
                engines.len(),
                codes.join(", ")
            ),
        ));
    }
    Ok(found.into_values().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engines_number_is_its_makers_and_codes_however_written() {
        let id = engine_id(Some(1), "CZCA");
        assert_eq!(engine_id(Some(1), "czca"), id);
        assert_eq!(engine_id(Some(1), "CZ-CA"), id);
        assert_ne!(engine_id(Some(2), "CZCA"), id, "another maker's engine");
        assert_ne!(engine_id(Some(1), "CZCB"), id);
        assert!(id > 0 && id <= ID_BITS);
        // Fixed for every store and release: clients keep it.
        assert_eq!(engine_id(Some(2), "CHZD"), 6496379095573538);
        assert_eq!(engine_id(None, ""), engine_id(Some(0), ""));
    }
}
