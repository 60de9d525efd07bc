//! What a small change of the data sets changes in each index, article by article: the
//! entries an index holds for an article are derived from the data as it was and as it will
//! be, and only their difference is written. What `indexes::build` derives from a whole
//! table, this derives from one article's rows, with the same helpers, so the two agree
//! (`check` compares every index with a full derivation).

use std::collections::{BTreeMap, BTreeSet};

use super::article_records;
use super::error::StoreError;
use super::indexes::{
    self, ARTICLE_BY_ID, DataTrees, ID_BY_ARTICLE, NEXT_ARTICLE_ID, crossnum_entry, reversed,
};
use super::keys::{self, KeyBuf, KeyReader};
use super::layout::TreeName;
use super::packed::Change;
use super::records::Record;
use super::touched::Touched;
use crate::catalogue::{Article, ArticleKey, CrossReference, KitComponent};

/// The articles (their list entries) that join a list, and those that leave it.
type Moves = (BTreeSet<Vec<u8>>, BTreeSet<Vec<u8>>);

/// The changes that bring `index` from what `old` derives to what `new` derives, for the
/// touched articles; `None` where the index must be built whole instead. `new` holds the
/// indexes already brought up to date in this change (the reversed ones read them).
pub fn changes(
    index: TreeName,
    old: &dyn DataTrees,
    new: &dyn DataTrees,
    touched: &Touched,
) -> Result<Option<Vec<Change>>, StoreError> {
    let mut out: BTreeMap<Vec<u8>, Option<Vec<u8>>> = BTreeMap::new();
    match index {
        TreeName::RefnormArticle
        | TreeName::CrossnumArticle
        | TreeName::ManufacturerCompetitorRef
        | TreeName::ReplacedArticle
        | TreeName::ComponentKit => {
            for (_, article, _) in touched.of(index) {
                let before = keyed(index, old, article)?;
                let after = keyed(index, new, article)?;
                for key in before.keys().filter(|k| !after.contains_key(*k)) {
                    out.insert(key.clone(), None);
                }
                for (key, value) in after {
                    if before.get(&key) != Some(&value) {
                        out.insert(key, Some(value));
                    }
                }
            }
        }
        TreeName::KtypeArticle | TreeName::GenartKtypeArticle | TreeName::KtypeKit => {
            // Per list: the articles that join it and those that leave it.
            let mut lists: BTreeMap<Vec<u8>, Moves> = BTreeMap::new();
            for (_, article, _) in touched.of(index) {
                let before = lists_of(index, old, article)?;
                let after = lists_of(index, new, article)?;
                let entry = KeyBuf::new().article(article).done();
                for list in after.difference(&before) {
                    lists
                        .entry(list.clone())
                        .or_default()
                        .0
                        .insert(entry.clone());
                }
                for list in before.difference(&after) {
                    lists
                        .entry(list.clone())
                        .or_default()
                        .1
                        .insert(entry.clone());
                }
            }
            for (list, (joining, leaving)) in lists {
                let mut members: BTreeSet<Vec<u8>> = match old.tree(index).get(&list)? {
                    Some(value) => split_list(&value).ok_or_else(|| corrupt(index))?,
                    None => BTreeSet::new(),
                };
                members.retain(|m| !leaving.contains(m));
                members.extend(joining);
                let value = (!members.is_empty()).then(|| members.into_iter().flatten().collect());
                out.insert(list, value);
            }
        }
        TreeName::ArticleIds => return article_ids(old, new, touched),
        TreeName::CriterionIds => {
            let (index, criteria) = (old.tree(index), new.tree(TreeName::Criteria));
            return super::criterion_ids::changes(index, criteria, touched);
        }
        TreeName::ArticleRecords => {
            let names = article_records::GenartNames::of(new)?;
            for (_, article, tables) in touched.of(index) {
                let key = keys::article_prefix(article);
                let before = old.tree(index).get(&key)?;
                // Only the tables the change wrote rows of the article to are read again;
                // what its record holds of the others is copied.
                let after =
                    article_records::patched(new, &names, article, before.as_deref(), |t| {
                        tables.has(t)
                    })?;
                if before != after {
                    out.insert(key, after);
                }
            }
        }
        TreeName::RefrevReference | TreeName::CrossrevNumber => {
            return Err(StoreError::Internal(format!(
                "{} follows its forward index's changes (reversed_changes)",
                index.name()
            )));
        }
        data_tree => {
            return Err(StoreError::Internal(format!(
                "{} is not an index",
                data_tree.name()
            )));
        }
    }
    Ok(Some(
        out.into_iter()
            .map(|(key, value)| Change { key, value })
            .collect(),
    ))
}

