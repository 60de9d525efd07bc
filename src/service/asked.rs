//! What a request says about where its answer is for (its countries, or a country group
//! where `countryGroupFlag` says so) and what it asks of the catalogue that the catalogue
//! does not hold (axles, registration data…). The adapter hands each such field with its name on the wire; the use
//! case checks them all (`Asked::check`) before it answers, so a field the catalogue cannot
//! honour is refused by name, never taken and quietly ignored.

use super::ServiceError;
use super::field::Field;
use super::reference_lists::locales;

/// The countries and the unheld fields given of one request, in the order they are checked.
#[derive(Default)]
pub struct Asked<'a> {
    countries: Vec<Field<Option<&'a str>>>,
    /// Country fields that `countryGroupFlag` turns into a country group's code.
    places: Vec<Field<Option<&'a str>>>,
    /// `countryGroupFlag` is true.
    grouped: bool,
    refused: Vec<Refusal>,
}

/// What the catalogue does not hold, that a request may ask for.
#[derive(Debug, Clone, Copy)]
pub enum Unheld {
    Axles,
    AxleConfigurations,
    Cabs,
    KbaNumbers,
    Prototypes,
    RegistrationData,
    SecondaryTypes,
    Wheelbases,
    VehiclePictures,
    ConstructionTypeIds,
    FuelTypeIds,
    Tonnages,
    CreationDates,
    EngineSalesTerms,
}

impl Unheld {
    fn why(self) -> &'static str {
        match self {
            Unheld::Axles => "the catalogue has no axle data",
            Unheld::AxleConfigurations => "the catalogue has no axle configurations",
            Unheld::Cabs => "the catalogue has no cab data",
            Unheld::KbaNumbers => "the catalogue has no KBA numbers",
            Unheld::Prototypes => "the catalogue has no prototypes",
            Unheld::RegistrationData => "the catalogue has no registration data",
            Unheld::SecondaryTypes => "the catalogue has no secondary types",
            Unheld::Wheelbases => "the catalogue has no wheelbases",
            Unheld::VehiclePictures => "the catalogue has no pictures of vehicles",
            Unheld::ConstructionTypeIds => {
                "construction types are named, not numbered (getVehicleByIds3)"
            }
            Unheld::FuelTypeIds => "fuels are named, not numbered",
            Unheld::Tonnages => "the catalogue holds no tonnages",
            Unheld::CreationDates => "the catalogue keeps no creation dates",
            Unheld::EngineSalesTerms => "the catalogue keeps no sales terms of engines",
        }
    }
}

/// What an unheld field must be: the refusal says it.
#[derive(Debug, Clone, Copy)]
enum Must {
    BeFalse,
    BeZero,
    BeEmpty,
    BeAbsent,
    /// Any value is refused: the field is not held at all.
    NotBeGiven,
}

#[derive(Debug)]
struct Refusal {
    name: &'static str,
    must: Must,
    what: Unheld,
}

