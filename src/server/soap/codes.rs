//! The codes TecDoc's requests write, read as the catalogue's values: the adapters' side of
//! the mapping, so that a use case is handed what the code means and the field it came in.

use crate::catalogue::TargetType;
use crate::service::ServiceError;

/// The target types a `linkingTargetType` or `linkageTargetType` field names; `None`
/// (every type) where it is absent.
pub fn target_types(
    field: &'static str,
    code: Option<&str>,
) -> Result<Option<&'static [TargetType]>, ServiceError> {
    let Some(code) = code.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(None);
    };
    TargetType::named_by(code).map(Some).ok_or_else(|| {
        ServiceError::bad_parameter(
            field,
            format!(
                "'{code}' is not a linkage-target type (V, L, B, C, T, M, A, K, the groups P and O, U for any, or several together such as PO)"
            ),
        )
    })
}

/// TecDoc's `favouredList`: 1 keeps the makers the provider favours, 0 (or absent) every
/// maker. A provider of partscat favours no list of its own, so both answer every maker, as
/// TecDoc answers a provider that keeps no favoured list; another value is refused.
pub fn favoured_list(field: &'static str, value: Option<i32>) -> Result<(), ServiceError> {
    match value {
        None | Some(0 | 1) => Ok(()),
        Some(other) => Err(ServiceError::bad_parameter(
            field,
            format!("must be 0 (every maker) or 1 (the favoured makers), not {other}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_names_a_type_or_a_group_of_them() {
        let field = "linkingTargetType";
        use crate::catalogue::TargetType::*;
        assert_eq!(
            target_types(field, Some("V")).unwrap().unwrap(),
            [PassengerCar]
        );
        let p = target_types(field, Some("P")).unwrap().unwrap();
        assert_eq!(p, [PassengerCar, LightCommercial, Motorcycle]);
        let pom = target_types(field, Some("pom")).unwrap().unwrap();
        assert_eq!(
            pom,
            [
                PassengerCar,
                LightCommercial,
                Motorcycle,
                Commercial,
                Tractor,
                Engine
            ]
        );
        assert_eq!(TargetType::tree_of(p), Some(PassengerCar));
        assert_eq!(
            TargetType::tree_of(&[LightCommercial]),
            Some(LightCommercial)
        );
        assert_eq!(TargetType::tree_of(pom), None);
        let volb = target_types(field, Some("VOLB")).unwrap().unwrap();
        assert_eq!(
            volb,
            [
                PassengerCar,
                LightCommercial,
                Motorcycle,
                Commercial,
                Tractor
            ]
        );
        assert_eq!(target_types(field, Some("U")).unwrap().unwrap().len(), 8);
        assert!(target_types(field, Some("PX")).is_err());
        assert_eq!(target_types(field, Some(" ")).unwrap(), None);
        assert!(target_types(field, Some("X")).is_err());
    }
}
