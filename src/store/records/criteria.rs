//! The criteria's definitions and their key tables as stored: a definition under its number,
//! a key under its table's number and the key.

use super::{Record, decode, encode};
use crate::catalogue::{CriterionDefinition, CriterionType, KeyValue};
use crate::store::keys::{KeyBuf, KeyReader};
use crate::store::layout::TreeName;

/// A criterion type's stored code (part of the format: never renumber).
fn type_code(kind: CriterionType) -> u8 {
    match kind {
        CriterionType::Text => 1,
        CriterionType::Number => 2,
        CriterionType::Key => 3,
        CriterionType::Date => 4,
        CriterionType::Flag => 5,
    }
}

fn type_of(code: u8) -> Option<CriterionType> {
    CriterionType::ALL
        .into_iter()
        .find(|&t| type_code(t) == code)
}

type DefinitionValue = (String, String, u8, String, bool, Option<u32>, Option<u32>);

impl Record for CriterionDefinition {
    const TREE: TreeName = TreeName::CriterionDefinitions;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new().u32(self.id).done()
    }
    fn value(&self) -> Vec<u8> {
        encode((
            &self.name,
            &self.short_name,
            type_code(self.kind),
            &self.unit,
            self.interval,
            self.successor,
            self.key_table,
        ))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let (name, short_name, kind, unit, interval, successor, key_table) =
            decode::<DefinitionValue>(value)?;
        Some(CriterionDefinition {
            id: KeyReader::new(key).u32()?,
            name,
            short_name,
            kind: type_of(kind)?,
            unit,
            interval,
            successor,
            key_table,
        })
    }
}

impl Record for KeyValue {
    const TREE: TreeName = TreeName::KeyValues;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new().u32(self.table).last_text(&self.key).done()
    }
    fn value(&self) -> Vec<u8> {
        encode(&self.value)
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let mut k = KeyReader::new(key);
        Some(KeyValue {
            table: k.u32()?,
            key: k.last_text()?,
            value: decode::<String>(value)?,
        })
    }
}
