//! The operator's integrity check: every record decodes, every reference between data sets
//! holds, every index holds exactly what the data implies; plus counts and a content checksum
//! over the data sets (indexes are derived, so they are verified rather than summed).

use std::collections::HashSet;

use sha2::{Digest, Sha256};

use super::Store;
use super::catalogue_view::Catalogue;
use super::codec;
use super::error::StoreError;
use super::indexes::{self, DataTrees};
use super::layout::TreeName;
use super::packed::Space;
use super::reclaim::FREED_PAGES;
use super::records::{self, Record};

mod languages;
mod references;

use crate::catalogue::*;
use crate::limits::Limits;
pub use languages::LanguageCover;
use references::check_record;
pub(super) use references::dangling;

/// At most this many problems are listed per tree; the count says how many there were.
const LISTED: usize = 10;

#[derive(Debug, Default)]
pub struct CheckReport {
    /// Records per data set and entries per index.
    pub counts: Vec<(&'static str, u64)>,
    /// SHA-256 over every data set, in a fixed order: equal catalogues have equal checksums.
    pub checksum: String,
    pub problems: Vec<String>,
    pub problem_count: u64,
    /// Stored values longer than `[limits]` allows now (imported before the limits, or
    /// under looser ones): the catalogue is sound, but a re-import would refuse them.
    pub over_limits: Vec<String>,
    pub over_limit_count: u64,
    /// Pages of the store no generation holds and none is about to give back: space lost
    /// until the catalogue is imported afresh (0 unless a delete failed).
    pub unreclaimed_pages: u64,
    /// What the catalogue lacks for the vehicle → category path (model series, the tree,
    /// generic articles' places): sound, but those answers are empty.
    pub lacks: Vec<String>,
    /// How far each language of the texts covers what the catalogue names.
    pub languages: Vec<LanguageCover>,
}

impl CheckReport {
    pub fn is_sound(&self) -> bool {
        self.problem_count == 0
    }

    fn problem(&mut self, listed_for_tree: &mut usize, text: String) {
        self.problem_count += 1;
        if *listed_for_tree < LISTED {
            *listed_for_tree += 1;
            self.problems.push(text);
        }
    }
}

/// Data sets added after the checksum was first given.
const LATER: [TreeName; 9] = [
    TreeName::Plates,
    TreeName::ModelSeries,
    TreeName::AssemblyGroups,
    TreeName::GenartGroups,
    TreeName::Texts,
    TreeName::ArticleTexts,
    TreeName::KeyValues,
    TreeName::CriterionDefinitions,
    TreeName::Vins,
];

pub fn check(store: &Store) -> Result<CheckReport, StoreError> {
    let catalogue = store.catalogue();
    let limits = store.limits();
    let mut report = CheckReport::default();
    let mut hasher = Sha256::new();
    for &tree in TreeName::DATA {
        let mut listed = 0;
        let mut count = 0u64;
        // Data sets that came later: empty, they leave the sum as stores summed before them.
        if !(LATER.contains(&tree) && catalogue.tree(tree).is_empty()) {
            hasher.update(tree.name().as_bytes());
        }
        for entry in catalogue.tree(tree).iter() {
            // A tree whose blocks do not decode is named, and the check goes on.
            let (k, v) = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    report.problem(&mut listed, damaged(tree, &e));
                    break;
                }
            };
            count += 1;
            hasher.update((k.len() as u32).to_be_bytes());
            hasher.update(&k);
            // The record without its version byte: the same rows sum the same in every format.
            let body = summed_body(tree, &k, &v);
            hasher.update((body.len() as u32).to_be_bytes());
            hasher.update(&body);
            if let Some(problem) = check_record(catalogue.as_ref(), tree, &k, &v)? {
                report.problem(&mut listed, format!("{}: {problem}", tree.label()));
            }
            if let Some(over) = over_limits(tree, &k, &v, &limits) {
                report.over_limit_count += 1;
                if report.over_limits.len() < LISTED {
                    report.over_limits.push(format!("{}: {over}", tree.label()));
                }
            }
        }
        report.counts.push((tree.label(), count));
    }
    report.checksum = hex::encode(hasher.finalize());
    report.lacks = lacks(&catalogue);
    report.languages = languages::covers(&catalogue);
    let spill = store.spill_dir()?;
    for &index in TreeName::INDEXES {
        if let Err(e) = check_index(store, &mut report, index, spill.path()) {
            let mut listed = 0;
            report.problem(&mut listed, damaged(index, &e));
        }
    }
    // What is queued for reclaiming is given back first, so that the count says what stays.
    store.space.settle();
    report.unreclaimed_pages = unreclaimed(&store.space, &catalogue)?;
    Ok(report)
}