/// The forward index a reversed index lists the numbers of.
pub fn forward_of(index: TreeName) -> Option<TreeName> {
    match index {
        TreeName::RefrevReference => Some(TreeName::RefnormArticle),
        TreeName::CrossrevNumber => Some(TreeName::CrossnumArticle),
        _ => None,
    }
}

/// The changes of a reversed index, from its forward index's `forward` changes: a reversed
/// number is there while any article has the number, so only the numbers whose forward
/// entries changed can come or go. `new` holds the forward index already patched.
pub fn reversed_changes(
    index: TreeName,
    old: &dyn DataTrees,
    new: &dyn DataTrees,
    forward: &[Change],
) -> Result<Vec<Change>, StoreError> {
    let forward_index = forward_of(index)
        .ok_or_else(|| StoreError::Internal(format!("{} is not a reversed index", index.name())))?;
    let numbers: BTreeSet<String> = forward
        .iter()
        .map(|c| {
            KeyReader::new(&c.key)
                .text()
                .ok_or_else(|| corrupt(forward_index))
        })
        .collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for number in numbers {
        let key = reversed(&number);
        let was = old.tree(index).contains_key(&key)?;
        let is = new
            .tree(forward_index)
            .scan_prefix(keys::text_prefix(&number))
            .next()
            .transpose()?
            .is_some();
        if was != is {
            out.push(Change {
                key,
                value: is.then(Vec::new),
            });
        }
    }
    // Reversed keys do not sort as their numbers do.
    out.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(out)
}

fn corrupt(tree: TreeName) -> StoreError {
    StoreError::undecodable(tree)
}

fn article_record(data: &dyn DataTrees, a: &ArticleKey) -> Result<Option<Article>, StoreError> {
    let key = keys::article_key(a);
    match data.tree(TreeName::Articles).get(&key)? {
        Some(value) => Article::decode(&key, &value)
            .map(Some)
            .ok_or_else(|| corrupt(TreeName::Articles)),
        None => Ok(None),
    }
}

fn cross_references_of(
    data: &dyn DataTrees,
    a: &ArticleKey,
) -> Result<Vec<CrossReference>, StoreError> {
    indexes::records::<CrossReference>(
        data.tree(TreeName::CrossReferences)
            .scan_prefix(keys::article_prefix(a)),
    )
    .collect()
}

/// The text after the article in the keys of `tree` under it (a Ktype of a link or a kit).
fn ktypes_of(
    data: &dyn DataTrees,
    tree: TreeName,
    a: &ArticleKey,
) -> Result<BTreeSet<String>, StoreError> {
    let mut found = BTreeSet::new();
    for entry in data.tree(tree).scan_prefix(keys::article_prefix(a)) {
        let (k, _) = entry?;
        let mut r = KeyReader::new(&k);
        r.article().ok_or_else(|| corrupt(tree))?;
        let ktype = match tree {
            TreeName::Links => r.last_text(),
            _ => r.text(),
        };
        found.insert(ktype.ok_or_else(|| corrupt(tree))?);
    }
    Ok(found)
}

/// The entries one article gives an index keyed by it; where two rows give one key, the
/// first (in `indexes::build`'s order: cross-references before EANs) wins.
fn keyed(
    index: TreeName,
    data: &dyn DataTrees,
    a: &ArticleKey,
) -> Result<BTreeMap<Vec<u8>, Vec<u8>>, StoreError> {
    let mut out = BTreeMap::new();
    match index {
        TreeName::RefnormArticle if article_record(data, a)?.is_some() => {
            out.insert(
                KeyBuf::new().text(&a.reference).u32(a.brand_id).done(),
                Vec::new(),
            );
        }
        TreeName::CrossnumArticle => {
            for c in cross_references_of(data, a)? {
                let (key, value) = crossnum_entry(&c);
                out.entry(key).or_insert(value);
            }
            if let Some(article) = article_record(data, a)? {
                for ean in article.eans {
                    let (key, value) = indexes::ean_entry(&article.key, ean);
                    out.entry(key).or_insert(value);
                }
            }
        }
        TreeName::ManufacturerCompetitorRef => {
            for c in cross_references_of(data, a)? {
                if let Some((key, value)) = indexes::competitor_entry(&c) {
                    out.entry(key).or_insert(value);
                }
            }
        }
        TreeName::ComponentKit => {
            // Kit rows are stored under their kit: the touched article is the kit.
            for row in indexes::records::<KitComponent>(
                data.tree(TreeName::Kits)
                    .scan_prefix(keys::article_prefix(a)),
            ) {
                out.insert(indexes::component_kit_key(&row?), Vec::new());
            }
        }
        TreeName::ReplacedArticle => {
            if let Some(article) = article_record(data, a)? {
                for key in indexes::replacement_keys(&article) {
                    out.insert(key, Vec::new());
                }
            }
        }
        _ => {}
    }
    Ok(out)
}

