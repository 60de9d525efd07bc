//! How each index is derived from the data trees. Imports build indexes with this and
//! `check` verifies them with it, so the two can never disagree about what an index holds.

use super::error::StoreError;
use super::keys::{KeyBuf, KeyReader};
use super::layout::TreeName;
use super::records::{Code, Record};
use std::collections::BTreeMap;

use crate::catalogue::{Article, ArticleKey, CrossKind, CrossReference, normalise_reference};

/// Where index derivation reads its data trees from (the current or a staged generation).
pub trait DataTrees {
    fn tree(&self, name: TreeName) -> &sled::Tree;
}

type Emit<'e> = dyn FnMut(Vec<u8>, Vec<u8>) -> Result<(), StoreError> + 'e;

fn corrupt(tree: TreeName) -> StoreError {
    StoreError::undecodable(tree)
}

/// Decodes the records a tree iteration yields.
pub(super) fn records<R: Record>(
    entries: sled::Iter,
) -> impl Iterator<Item = Result<R, StoreError>> {
    entries.map(|entry| {
        let (k, v) = entry?;
        R::decode(&k, &v).ok_or_else(|| corrupt(R::TREE))
    })
}

/// Index entries whose value lists articles (`brand_id ‖ reference ‖ 0xFF` each), one entry
/// per key: a Ktype's articles are one read instead of a scan of one entry per article.
#[derive(Default)]
struct ArticleLists(BTreeMap<Vec<u8>, Vec<u8>>);

impl ArticleLists {
    /// Adds an article to a key's list; sources are read in article order, so lists come out
    /// sorted, and a repeat of the same article is always adjacent.
    fn add(&mut self, key: Vec<u8>, article: &ArticleKey) {
        let entry = KeyBuf::new().article(article).done();
        let list = self.0.entry(key).or_default();
        if !list.ends_with(&entry) {
            list.extend_from_slice(&entry);
        }
    }

    fn emit(self, emit: &mut Emit<'_>) -> Result<(), StoreError> {
        for (key, list) in self.0 {
            emit(key, list)?;
        }
        Ok(())
    }
}

/// Reads the value of an `ArticleLists` entry back.
pub fn article_list(value: &[u8]) -> Option<Vec<ArticleKey>> {
    let mut r = KeyReader::new(value);
    let mut found = Vec::new();
    while !r.is_empty() {
        found.push(r.article()?);
    }
    Some(found)
}

/// Calls `emit` once for every entry `index` must hold, each key exactly once.
pub fn derive(
    index: TreeName,
    data: &dyn DataTrees,
    emit: &mut Emit<'_>,
) -> Result<(), StoreError> {
    match index {
        TreeName::RefnormArticle => {
            for article in records::<Article>(data.tree(TreeName::Articles).iter()) {
                let a = article?.key;
                emit(
                    KeyBuf::new().text(&a.reference).u32(a.brand_id).done(),
                    Vec::new(),
                )?;
            }
        }
        TreeName::CrossnumArticle => {
            for cross in records::<CrossReference>(data.tree(TreeName::CrossReferences).iter()) {
                let c = cross?;
                let key = KeyBuf::new()
                    .text(&normalise_reference(&c.number))
                    .u8(c.kind.code())
                    .u32(c.manufacturer_id.unwrap_or(0))
                    .last_article(&c.article)
                    .done();
                emit(key, c.number.into_bytes())?;
            }
            for article in records::<Article>(data.tree(TreeName::Articles).iter()) {
                let a = article?;
                for ean in a.eans {
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
            let mut lists = ArticleLists::default();
            // Links are stored article by article, so one article lookup serves a run of links.
            let mut last: Option<(Vec<u8>, u32)> = None;
            for entry in data.tree(TreeName::Links).iter() {
                let (k, _) = entry?;
                let mut r = KeyReader::new(&k);
                let (article, ktype) = r
                    .article()
                    .zip(r.last_text())
                    .ok_or_else(|| corrupt(TreeName::Links))?;
                if index == TreeName::KtypeArticle {
                    lists.add(KeyBuf::new().last_text(&ktype).done(), &article);
                    continue;
                }
                let article_key = super::keys::article_key(&article);
                let genart = match &last {
                    Some((key, genart)) if *key == article_key => *genart,
                    _ => {
                        let value = articles
                            .get(&article_key)?
                            .ok_or_else(|| corrupt(TreeName::Links))?;
                        let genart = Article::decode(&article_key, &value)
                            .ok_or_else(|| corrupt(TreeName::Articles))?
                            .genart;
                        last = Some((article_key, genart));
                        genart
                    }
                };
                lists.add(KeyBuf::new().u32(genart).last_text(&ktype).done(), &article);
            }
            lists.emit(emit)?;
        }
        TreeName::KtypeKit => {
            let mut lists = ArticleLists::default();
            for entry in data.tree(TreeName::Kits).iter() {
                let (k, _) = entry?;
                let mut r = KeyReader::new(&k);
                let (kit, ktype) = r
                    .article()
                    .zip(r.text())
                    .ok_or_else(|| corrupt(TreeName::Kits))?;
                lists.add(KeyBuf::new().last_text(&ktype).done(), &kit);
            }
            lists.emit(emit)?;
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
