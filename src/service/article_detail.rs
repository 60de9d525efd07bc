//! An article with the parts of it an answer asks for: its cross numbers with their makers'
//! names, criteria, prices, media, the vehicles it fits, its numeric id and the articles it
//! replaces. The `/svc` lookups and exports take every part; `getArticles` the parts its
//! include flags name.

use super::names::Names;
use crate::catalogue::{Article, Criterion, CrossReference, Link, Media, Price, Vehicle};
use crate::store::{Catalogue, StoreError};

/// Which parts to read; `Parts::all()` for every one.
#[derive(Debug, Clone, Copy, Default)]
pub struct Parts {
    pub numbers: bool,
    pub criteria: bool,
    pub prices: bool,
    pub media: bool,
    pub applications: bool,
    pub id: bool,
    pub replaced: bool,
}

impl Parts {
    pub fn all() -> Parts {
        Parts {
            numbers: true,
            criteria: true,
            prices: true,
            media: true,
            applications: true,
            id: true,
            replaced: true,
        }
    }
}

/// A cross number with its maker's name (none for a number without a maker).
pub struct NamedNumber {
    pub number: CrossReference,
    pub manufacturer_name: Option<String>,
}

/// The article and the parts asked for (empty where not asked).
pub struct ArticleDetail {
    pub article: Article,
    pub brand_name: String,
    pub genart_name: String,
    pub numbers: Vec<NamedNumber>,
    pub criteria: Vec<Criterion>,
    pub prices: Vec<Price>,
    pub media: Vec<Media>,
    /// Each link with its vehicle, in the links' order; a link to a vehicle the catalogue no
    /// longer holds is left out.
    pub applications: Vec<(Link, Vehicle)>,
    /// Its numeric id (`legacyArticleId`), 0 when it has none.
    pub id: u32,
    /// The articles it replaces (those naming it in their `replaced_by`).
    pub replaced: Vec<Article>,
}

pub fn detail(
    catalogue: &Catalogue,
    names: &Names<'_>,
    article: Article,
    parts: Parts,
) -> Result<ArticleDetail, StoreError> {
    let key = &article.key;
    let mut numbers = Vec::new();
    if parts.numbers {
        for number in catalogue.cross_references_of(key)? {
            let manufacturer_name = match number.manufacturer_id {
                Some(m) => Some(names.manufacturer(m)?),
                None => None,
            };
            numbers.push(NamedNumber {
                number,
                manufacturer_name,
            });
        }
    }
    let mut replaced = Vec::new();
    if parts.replaced {
        for older in catalogue.replaced_articles(key)? {
            replaced.extend(catalogue.article(&older)?);
        }
    }
    Ok(ArticleDetail {
        brand_name: names.brand(key.brand_id)?,
        genart_name: names.genart(article.genart)?,
        numbers,
        criteria: when(parts.criteria, || catalogue.criteria_of(key))?,
        prices: when(parts.prices, || catalogue.prices_of(key))?,
        media: when(parts.media, || catalogue.media_of(key))?,
        applications: when(parts.applications, || {
            super::lookups::applications(catalogue, key)
        })?,
        id: match parts.id {
            true => catalogue.article_id(key)?.unwrap_or(0),
            false => 0,
        },
        replaced,
        article,
    })
}

fn when<T>(
    asked: bool,
    read: impl FnOnce() -> Result<Vec<T>, StoreError>,
) -> Result<Vec<T>, StoreError> {
    match asked {
        true => read(),
        false => Ok(Vec::new()),
    }
}