/// The lists of a list index one article is in.
fn lists_of(
    index: TreeName,
    data: &dyn DataTrees,
    a: &ArticleKey,
) -> Result<BTreeSet<Vec<u8>>, StoreError> {
    let list = |ktype: &String| KeyBuf::new().last_text(ktype).done();
    Ok(match index {
        TreeName::KtypeArticle => ktypes_of(data, TreeName::Links, a)?
            .iter()
            .map(list)
            .collect(),
        TreeName::KtypeKit => ktypes_of(data, TreeName::Kits, a)?
            .iter()
            .map(list)
            .collect(),
        _ => {
            let ktypes = ktypes_of(data, TreeName::Links, a)?;
            match article_record(data, a)? {
                Some(article) => ktypes
                    .iter()
                    .map(|k| KeyBuf::new().u32(article.genart).last_text(k).done())
                    .collect(),
                None if ktypes.is_empty() => BTreeSet::new(),
                None => return Err(corrupt(TreeName::Links)),
            }
        }
    })
}

/// A list index's value as its articles' entries (`brand ‖ reference ‖ 0xFF` each).
fn split_list(value: &[u8]) -> Option<BTreeSet<Vec<u8>>> {
    let mut found = BTreeSet::new();
    let mut rest = value;
    while !rest.is_empty() {
        let end = 4 + rest.get(4..)?.iter().position(|&b| b == 0xFF)? + 1;
        found.insert(rest[..end].to_vec());
        rest = &rest[end..];
    }
    Some(found)
}

/// New articles take the next ids, in key order; retired ones lose theirs (never given
/// again). `None` for a store whose next id is not recorded: its build finds it.
fn article_ids(
    old: &dyn DataTrees,
    new: &dyn DataTrees,
    touched: &Touched,
) -> Result<Option<Vec<Change>>, StoreError> {
    let ids = old.tree(TreeName::ArticleIds);
    let id_of = |v: Vec<u8>| -> Result<u32, StoreError> {
        Ok(u32::from_be_bytes(
            v.try_into().map_err(|_| corrupt(TreeName::ArticleIds))?,
        ))
    };
    let Some(first_free) = ids.get(&[NEXT_ARTICLE_ID])? else {
        return Ok(None);
    };
    let first_free = id_of(first_free)?;
    let mut next = first_free;
    let mut out = BTreeMap::new();
    for (key, _, _) in touched.of(TreeName::ArticleIds) {
        let by_article = [&[ID_BY_ARTICLE][..], key].concat();
        let held = ids.get(&by_article)?.map(id_of).transpose()?;
        let exists = new.tree(TreeName::Articles).contains_key(key)?;
        match (held, exists) {
            (None, true) => {
                if next > i32::MAX as u32 {
                    return Err(StoreError::ArticleIdsExhausted);
                }
                out.insert(by_article, Some(next.to_be_bytes().to_vec()));
                out.insert(
                    [&[ARTICLE_BY_ID][..], &next.to_be_bytes()].concat(),
                    Some(key.clone()),
                );
                next += 1;
            }
            (Some(id), false) => {
                out.insert(by_article, None);
                out.insert([&[ARTICLE_BY_ID][..], &id.to_be_bytes()].concat(), None);
            }
            _ => {}
        }
    }
    if next != first_free {
        out.insert(vec![NEXT_ARTICLE_ID], Some(next.to_be_bytes().to_vec()));
    }
    Ok(Some(
        out.into_iter()
            .map(|(key, value)| Change { key, value })
            .collect(),
    ))
}
