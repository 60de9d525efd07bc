//! How each index is derived from the data tables. Imports build indexes with this and
//! `check` verifies them with it, so the two can never disagree about what an index holds.

use std::path::Path;

use super::error::StoreError;
use super::keys::{KeyBuf, KeyReader, SEP};
use super::layout::TreeName;
use super::packed::{Entries, PackedTable};
use super::records::{Code, Record};
use super::sorter::Sorter;

use crate::catalogue::{
    Article, ArticleKey, CrossKind, CrossReference, KitComponent, normalise_reference,
};

/// Where index derivation reads its data tables from (the current or a staged generation).
pub trait DataTrees {
    fn tree(&self, name: TreeName) -> &PackedTable;
}

type Emit<'e> = dyn FnMut(&[u8], &[u8]) -> Result<(), StoreError> + 'e;
/// Takes an article's key in `Articles` and its numeric id.
type Numbered<'n> = dyn FnMut(&[u8], u32) -> Result<(), StoreError> + 'n;
/// Takes the built entries of an index, in key order.
pub(super) type Out<'o> = dyn FnMut(&[u8], &[u8]) -> Result<(), StoreError> + 'o;

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
    if index == TreeName::ArticleRecords {
        // Derived in key order by one walk of its tables: nothing to sort.
        return super::article_records::build(data, out);
    }
    let mut sorter = Sorter::new(spill);
    let mut sequence = 0u64;
    derive(index, data, &mut |k, v| {
        sequence += 1;
        sorter.push(k, v, sequence)
    })?;
    let mut pending: Option<(Vec<u8>, Vec<u8>)> = None;
    let mut last_part: Vec<u8> = Vec::new();
    let mut written = 0;
    sorter.each(|key, value, _| {
        match &mut pending {
            Some((pending_key, joined)) if pending_key.as_slice() == key => {
                // Sources are read in article order, so a repeat is always adjacent.
                if index.is_list() && value != last_part.as_slice() {
                    joined.extend_from_slice(value);
                    last_part.clear();
                    last_part.extend_from_slice(value);
                }
            }
            _ => {
                if let Some((pending_key, joined)) = &mut pending {
                    out(pending_key, joined)?;
                    written += 1;
                    pending_key.clear();
                    pending_key.extend_from_slice(key);
                    joined.clear();
                    joined.extend_from_slice(value);
                } else {
                    pending = Some((key.to_vec(), value.to_vec()));
                }
                last_part.clear();
                last_part.extend_from_slice(value);
            }
        }
        Ok(())
    })?;
    if let Some((key, value)) = pending {
        out(&key, &value)?;
        written += 1;
    }
    Ok(written)
}

/// `ArticleIds` entries: `ARTICLE_BY_ID ‖ id` → the article's key in `Articles`,
/// `ID_BY_ARTICLE ‖ that key` → the id, `NEXT_ARTICLE_ID` → the id the next new article gets.
pub const ARTICLE_BY_ID: u8 = 0;
pub const ID_BY_ARTICLE: u8 = 1;
pub const NEXT_ARTICLE_ID: u8 = 2;

/// Numbers the articles as Pegasus clients expect them (a positive 32-bit `legacyArticleId`):
/// an article keeps the id the current `ArticleIds` gives it, a new one takes the next never
/// given, so an id names one article for as long as the store lives, across imports. Both
/// walks are in the articles' key order. Returns the next id.
fn assign_article_ids(data: &dyn DataTrees, found: &mut Numbered<'_>) -> Result<u32, StoreError> {
    let current = data.tree(TreeName::ArticleIds);
    let id_of = |v: Vec<u8>| -> Result<u32, StoreError> {
        Ok(u32::from_be_bytes(
            v.try_into().map_err(|_| corrupt(TreeName::ArticleIds))?,
        ))
    };
    let mut next = match current.get(&[NEXT_ARTICLE_ID])? {
        Some(v) => id_of(v)?,
        // None given yet, or a store from before ids: start past any there is.
        None => {
            let mut next = 1;
            for entry in current.scan_prefix(vec![ID_BY_ARTICLE]) {
                next = next.max(id_of(entry?.1)?.saturating_add(1));
            }
            next
        }
    };
    let mut known = current.scan_prefix(vec![ID_BY_ARTICLE]).peekable();
    for entry in data.tree(TreeName::Articles).iter() {
        let (article, _) = entry?;
        let mut id = None;
        while let Some(entry) = known.peek() {
            let Ok((k, _)) = entry else {
                return Err(known
                    .next()
                    .and_then(Result::err)
                    .unwrap_or_else(|| corrupt(TreeName::ArticleIds)));
            };
            match k[1..].cmp(&article[..]) {
                // A retired article's id: never given again.
                std::cmp::Ordering::Less => {}
                std::cmp::Ordering::Equal => {
                    id = known.next().and_then(Result::ok).map(|(_, v)| v);
                    break;
                }
                std::cmp::Ordering::Greater => break,
            }
            known.next();
        }
        let id = match id {
            Some(v) => id_of(v)?,
            None if next > i32::MAX as u32 => {
                return Err(StoreError::ArticleIdsExhausted);
            }
            None => {
                next += 1;
                next - 1
            }
        };
        found(&article, id)?;
    }
    Ok(next)
}

