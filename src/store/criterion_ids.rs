//! The criteria's numbers (`CriterionIds`): every criterion name the articles' criteria or
//! the definitions hold, with its number. A defined name takes its definition's number; any
//! other keeps the number the store gave it, or takes the next never given (from past
//! `DEFINED_IDS`, so none meets a definition's), so a number names one criterion for as long
//! as the store lives. Entries: `ID_BY_NAME ‖ name` → the number, `NAME_BY_ID ‖ number` →
//! the name, `NEXT_ID` → the number the next new name gets.

use std::collections::{BTreeMap, BTreeSet};

use super::error::StoreError;
use super::keys::{self, KeyReader};
use super::layout::TreeName;
use super::packed::{Change, PackedTable};
use super::records::Record;
use super::touched::Touched;
use crate::catalogue::CriterionDefinition;
use crate::catalogue::criteria::DEFINED_IDS;

pub const ID_BY_NAME: u8 = 0;
pub const NAME_BY_ID: u8 = 1;
pub const NEXT_ID: u8 = 2;

const TREE: TreeName = TreeName::CriterionIds;

/// Takes each derived (key, value) pair.
type Emit<'e> = dyn FnMut(&[u8], &[u8]) -> Result<(), StoreError> + 'e;

fn corrupt() -> StoreError {
    StoreError::undecodable(TREE)
}

fn number(v: &[u8]) -> Result<u32, StoreError> {
    Ok(u32::from_be_bytes(v.try_into().map_err(|_| corrupt())?))
}

fn by_name(name: &str) -> Vec<u8> {
    [&[ID_BY_NAME][..], name.as_bytes()].concat()
}

fn by_id(id: u32) -> Vec<u8> {
    [&[NAME_BY_ID][..], &id.to_be_bytes()].concat()
}

/// The names an index holds, with their numbers, and the next number it gives.
fn held(index: &PackedTable) -> Result<(BTreeMap<String, u32>, Option<u32>), StoreError> {
    let mut names = BTreeMap::new();
    for entry in index.scan_prefix(vec![ID_BY_NAME]) {
        let (k, v) = entry?;
        let name = std::str::from_utf8(&k[1..]).map_err(|_| corrupt())?;
        names.insert(name.to_owned(), number(&v)?);
    }
    let next = index.get(&[NEXT_ID])?.map(|v| number(&v)).transpose()?;
    Ok((names, next))
}

/// The first number past the definitions' and past every one given.
fn first_free(held: &BTreeMap<String, u32>) -> u32 {
    held.values()
        .map(|&id| id + 1)
        .fold(DEFINED_IDS.end() + 1, u32::max)
}

/// The next number, as clients take it (a positive 32-bit `criteriaId`).
fn take(next: &mut u32) -> Result<u32, StoreError> {
    if *next > i32::MAX as u32 {
        return Err(StoreError::CriterionIdsExhausted);
    }
    *next += 1;
    Ok(*next - 1)
}

/// The tables the index is derived from: the definitions, the articles' criteria and the
/// index as it is now.
pub struct Sources<'t> {
    pub definitions: &'t PackedTable,
    pub criteria: &'t PackedTable,
    pub current: &'t PackedTable,
}

/// Every entry of the index, derived from its sources.
pub fn derive(sources: Sources<'_>, emit: &mut Emit<'_>) -> Result<(), StoreError> {
    let mut defined = BTreeMap::new();
    for entry in sources.definitions.iter() {
        let (k, v) = entry?;
        let d = CriterionDefinition::decode(&k, &v)
            .ok_or_else(|| StoreError::undecodable(TreeName::CriterionDefinitions))?;
        defined.entry(d.name).or_insert(d.id);
    }
    let (held, next) = held(sources.current)?;
    let mut names: BTreeSet<String> = held.keys().chain(defined.keys()).cloned().collect();
    sources.criteria.iter().each(|k, _| {
        let mut r = KeyReader::new(k);
        r.article()
            .ok_or_else(|| StoreError::undecodable(TreeName::Criteria))?;
        let name = r
            .last_str()
            .ok_or_else(|| StoreError::undecodable(TreeName::Criteria))?;
        if !names.contains(name) {
            names.insert(name.to_owned());
        }
        Ok(())
    })?;
    if names.is_empty() && next.is_none() {
        // Nothing numbered yet: an index built from nothing holds nothing.
        return Ok(());
    }
    let mut next = next.unwrap_or_else(|| first_free(&held));
    for name in names {
        let id = match (defined.get(&name), held.get(&name)) {
            (Some(&id), _) => id,
            (None, Some(&id)) if !DEFINED_IDS.contains(&id) => id,
            _ => take(&mut next)?,
        };
        emit(&by_name(&name), &id.to_be_bytes())?;
        emit(&by_id(id), name.as_bytes())?;
    }
    emit(&[NEXT_ID], &next.to_be_bytes())
}

/// The names the touched articles' criteria bring that the index does not hold yet, each
/// with the next number; `None` for an index whose next number is not recorded (its build
/// finds it). A change of the definitions is not an article's: it builds the index whole.
pub fn changes(
    index: &PackedTable,
    criteria: &PackedTable,
    touched: &Touched,
) -> Result<Option<Vec<Change>>, StoreError> {
    let Some(next) = index.get(&[NEXT_ID])? else {
        return Ok(None);
    };
    let first = number(&next)?;
    let mut added = BTreeSet::new();
    for (_, article, _) in touched.of(TREE) {
        let prefix = keys::article_prefix(article);
        for entry in criteria.scan_prefix(prefix.clone()) {
            let (k, _) = entry?;
            let name = KeyReader::new(&k[prefix.len()..])
                .last_str()
                .ok_or_else(|| StoreError::undecodable(TreeName::Criteria))?;
            if !added.contains(name) && !index.contains_key(&by_name(name))? {
                added.insert(name.to_owned());
            }
        }
    }
    let mut out = BTreeMap::new();
    let mut next = first;
    for name in added {
        let id = take(&mut next)?;
        out.insert(by_name(&name), Some(id.to_be_bytes().to_vec()));
        out.insert(by_id(id), Some(name.into_bytes()));
    }
    if next != first {
        out.insert(vec![NEXT_ID], Some(next.to_be_bytes().to_vec()));
    }
    Ok(Some(
        out.into_iter()
            .map(|(key, value)| Change { key, value })
            .collect(),
    ))
}
