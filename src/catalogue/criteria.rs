//! Criteria as TecDoc numbers them: a definition per criterion (its number, names, kind of
//! value, unit) and the key tables whose keys the values of key-table criteria are. An
//! article's criterion (`Criterion`) names its criterion; the store numbers every name, by
//! its definition where one has the name, by a number of its own otherwise.

use serde::Serialize;

/// The numbers a definition may take; the store numbers names without one from here on.
pub const DEFINED_IDS: std::ops::RangeInclusive<u32> = 1..=999_999;

/// What a criterion's values are (TecDoc's `criteriaType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum CriterionType {
    /// Text (`A`).
    Text,
    /// A number (`N`).
    Number,
    /// A key of the criterion's key table (`K`).
    Key,
    /// A date (`D`).
    Date,
    /// No value: the criterion holds or it does not (`V`).
    Flag,
}

impl CriterionType {
    pub const ALL: [CriterionType; 5] = [
        CriterionType::Text,
        CriterionType::Number,
        CriterionType::Key,
        CriterionType::Date,
        CriterionType::Flag,
    ];

    /// TecDoc's letter.
    pub fn letter(self) -> &'static str {
        match self {
            CriterionType::Text => "A",
            CriterionType::Number => "N",
            CriterionType::Key => "K",
            CriterionType::Date => "D",
            CriterionType::Flag => "V",
        }
    }

    pub fn from_letter(letter: &str) -> Option<CriterionType> {
        Self::ALL
            .into_iter()
            .find(|t| t.letter().eq_ignore_ascii_case(letter.trim()))
    }

    /// The kind a criterion without a definition is taken as, from one of its values.
    pub fn of_value(value: &str) -> CriterionType {
        match value.trim().replace(',', ".").parse::<f64>() {
            Ok(_) => CriterionType::Number,
            Err(_) => CriterionType::Text,
        }
    }
}

/// A criterion's definition (`criterion_definitions.csv`, TecDoc's table 050).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CriterionDefinition {
    pub id: u32,
    /// In the catalogue's default language: what articles' criteria rows name it by.
    pub name: String,
    pub short_name: String,
    pub kind: CriterionType,
    pub unit: String,
    /// Whether a value is a range (TecDoc's `isInterval`).
    pub interval: bool,
    /// The criterion that replaces this one.
    pub successor: Option<u32>,
    /// The key table of a key-table criterion.
    pub key_table: Option<u32>,
}

/// One key of a key table and its text in the default language (`key_values.csv`, TecDoc's
/// table 052).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyValue {
    pub table: u32,
    pub key: String,
    pub value: String,
}
