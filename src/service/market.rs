//! The fields of a TecDoc request that say where and for whom an answer is: the country
//! (validated, and answered only for the catalogue's own countries), country groups and
//! favoured lists (which partscat has not: asked for, they are refused by name, never taken
//! and ignored), and the linkage-target type.

use super::ServiceError;
use crate::catalogue::TargetType;

/// A country field (`country`, `articleCountry`, `linkageTargetCountry`): an ISO 3166-1
/// code of one of the catalogue's countries (`catalogue.countries`; any, where it names
/// none), or absent. The
/// catalogue does not say where each vehicle and article is sold, so its answers are for
/// all of its countries alike, and a country it is not for is refused.
pub fn country(
    field: &'static str,
    code: Option<&str>,
    countries: &[String],
) -> Result<(), ServiceError> {
    let Some(code) = code.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(());
    };
    if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(ServiceError::bad_parameter(
            field,
            format!("'{code}' is not an ISO 3166-1 country code (two letters)"),
        ));
    }
    // A catalogue that names no countries (`catalogue.countries` empty) is for every one.
    if !countries.is_empty() && !countries.iter().any(|c| c.eq_ignore_ascii_case(code)) {
        return Err(ServiceError::bad_parameter(
            field,
            format!(
                "'{code}': the catalogue is for {} only (getCountries)",
                countries.join(", ")
            ),
        ));
    }
    Ok(())
}

/// `countryGroupFlag`: false or absent. partscat has no country groups.
pub fn no_country_group(flag: Option<bool>) -> Result<(), ServiceError> {
    match flag {
        Some(true) => Err(ServiceError::bad_parameter(
            "countryGroupFlag",
            "must be false: the catalogue has no country groups",
        )),
        _ => Ok(()),
    }
}

/// `favouredList`: 0 or absent. partscat keeps no favoured lists of makes or models.
pub fn no_favoured_list(list: Option<i32>) -> Result<(), ServiceError> {
    match list {
        Some(n) if n != 0 => Err(ServiceError::bad_parameter(
            "favouredList",
            "must be 0: the catalogue keeps no favoured lists",
        )),
        _ => Ok(()),
    }
}

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

/// A flag asking for data partscat has not (`axles`, `kbaData`…): false or absent.
pub fn flag_not_held(
    field: &'static str,
    flag: Option<bool>,
    why: &str,
) -> Result<(), ServiceError> {
    match flag {
        Some(true) => Err(ServiceError::bad_parameter(
            field,
            format!("must be false: {why}"),
        )),
        _ => Ok(()),
    }
}

/// A field partscat has no data for, refused where a request gives it a value.
pub fn not_held<T>(field: &'static str, value: &Option<T>, why: &str) -> Result<(), ServiceError> {
    match value {
        Some(_) => Err(ServiceError::bad_parameter(field, why.to_owned())),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn countries_are_codes_of_the_catalogue() {
        let de = vec!["DE".to_owned(), "AT".to_owned()];
        assert!(country("country", None, &de).is_ok());
        assert!(country("country", Some("at"), &de).is_ok());
        let not_iso = country("country", Some("Germany"), &de).unwrap_err();
        assert!(not_iso.to_string().contains("ISO 3166-1"), "{not_iso}");
        let elsewhere = country("articleCountry", Some("FR"), &de).unwrap_err();
        assert!(elsewhere.to_string().contains("DE, AT only"), "{elsewhere}");
        assert!(
            country("country", Some("FR"), &[]).is_ok(),
            "no countries named: any"
        );
        assert!(
            target_types("linkingTargetType", Some("V"))
                .unwrap()
                .unwrap()
                .len()
                == 2
        );
        assert!(target_types("linkingTargetType", Some("X")).is_err());
        assert!(no_favoured_list(Some(1)).is_err() && no_favoured_list(Some(0)).is_ok());
    }
}
