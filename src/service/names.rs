//! The texts an answer writes, in the request's language: names of brands, generic articles
//! and makes from the generation's name tables, texts of nodes, model series and terms, and
//! articles' descriptions, each taken in the asked language or along its fallback order
//! (`Language::pick`). Brands and makes are proper names: one in every language.
//!
//! An answer copies a text into each record that carries it: the copies one request takes
//! are counted, and past the answer bound the request stops (a store imported under looser
//! limits may hold names of megabytes), so no answer multiplies a long name into gigabytes.

use std::cell::{Cell, OnceCell};

use super::language::Language;
use crate::catalogue::{Article, ArticleStatus, TextKind};
use crate::service::ServiceError;
use crate::store::{self, ArticleRecord, Catalogue, StoreError};

/// An article as an answer names it: with its brand's and generic article's names in the
/// reader's language.
#[derive(Debug, Clone)]
pub struct NamedArticle {
    pub article: Article,
    pub brand_name: String,
    pub genart_name: String,
}

pub struct Names<'a> {
    catalogue: &'a Catalogue,
    language: &'a Language,
    copied: Cell<u64>,
    /// The catalogue's name tables, taken at the first name asked: taking them notes the read
    /// for the answer cache, which one request needs once (an article's answer asks five).
    tables: OnceCell<&'a store::Names>,
}

impl<'a> Names<'a> {
    pub(super) fn new(catalogue: &'a Catalogue, language: &'a Language) -> Self {
        Names {
            catalogue,
            language,
            copied: Cell::new(0),
            tables: OnceCell::new(),
        }
    }

    /// Whether the texts are the data sets' own (the default language asked): nothing to
    /// translate.
    pub fn are_own(&self) -> bool {
        self.language.is_default()
    }

    fn tables(&self) -> Result<&'a store::Names, StoreError> {
        if let Some(tables) = self.tables.get() {
            return Ok(tables);
        }
        let tables = self.catalogue.names()?;
        Ok(self.tables.get_or_init(|| tables))
    }

    /// `name`, counted against the answer bound.
    fn counted<'t>(&self, name: &'t str) -> Result<&'t str, ServiceError> {
        let copied = self.copied.get() + name.len() as u64;
        self.copied.set(copied);
        crate::limits::within_answer(copied).map_err(ServiceError::Spent)?;
        Ok(name)
    }

    /// `own` (a record's text, in the default language) or its text in the asked language,
    /// where the thing of `kind` with `id` has one.
    fn of_id(&self, kind: TextKind, id: u32, own: &'a str) -> Result<&'a str, ServiceError> {
        if self.language.is_default() {
            return self.counted(own);
        }
        let texts = self.catalogue.translations()?;
        self.counted(self.language.pick(own, |l| texts.of_id(kind, id, l)))
    }

    pub fn brand(&self, id: u32) -> Result<String, ServiceError> {
        self.brand_name(id).map(str::to_owned)
    }

    /// The brand's name, borrowed (for loops that reuse their buffers); empty if unknown.
    pub fn brand_name(&self, id: u32) -> Result<&'a str, ServiceError> {
        self.counted(self.tables()?.brands.get(&id).map_or("", String::as_str))
    }

    pub fn genart(&self, id: u32) -> Result<String, ServiceError> {
        self.genart_name(id).map(str::to_owned)
    }

    /// The genart's name, borrowed; empty if unknown.
    pub fn genart_name(&self, id: u32) -> Result<&'a str, ServiceError> {
        let own = self
            .tables()?
            .generic_articles
            .get(&id)
            .map_or("", String::as_str);
        self.of_id(TextKind::GenericArticle, id, own)
    }

    pub fn manufacturer(&self, id: u32) -> Result<String, ServiceError> {
        self.manufacturer_name(id).map(str::to_owned)
    }

    /// The maker's name, borrowed; empty if unknown.
    pub fn manufacturer_name(&self, id: u32) -> Result<&'a str, ServiceError> {
        self.counted(
            self.tables()?
                .manufacturers
                .get(&id)
                .map_or("", String::as_str),
        )
    }

    /// An assembly group's name, given its own (the default language's).
    pub fn assembly_group(&self, id: u32, own: &str) -> Result<String, ServiceError> {
        self.translated(TextKind::AssemblyGroup, id, own)
    }

    /// A model series' name, given its own.
    pub fn model_series(&self, id: u32, own: &str) -> Result<String, ServiceError> {
        self.translated(TextKind::ModelSeries, id, own)
    }

    fn translated(&self, kind: TextKind, id: u32, own: &str) -> Result<String, ServiceError> {
        if self.language.is_default() {
            return Ok(own.to_owned());
        }
        let texts = self.catalogue.translations()?;
        let text = self.language.pick(own, |l| texts.of_id(kind, id, l));
        Ok(self.counted(text)?.to_owned())
    }

    /// A term the rows repeat (a criterion's name, value or unit, a status, a body style, a
    /// fitting position …) in the asked language; the term itself where it has no text.
    pub fn term(&self, own: &str) -> Result<String, ServiceError> {
        self.term_of(own).map(str::to_owned)
    }

    /// `term`, borrowed from the row or the catalogue's texts.
    pub fn term_of<'t>(&self, own: &'t str) -> Result<&'t str, ServiceError>
    where
        'a: 't,
    {
        if self.language.is_default() || own.is_empty() {
            return Ok(own);
        }
        let texts = self.catalogue.translations()?;
        self.counted(self.language.pick(own, |l| texts.of_term(own, l)))
    }

    /// An article status's name in the asked language (a term: `texts` rows of kind `term`
    /// keyed `active`, `announced`, `discontinued` translate it).
    pub fn status(&self, status: ArticleStatus) -> Result<String, ServiceError> {
        self.term(status.name())
    }

    /// `article` with its brand's and generic article's names; its description as held.
    pub fn named(&self, article: Article) -> Result<NamedArticle, ServiceError> {
        Ok(NamedArticle {
            brand_name: self.brand(article.key.brand_id)?,
            genart_name: self.genart(article.genart)?,
            article,
        })
    }

    /// `article` named, its description in the asked language too.
    pub fn described(&self, mut article: Article) -> Result<NamedArticle, ServiceError> {
        if !self.are_own() {
            article.description = self.description(&article)?;
        }
        self.named(article)
    }

    /// An article's description in the asked language.
    pub fn description(&self, article: &Article) -> Result<String, ServiceError> {
        self.description_by(&article.description, |languages| {
            self.catalogue.article_description(&article.key, languages)
        })
    }

    /// The description of the article of `record` (its generic article `genart`, its own
    /// description `own`) in the asked language, from the record (which holds its
    /// descriptions in every language): no read of the descriptions' own table.
    pub fn description_in(
        &self,
        genart: u32,
        own: &str,
        record: &ArticleRecord,
    ) -> Result<String, ServiceError> {
        self.description_by(own, |languages| {
            let texts = self.catalogue.translations()?;
            record.description(languages, |language| {
                texts
                    .of_id(TextKind::GenericArticle, genart, language)
                    .map(str::to_owned)
            })
        })
    }

    /// The description in the first of the languages asked before the default that
    /// `translated` finds one in, else the article's own (`own`).
    fn description_by(
        &self,
        own: &str,
        translated: impl FnOnce(&[String]) -> Result<Option<String>, StoreError>,
    ) -> Result<String, ServiceError> {
        if self.language.is_default() {
            return Ok(own.to_owned());
        }
        match translated(self.language.translated())? {
            Some(text) => {
                self.counted(&text)?;
                Ok(text)
            }
            None => Ok(self.counted(own)?.to_owned()),
        }
    }
}
