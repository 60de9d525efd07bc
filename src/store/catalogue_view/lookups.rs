//! The catalogue's records read by key: a brand, an article and its rows, a vehicle, plates,
//! the numeric ids, the article lists of the vehicle indexes.

use super::Catalogue;
use crate::catalogue::*;
use crate::store::article_records::ArticleRecord;
use crate::store::error::StoreError;
use crate::store::indexes::{self, DataTrees};
use crate::store::keys::{self, KeyBuf, KeyReader};
use crate::store::layout::TreeName;
use crate::store::reads;

impl Catalogue {
    pub fn brand(&self, id: u32) -> Result<Option<Brand>, StoreError> {
        self.get(&KeyBuf::new().u32(id).done())
    }

    pub fn brands(&self) -> impl Iterator<Item = Result<Brand, StoreError>> + '_ {
        self.scan(Vec::new())
    }

    pub fn manufacturer(&self, id: u32) -> Result<Option<Manufacturer>, StoreError> {
        self.get(&KeyBuf::new().u32(id).done())
    }

    pub fn generic_article(&self, id: u32) -> Result<Option<GenericArticle>, StoreError> {
        self.get(&KeyBuf::new().u32(id).done())
    }

    pub fn vehicle(&self, ktype: &str) -> Result<Option<Vehicle>, StoreError> {
        self.get(ktype.as_bytes())
    }

    pub fn article(&self, key: &ArticleKey) -> Result<Option<Article>, StoreError> {
        self.get(&keys::article_key(key))
    }

    /// The article with the rows an article's answer reads, in one read; `None` where the
    /// catalogue holds no such article.
    pub fn article_record(&self, key: &ArticleKey) -> Result<Option<ArticleRecord>, StoreError> {
        let t = TreeName::ArticleRecords;
        let prefix = keys::article_prefix(key);
        // The record is the one key under its prefix.
        reads::note_prefix(t, self.generations[t.index()], &prefix);
        let value = self.trees[t.index()].get(&prefix)?;
        Ok(value.map(|value| ArticleRecord::new(prefix, value)))
    }

    /// Every article of a brand, in reference order (the article tree is keyed by brand first).
    pub fn articles_of_brand(
        &self,
        brand_id: u32,
    ) -> impl Iterator<Item = Result<Article, StoreError>> + Send + 'static {
        self.scan(KeyBuf::new().u32(brand_id).done())
    }

    /// Every article, brand by brand in reference order.
    pub fn articles(&self) -> impl Iterator<Item = Result<Article, StoreError>> + '_ {
        self.scan(Vec::new())
    }

    /// Every vehicle type, in Ktype order.
    pub fn vehicles(&self) -> impl Iterator<Item = Result<Vehicle, StoreError>> + '_ {
        self.scan(Vec::new())
    }

    /// The cross-references an article carries (its own EANs are on the article).
    pub fn cross_references_of(
        &self,
        article: &ArticleKey,
    ) -> Result<Vec<CrossReference>, StoreError> {
        self.all_under(&keys::article_prefix(article))
    }

    pub fn criteria_of(&self, article: &ArticleKey) -> Result<Vec<Criterion>, StoreError> {
        self.all_under(&keys::article_prefix(article))
    }

    pub fn links_of(&self, article: &ArticleKey) -> Result<Vec<Link>, StoreError> {
        self.all_under(&keys::article_prefix(article))
    }

    pub fn prices_of(&self, article: &ArticleKey) -> Result<Vec<Price>, StoreError> {
        self.all_under(&keys::article_prefix(article))
    }

    pub fn media_of(&self, article: &ArticleKey) -> Result<Vec<Media>, StoreError> {
        self.all_under(&keys::article_prefix(article))
    }

    /// The plates or key numbers `number` (normalised) names in `country` (upper case),
    /// one per vehicle type.
    pub fn plates(&self, country: &str, number: &str) -> Result<Vec<Plate>, StoreError> {
        self.all_under(&KeyBuf::new().text(country).text(number).done())
    }

    /// The VIN patterns of the maker whose WMI (a VIN's first three characters, upper case)
    /// is `wmi`.
    pub fn vin_patterns(&self, wmi: &str) -> Result<Vec<VinPattern>, StoreError> {
        self.all_under(&KeyBuf::new().text(wmi).done())
    }

    /// The article's numeric id (Pegasus's `legacyArticleId`), kept across imports.
    pub fn article_id(&self, article: &ArticleKey) -> Result<Option<u32>, StoreError> {
        let key = [&[indexes::ID_BY_ARTICLE][..], &keys::article_key(article)].concat();
        Ok(self
            .tree(TreeName::ArticleIds)
            .get(&key)?
            .and_then(|v| Some(u32::from_be_bytes(v.try_into().ok()?))))
    }

    /// The article a numeric id names, if it is in the catalogue.
    pub fn article_by_id(&self, id: u32) -> Result<Option<ArticleKey>, StoreError> {
        let key = [&[indexes::ARTICLE_BY_ID][..], &id.to_be_bytes()].concat();
        match self.tree(TreeName::ArticleIds).get(&key)? {
            Some(article) => KeyReader::new(&article)
                .last_article()
                .map(Some)
                .ok_or_else(|| StoreError::undecodable(TreeName::ArticleIds)),
            None => Ok(None),
        }
    }

    pub(super) fn article_list(
        &self,
        tree: TreeName,
        key: &[u8],
    ) -> Result<Vec<ArticleKey>, StoreError> {
        match self.tree(tree).get(key)? {
            Some(value) => indexes::article_list(&value).ok_or_else(|| {
                StoreError::Damaged(format!("an entry of {} cannot be read", tree.name()))
            }),
            None => Ok(Vec::new()),
        }
    }

    /// Articles linked to a Ktype.
    pub fn articles_by_ktype(&self, ktype: &str) -> Result<Vec<ArticleKey>, StoreError> {
        self.article_list(TreeName::KtypeArticle, ktype.as_bytes())
    }

    /// Articles of one generic article linked to a Ktype.
    pub fn articles_by_genart_ktype(
        &self,
        genart: u32,
        ktype: &str,
    ) -> Result<Vec<ArticleKey>, StoreError> {
        self.article_list(
            TreeName::GenartKtypeArticle,
            &KeyBuf::new().u32(genart).last_text(ktype).done(),
        )
    }
}
