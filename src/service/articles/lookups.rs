//! Lookups by reference and by vehicle: the articles a reference names, the cross-references
//! of a number in both directions, and the vehicle a Ktype names. Each keeps to the brands
//! the caller may see, and names what it answers in the reader's language.

use std::collections::BTreeSet;

use super::article_view::{self, ArticleView};
use crate::catalogue::{
    Article, ArticleKey, CrossKind, CrossReference, Vehicle, normalise_reference,
};
use crate::service::ServiceError;
use crate::service::caller::Caller;
use crate::service::context::Context;
use crate::service::names::NamedArticle;
use crate::store::Catalogue;

/// The vehicle of a Ktype, or the not-found every Ktype route answers for an unknown one.
pub fn known_vehicle(catalogue: &Catalogue, ktype: &str) -> Result<Vehicle, ServiceError> {
    catalogue
        .vehicle(ktype)?
        .ok_or_else(|| ServiceError::NotFound(format!("no vehicle has the Ktype '{ktype}'")))
}

/// The vehicle type `ktype`, its words in the reader's language; an unknown one is not found.
pub fn vehicle_for(context: &Context, ktype: &str) -> Result<Vehicle, ServiceError> {
    let vehicle = known_vehicle(context.snapshot(), ktype)?;
    super::article_detail::vehicle_in(&context.names(), vehicle)
}

/// The articles of the keys, skipping keys an index holds but the article tree does not
/// (which `check` would report).
pub fn articles_of(
    catalogue: &Catalogue,
    keys: &[ArticleKey],
) -> Result<Vec<Article>, ServiceError> {
    let mut out = Vec::with_capacity(keys.len());
    for key in keys {
        if let Some(a) = catalogue.article(key)? {
            out.push(a);
        }
    }
    Ok(out)
}

/// The articles of the keys (as `articles_of`), named, their descriptions in the reader's
/// language.
pub fn described_articles(
    context: &Context,
    keys: &[ArticleKey],
) -> Result<Vec<NamedArticle>, ServiceError> {
    let (catalogue, names) = (context.snapshot(), context.names());
    if names.are_own() {
        return articles_of(catalogue, keys)?
            .into_iter()
            .map(|a| names.named(a))
            .collect();
    }
    // In another language each article's record gives its description with it: one read an
    // article, as in the default language.
    let mut out = Vec::with_capacity(keys.len());
    for key in keys {
        if let Some(record) = catalogue.article_record(key)? {
            let mut article = record.article()?;
            article.description =
                names.description_in(article.genart, &article.description, &record)?;
            out.push(names.named(article)?);
        }
    }
    Ok(out)
}

