//! What a staged row refers to, looked up in the catalogue as this change will leave it
//! (the data set sealed first, so its staged rows count).

use super::Staging;
use crate::catalogue::{ArticleKey, AssemblyGroup, CriterionDefinition, KeyValue};
use crate::store::error::StoreError;
use crate::store::keys::{self, KeyBuf};
use crate::store::layout::TreeName;
use crate::store::records::Record;

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

    /// The criterion definitions the catalogue holds before this change.
    pub fn current_criterion_definitions(&self) -> Result<Vec<CriterionDefinition>, StoreError> {
        self.base.records::<CriterionDefinition>().collect()
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

    /// The definition of criterion `id`, if the catalogue holds one.
    pub fn criterion_definition(
        &mut self,
        id: u32,
    ) -> Result<Option<CriterionDefinition>, StoreError> {
        let key = KeyBuf::new().u32(id).done();
        let Some(value) = self.value_of(TreeName::CriterionDefinitions, &key)? else {
            return Ok(None);
        };
        CriterionDefinition::decode(&key, &value)
            .map(Some)
            .ok_or_else(|| StoreError::undecodable(TreeName::CriterionDefinitions))
    }

    pub fn has_key(&mut self, table: u32, key: &str) -> Result<bool, StoreError> {
        let probe = KeyValue {
            table,
            key: key.to_owned(),
            value: String::new(),
        };
        self.contains(TreeName::KeyValues, &probe.key())
    }
}
