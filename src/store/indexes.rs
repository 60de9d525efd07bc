//! How each index is derived from the data tables. Imports build indexes with this and
//! `check` verifies them with it, so the two can never disagree about what an index holds.

use std::path::Path;

use super::error::StoreError;
use super::keys::{KeyBuf, KeyReader};
use super::layout::TreeName;
use super::packed::{Entries, PackedTable};
use super::records::{Code, Record};
use super::sorter::Sorter;

use crate::catalogue::{Article, ArticleKey, CrossKind, CrossReference, normalise_reference};

/// Where index derivation reads its data tables from (the current or a staged generation).
pub trait DataTrees {
    fn tree(&self, name: TreeName) -> &PackedTable;
}

type Emit<'e> = dyn FnMut(Vec<u8>, Vec<u8>) -> Result<(), StoreError> + 'e;
/// Takes the built entries of an index, in key order.
type Out<'o> = dyn FnMut(&[u8], &[u8]) -> Result<(), StoreError> + 'o;

fn corrupt(tree: TreeName) -> StoreError {
    StoreError::undecodable(tree)
}

/// Decodes the records a table scan yields.
pub(super) fn records<R: Record>(entries: Entries) -> impl Iterator<Item = Result<R, StoreError>> {
    entries.map(|entry| {
        let (k, v) = entry?;
        R::decode(&k, &v).ok_or_else(|| corrupt(R::TREE))
    })
}

/// Reads the value of a list index entry back: `brand_id ‖ reference ‖ 0xFF` per article.
pub fn article_list(value: &[u8]) -> Option<Vec<ArticleKey>> {
    let mut r = KeyReader::new(value);
    let mut found = Vec::new();
    while !r.is_empty() {
        found.push(r.article()?);
    }
    Some(found)
}

/// A normalised number written backwards: suffixes of numbers become prefixes of these.
pub fn reversed(number: &str) -> Vec<u8> {
    number.bytes().rev().collect()
}

/// The entries of `index`, in key order and each key once, derived from `data`: every
/// derived pair goes through an external sort; pairs with one key are then joined into one
/// entry (a list index concatenates their articles, any other index keeps the first).
pub fn build(
    index: TreeName,
    data: &dyn DataTrees,
    spill: &Path,
    out: &mut Out<'_>,
) -> Result<u64, StoreError> {
    let mut sorter = Sorter::new(spill);
    let mut sequence = 0u64;
    derive(index, data, &mut |k, v| {
        sequence += 1;
        sorter.push(k, v, sequence)
    })?;
    let mut pending: Option<(Vec<u8>, Vec<u8>)> = None;
    let mut last_part: Vec<u8> = Vec::new();
    let mut written = 0;
    for item in sorter.sorted()? {
        let item = item?;
        match &mut pending {
            Some((key, value)) if *key == item.key => {
                // Sources are read in article order, so a repeat is always adjacent.
                if index.is_list() && item.value != last_part {
                    value.extend_from_slice(&item.value);
                    last_part = item.value;
                }
            }
            _ => {
                if let Some((key, value)) = pending.take() {
                    out(&key, &value)?;
                    written += 1;
                }
                last_part.clone_from(&item.value);
                pending = Some((item.key, item.value));
            }
        }
    }
    if let Some((key, value)) = pending {
        out(&key, &value)?;
        written += 1;
    }
    Ok(written)
}

/// Calls `emit` for every (key, value) pair `index` is made of, in no particular order.
fn derive(index: TreeName, data: &dyn DataTrees, emit: &mut Emit<'_>) -> Result<(), StoreError> {
    let article_entry = |a: &ArticleKey| KeyBuf::new().article(a).done();
    match index {
        TreeName::RefnormArticle | TreeName::RefrevReference => {
            for article in records::<Article>(data.tree(TreeName::Articles).iter()) {
                let a = article?.key;
                if index == TreeName::RefnormArticle {
                    emit(
                        KeyBuf::new().text(&a.reference).u32(a.brand_id).done(),
                        Vec::new(),
                    )?;
                } else {
                    emit(reversed(&a.reference), Vec::new())?;
                }
            }
        }
        TreeName::CrossnumArticle | TreeName::CrossrevNumber => {
            for cross in records::<CrossReference>(data.tree(TreeName::CrossReferences).iter()) {
                let c = cross?;
                let number = normalise_reference(&c.number);
                if index == TreeName::CrossrevNumber {
                    emit(reversed(&number), Vec::new())?;
                    continue;
                }
                let key = KeyBuf::new()
                    .text(&number)
                    .u8(c.kind.code())
                    .u32(c.manufacturer_id.unwrap_or(0))
                    .last_article(&c.article)
                    .done();
                emit(key, c.number.into_bytes())?;
            }
            for article in records::<Article>(data.tree(TreeName::Articles).iter()) {
                let a = article?;
                for ean in a.eans {
                    if index == TreeName::CrossrevNumber {
                        emit(reversed(&ean), Vec::new())?;
                        continue;
                    }
                    let key = KeyBuf::new()
                        .text(&ean)
                        .u8(CrossKind::Ean.code())
                        .u32(0)
                        .last_article(&a.key)
                        .done();
                    emit(key, ean.into_bytes())?;
                }
            }
        }
        TreeName::KtypeArticle | TreeName::GenartKtypeArticle => {
            let articles = data.tree(TreeName::Articles);
            // Links are stored article by article, so one article lookup serves a run of links.
            let mut last: Option<(ArticleKey, u32)> = None;
            for entry in data.tree(TreeName::Links).iter() {
                let (k, _) = entry?;
                let mut r = KeyReader::new(&k);
                let (article, ktype) = r
                    .article()
                    .zip(r.last_text())
                    .ok_or_else(|| corrupt(TreeName::Links))?;
                if index == TreeName::KtypeArticle {
                    emit(
                        KeyBuf::new().last_text(&ktype).done(),
                        article_entry(&article),
                    )?;
                    continue;
                }
                let genart = match &last {
                    Some((key, genart)) if *key == article => *genart,
                    _ => {
                        let key = super::keys::article_key(&article);
                        let value = articles
                            .get(&key)?
                            .ok_or_else(|| corrupt(TreeName::Links))?;
                        let genart = Article::decode(&key, &value)
                            .ok_or_else(|| corrupt(TreeName::Articles))?
                            .genart;
                        last = Some((article.clone(), genart));
                        genart
                    }
                };
                emit(
                    KeyBuf::new().u32(genart).last_text(&ktype).done(),
                    article_entry(&article),
                )?;
            }
        }
        TreeName::KtypeKit => {
            for entry in data.tree(TreeName::Kits).iter() {
                let (k, _) = entry?;
                let mut r = KeyReader::new(&k);
                let (kit, ktype) = r
                    .article()
                    .zip(r.text())
                    .ok_or_else(|| corrupt(TreeName::Kits))?;
                emit(KeyBuf::new().last_text(&ktype).done(), article_entry(&kit))?;
            }
        }
        TreeName::ManufacturerCompetitorRef => {
            for cross in records::<CrossReference>(data.tree(TreeName::CrossReferences).iter()) {
                let c = cross?;
                if c.kind != CrossKind::Competitor {
                    continue;
                }
                let key = KeyBuf::new()
                    .u32(c.manufacturer_id.unwrap_or(0))
                    .text(&normalise_reference(&c.number))
                    .last_article(&c.article)
                    .done();
                emit(key, c.number.into_bytes())?;
            }
        }
        data_tree => {
            return Err(StoreError::Engine(format!(
                "{} is not an index",
                data_tree.name()
            )));
        }
    }
    Ok(())
}