impl<'a> Asked<'a> {
    pub fn new() -> Asked<'a> {
        Asked::default()
    }

    /// A country field (`country`, `articleCountry`…): an ISO 3166-1 code, or absent.
    pub fn country(mut self, name: &'static str, code: Option<&'a str>) -> Asked<'a> {
        if code.is_some() {
            self.countries.push(Field::new(name, code));
        }
        self
    }

    /// A country field that `countryGroupFlag` governs: a country, or where the flag is true
    /// a country group (`getCountryGroups`' `tecdocCode`).
    pub fn place(mut self, name: &'static str, code: Option<&'a str>) -> Asked<'a> {
        if code.is_some() {
            self.places.push(Field::new(name, code));
        }
        self
    }

    /// `countryGroupFlag`: true reads the `place` fields as country groups.
    pub fn country_groups(mut self, flag: Option<bool>) -> Asked<'a> {
        self.grouped = flag == Some(true);
        self
    }

    /// A flag asking for `what`: false or absent.
    pub fn flag(self, name: &'static str, flag: Option<bool>, what: Unheld) -> Asked<'a> {
        self.refusing(name, Must::BeFalse, what, flag == Some(true))
    }

    /// A number choosing `what` (a plate type): 0 or absent.
    pub fn zero(self, name: &'static str, number: Option<i32>, what: Unheld) -> Asked<'a> {
        self.refusing(name, Must::BeZero, what, number.is_some_and(|n| n != 0))
    }

    /// A list filtering by `what`: empty.
    pub fn empty(self, name: &'static str, filled: bool, what: Unheld) -> Asked<'a> {
        self.refusing(name, Must::BeEmpty, what, filled)
    }

    /// A field naming `what`, refused where it is given.
    pub fn value(self, name: &'static str, given: bool, what: Unheld) -> Asked<'a> {
        self.refusing(name, Must::NotBeGiven, what, given)
    }

    /// A field only a catalogue holding `what` could answer: absent.
    pub fn absent(self, name: &'static str, given: bool, what: Unheld) -> Asked<'a> {
        self.refusing(name, Must::BeAbsent, what, given)
    }

    /// Only a field given is kept (the first refused), so a request that asks for nothing
    /// unheld allocates nothing.
    fn refusing(mut self, name: &'static str, must: Must, what: Unheld, given: bool) -> Asked<'a> {
        if given {
            self.refused.push(Refusal { name, must, what });
        }
        self
    }

    /// The first field the catalogue cannot honour, refused by name.
    pub fn check(&self) -> Result<(), ServiceError> {
        for country in &self.countries {
            self::country(country.name, country.value)?;
        }
        for place in &self.places {
            match self.grouped {
                true => country_group(place.name, place.value)?,
                false => self::country(place.name, place.value)?,
            }
        }
        self.unheld_given().map_or(Ok(()), Err)
    }

    /// The first unheld field given, as its refusal.
    fn unheld_given(&self) -> Option<ServiceError> {
        let r = self.refused.first()?;
        let why = r.what.why();
        let detail = match r.must {
            Must::BeFalse => format!("must be false: {why}"),
            Must::BeZero => format!("must be 0: {why}"),
            Must::BeEmpty => format!("must be empty: {why}"),
            Must::BeAbsent => format!("must be absent: {why}"),
            Must::NotBeGiven => format!("is not held: {why}"),
        };
        Some(ServiceError::bad_parameter(r.name, detail))
    }
}

/// A country: an ISO 3166-1 code (any case), or absent. As TecDoc treats a country, it keeps
/// the articles and vehicles valid there; the catalogue restricts none of its articles and
/// vehicles to some countries, so each is valid in every country and every country code is
/// answered alike (`catalogue.countries` only says which `getCountries` lists). Only a
/// value that is no country code is refused.
fn country(field: &'static str, code: Option<&str>) -> Result<(), ServiceError> {
    let Some(code) = code.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(());
    };
    if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(ServiceError::bad_parameter(
            field,
            format!("'{code}' is not an ISO 3166-1 country code (two letters)"),
        ));
    }
    Ok(())
}

/// A country group's code, or absent. A group holds countries, and every country is answered
/// alike, so every group is too; a code that names no group is refused.
fn country_group(field: &'static str, code: Option<&str>) -> Result<(), ServiceError> {
    let Some(code) = code.map(str::trim).filter(|c| !c.is_empty()) else {
        return Ok(());
    };
    if locales::group_members(code).is_none() {
        return Err(ServiceError::bad_parameter(
            field,
            format!(
                "'{code}' is not a country group, which 'countryGroupFlag' says it is (getCountryGroups lists them)"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIELD: &str = "a";

    #[test]
    fn countries_are_any_country_code() {
        assert!(country(FIELD, None).is_ok());
        assert!(country(FIELD, Some("at")).is_ok());
        assert!(country(FIELD, Some("HU")).is_ok(), "any country, as TecDoc");
        let not_iso = country(FIELD, Some("Germany")).unwrap_err();
        assert!(not_iso.to_string().contains("ISO 3166-1"), "{not_iso}");
    }

    #[test]
    fn a_place_is_a_country_or_where_the_flag_says_a_group() {
        let asked = |code, flag| Asked::new().place(FIELD, Some(code)).country_groups(flag);
        assert!(asked("DE", None).check().is_ok());
        assert!(
            asked("EU", Some(false)).check().is_ok(),
            "EU: a two-letter code"
        );
        assert!(asked("EEA", Some(false)).check().is_err());
        assert!(asked("eea", Some(true)).check().is_ok());
        let not_a_group = asked("DE", Some(true)).check().unwrap_err();
        assert!(
            not_a_group.to_string().contains("not a country group"),
            "{not_a_group}"
        );
    }

    #[test]
    fn an_unheld_field_is_refused_by_name_only_where_given() {
        let refusal = |asked: &Asked<'_>| asked.unheld_given().map(|e| format!("{e:?}"));
        let quiet = Asked::new()
            .flag("axles", Some(false), Unheld::Axles)
            .zero("numberplateType", Some(0), Unheld::RegistrationData)
            .value("tonnageFrom", false, Unheld::Tonnages);
        assert_eq!(refusal(&quiet), None);
        let given = Asked::new().flag("axles", None, Unheld::Axles).zero(
            "numberplateType",
            Some(2),
            Unheld::RegistrationData,
        );
        let refused = refusal(&given).unwrap();
        assert!(refused.contains("numberplateType"), "{refused}");
        assert!(
            refused.contains("must be 0: the catalogue has no registration data"),
            "{refused}"
        );
    }
}
