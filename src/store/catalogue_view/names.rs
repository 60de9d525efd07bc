//! The names of the small reference tables (brands, generic articles, manufacturers), read
//! once per generation: every answer names some, and a map beats a tree descent per name.

use std::collections::HashMap;
use std::sync::Arc;

use super::Catalogue;
use crate::catalogue::{GenericArticle, Manufacturer};
use crate::store::error::StoreError;
use crate::store::layout::TreeName;
use crate::store::reads;

/// The names of the small reference tables, read once per generation: every answer names
/// brands, genarts and manufacturers, and a map beats a tree descent per name.
#[derive(Debug, Default)]
pub struct Names {
    pub brands: HashMap<u32, String>,
    pub generic_articles: HashMap<u32, String>,
    pub manufacturers: HashMap<u32, String>,
}

/// The tables `Names` is read from.
pub(super) const NAME_TABLES: [TreeName; 3] = [
    TreeName::Brands,
    TreeName::GenericArticles,
    TreeName::Manufacturers,
];

impl Catalogue {
    /// The names of every brand, genart and manufacturer of this generation.
    pub fn names(&self) -> Result<&Names, StoreError> {
        if let Some(names) = self.names.get() {
            for t in NAME_TABLES {
                reads::note_table(t, self.generations[t.index()]);
            }
            return Ok(names);
        }
        let mut names = Names::default();
        for b in self.brands() {
            let b = b?;
            names.brands.insert(b.id, b.name);
        }
        for g in self.scan::<GenericArticle>(Vec::new()) {
            let g = g?;
            names.generic_articles.insert(g.id, g.name);
        }
        for m in self.scan::<Manufacturer>(Vec::new()) {
            let m = m?;
            names.manufacturers.insert(m.id, m.name);
        }
        Ok(self.names.get_or_init(|| Arc::new(names)))
    }
}
