//! An article with the parts of it an answer asks for: its cross numbers with their makers'
//! names, criteria, prices, media, the vehicles it fits, its numeric id and the articles it
//! replaces. The `/svc` lookups and exports take every part; `getArticles` the parts its
//! include flags name. Its texts (the description, the criteria, fitting positions and
//! notes, media captions, the vehicles' body styles and fuels) are in the names' language.

use super::criteria::{self, ShownCriterion};
use crate::catalogue::{
    Article, ArticleKey, Criterion, CrossReference, Link, Media, Price, Vehicle,
};
use crate::service::ServiceError;
use crate::service::names::Names;
use crate::store::{ArticleRecord, Catalogue, Record, StoreError};

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
    /// The article status's name in the asked language.
    pub status_name: String,
    pub numbers: Vec<NamedNumber>,
    pub criteria: Vec<ShownCriterion>,
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

/// The detail of an article read from `catalogue`; its record is read only where the parts
/// asked for hold rows of it.
pub fn detail(
    catalogue: &Catalogue,
    names: &Names<'_>,
    article: Article,
    parts: Parts,
) -> Result<ArticleDetail, ServiceError> {
    if !(parts.numbers || parts.criteria || parts.prices || parts.media) {
        return detail_from(catalogue, names, article, None, parts);
    }
    let record = catalogue.article_record(&article.key)?.ok_or_else(|| {
        StoreError::Damaged(format!(
            "the article records lack brand {}'s '{}'",
            article.key.brand_id, article.key.reference
        ))
    })?;
    detail_from(catalogue, names, article, Some(&record), parts)
}

/// `record`'s rows of `R` where they are asked for (and the record read), else none.
fn rows<R: Record>(asked: bool, record: Option<&ArticleRecord>) -> Result<Vec<R>, ServiceError> {
    match (asked, record) {
        (true, Some(record)) => Ok(record.rows()?),
        _ => Ok(Vec::new()),
    }
}

fn detail_from(
    catalogue: &Catalogue,
    names: &Names<'_>,
    mut article: Article,
    record: Option<&ArticleRecord>,
    parts: Parts,
) -> Result<ArticleDetail, ServiceError> {
    if !names.are_own() {
        article.description = match record {
            Some(record) => names.description_in(article.genart, &article.description, record)?,
            None => names.description(&article)?,
        };
    }
    let key = &article.key;
    let mut numbers = Vec::new();
    if parts.numbers {
        for number in rows::<CrossReference>(true, record)? {
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
        status_name: names.status(article.status)?,
        numbers,
        criteria: shown_criteria(catalogue, names, rows::<Criterion>(parts.criteria, record)?)?,
        prices: rows(parts.prices, record)?,
        media: rows::<Media>(parts.media, record)?
            .into_iter()
            .map(|m| media_in(names, m))
            .collect::<Result<_, _>>()?,
        applications: applications_in(
            names,
            when(parts.applications, || applications(catalogue, key))?,
        )?,
        id: match parts.id {
            true => catalogue.article_id(key)?.unwrap_or(0),
            false => 0,
        },
        replaced,
        article,
    })
}

fn shown_criteria(
    catalogue: &Catalogue,
    names: &Names<'_>,
    rows: Vec<Criterion>,
) -> Result<Vec<ShownCriterion>, ServiceError> {
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let criteria = catalogue.criteria()?;
    rows.into_iter()
        .map(|c| criteria::shown(names, criteria, c))
        .collect()
}

/// A criterion's name, value and unit in the names' language.
pub fn criterion_in(names: &Names<'_>, c: Criterion) -> Result<Criterion, ServiceError> {
    if names.are_own() {
        return Ok(c);
    }
    Ok(Criterion {
        name: names.term(&c.name)?,
        value: names.term(&c.value)?,
        unit: names.term(&c.unit)?,
        ..c
    })
}

/// A medium's caption in the names' language.
pub fn media_in(names: &Names<'_>, m: Media) -> Result<Media, ServiceError> {
    if names.are_own() {
        return Ok(m);
    }
    Ok(Media {
        description: names.term(&m.description)?,
        ..m
    })
}

/// A link's fitting position and notes in the names' language.
pub fn link_in(names: &Names<'_>, link: Link) -> Result<Link, ServiceError> {
    if names.are_own() {
        return Ok(link);
    }
    Ok(Link {
        position: names.term(&link.position)?,
        notes: names.term(&link.notes)?,
        ..link
    })
}

/// Links with their vehicles, their words in the names' language.
pub fn applications_in(
    names: &Names<'_>,
    applications: Vec<(Link, Vehicle)>,
) -> Result<Vec<(Link, Vehicle)>, ServiceError> {
    applications
        .into_iter()
        .map(|(link, vehicle)| Ok((link_in(names, link)?, vehicle_in(names, vehicle)?)))
        .collect()
}

/// A vehicle's words (fuel, body style, construction type, engine kind) in the names'
/// language; its names (make, model, type) are proper names.
pub fn vehicle_in(names: &Names<'_>, v: Vehicle) -> Result<Vehicle, ServiceError> {
    if names.are_own() {
        return Ok(v);
    }
    Ok(Vehicle {
        fuel: names.term(&v.fuel)?,
        body_style: names.term(&v.body_style)?,
        construction_type: names.term(&v.construction_type)?,
        engine_kind: names.term(&v.engine_kind)?,
        ..v
    })
}

fn when<T, E: Into<ServiceError>>(
    asked: bool,
    read: impl FnOnce() -> Result<Vec<T>, E>,
) -> Result<Vec<T>, ServiceError> {
    match asked {
        true => read().map_err(Into::into),
        false => Ok(Vec::new()),
    }
}

/// The vehicles an article fits, each with its link (position, quantity, notes); links to a
/// Ktype the catalogue lacks are left out.
pub fn applications(
    catalogue: &Catalogue,
    key: &ArticleKey,
) -> Result<Vec<(Link, Vehicle)>, ServiceError> {
    let mut out = Vec::new();
    for link in catalogue.links_of(key)? {
        if let Some(v) = catalogue.vehicle(&link.ktype)? {
            out.push((link, v));
        }
    }
    Ok(out)
}
