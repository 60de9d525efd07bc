//! What a small change touched: the articles whose rows it changed, each with the tables
//! those rows are in. An index patched after the change looks only at the articles its own
//! sources changed (a change of prices leaves the vehicle lists' articles unread), and an
//! article's record reads again only the tables that changed.

use std::collections::BTreeMap;

use super::keys::{self, KeyReader};
use super::layout::TreeName;
use crate::catalogue::ArticleKey;

/// A set of tables, one bit each (`TreeName::index`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tables(u64);

const _: () = assert!(TreeName::ALL.len() <= 64, "a table's bit must fit in a u64");

impl Tables {
    fn of(trees: &[TreeName]) -> Tables {
        Tables(trees.iter().fold(0, |bits, &t| bits | 1 << t.index()))
    }

    pub fn has(self, tree: TreeName) -> bool {
        self.0 & 1 << tree.index() != 0
    }

    fn meets(self, other: Tables) -> bool {
        self.0 & other.0 != 0
    }
}

/// The articles a change touched, by their key in `Articles` (the order ids are given in).
#[derive(Debug, Default)]
pub struct Touched(BTreeMap<Vec<u8>, (ArticleKey, Tables)>);

impl Touched {
    pub fn new() -> Touched {
        Touched::default()
    }

    /// Notes that rows of `tree` under `article` changed.
    pub fn insert(&mut self, tree: TreeName, article: ArticleKey) {
        let key = keys::article_key(&article);
        let tables = &mut self.0.entry(key).or_insert((article, Tables::default())).1;
        tables.0 |= Tables::of(&[tree]).0;
    }

    /// How many articles the change touched, in all.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The touched articles whose rows in one of `index`'s sources changed, in key order:
    /// each with its key in `Articles` and the tables whose rows of it changed.
    pub fn of(&self, index: TreeName) -> impl Iterator<Item = (&Vec<u8>, &ArticleKey, Tables)> {
        let sources = Tables::of(index.sources());
        self.0
            .iter()
            .filter(move |(_, (_, tables))| tables.meets(sources))
            .map(|(key, (article, tables))| (key, article, *tables))
    }
}

/// The article a changed row of `tree` belongs to, if rows of `tree` feed an index.
pub fn article_of(tree: TreeName, key: &[u8]) -> Option<ArticleKey> {
    let mut r = KeyReader::new(key);
    match tree {
        TreeName::Articles => r.last_article(),
        TreeName::CrossReferences
        | TreeName::Links
        | TreeName::Kits
        | TreeName::Criteria
        | TreeName::Prices
        | TreeName::Media
        | TreeName::ArticleTexts => r.article(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(reference: &str) -> ArticleKey {
        ArticleKey {
            brand_id: 1,
            reference: reference.into(),
        }
    }

    fn seen_by(touched: &Touched, index: TreeName) -> Vec<(String, Vec<TreeName>)> {
        touched
            .of(index)
            .map(|(_, a, tables)| {
                let which = TreeName::ALL.into_iter().filter(|&t| tables.has(t));
                (a.reference.clone(), which.collect())
            })
            .collect()
    }

    #[test]
    fn an_index_sees_the_articles_its_own_sources_changed() {
        let mut touched = Touched::new();
        touched.insert(TreeName::Prices, key("P"));
        touched.insert(TreeName::Links, key("L"));
        touched.insert(TreeName::Prices, key("B"));
        touched.insert(TreeName::Articles, key("B"));
        assert_eq!(touched.len(), 3);
        // The reference index reads articles only: the new or changed article, not the one
        // whose prices or links changed.
        assert_eq!(
            seen_by(&touched, TreeName::RefnormArticle),
            [("B".into(), vec![TreeName::Articles, TreeName::Prices])]
        );
        assert_eq!(
            seen_by(&touched, TreeName::KtypeArticle),
            [("L".into(), vec![TreeName::Links])]
        );
        // The records hold prices: both articles whose prices changed, in key order.
        assert_eq!(
            seen_by(&touched, TreeName::ArticleRecords),
            [
                ("B".into(), vec![TreeName::Articles, TreeName::Prices]),
                ("P".into(), vec![TreeName::Prices])
            ]
        );
    }
}
