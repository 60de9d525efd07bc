//! The language and the countries of the catalogue (settings `catalogue.language` and
//! `catalogue.countries`), with their English names from the ISO 639-1 and ISO 3166-1 codes
//! the binary carries.

const LANGUAGES: &str = include_str!("../../assets/names/languages.csv");
const COUNTRIES: &str = include_str!("../../assets/names/countries.csv");

fn name_in(table: &'static str, code: &str) -> Option<&'static str> {
    table
        .lines()
        .skip(1)
        .filter_map(|line| line.split_once(','))
        .find(|(c, _)| c.eq_ignore_ascii_case(code))
        .map(|(_, name)| name)
}

/// The English name of an ISO 639-1 language code; the code itself where the table lacks it.
pub fn language_name(code: &str) -> String {
    name_in(LANGUAGES, code).unwrap_or(code).to_owned()
}

/// The English name of an ISO 3166-1 alpha-2 country code; the code itself where the table
/// lacks it.
pub fn country_name(code: &str) -> String {
    name_in(COUNTRIES, code).unwrap_or(code).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_named_and_an_unknown_one_stays_itself() {
        assert_eq!(language_name("de"), "German");
        assert_eq!(language_name("EN"), "English");
        assert_eq!(country_name("AT"), "Austria");
        assert_eq!(country_name("XQ"), "XQ");
    }
}