/// The `CrossnumArticle` entry of a cross-reference.
pub fn crossnum_entry(c: &CrossReference) -> (Vec<u8>, Vec<u8>) {
    let key = KeyBuf::new()
        .text(&normalise_reference(&c.number))
        .u8(c.kind.code())
        .u32(c.manufacturer_id.unwrap_or(0))
        .last_article(&c.article)
        .done();
    (key, c.number.clone().into_bytes())
}

/// The `CrossnumArticle` entry of an article's EAN.
pub fn ean_entry(article: &ArticleKey, ean: String) -> (Vec<u8>, Vec<u8>) {
    let key = KeyBuf::new()
        .text(&ean)
        .u8(CrossKind::Ean.code())
        .u32(0)
        .last_article(article)
        .done();
    (key, ean.into_bytes())
}

/// The `ManufacturerCompetitorRef` entry of a competitor's cross-reference.
pub fn competitor_entry(c: &CrossReference) -> Option<(Vec<u8>, Vec<u8>)> {
    (c.kind == CrossKind::Competitor).then(|| {
        let key = KeyBuf::new()
            .u32(c.manufacturer_id.unwrap_or(0))
            .text(&normalise_reference(&c.number))
            .last_article(&c.article)
            .done();
        (key, c.number.clone().into_bytes())
    })
}

/// The `ReplacedArticle` keys of an article: one per number replacing it.
pub fn replacement_keys(a: &Article) -> Vec<Vec<u8>> {
    a.replaced_by
        .iter()
        .map(|written| normalise_reference(written))
        .filter(|number| !number.is_empty())
        .map(|number| KeyBuf::new().text(&number).last_article(&a.key).done())
        .collect()
}

/// The `ComponentKit` key of a kit's component row: the component, then the kit.
pub fn component_kit_key(k: &KitComponent) -> Vec<u8> {
    KeyBuf::new()
        .article(&k.component)
        .last_article(&k.kit)
        .done()
}

/// Splits a key that starts with an article into the article's part (`brand_id ‖ reference
/// ‖ 0xFF`, as an article list holds it) and the text part that follows (a Ktype).
fn article_and_text(key: &[u8]) -> Option<(&[u8], &[u8])> {
    let end = 4 + key.get(4..)?.iter().position(|&b| b == SEP)?;
    let (article, rest) = key.split_at(end + 1);
    let text = rest.split(|&b| b == SEP).next()?;
    std::str::from_utf8(&article[4..end]).ok()?;
    std::str::from_utf8(text).ok()?;
    Some((article, text))
}

