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
                "'{code}' is not a linkage-target type (P, L, B, C, T, M, A, K, or the groups V and O)"
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_names_a_type_or_a_group_of_them() {
        let field = "linkingTargetType";
        assert_eq!(target_types(field, Some("V")).unwrap().unwrap().len(), 2);
        assert_eq!(target_types(field, Some(" ")).unwrap(), None);
        assert!(target_types(field, Some("X")).is_err());
    }
}