/// The bytes a record adds to the checksum: its value without the version byte. A vehicle
/// that holds nothing format 8 could not sums as format 8 wrote it, so a catalogue sums the
/// same before and after the migration, and imported again from the same files.
fn summed_body(tree: TreeName, k: &[u8], v: &[u8]) -> Vec<u8> {
    if tree == TreeName::Vehicles
        && let Some(old) = Vehicle::decode(k, v).and_then(|x| records::vehicle_value_v1(&x))
    {
        return codec::split(&old).map_or(Vec::new(), |(_, body)| body.to_vec());
    }
    codec::split(v).map_or(Vec::new(), |(_, body)| body.to_vec())
}

/// What the vehicle → category path lacks in this catalogue, one sentence each. A table
/// that cannot be read is counted as far as it can be (its damage is a problem of its own).
fn lacks(catalogue: &Catalogue) -> Vec<String> {
    let mut lacks = Vec::new();
    let empty = |t: TreeName| catalogue.tree(t).is_empty();
    if empty(TreeName::Vehicles) {
        return lacks;
    }
    if empty(TreeName::ModelSeries) {
        lacks.push("no model series: a make's model series are not answered".to_owned());
    }
    let mut without_series = 0u64;
    for vehicle in catalogue.records::<Vehicle>().map_while(Result::ok) {
        without_series += u64::from(vehicle.model_series.is_none());
    }
    if without_series > 0 {
        lacks.push(format!(
            "{without_series} vehicles belong to no model series (vehicles.model_series_id)"
        ));
    }
    if empty(TreeName::AssemblyGroups) {
        lacks.push("no assembly groups: a vehicle's parts are not found by category".to_owned());
        return lacks;
    }
    let placed: HashSet<u32> = catalogue
        .records::<GenartGroup>()
        .map_while(Result::ok)
        .map(|g| g.genart)
        .collect();
    let unplaced = catalogue
        .records::<GenericArticle>()
        .map_while(Result::ok)
        .filter(|g| !placed.contains(&g.id))
        .count();
    if unplaced > 0 {
        lacks.push(format!(
            "{unplaced} generic articles sit under no assembly group (genart_groups): their articles are found under no category"
        ));
    }
    lacks
}

/// Pages no generation holds and no list frees: space lost to the store until it is rebuilt
/// (a failed delete's pages, which the next open would not find either).
fn unreclaimed(space: &Space, catalogue: &Catalogue) -> Result<u64, StoreError> {
    let mut listed = HashSet::new();
    for entry in space.db().open_tree(FREED_PAGES)?.iter() {
        let (_, ids) = entry?;
        listed.extend(
            ids.chunks_exact(8)
                .filter_map(|id| id.try_into().ok().map(u64::from_be_bytes)),
        );
    }
    // Pages from here on belong to a change being written.
    let next = catalogue.manifest().next_page;
    let mut count = 0;
    for table in TreeName::ALL {
        // A damaged table is named by the check; which of its pages it holds is unknown.
        let Ok(held) = catalogue.tree(table).page_ids() else {
            continue;
        };
        let held: HashSet<u64> = held.into_iter().collect();
        let pages = space.pages(table.name())?;
        for key in pages.tree.keys() {
            let id = key?
                .as_ref()
                .try_into()
                .map(u64::from_be_bytes)
                .unwrap_or(u64::MAX);
            if id < next && !held.contains(&id) && !listed.contains(&id) {
                count += 1;
            }
        }
    }
    Ok(count)
}

