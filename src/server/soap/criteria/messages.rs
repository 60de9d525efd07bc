//! The criteria's reference lists: `getCriteria2` and `getKeyValues`, as Pegasus's DLB schema
//! declares them.

use poem_openapi::Object;
use serde::Serialize;

request!(
    /// `getCriteria2` (Pegasus's `criteria2Request`): every criterion the catalogue numbers.
    GetCriteria2Request {
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
    }
);

/// A criterion (Pegasus's `criteria2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "criteria2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct Criteria2Record {
    /// Its number: its definition's, or one the store gave a criterion without one (from
    /// 1000000 on).
    pub criteria_id: i64,
    /// What is measured.
    pub criteria_name: String,
    /// Its short name, where its definition gives one.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criteria_short_name: Option<String>,
    /// `N` a number, `A` text, `K` a key of a key table, `D` a date, `V` no value; absent
    /// for a criterion without a definition.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criteria_type: Option<String>,
    /// Its unit, where its definition gives one.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criteria_unit: Option<String>,
    /// Whether a value is a range.
    pub is_interval: bool,
    /// The criterion that replaces this one.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub successor_id: Option<i64>,
}

record_list!(
    /// `getCriteria2`: the criteria, in their numbers' order.
    Criteria2List,
    Criteria2RecordSeq,
    "criteria2RecordSeq",
    Criteria2Record
);

request!(
    /// `getKeyValues` (Pegasus's `keyValuesRequest`): the keys of a key table.
    GetKeyValuesRequest {
        /// The key table (a key-table criterion's, as its definition names it). Required.
        key_table_id: Option<i64>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
    }
);

/// A key of a key table (Pegasus's `keyValuesRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "keyValuesRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct KeyValuesRecord {
    /// The key, as articles' criteria hold it (`rawValue`).
    pub key_id: String,
    /// The key table.
    pub key_table_id: i64,
    /// The key's text.
    pub key_value: String,
}

record_list!(
    /// `getKeyValues`: a key table's keys, in their order.
    KeyValuesList,
    KeyValuesRecordSeq,
    "keyValuesRecordSeq",
    KeyValuesRecord
);
