//! The reference lists: brands, generic articles, manufacturers, languages, countries, and the version.

use serde_json::Value;

pub mod messages;

use crate::catalogue::{BrandAddress, ManufacturerKind, utc_timestamp};
use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::codes::{favoured_list, target_types};
use crate::service::asked::Asked;
use crate::service::field::Field;
use crate::service::reference_lists::{self, GenericArticlesAsked};
use crate::service::{reference_lists::locales, status};
use messages::*;

pub fn get_version_info(call: &Call<'_>, _: GetVersionInfoRequest) -> Result<Value, Failure> {
    let (data_version, updated_at) = status::answered(call.context);
    answer(&VersionInfo {
        build: env!("CARGO_PKG_VERSION").into(),
        data_version,
        data_date: utc_timestamp(updated_at),
    })
}

pub fn get_pegasus_version_info2(
    call: &Call<'_>,
    _: GetPegasusVersionInfo2Request,
) -> Result<Value, Failure> {
    let (data_version, updated_at) = status::answered(call.context);
    let part = |at: usize| {
        env!("CARGO_PKG_VERSION")
            .split(['.', '-'])
            .nth(at)
            .and_then(|p| p.parse().ok())
            .unwrap_or(0)
    };
    answer(&PegasusVersionInfo2 {
        major: part(0),
        minor: part(1),
        revision: part(2),
        build: data_version,
        data_version: data_version.to_string(),
        ref_data_version: data_version.to_string(),
        date: utc_timestamp(updated_at),
    })
}

/// The brands the caller may see (only the one the request names, where it names one), as
/// records; `both_names`: with `getBrands`' `dataSupplierId` and `mfrName` too.
fn brand_records(
    call: &Call<'_>,
    r: &GetBrandsRequest,
    both_names: bool,
) -> Result<Vec<BrandRecord>, Failure> {
    // Logos, asked for, are included where the catalogue keeps them: it keeps none.
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    let with_addresses = r.include_address_details.unwrap_or(false);
    Ok(
        reference_lists::brands(call.context, &asked, r.data_supplier_id, with_addresses)?
            .into_iter()
            .map(|(brand_id, brand_name, address)| BrandRecord {
                data_supplier_id: both_names.then_some(brand_id),
                mfr_name: both_names.then(|| brand_name.clone()),
                address_details: with_addresses.then(|| {
                    address
                        .map(|a| address_record(brand_name.clone(), a))
                        .into_iter()
                        .collect()
                }),
                brand_id,
                brand_name,
            })
            .collect(),
    )
}

/// A brand's address as Pegasus answers it; a part the catalogue does not keep is absent.
fn address_record(name: String, a: BrandAddress) -> BrandAddressRecord {
    let part = |p: String| (!p.is_empty()).then_some(p);
    BrandAddressRecord {
        address_name: name.clone(),
        address_type: 1,
        city: part(a.city),
        email: part(a.email),
        fax: part(a.fax),
        name,
        phone: part(a.phone),
        street: part(a.street),
        www_url: part(a.website),
        zip: part(a.zip),
        zip_country_code: part(a.country),
    }
}

pub fn get_brands(call: &Call<'_>, r: GetBrandsRequest) -> Result<Value, Failure> {
    answer(&Brands::of(brand_records(call, &r, true)?))
}

pub fn get_am_brands(call: &Call<'_>, r: GetBrandsRequest) -> Result<Value, Failure> {
    answer(&BrandList::of(brand_records(call, &r, false)?))
}

pub fn get_am_brand_address(
    call: &Call<'_>,
    r: GetAmBrandAddressRequest,
) -> Result<Value, Failure> {
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    let brand = Field::new("brandNo", r.brand_no);
    let records = reference_lists::brand_address(call.context, &asked, brand)?
        .into_iter()
        .map(|(name, a)| address_record(name, a))
        .collect();
    answer(&BrandAddressList::of(records))
}

pub fn get_generic_articles(
    call: &Call<'_>,
    r: GetGenericArticlesRequest,
) -> Result<Value, Failure> {
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    let kinds = "linkingTargetType";
    let question = GenericArticlesAsked {
        ktype: Field::new("linkingTargetId", r.linking_target_id.as_deref()),
        kinds: Field::new(
            kinds,
            target_types(kinds, r.linking_target_type.as_deref())?,
        ),
        linked: r.linked.unwrap_or(false),
        with_nodes: r.search_tree_nodes.unwrap_or(false),
    };
    // With `searchTreeNodes`, as TecDoc answers it: one record per node a generic article
    // sits under (one without a node where it sits under none).
    let generic_articles = reference_lists::generic_articles(call.context, &asked, &question)?
        .into_iter()
        .flat_map(|g| {
            let nodes: Vec<Option<u32>> = match g.nodes.is_empty() {
                true => vec![None],
                false => g.nodes.iter().copied().map(Some).collect(),
            };
            nodes.into_iter().map(move |node| GenericArticleRecord {
                designation: g.name.clone(),
                generic_article_id: g.id,
                master_designation: g.name.clone(),
                search_tree_node_id: node,
            })
        })
        .collect();
    answer(&GenericArticleList::of(generic_articles))
}

pub fn get_manufacturers(call: &Call<'_>, r: GetManufacturersRequest) -> Result<Value, Failure> {
    let asked = Asked::new()
        .place("country", r.country.as_deref())
        .country_groups(r.country_group_flag);
    favoured_list("favouredList", r.favoured_list)?;
    let targets = target_types("linkingTargetType", r.linking_target_type.as_deref())?;
    let manufacturers = reference_lists::manufacturers(call.context, &asked, targets)?
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
    let languages = locales::languages(call.context)
        .into_iter()
        .map(|(language_code, language_name)| LanguageRecord {
            language_name,
            language_code,
        })
        .collect();
    answer(&LanguageList::of(languages))
}

pub fn get_countries(call: &Call<'_>, _: GetLocalesRequest) -> Result<Value, Failure> {
    let countries = locales::countries(call.context)
        .into_iter()
        .map(|(country_code, country_name)| CountryRecord {
            country_code,
            country_name,
        })
        .collect();
    answer(&CountryList::of(countries))
}

pub fn get_country_groups(call: &Call<'_>, _: GetLocalesRequest) -> Result<Value, Failure> {
    let groups = locales::country_groups(call.context)
        .into_iter()
        .map(|(tecdoc_code, country_name)| CountryGroupRecord {
            country_name,
            tecdoc_code,
        })
        .collect();
    answer(&CountryGroupList::of(groups))
}