/// Why a stored record is over the limits, if it is: a record larger than a row may be, or
/// a name, description or reference longer than its column's bound.
fn over_limits(tree: TreeName, k: &[u8], v: &[u8], limits: &Limits) -> Option<String> {
    if v.len() as u64 > limits.row_bytes {
        return Some(format!(
            "record {} is {} bytes, over the limit of a row, {} (limits.row_bytes)",
            hex::encode(&k[..k.len().min(32)]),
            v.len(),
            limits.row_bytes
        ));
    }
    let fields: Vec<(&str, String)> = match tree {
        TreeName::Brands => vec![("name", Brand::decode(k, v)?.name)],
        TreeName::Articles => {
            let a = Article::decode(k, v)?;
            vec![("reference", a.reference), ("description", a.description)]
        }
        _ => return None,
    };
    fields
        .iter()
        .find_map(|(column, value)| limits.of_column(column).exceeded(column, value))
        .map(|why| format!("record {}: {why}", hex::encode(&k[..k.len().min(32)])))
}

/// A tree that cannot be read, as a problem naming it.
fn damaged(tree: TreeName, e: &StoreError) -> String {
    format!(
        "{}: damaged, its stored entries do not decode ({e})",
        tree.label()
    )
}

/// Checks that an index holds exactly what the data implies.
fn check_index(
    store: &Store,
    report: &mut CheckReport,
    index: TreeName,
    spill: &std::path::Path,
) -> Result<(), StoreError> {
    let catalogue = store.catalogue();
    let mut listed = 0;
    let mut problems = Vec::new();
    // The derived entries and the stored ones, both in key order, walked side by side.
    let mut stored = catalogue.tree(index).iter().peekable();
    let mut surplus = 0u64;
    let missing = |key: &[u8], problems: &mut Vec<String>| {
        problems.push(format!(
            "{}: entry {} is missing or differs from the data",
            index.label(),
            hex::encode(key)
        ));
    };
    let expected = indexes::build(index, &*catalogue, spill, &mut |k, v| {
        while stored
            .next_if(|e| matches!(e, Ok((s, _)) if s.as_slice() < k))
            .is_some()
        {
            surplus += 1;
        }
        match stored.next_if(|e| matches!(e, Ok((s, _)) if s.as_slice() == k)) {
            Some(Ok((_, found))) if found == v => {}
            Some(Err(e)) => return Err(e),
            _ => missing(k, &mut problems),
        }
        Ok(())
    })?;
    for entry in stored {
        entry?;
        surplus += 1;
    }
    for problem in problems {
        report.problem(&mut listed, problem);
    }
    let actual = catalogue.tree(index).len()?;
    if surplus > 0 || actual != expected {
        report.problem(
            &mut listed,
            format!(
                "{}: holds {actual} entries where the data implies {expected}",
                index.label()
            ),
        );
    }
    report.counts.push((index.label(), actual));
    Ok(())
}

/// A quick look at every tree of the catalogue (its first record decoded), for `serve` to
/// refuse a store whose blocks do not decode rather than answer 500s; `check` reads all.
pub fn probe(store: &Store) -> Result<(), String> {
    let catalogue = store.catalogue();
    for &tree in TreeName::DATA.iter().chain(TreeName::INDEXES) {
        let first = catalogue.tree(tree).iter().next().transpose();
        match first {
            Err(e) => return Err(damaged(tree, &e)),
            Ok(Some((k, v))) if TreeName::DATA.contains(&tree) => {
                let problem = check_record(catalogue.as_ref(), tree, &k, &v)
                    .map_err(|e| damaged(tree, &e))?;
                if let Some(problem) = problem.filter(|p| p.contains("cannot be decoded")) {
                    return Err(format!("{}: {problem}", tree.label()));
                }
            }
            Ok(_) => {}
        }
    }
    store
        .providers()
        .map_err(|e| format!("the providers: damaged, they do not decode ({e})"))?;
    Ok(())
}
