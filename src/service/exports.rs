//! What the exports read, row by row, whatever writes the rows: a brand's articles with
//! their vehicle applications (one vehicle read per Ktype, from a bounded cache), their
//! current list price, a competitor's numbers joined to the maker's articles, and an
//! article's media grouped as the DMM manifest lists them. The CSV and JSON writers of the
//! `/svc` exports and the DMM package share these scans; none holds more than one article.
//! Their texts are in the context's language.

use std::collections::HashMap;

use super::ServiceError;
use super::articles::article_detail::{
    self, ArticleDetail, Parts, criterion_in, link_in, vehicle_in,
};
use super::caller::Caller;
use super::context::Context;
use super::names::NamedArticle;
use crate::catalogue::CrossHit;
use crate::catalogue::{
    Article, Brand, Criterion, Date, Link, Manufacturer, ManufacturerKind, Media, MediaKind, Price,
    Vehicle, current_list_price,
};
use crate::store::Catalogue;

/// A brand that exists, or the not-found naming it.
pub fn known_brand(catalogue: &Catalogue, brand_id: u32) -> Result<Brand, ServiceError> {
    catalogue
        .brand(brand_id)?
        .ok_or_else(|| ServiceError::NotFound(format!("no brand has the id {brand_id}")))
}

/// A brand the store holds now, or the not-found naming it.
pub fn existing_brand(store: &crate::store::Store, brand_id: u32) -> Result<Brand, ServiceError> {
    known_brand(&store.catalogue(), brand_id)
}

/// A competitor (a parts maker) that exists, or the not-found naming it.
pub fn known_competitor(catalogue: &Catalogue, id: u32) -> Result<Manufacturer, ServiceError> {
    let maker = catalogue
        .manufacturer(id)?
        .ok_or_else(|| ServiceError::NotFound(format!("no manufacturer has the id {id}")))?;
    // A vehicle maker has OE numbers, not competitor references: no competitor has this id.
    if maker.kind != ManufacturerKind::PartsMaker {
        return Err(ServiceError::NotFound(format!(
            "manufacturer_id {id} ({}) is a vehicle maker, not a competitor: competitor references belong to parts makers",
            maker.name
        )));
    }
    Ok(maker)
}

/// The brand's articles in reference order, named in the reader's language, read as the
/// scan goes.
pub fn brand_articles(
    context: &Context,
    brand: &Brand,
) -> impl Iterator<Item = Result<NamedArticle, ServiceError>> + Send + 'static {
    let articles = context.snapshot().articles_of_brand(brand.id);
    let context = context.clone();
    articles.map(move |article| context.names().described(article?))
}

/// The brand's articles in reference order, each with `parts`, in the reader's language,
/// read as the scan goes.
pub fn brand_article_details(
    context: &Context,
    brand: &Brand,
    parts: Parts,
) -> impl Iterator<Item = Result<ArticleDetail, ServiceError>> + Send + 'static {
    let articles = context.snapshot().articles_of_brand(brand.id);
    let context = context.clone();
    articles.map(move |article| {
        article_detail::detail(context.snapshot(), &context.names(), article?, parts)
    })
}

/// Vehicles by Ktype, recently read ones kept: a brand's articles share their vehicles.
/// Bounded, so an export's memory does not grow with the brand's vehicles. `V` is the form
/// the writer wants, converted once per vehicle read.
pub struct Vehicles<V> {
    known: HashMap<String, Option<V>>,
}

const VEHICLES_KEPT: usize = 512;

impl<V> Default for Vehicles<V> {
    fn default() -> Self {
        Vehicles {
            known: HashMap::new(),
        }
    }
}

