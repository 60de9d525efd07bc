//! The vehicle types an article fits, by the article's numeric id: its links, and the kits
//! that hold it for a vehicle type (Pegasus's "main articles").

use super::article_detail::{link_in, vehicle_in};
use super::lookups;
use crate::catalogue::{ArticleKey, Link, TargetType, Vehicle};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;
use crate::service::names::Names;
use crate::service::vehicles::vehicle_path::{Makers, Targets};

/// Which of an article's vehicle types are wanted.
#[derive(Debug, Clone, Default)]
pub struct Wanted {
    /// Only this Ktype.
    pub ktype: Option<String>,
    /// Only the vehicles of this vehicle maker (by its manufacturer id).
    pub maker_id: Option<i64>,
    /// Only vehicle types of these kinds (none: every kind).
    pub kinds: Option<&'static [TargetType]>,
    /// The kits holding the article too.
    pub kits: bool,
}

/// An article's links to the vehicle types wanted.
#[derive(Debug, Clone)]
pub struct ArticleLinks {
    /// The article's numeric id.
    pub id: u32,
    pub links: Vec<(Link, Vehicle)>,
    /// Kits of brands the caller sees that hold the article: (the kit's id, its Ktype).
    pub kits: Vec<(u32, String)>,
}

/// A link of an article with its vehicle and the vehicle maker's id (where the catalogue
/// names the make).
#[derive(Debug, Clone)]
pub struct LinkDetail {
    pub link: Link,
    pub vehicle: Vehicle,
    pub maker_id: Option<u32>,
    /// The link's position (where given), quantity and notes (where given), named.
    pub attributes: Vec<LinkAttribute>,
}

/// One attribute of a link, its name in the reader's language.
#[derive(Debug, Clone)]
pub struct LinkAttribute {
    pub name: String,
    /// A number (the quantity) rather than a text.
    pub numeric: bool,
    pub value: String,
}

/// A link's attributes: its position (where given), quantity and notes (where given), each
/// named by a term the texts translate.
fn attributes(names: &Names<'_>, link: &Link) -> Result<Vec<LinkAttribute>, ServiceError> {
    let attribute = |name: &str, numeric: bool, value: &str| -> Result<_, ServiceError> {
        Ok(LinkAttribute {
            name: names.term(name)?,
            numeric,
            value: value.to_owned(),
        })
    };
    let mut out = Vec::new();
    if !link.position.is_empty() {
        out.push(attribute("Position", false, &link.position)?);
    }
    out.push(attribute("Quantity", true, &link.quantity.to_string())?);
    if !link.notes.is_empty() {
        out.push(attribute("Notes", false, &link.notes)?);
    }
    Ok(out)
}

/// The article `id` names, if the catalogue holds it and the caller may see its brand.
pub(super) fn article_of(
    context: &Context,
    id: Field<Option<i64>>,
) -> Result<Option<(u32, ArticleKey)>, ServiceError> {
    let catalogue = context.snapshot();
    let caller = context.caller();
    let id = match id.value {
        Some(value) if value > 0 => value,
        Some(value) => {
            return Err(ServiceError::bad_parameter(
                id.name,
                format!("must be a positive article id, not {value}"),
            ));
        }
        None => {
            return Err(ServiceError::bad_parameter(
                id.name,
                "is required: the article's numeric id, as getArticles answers it",
            ));
        }
    };
    let Ok(id) = u32::try_from(id) else {
        return Ok(None);
    };
    Ok(catalogue
        .article_by_id(id)?
        .filter(|a| caller.provider.sees_brand(a.brand_id))
        .map(|a| (id, a)))
}