/// Each article whose own reference is `reference`, viewed in its record with its cross
/// numbers, criteria, prices and media in the reader's language, given to `answer` while the
/// records are held; none is a not-found.
pub fn with_articles_viewed<T>(
    context: &Context,
    reference: &str,
    answer: impl FnOnce(&[ArticleView<'_>]) -> T,
) -> Result<T, ServiceError> {
    let (snapshot, names) = (context.snapshot(), context.names());
    let keys = context
        .caller()
        .visible(snapshot.articles_by_reference(reference)?);
    let mut records = Vec::with_capacity(keys.len());
    for key in &keys {
        records.extend(snapshot.article_record(key)?);
    }
    if records.is_empty() {
        return Err(no_article(reference));
    }
    let criteria = snapshot.criteria()?;
    let views = records
        .iter()
        .map(|record| article_view::view(&names, criteria, record))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(answer(&views))
}

fn no_article(reference: &str) -> ServiceError {
    ServiceError::NotFound(format!("no article has the reference '{reference}'"))
}

/// The articles whose own reference is `reference` (one per brand that has it); none is a
/// not-found.
pub fn articles_by_reference(
    catalogue: &Catalogue,
    caller: &Caller,
    reference: &str,
) -> Result<Vec<Article>, ServiceError> {
    let keys = caller.visible(catalogue.articles_by_reference(reference)?);
    let found = articles_of(catalogue, &keys)?;
    if found.is_empty() {
        return Err(no_article(reference));
    }
    Ok(found)
}

/// Which side of a cross-reference the number asked for is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Direction {
    /// The number asked for is the maker's article; the link's number is one of its others.
    FromArticle,
    /// The number asked for is an OE, competitor, trade or EAN number; the article carries it.
    ToArticle,
}

/// One link between one of the maker's articles and another number.
#[derive(Debug)]
pub struct CrossLink {
    pub direction: Direction,
    pub article: NamedArticle,
    pub kind: CrossKind,
    /// The other number, as written.
    pub number: String,
    pub manufacturer_id: Option<u32>,
    pub manufacturer_name: Option<String>,
}

/// Every cross-reference of the articles `number` identifies: from the maker's articles of
/// that reference to their other numbers, then from that number as an OE, competitor,
/// trade or EAN number to the articles that carry it. Each link once, in a stable order;
/// neither an article nor a cross-reference is a not-found.
pub fn cross_references(context: &Context, number: &str) -> Result<Vec<CrossLink>, ServiceError> {
    let (catalogue, caller, names) = (context.snapshot(), context.caller(), context.names());
    let maker = |id: Option<u32>| id.map(|m| names.manufacturer(m)).transpose();
    let own_keys = caller.visible(catalogue.articles_by_reference(number)?);
    // Each article with its cross-references, in one read.
    let mut own = Vec::with_capacity(own_keys.len());
    for key in &own_keys {
        own.extend(catalogue.article_record(key)?);
    }
    let mut hits = catalogue.articles_by_cross_number(number)?;
    hits.retain(|h| caller.provider.sees_brand(h.article.brand_id));
    if own.is_empty() && hits.is_empty() {
        return Err(ServiceError::NotFound(format!(
            "no article and no cross-reference has the number '{number}'"
        )));
    }
    let mut links = Vec::new();
    let mut seen = BTreeSet::new();
    for record in own {
        let article = names.named(record.article()?)?;
        for x in record.rows::<CrossReference>()? {
            if seen.insert((Direction::FromArticle, x.article, x.number.clone())) {
                links.push(CrossLink {
                    direction: Direction::FromArticle,
                    article: article.clone(),
                    kind: x.kind,
                    number: x.number,
                    manufacturer_id: x.manufacturer_id,
                    manufacturer_name: maker(x.manufacturer_id)?,
                });
            }
        }
    }
    for hit in hits {
        let Some(article) = catalogue.article(&hit.article)? else {
            continue;
        };
        if seen.insert((Direction::ToArticle, hit.article, hit.number.clone())) {
            links.push(CrossLink {
                direction: Direction::ToArticle,
                article: names.named(article)?,
                kind: hit.kind,
                number: hit.number,
                manufacturer_id: hit.manufacturer_id,
                manufacturer_name: maker(hit.manufacturer_id)?,
            });
        }
    }
    Ok(links)
}

/// The vehicles of the Ktypes (unknown ones left out), then every vehicle of the make (any
/// case) not among them, each once.
pub fn vehicles(
    catalogue: &Catalogue,
    ktypes: &[String],
    make: Option<&str>,
) -> Result<Vec<Vehicle>, ServiceError> {
    let mut found: Vec<Vehicle> = Vec::new();
    for ktype in ktypes {
        if let Some(v) = catalogue.vehicle(ktype.trim())? {
            found.push(v);
        }
    }
    if let Some(make) = make {
        for v in catalogue.vehicles() {
            let v = v?;
            if v.make.eq_ignore_ascii_case(make) && !found.iter().any(|f| f.ktype == v.ktype) {
                found.push(v);
            }
        }
    }
    Ok(found)
}

/// The id of the vehicle maker a vehicle's make names (`getManufacturers`' `manuId`).
pub fn vehicle_maker_id(catalogue: &Catalogue, make: &str) -> Result<Option<u32>, ServiceError> {
    let names = catalogue.names()?;
    for (&id, name) in &names.manufacturers {
        if name.eq_ignore_ascii_case(make)
            && catalogue
                .manufacturer(id)?
                .is_some_and(|m| m.kind == crate::catalogue::ManufacturerKind::VehicleMaker)
        {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

/// The kit rows (one per kit and vehicle type) that hold an article as a component.
pub fn kits_holding(
    catalogue: &Catalogue,
    component: &ArticleKey,
) -> Result<Vec<crate::catalogue::KitComponent>, ServiceError> {
    let mut found = Vec::new();
    for kit in catalogue.kits_holding(component)? {
        let rows = catalogue.components_of_kit(&kit)?;
        found.extend(rows.into_iter().filter(|row| row.component == *component));
    }
    Ok(found)
}

/// The article of a brand the caller may see, by its reference as written: another brand is
/// forbidden, a reference without a letter or digit a bad `articleNumber`, none a not-found.
pub fn article_of_brand(
    catalogue: &Catalogue,
    caller: &Caller,
    brand_id: u32,
    written: &str,
) -> Result<Article, ServiceError> {
    caller.require_brand(brand_id)?;
    let reference = normalise_reference(written);
    if reference.is_empty() {
        return Err(ServiceError::bad_parameter(
            "articleNumber",
            "must hold at least one letter or digit",
        ));
    }
    let key = ArticleKey {
        brand_id,
        reference,
    };
    catalogue.article(&key)?.ok_or_else(|| {
        ServiceError::NotFound(format!("brand {brand_id} has no article '{written}'"))
    })
}

/// The brands the caller may see, by id, with their names.
pub fn visible_brands(
    catalogue: &Catalogue,
    caller: &Caller,
) -> Result<Vec<(u32, String)>, ServiceError> {
    let mut brands: Vec<(u32, String)> = catalogue
        .names()?
        .brands
        .iter()
        .filter(|(id, _)| caller.provider.sees_brand(**id))
        .map(|(id, name)| (*id, name.clone()))
        .collect();
    brands.sort_by_key(|(id, _)| *id);
    Ok(brands)
}
