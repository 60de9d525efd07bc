//! Kits: the kits of a vehicle, a kit's components, and the kits an article is a component of.

use super::Catalogue;
use crate::catalogue::*;
use crate::store::error::StoreError;
use crate::store::indexes::DataTrees;
use crate::store::keys::{self, KeyBuf, KeyReader};
use crate::store::layout::TreeName;

impl Catalogue {
    /// Kit articles defined for a Ktype.
    pub fn kits_by_ktype(&self, ktype: &str) -> Result<Vec<ArticleKey>, StoreError> {
        self.article_list(TreeName::KtypeKit, ktype.as_bytes())
    }

    /// The components of a kit for a Ktype.
    pub fn kit_components(
        &self,
        kit: &ArticleKey,
        ktype: &str,
    ) -> Result<Vec<KitComponent>, StoreError> {
        self.all_under(&KeyBuf::new().article(kit).text(ktype).done())
    }

    /// Every component row of a kit, for each Ktype it is defined for, in key order.
    pub fn components_of_kit(&self, kit: &ArticleKey) -> Result<Vec<KitComponent>, StoreError> {
        self.all_under(&KeyBuf::new().article(kit).done())
    }

    /// Every kit `component` is a part of, each once, in key order (through `ComponentKit`).
    pub fn kits_holding(&self, component: &ArticleKey) -> Result<Vec<ArticleKey>, StoreError> {
        let mut found = Vec::new();
        self.tree(TreeName::ComponentKit).visit_prefix(
            &keys::article_prefix(component),
            |k, _| {
                let mut r = KeyReader::new(k);
                r.article();
                found.push(
                    r.last_article()
                        .ok_or_else(|| StoreError::undecodable(TreeName::ComponentKit))?,
                );
                Ok(())
            },
        )?;
        Ok(found)
    }
}