/// Calls `emit` for every (key, value) pair `index` is made of, in no particular order.
fn derive(index: TreeName, data: &dyn DataTrees, emit: &mut Emit<'_>) -> Result<(), StoreError> {
    match index {
        TreeName::RefnormArticle | TreeName::RefrevReference => {
            for article in records::<Article>(data.tree(TreeName::Articles).iter()) {
                let a = article?.key;
                if index == TreeName::RefnormArticle {
                    emit(
                        &KeyBuf::new().text(&a.reference).u32(a.brand_id).done(),
                        &[],
                    )?;
                } else {
                    emit(&reversed(&a.reference), &[])?;
                }
            }
        }
        TreeName::CrossnumArticle | TreeName::CrossrevNumber => derive_numbers(index, data, emit)?,
        TreeName::KtypeArticle | TreeName::GenartKtypeArticle => derive_links(index, data, emit)?,
        TreeName::KtypeKit => {
            data.tree(TreeName::Kits).iter().each(|k, _| {
                let (kit, ktype) = article_and_text(k).ok_or_else(|| corrupt(TreeName::Kits))?;
                emit(ktype, kit)
            })?;
        }
        TreeName::ComponentKit => {
            for row in records::<KitComponent>(data.tree(TreeName::Kits).iter()) {
                emit(&component_kit_key(&row?), &[])?;
            }
        }
        TreeName::ManufacturerCompetitorRef => {
            for cross in records::<CrossReference>(data.tree(TreeName::CrossReferences).iter()) {
                if let Some((key, value)) = competitor_entry(&cross?) {
                    emit(&key, &value)?;
                }
            }
        }
        TreeName::ReplacedArticle => {
            for article in records::<Article>(data.tree(TreeName::Articles).iter()) {
                for key in replacement_keys(&article?) {
                    emit(&key, &[])?;
                }
            }
        }
        TreeName::ArticleIds => {
            let next = assign_article_ids(data, &mut |article, id| {
                let id = id.to_be_bytes();
                emit(&[&[ARTICLE_BY_ID][..], &id].concat(), article)?;
                emit(&[&[ID_BY_ARTICLE][..], article].concat(), &id)
            })?;
            emit(&[NEXT_ARTICLE_ID], &next.to_be_bytes())?;
        }
        TreeName::CriterionIds => {
            let sources = super::criterion_ids::Sources {
                definitions: data.tree(TreeName::CriterionDefinitions),
                criteria: data.tree(TreeName::Criteria),
                current: data.tree(TreeName::CriterionIds),
            };
            super::criterion_ids::derive(sources, emit)?
        }
        data_tree => {
            return Err(StoreError::Internal(format!(
                "{} is not an index",
                data_tree.name()
            )));
        }
    }
    Ok(())
}

/// The number indexes: every cross number and EAN, forwards (`CrossnumArticle`) or
/// reversed for suffix matches (`CrossrevNumber`).
fn derive_numbers(
    index: TreeName,
    data: &dyn DataTrees,
    emit: &mut Emit<'_>,
) -> Result<(), StoreError> {
    for cross in records::<CrossReference>(data.tree(TreeName::CrossReferences).iter()) {
        let c = cross?;
        if index == TreeName::CrossrevNumber {
            emit(&reversed(&normalise_reference(&c.number)), &[])?;
            continue;
        }
        let (key, value) = crossnum_entry(&c);
        emit(&key, &value)?;
    }
    for article in records::<Article>(data.tree(TreeName::Articles).iter()) {
        let a = article?;
        for ean in a.eans {
            if index == TreeName::CrossrevNumber {
                emit(&reversed(&ean), &[])?;
                continue;
            }
            let (key, value) = ean_entry(&a.key, ean);
            emit(&key, &value)?;
        }
    }
    Ok(())
}

/// The vehicle indexes: the articles of each Ktype (`KtypeArticle`), or of each generic
/// article and Ktype (`GenartKtypeArticle`).
fn derive_links(
    index: TreeName,
    data: &dyn DataTrees,
    emit: &mut Emit<'_>,
) -> Result<(), StoreError> {
    let articles = data.tree(TreeName::Articles);
    // Links are stored article by article, so one article lookup serves a run of links.
    let mut last: Option<(Vec<u8>, u32)> = None;
    let mut key = Vec::new();
    data.tree(TreeName::Links).iter().each(|k, _| {
        let (article, ktype) = article_and_text(k).ok_or_else(|| corrupt(TreeName::Links))?;
        if index == TreeName::KtypeArticle {
            return emit(ktype, article);
        }
        let genart = match &mut last {
            Some((key, genart)) if key.as_slice() == article => *genart,
            _ => {
                let key = &article[..article.len() - 1];
                let value = articles.get(key)?.ok_or_else(|| corrupt(TreeName::Links))?;
                let genart = Article::decode(key, &value)
                    .ok_or_else(|| corrupt(TreeName::Articles))?
                    .genart;
                last = Some((article.to_vec(), genart));
                genart
            }
        };
        key.clear();
        key.extend_from_slice(&genart.to_be_bytes());
        key.extend_from_slice(ktype);
        emit(&key, article)
    })
}