impl<V: for<'v> From<&'v Vehicle>> Vehicles<V> {
    /// The vehicle type `ktype`, its words in the reader's language.
    pub fn get(&mut self, context: &Context, ktype: &str) -> Result<Option<&V>, ServiceError> {
        if !self.known.contains_key(ktype) {
            if self.known.len() >= VEHICLES_KEPT {
                self.known.clear();
            }
            let vehicle = match context.snapshot().vehicle(ktype)? {
                Some(v) => Some(V::from(&vehicle_in(&context.names(), v)?)),
                None => None,
            };
            self.known.insert(ktype.to_owned(), vehicle);
        }
        Ok(self.known.get(ktype).and_then(Option::as_ref))
    }
}

/// An article's vehicle applications as stored: one per Ktype it fits, whether or not the
/// catalogue holds that vehicle type.
pub fn applications(context: &Context, article: &Article) -> Result<Vec<Link>, ServiceError> {
    let names = context.names();
    context
        .snapshot()
        .links_of(&article.key)?
        .into_iter()
        .map(|link| link_in(&names, link))
        .collect()
}

/// An article's criteria (name, value, unit), as the ATC export lists them.
pub fn criteria(context: &Context, article: &Article) -> Result<Vec<Criterion>, ServiceError> {
    let names = context.names();
    context
        .snapshot()
        .criteria_of(&article.key)?
        .into_iter()
        .map(|c| criterion_in(&names, c))
        .collect()
}

/// An article's current list price as of one day (an export's day, fixed at its start).
pub fn list_price(
    catalogue: &Catalogue,
    article: &Article,
    day: Date,
) -> Result<Option<Price>, ServiceError> {
    Ok(current_list_price(catalogue.prices_of(&article.key)?, day))
}

/// Which of the maker's brands a competitor export shows: the caller's, or one brand.
pub enum Shown {
    VisibleTo(Caller),
    Brand(u32),
}

impl Shown {
    fn shows(&self, brand_id: u32) -> bool {
        match self {
            Shown::VisibleTo(caller) => caller.provider.sees_brand(brand_id),
            Shown::Brand(b) => *b == brand_id,
        }
    }
}

/// The competitor's numbers in number order, read as the scan goes.
pub fn competitor_numbers(
    catalogue: &Catalogue,
    maker: &Manufacturer,
) -> impl Iterator<Item = Result<CrossHit, ServiceError>> + Send + 'static {
    catalogue
        .competitor_references_of(maker.id)
        .map(|hit| hit.map_err(ServiceError::from))
}

/// The maker's article a competitor number matches, where it is one the export shows, named.
pub fn matched_article(
    context: &Context,
    hit: &CrossHit,
    shown: &Shown,
) -> Result<Option<NamedArticle>, ServiceError> {
    if !shown.shows(hit.article.brand_id) {
        return Ok(None);
    }
    let Some(article) = context.snapshot().article(&hit.article)? else {
        return Ok(None);
    };
    context.names().described(article).map(Some)
}

/// An article's media as a manifest lists them: images, documents, and 360-degree sets with
/// their frames in order.
#[derive(Debug, Default)]
pub struct MediaManifest {
    pub images: Vec<Media>,
    pub documents: Vec<Media>,
    /// Per set number, its frames in position order.
    pub spin_sets: Vec<(String, Vec<Media>)>,
}

/// The article's media, grouped; none for an article without media.
pub fn media_manifest(
    context: &Context,
    article: &Article,
) -> Result<Option<MediaManifest>, ServiceError> {
    let media = context.snapshot().media_of(&article.key)?;
    if media.is_empty() {
        return Ok(None);
    }
    let names = context.names();
    let mut manifest = MediaManifest::default();
    // Media come in key order: kind, set, position.
    for m in media {
        let m = Media {
            description: names.term(&m.description)?,
            ..m
        };
        match m.kind {
            MediaKind::Image => manifest.images.push(m),
            MediaKind::Document => manifest.documents.push(m),
            MediaKind::Spin360 => match manifest.spin_sets.last_mut() {
                Some((set, frames)) if *set == m.set => frames.push(m),
                _ => manifest.spin_sets.push((m.set.clone(), vec![m])),
            },
        }
    }
    Ok(Some(manifest))
}
