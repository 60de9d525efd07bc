//! What a SOAP client asks for around its searches: the brands it may see, the generic
//! articles (all, or those of the articles fitting a vehicle), the manufacturers, vehicle
//! types by Ktype or make, and an article with the vehicles it fits.

pub mod criteria;
pub mod locales;

use std::collections::{BTreeMap, BTreeSet};

use crate::catalogue::{
    Article, AssemblyGroup, BrandAddress, GenartGroup, Link, Manufacturer, TargetType, Vehicle,
};
use crate::service::ServiceError;
use crate::service::articles::lookups;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;
use crate::service::vehicles::vehicle_path::{self, Makers};
use crate::store::Catalogue;

/// The most vehicle types one call returns.
pub const MAX_VEHICLE_TYPES: usize = 1000;

/// The brands the caller may see (`only` the one named, where one is), by id, with their
/// names and (`with_addresses`) their addresses where the catalogue keeps one.
pub fn brands(
    context: &Context,
    asked: &Asked<'_>,
    only: Option<u32>,
    with_addresses: bool,
) -> Result<Vec<(u32, String, Option<BrandAddress>)>, ServiceError> {
    asked.check()?;
    let snapshot = context.snapshot();
    let mut brands = lookups::visible_brands(snapshot, context.caller())?;
    brands.retain(|(brand_id, _)| only.is_none_or(|only| only == *brand_id));
    brands
        .into_iter()
        .map(|(id, name)| {
            let address = match with_addresses {
                true => snapshot.brand(id)?.map(|b| b.address),
                false => None,
            };
            Ok((id, name, address.filter(|a| !a.is_empty())))
        })
        .collect()
}

/// Which generic articles a request asks for.
pub struct GenericArticlesAsked<'a> {
    /// The vehicle type named; its kind must be one of `kinds`, where they are named.
    pub ktype: Field<Option<&'a str>>,
    pub kinds: Field<Option<&'static [TargetType]>>,
    /// Only those of the articles that fit `ktype`.
    pub linked: bool,
    /// With the assembly-group nodes each sits under (of the trees of `kinds`, where named).
    pub with_nodes: bool,
}

/// A generic article found: its id, its name, and (asked `with_nodes`) the nodes of the
/// assembly-group trees it sits under.
pub struct GenericArticleFound {
    pub id: u32,
    pub name: String,
    pub nodes: Vec<u32>,
}

/// The generic articles by id, with their names: all of them, or (`linked`) those of the
/// articles of brands the caller sees that fit the vehicle type named.
pub fn generic_articles(
    context: &Context,
    asked: &Asked<'_>,
    question: &GenericArticlesAsked<'_>,
) -> Result<Vec<GenericArticleFound>, ServiceError> {
    asked.check()?;
    let caller = context.caller();
    let catalogue = context.snapshot();
    let ktype = question.ktype;
    vehicle_path::kind_named(catalogue, question.kinds, ktype.value)?;
    let fitting = question.linked.then(|| ktype.value.unwrap_or(""));
    let linked = match fitting.map(str::trim) {
        Some("") => {
            return Err(ServiceError::bad_parameter(
                ktype.name,
                "must name a vehicle type when 'linked' is true",
            ));
        }
        Some(ktype) => {
            let mut genarts = BTreeSet::new();
            for key in caller.visible(catalogue.articles_by_ktype(ktype)?) {
                if let Some(article) = catalogue.article(&key)? {
                    genarts.insert(article.genart);
                }
            }
            Some(genarts)
        }
        None => None,
    };
    let mut nodes = BTreeMap::<u32, Vec<u32>>::new();
    if question.with_nodes {
        let in_trees = tree_nodes(catalogue, question.kinds.value)?;
        for placed in catalogue.records::<GenartGroup>() {
            let placed = placed?;
            if in_trees.contains(&placed.node) {
                nodes.entry(placed.genart).or_default().push(placed.node);
            }
        }
    }
    let names = context.names();
    let mut found: Vec<GenericArticleFound> = catalogue
        .names()?
        .generic_articles
        .keys()
        .filter(|id| linked.as_ref().is_none_or(|l| l.contains(id)))
        .map(|&id| {
            Ok(GenericArticleFound {
                id,
                name: names.genart(id)?,
                nodes: nodes.remove(&id).unwrap_or_default(),
            })
        })
        .collect::<Result<_, ServiceError>>()?;
    found.sort_by_key(|g| g.id);
    for g in &mut found {
        g.nodes.sort_unstable();
        g.nodes.dedup();
    }
    Ok(found)
}

