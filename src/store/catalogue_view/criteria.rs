//! The catalogue's criteria as a generation answers them: each name's number, the
//! definitions and the key tables, read once per generation into maps (a few thousand
//! criteria, as TecDoc holds), since every answer with criteria numbers them.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::Catalogue;
use crate::catalogue::{CriterionDefinition, KeyValue};
use crate::store::criterion_ids::{ID_BY_NAME, NAME_BY_ID};
use crate::store::error::StoreError;
use crate::store::indexes::DataTrees;
use crate::store::layout::TreeName;
use crate::store::reads;

/// The tables `Criteria` is read from.
pub(super) const CRITERIA_TABLES: [TreeName; 3] = [
    TreeName::CriterionIds,
    TreeName::CriterionDefinitions,
    TreeName::KeyValues,
];

#[derive(Debug, Default)]
pub struct Criteria {
    by_name: HashMap<String, u32>,
    /// Every number with its name, in the numbers' order.
    names: BTreeMap<u32, String>,
    definitions: HashMap<u32, CriterionDefinition>,
    /// Each key table's keys with their texts, in the keys' order.
    key_tables: HashMap<u32, Vec<(String, String)>>,
}

impl Criteria {
    /// The number of the criterion articles' rows name `name`.
    pub fn id_of(&self, name: &str) -> Option<u32> {
        self.by_name.get(name).copied()
    }

    /// The name of criterion `id`.
    pub fn name_of(&self, id: u32) -> Option<&str> {
        self.names.get(&id).map(String::as_str)
    }

    pub fn definition(&self, id: u32) -> Option<&CriterionDefinition> {
        self.definitions.get(&id)
    }

    /// Every criterion's number and name, in the numbers' order.
    pub fn all(&self) -> impl Iterator<Item = (u32, &str)> {
        self.names.iter().map(|(id, name)| (*id, name.as_str()))
    }

    /// The text of `key` in key table `table`.
    pub fn key_text(&self, table: u32, key: &str) -> Option<&str> {
        let keys = self.key_tables.get(&table)?;
        let i = keys.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok()?;
        Some(&keys[i].1)
    }

    /// The keys of key table `table` with their texts, in the keys' order; `None` for a
    /// table the catalogue does not hold.
    pub fn key_table(&self, table: u32) -> Option<&[(String, String)]> {
        self.key_tables.get(&table).map(Vec::as_slice)
    }
}

impl Catalogue {
    /// The criteria of this generation: numbers, definitions, key tables.
    pub fn criteria(&self) -> Result<&Criteria, StoreError> {
        if let Some(criteria) = self.criteria.get() {
            for t in CRITERIA_TABLES {
                reads::note_table(t, self.generations[t.index()]);
            }
            return Ok(criteria);
        }
        let mut criteria = Criteria::default();
        let index = TreeName::CriterionIds;
        for entry in self.tree(index).iter() {
            let (k, v) = entry?;
            let text = |b: &[u8]| {
                std::str::from_utf8(b)
                    .map(str::to_owned)
                    .map_err(|_| StoreError::undecodable(index))
            };
            let number = |b: &[u8]| {
                b.try_into()
                    .map(u32::from_be_bytes)
                    .map_err(|_| StoreError::undecodable(index))
            };
            match k.first() {
                Some(&ID_BY_NAME) => {
                    criteria.by_name.insert(text(&k[1..])?, number(&v)?);
                }
                Some(&NAME_BY_ID) => {
                    criteria.names.insert(number(&k[1..])?, text(&v)?);
                }
                _ => {}
            }
        }
        for d in self.scan::<CriterionDefinition>(Vec::new()) {
            let d = d?;
            criteria.definitions.insert(d.id, d);
        }
        for k in self.scan::<KeyValue>(Vec::new()) {
            let k = k?;
            criteria
                .key_tables
                .entry(k.table)
                .or_default()
                .push((k.key, k.value));
        }
        Ok(self.criteria.get_or_init(|| Arc::new(criteria)))
    }
}
