//! The languages and the countries of the catalogue (settings `catalogue.languages` and
//! `catalogue.countries`), named from the ISO 639-1 and ISO 3166-1 tables the binary carries:
//! languages in English, German and French (in the reader's language, falling back along its
//! order), countries in English.

use super::language::Language;

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

/// The name of a language code in the reader's `language` (or the next of its order the table
/// names languages in); the code itself where the table lacks it.
pub fn language_name(code: &str, language: &Language) -> String {
    let mut lines = LANGUAGES.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
    let Some(row) = lines
        .map(|line| line.split(',').collect::<Vec<_>>())
        .find(|row| row[0].eq_ignore_ascii_case(code))
    else {
        return code.to_owned();
    };
    let named_in = |l: &str| {
        header
            .iter()
            .position(|h| *h == l)
            .and_then(|at| row.get(at))
    };
    language
        .order()
        .iter()
        .chain(std::iter::once(&"en".to_owned()))
        .find_map(|l| named_in(l))
        .map_or_else(|| code.to_owned(), |name| (*name).to_owned())
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
        use super::super::language::Languages;
        let held = Languages::new(vec!["en".into(), "de".into(), "bg".into()]);
        let english = held.default_language();
        assert_eq!(language_name("de", &english), "German");
        assert_eq!(language_name("EN", &english), "English");
        let german = held.choose("lang", Some("de")).unwrap();
        assert_eq!(language_name("bg", &german), "Bulgarisch");
        // No Bulgarian names in the table: the next language of the order.
        let bulgarian = held.choose("lang", Some("bg")).unwrap();
        assert_eq!(language_name("de", &bulgarian), "German");
        assert_eq!(language_name("qd", &german), "qd");
        assert_eq!(country_name("AT"), "Austria");
        assert_eq!(country_name("XQ"), "XQ");
    }
}