/// The nodes of the assembly-group trees of `kinds` (every tree's, where none are named).
fn tree_nodes(
    catalogue: &Catalogue,
    kinds: Option<&[TargetType]>,
) -> Result<BTreeSet<u32>, ServiceError> {
    let mut held = BTreeSet::new();
    for node in catalogue.records::<AssemblyGroup>() {
        let node = node?;
        if kinds.is_none_or(|k| k.contains(&node.target_type)) {
            held.insert(node.id);
        }
    }
    Ok(held)
}

/// The manufacturers, by id: vehicle and parts makers, or (`targets` named) the makers of
/// vehicle types of those kinds.
pub fn manufacturers(
    context: &Context,
    asked: &Asked<'_>,
    targets: Option<&[TargetType]>,
) -> Result<Vec<Manufacturer>, ServiceError> {
    asked.check()?;
    let catalogue = context.snapshot();
    if targets.is_some() {
        let makes = vehicle_path::makes(catalogue, targets)?;
        return Ok(makes.into_iter().map(|make| make.maker).collect());
    }
    let mut ids: Vec<u32> = catalogue.names()?.manufacturers.keys().copied().collect();
    ids.sort_unstable();
    let mut found = Vec::with_capacity(ids.len());
    for id in ids {
        found.extend(catalogue.manufacturer(id)?);
    }
    Ok(found)
}

/// The vehicle types `ktypes` names (one to `MAX_VEHICLE_TYPES`), each with its maker's id.
pub fn vehicle_types(
    context: &Context,
    asked: &Asked<'_>,
    ktypes: Field<&[String]>,
) -> Result<Vec<(Vehicle, Option<u32>)>, ServiceError> {
    asked.check()?;
    if ktypes.value.is_empty() {
        return Err(ServiceError::bad_parameter(
            ktypes.name,
            "must hold at least one vehicle type (Ktype)",
        ));
    }
    if ktypes.value.len() > MAX_VEHICLE_TYPES {
        return Err(ServiceError::bad_parameter(
            ktypes.name,
            format!("must hold at most {MAX_VEHICLE_TYPES} ids"),
        ));
    }
    let names = context.names();
    let catalogue = context.snapshot();
    let makers = Makers::read(catalogue)?;
    lookups::vehicles(catalogue, ktypes.value, None)?
        .into_iter()
        .map(|v| {
            let v = crate::service::articles::article_detail::vehicle_in(&names, v)?;
            let maker = makers.of(&v);
            Ok((v, maker))
        })
        .collect()
}

/// The article of a brand the caller may see, by its reference as written, with the vehicle
/// types it fits and how.
pub fn article_with_links(
    context: &Context,
    brand_id: u32,
    written: &str,
) -> Result<(Article, Vec<(Link, Vehicle)>), ServiceError> {
    let caller = context.caller();
    let catalogue = context.snapshot();
    let names = context.names();
    let mut article = lookups::article_of_brand(catalogue, caller, brand_id, written)?;
    article.description = names.description(&article)?;
    let links = crate::service::articles::article_detail::applications(catalogue, &article.key)?;
    let links = crate::service::articles::article_detail::applications_in(&names, links)?;
    Ok((article, links))
}

/// A brand's name and address, where the caller may see the brand (which the question cannot
/// go without) and the catalogue keeps an address for it; `None` otherwise.
pub fn brand_address(
    context: &Context,
    asked: &Asked<'_>,
    brand: Field<Option<i64>>,
) -> Result<Option<(String, BrandAddress)>, ServiceError> {
    asked.check()?;
    let id = brand.required()?.id()?;
    if !context.caller().provider.sees_brand(id) {
        return Ok(None);
    }
    Ok(context
        .snapshot()
        .brand(id)?
        .filter(|b| !b.address.is_empty())
        .map(|b| (b.name, b.address)))
}
