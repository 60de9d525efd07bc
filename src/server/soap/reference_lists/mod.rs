//! The reference lists: brands, generic articles, manufacturers, languages, countries, and the version.

use serde_json::Value;

pub mod messages;

use crate::catalogue::{ManufacturerKind, utc_timestamp};
use crate::server::soap::call::{Call, Failure, answer};
use crate::service::{locales, market, reference_lists, status, vehicle_path};
use messages::*;

pub fn get_version_info(call: &Call<'_>, _: GetVersionInfoRequest) -> Result<Value, Failure> {
    let status = status::of(&call.state.store);
    answer(&VersionInfo {
        build: env!("CARGO_PKG_VERSION").into(),
        data_version: status.data_version,
        data_date: utc_timestamp(status.updated_at),
    })
}

/// The brands the caller may see (only the one the request names, where it names one), as
/// records; `both_names`: with `getBrands`' `dataSupplierId` and `mfrName` too.
fn brand_records(
    call: &Call<'_>,
    r: &GetBrandsRequest,
    both_names: bool,
) -> Result<Vec<BrandRecord>, Failure> {
    let countries = call.context.countries();
    market::country("articleCountry", r.article_country.as_deref(), countries)?;
    let addresses = r.include_address_details;
    market::flag_not_held(
        "includeAddressDetails",
        addresses,
        "the catalogue keeps no addresses",
    )?;
    let logos = r.include_data_supplier_logo;
    market::flag_not_held(
        "includeDataSupplierLogo",
        logos,
        "the catalogue keeps no logos",
    )?;
    let only = r.data_supplier_id;
    Ok(reference_lists::brands(call.context)?
        .into_iter()
        .filter(|(brand_id, _)| only.is_none_or(|only| only == *brand_id))
        .map(|(brand_id, brand_name)| BrandRecord {
            data_supplier_id: both_names.then_some(brand_id),
            mfr_name: both_names.then(|| brand_name.clone()),
            brand_id,
            brand_name,
        })
        .collect())
}

pub fn get_brands(call: &Call<'_>, r: GetBrandsRequest) -> Result<Value, Failure> {
    answer(&Brands::of(brand_records(call, &r, true)?))
}

pub fn get_am_brands(call: &Call<'_>, r: GetBrandsRequest) -> Result<Value, Failure> {
    answer(&BrandList::of(brand_records(call, &r, false)?))
}

pub fn get_generic_articles(
    call: &Call<'_>,
    r: GetGenericArticlesRequest,
) -> Result<Value, Failure> {
    let countries = call.context.countries();
    market::country("articleCountry", r.article_country.as_deref(), countries)?;
    let no_tree = "the catalogue has no search tree (getChildNodesAllLinkingTarget2)";
    market::flag_not_held("searchTreeNodes", r.search_tree_nodes, no_tree)?;
    let kinds = market::target_types("linkingTargetType", r.linking_target_type.as_deref())?;
    let snapshot = call.context.snapshot();
    let ktype = r.linking_target_id.as_deref();
    vehicle_path::kind_named(snapshot, "linkingTargetType", kinds, ktype)?;
    // `linked`: the generic articles of the articles that fit the vehicle.
    let fitting = r
        .linked
        .unwrap_or(false)
        .then(|| r.linking_target_id.as_deref().unwrap_or(""));
    let generic_articles = reference_lists::generic_articles(call.context, fitting)?
        .into_iter()
        .map(|(id, name)| GenericArticleRecord {
            designation: name.clone(),
            generic_article_id: id,
            master_designation: name,
        })
        .collect();
    answer(&GenericArticleList::of(generic_articles))
}

pub fn get_manufacturers(call: &Call<'_>, r: GetManufacturersRequest) -> Result<Value, Failure> {
    let countries = call.context.countries();
    market::country("country", r.country.as_deref(), countries)?;
    market::no_country_group(r.country_group_flag)?;
    market::no_favoured_list(r.favoured_list)?;
    let targets = market::target_types("linkingTargetType", r.linking_target_type.as_deref())?;
    let makers = match targets {
        None => reference_lists::manufacturers(call.context)?,
        Some(_) => vehicle_path::makes(call.context.snapshot(), targets)?
            .into_iter()
            .map(|make| make.maker)
            .collect(),
    };
    let manufacturers = makers
        .into_iter()
        .map(|m| ManufacturerRecord {
            manu_id: m.id,
            manu_name: m.name,
            kind: match m.kind {
                ManufacturerKind::VehicleMaker => "vehicle",
                ManufacturerKind::PartsMaker => "parts",
            }
            .into(),
        })
        .collect();
    answer(&ManufacturerList::of(manufacturers))
}

pub fn get_languages(call: &Call<'_>, _: GetLocalesRequest) -> Result<Value, Failure> {
    let languages = call
        .state
        .languages
        .codes()
        .iter()
        .map(|code| LanguageRecord {
            language_name: locales::language_name(code, call.context.language()),
            language_code: code.clone(),
        })
        .collect();
    answer(&LanguageList::of(languages))
}

pub fn get_countries(call: &Call<'_>, _: GetLocalesRequest) -> Result<Value, Failure> {
    let countries = call
        .context
        .countries()
        .iter()
        .map(|code| CountryRecord {
            country_code: code.clone(),
            country_name: locales::country_name(code, call.context.language()),
        })
        .collect();
    answer(&CountryList::of(countries))
}