/// The links of the article `id` to the vehicle types `wanted`; `None` where the caller sees
/// no such article.
pub fn links_of(
    context: &Context,
    asked: &Asked<'_>,
    id: Field<Option<i64>>,
    wanted: &Wanted,
) -> Result<Option<ArticleLinks>, ServiceError> {
    asked.check()?;
    let caller = context.caller();
    let catalogue = context.snapshot();
    let Some((id, article)) = article_of(context, id)? else {
        return Ok(None);
    };
    // A vehicle's maker is its model series' (or its make's, without one); an unknown maker
    // has no vehicles.
    let maker = match wanted.maker_id.filter(|&m| m > 0) {
        Some(m) => Some((m, Makers::read(catalogue)?)),
        None => None,
    };
    let fits = |v: &Vehicle| {
        wanted.ktype.as_ref().is_none_or(|k| v.ktype.trim() == k)
            && maker
                .as_ref()
                .is_none_or(|(m, makers)| makers.of(v).map(i64::from) == Some(*m))
            && wanted
                .kinds
                .is_none_or(|kinds| kinds.contains(&v.target_type))
    };
    let mut links = super::article_detail::applications(catalogue, &article)?;
    links.retain(|(_, vehicle)| fits(vehicle));
    let mut kits = Vec::new();
    if wanted.kits {
        for kit in lookups::kits_holding(catalogue, &article)? {
            if !caller.provider.sees_brand(kit.kit.brand_id) {
                continue;
            }
            let Some(vehicle) = catalogue.vehicle(&kit.ktype)? else {
                continue;
            };
            let Some(kit_id) = catalogue.article_id(&kit.kit)? else {
                continue;
            };
            if fits(&vehicle) {
                kits.push((kit_id, kit.ktype));
            }
        }
    }
    Ok(Some(ArticleLinks { id, links, kits }))
}

/// The vehicle makers of the vehicle types (of `kinds`, where named) the article `id` fits,
/// by id with their names, in name order: a fitment list's first step, the makes to open.
/// `None` where the caller sees no such article.
pub fn makers_of_links(
    context: &Context,
    asked: &Asked<'_>,
    id: Field<Option<i64>>,
    kinds: Option<&'static [TargetType]>,
) -> Result<Option<Vec<(u32, String)>>, ServiceError> {
    asked.check()?;
    let catalogue = context.snapshot();
    let Some((_, article)) = article_of(context, id)? else {
        return Ok(None);
    };
    let makers = Makers::read(catalogue)?;
    let mut found = std::collections::BTreeSet::new();
    for (_, vehicle) in super::article_detail::applications(catalogue, &article)? {
        if kinds.is_none_or(|k| k.contains(&vehicle.target_type))
            && let Some(maker) = makers.of(&vehicle).and_then(|m| makers.maker(m))
        {
            found.insert((maker.name.clone(), maker.id));
        }
    }
    Ok(Some(
        found.into_iter().map(|(name, id)| (id, name)).collect(),
    ))
}

/// The links of the article `id` that `pick` (given the article's id and a link) chooses,
/// to vehicle types of `kinds`, with their vehicles and makers; `None` where the caller sees
/// no such article.
pub fn link_details(
    context: &Context,
    asked: &Asked<'_>,
    id: Field<Option<i64>>,
    kinds: Targets<'_>,
    pick: impl Fn(u32, &Link) -> bool,
) -> Result<Option<Vec<LinkDetail>>, ServiceError> {
    asked.check()?;
    let catalogue = context.snapshot();
    let Some((id, article)) = article_of(context, id)? else {
        return Ok(None);
    };
    let mut details = Vec::new();
    let names = context.names();
    for (link, vehicle) in super::article_detail::applications(catalogue, &article)? {
        if pick(id, &link) && kinds.is_none_or(|k| k.contains(&vehicle.target_type)) {
            let maker_id = lookups::vehicle_maker_id(catalogue, &vehicle.make)?;
            let link = link_in(&names, link)?;
            details.push(LinkDetail {
                attributes: attributes(&names, &link)?,
                vehicle: vehicle_in(&names, vehicle)?,
                link,
                maker_id,
            });
        }
    }
    Ok(Some(details))
}
