//! What a staged row refers to, looked up in the catalogue as this change will leave it
//! (the data set sealed first, so its staged rows count).

use super::Staging;
use crate::catalogue::{ArticleKey, AssemblyGroup};
use crate::store::error::StoreError;
use crate::store::keys::{self, KeyBuf};
use crate::store::layout::TreeName;

impl Staging<'_> {
    pub fn has_brand(&mut self, id: u32) -> Result<bool, StoreError> {
        self.contains(TreeName::Brands, &KeyBuf::new().u32(id).done())
    }

    pub fn has_manufacturer(&mut self, id: u32) -> Result<bool, StoreError> {
        self.contains(TreeName::Manufacturers, &KeyBuf::new().u32(id).done())
    }

    pub fn has_model_series(&mut self, id: u32) -> Result<bool, StoreError> {
        self.contains(TreeName::ModelSeries, &KeyBuf::new().u32(id).done())
    }

    pub fn has_assembly_group(&mut self, id: u32) -> Result<bool, StoreError> {
        self.contains(TreeName::AssemblyGroups, &KeyBuf::new().u32(id).done())
    }

    /// The assembly groups the catalogue holds before this change (the tree a file of
    /// assembly groups is checked against).
    pub fn current_assembly_groups(&self) -> Result<Vec<AssemblyGroup>, StoreError> {
        self.base.records::<AssemblyGroup>().collect()
    }

    pub fn has_generic_article(&mut self, id: u32) -> Result<bool, StoreError> {
        self.contains(TreeName::GenericArticles, &KeyBuf::new().u32(id).done())
    }

    pub fn has_vehicle(&mut self, ktype: &str) -> Result<bool, StoreError> {
        self.contains(TreeName::Vehicles, ktype.as_bytes())
    }

    pub fn has_article(&mut self, article: &ArticleKey) -> Result<bool, StoreError> {
        self.contains(TreeName::Articles, &keys::article_key(article))
    }
}
