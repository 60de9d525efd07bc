//! What a SOAP client asks for around its searches: the brands it may see, the generic
//! articles (all, or those of the articles fitting a vehicle), the manufacturers, vehicle
//! types by Ktype or make, and an article with the vehicles it fits.

use std::collections::BTreeSet;

use super::ServiceError;
use super::context::Context;
use super::lookups;
use crate::catalogue::{Article, Link, Manufacturer, Vehicle};

/// The most vehicle types one call returns.
pub const MAX_VEHICLE_TYPES: usize = 1000;

/// The brands the caller may see, by id, with their names.
pub fn brands(context: &Context) -> Result<Vec<(u32, String)>, ServiceError> {
    lookups::visible_brands(context.snapshot(), context.caller())
}

/// The generic articles by id, with their names: all of them, or (`fitting` a Ktype) those of
/// the articles of brands the caller sees that fit that vehicle type.
pub fn generic_articles(
    context: &Context,
    fitting: Option<&str>,
) -> Result<Vec<(u32, String)>, ServiceError> {
    let caller = context.caller();
    let catalogue = context.snapshot();
    let linked = match fitting.map(str::trim) {
        Some("") => {
            return Err(ServiceError::bad_parameter(
                "linkingTargetId",
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
    let names = context.names();
    let mut found: Vec<(u32, String)> = catalogue
        .names()?
        .generic_articles
        .keys()
        .filter(|id| linked.as_ref().is_none_or(|l| l.contains(id)))
        .map(|&id| Ok((id, names.genart(id)?)))
        .collect::<Result<_, ServiceError>>()?;
    found.sort_by_key(|(id, _)| *id);
    Ok(found)
}

/// Every manufacturer, vehicle and parts makers, by id.
pub fn manufacturers(context: &Context) -> Result<Vec<Manufacturer>, ServiceError> {
    let catalogue = context.snapshot();
    let mut ids: Vec<u32> = catalogue.names()?.manufacturers.keys().copied().collect();
    ids.sort_unstable();
    let mut found = Vec::with_capacity(ids.len());
    for id in ids {
        found.extend(catalogue.manufacturer(id)?);
    }
    Ok(found)
}

/// The vehicle types `ktypes` names, or (none named) those of the make `make`; at most
/// `MAX_VEHICLE_TYPES` may be asked for. `ktypes_field` names the request's field for the
/// error.
pub fn vehicle_types(
    context: &Context,
    ktypes: &[String],
    make: Option<&str>,
    ktypes_field: &'static str,
) -> Result<Vec<Vehicle>, ServiceError> {
    if ktypes.len() > MAX_VEHICLE_TYPES {
        return Err(ServiceError::bad_parameter(
            ktypes_field,
            format!("must hold at most {MAX_VEHICLE_TYPES} ids"),
        ));
    }
    let names = context.names();
    lookups::vehicles(context.snapshot(), ktypes, make)?
        .into_iter()
        .map(|v| super::article_detail::vehicle_in(&names, v))
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
    let links = super::article_detail::applications(catalogue, &article.key)?;
    let links = super::article_detail::applications_in(&names, links)?;
    Ok((article, links))
}
