//! The languages and the countries of the catalogue (settings `catalogue.languages` and
//! `catalogue.countries`), named from the ISO 639-1 and ISO 3166-1 tables the binary carries,
//! in English, German and French: in the reader's language, else along its order, else in
//! English; and the country groups of those countries, from partscat's own table of groups
//! that treaties define (the EU, the EEA, EFTA, Benelux, the Nordic and the Baltic states).

use crate::service::context::Context;
use crate::service::language::Language;

const LANGUAGES: &str = include_str!("../../../assets/names/languages.csv");
const COUNTRIES: &str = include_str!("../../../assets/names/countries.csv");
/// `code,members,en,de,fr`: a group's code, its member countries (space-separated) and names.
const COUNTRY_GROUPS: &str = include_str!("../../../assets/names/country_groups.csv");

/// The name of `code` in `table` (its header names the language of each column) in the
/// reader's `language`, or the next of its order the table has, or English; the code itself
/// where the table lacks it.
fn name_in(table: &'static str, code: &str, language: &Language) -> String {
    let mut lines = table.lines();
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
        .map(String::as_str)
        .chain(std::iter::once("en"))
        .find_map(named_in)
        .map_or_else(|| code.to_owned(), |name| (*name).to_owned())
}

/// The name of a language code (ISO 639-1) in the reader's language.
pub fn language_name(code: &str, language: &Language) -> String {
    name_in(LANGUAGES, code, language)
}

/// The name of a country code (ISO 3166-1 alpha-2) in the reader's language.
pub fn country_name(code: &str, language: &Language) -> String {
    name_in(COUNTRIES, code, language)
}

/// The catalogue's languages, each code with its name in the reader's language.
pub fn languages(context: &Context) -> Vec<(String, String)> {
    let language = context.language();
    let held = context.languages().iter();
    held.map(|code| (code.clone(), language_name(code, language)))
        .collect()
}

/// The catalogue's countries, each code with its name in the reader's language; where the
/// settings name none (a catalogue for any country), every country the table names, as
/// TecDoc lists the countries it serves.
pub fn countries(context: &Context) -> Vec<(String, String)> {
    let language = context.language();
    let every: Vec<String>;
    let held = match context.countries() {
        [] => {
            every = COUNTRIES
                .lines()
                .skip(1)
                .filter_map(|row| row.split(',').next())
                .map(str::to_owned)
                .collect();
            &every[..]
        }
        named => named,
    };
    held.iter()
        .map(|code| (code.clone(), country_name(code, language)))
        .collect()
}

/// The member countries of the country group `code` (any case); none where it names no
/// group.
pub fn group_members(code: &str) -> Option<Vec<&'static str>> {
    let row = COUNTRY_GROUPS
        .lines()
        .skip(1)
        .map(|line| line.split(',').collect::<Vec<_>>())
        .find(|row| row[0].eq_ignore_ascii_case(code.trim()))?;
    Some(row.get(1).map_or(Vec::new(), |m| m.split(' ').collect()))
}

/// The country groups, each code with its name in the reader's language, in code order;
/// where the settings name the catalogue's countries, the groups that hold one of them.
pub fn country_groups(context: &Context) -> Vec<(String, String)> {
    let language = context.language();
    let held = context.countries();
    COUNTRY_GROUPS
        .lines()
        .skip(1)
        .filter_map(|line| line.split(',').next())
        .filter(|code| {
            let members = group_members(code).unwrap_or_default();
            held.is_empty() || held.iter().any(|c| members.contains(&c.as_str()))
        })
        .map(|code| (code.to_owned(), name_in(COUNTRY_GROUPS, code, language)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_named_and_an_unknown_one_stays_itself() {
        use crate::service::language::Languages;
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
        assert_eq!(country_name("AT", &english), "Austria");
        assert_eq!(country_name("AT", &german), "Österreich");
        assert_eq!(country_name("XQ", &german), "XQ");
    }

    #[test]
    fn groups_hold_countries_the_table_names() {
        let english = crate::service::language::Languages::new(vec!["en".into()]);
        let english = english.default_language();
        assert_eq!(group_members("eu").map(|m| m.len()), Some(27));
        assert_eq!(group_members("DE"), None);
        for line in COUNTRY_GROUPS.lines().skip(1) {
            let code = line.split(',').next().unwrap();
            for member in group_members(code).unwrap() {
                assert_ne!(country_name(member, &english), member, "{code}: {member}");
            }
        }
    }
}
