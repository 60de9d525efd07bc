//! The operation set both endpoints carry: each is a request type, an answer type and a
//! function. A failure is an answer too: its `status` and a `statusText` naming the field.

use std::net::{IpAddr, Ipv4Addr};

use poem_openapi::registry::Registry;
use poem_openapi::types::Type;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::call::{Call, Failure, answer};
use super::messages::*;
use super::vehicles::{linkage_target, linkages};
use crate::catalogue::{ManufacturerKind, utc_timestamp};
use crate::server::answers::prices;
use crate::server::problem::Problem;
use crate::service::access::{self, GrantError};
use crate::service::vehicle_articles::{Paging, Selection};
use crate::service::{locales, reference_lists, status};

type Runner = Box<dyn Fn(&Call<'_>, Value) -> Result<Value, Failure> + Send + Sync>;

pub struct Operation {
    pub name: &'static str,
    /// What it does, for the XSD and WSDL.
    pub doc: &'static str,
    /// The XSD type of the request's fields.
    pub request_type: String,
    /// The XSD type whose fields follow `status` and `statusText` in the answer.
    pub answer_type: String,
    /// A pure catalogue read, whose answers the answer cache may keep (the price operations
    /// keep theirs under their `/svc` routes' keys already).
    pub cacheable: bool,
    register: fn(&mut Registry),
    run: Runner,
}

impl Operation {
    pub fn register(&self, registry: &mut Registry) {
        (self.register)(registry)
    }

    /// Whether a call may take long: a read of a whole index (suffix matches, free text, a
    /// search without a number, vehicles by make) or a grant, which flushes.
    pub fn may_block(&self, fields: &Value) -> bool {
        let text = |name: &str| fields.get(name).and_then(Value::as_str);
        match self.name {
            "getArticles" => {
                matches!(text("searchMatchType"), Some("suffix" | "prefix_or_suffix"))
                    || fields.get("searchType").and_then(Value::as_u64) == Some(99)
                    || text("searchQuery").is_none()
            }
            // Not exact: numbers that end with the query too.
            "getArticleDirectSearchAllNumbersWithState" => {
                fields.get("searchExact").and_then(Value::as_bool) == Some(false)
            }
            "getLinkageTargets" => text("mfrName").is_some(),
            // Kits holding an article are found by reading every kit.
            "getArticleLinkedAllLinkingTarget4" => {
                fields.get("withMainArticles").and_then(Value::as_bool) == Some(true)
            }
            "addDynamicAddress" | "addDynamicAPIKey" => true,
            _ => false,
        }
    }

    /// Runs the operation on fields already read by the request type.
    pub fn run(&self, call: &Call<'_>, fields: Value) -> Result<Value, Failure> {
        (self.run)(call, fields)
    }
}

fn operation<Req, Ans>(
    name: &'static str,
    doc: &'static str,
    run: fn(&Call<'_>, Req) -> Result<Value, Failure>,
) -> Operation
where
    Req: DeserializeOwned + Type + 'static,
    Ans: Type,
{
    Operation {
        name,
        doc,
        request_type: Req::name().into_owned(),
        answer_type: Ans::name().into_owned(),
        cacheable: false,
        register: |registry| {
            Req::register(registry);
            Ans::register(registry);
        },
        run: Box::new(move |call, fields| {
            let request: Req = serde_json::from_value(fields)
                .map_err(|e| Failure::bad(format!("Unable to parse request: {e}")))?;
            run(call, request)
        }),
    }
}

/// A cached `/svc` answer, as fields.
fn cached<T>(bytes: crate::server::json_body::JsonBytes<T>) -> Result<Value, Failure> {
    serde_json::from_slice(bytes.bytes()).map_err(|e| Problem::internal(e).into())
}

impl Operation {
    fn cached(mut self) -> Operation {
        self.cacheable = true;
        self
    }
}

/// Every operation's handler, in the order the WSDL lists them; who may call each is the
/// registry's (`registry::OPERATIONS`).
pub fn all() -> Vec<Operation> {
    vec![
        operation::<AddDynamicAddressRequest, DynamicAddress>(
            "addDynamicAddress",
            "Admits an end user's IPv4 address for the provider for a while (default 1 hour, at most the provider's cap, never above 24). Needs the provider's own key or whitelisted address.",
            add_dynamic_address,
        ),
        operation::<AddDynamicApiKeyRequest, DynamicApiKey>(
            "addDynamicAPIKey",
            "Makes a key for an end user, valid 1 to 24 hours (default 24); the key is shown once. Needs the provider's own key or whitelisted address.",
            add_dynamic_api_key,
        ),
        operation::<GetArticlesRequest, ArticleSearch>(
            "getArticles",
            "Articles by any of their numbers (searchType, searchMatchType on normalised numbers), narrowed by brand, generic article and vehicle, with include flags, facets, sorting, page paging and a cursor; requests and answers in the shapes of Pegasus 3.0's articlesRequest and articlesResponse.",
            super::article_search::get_articles,
        ).cached(),
        operation::<GetArticleDirectSearchRequest, ArticleDirectSearchList>(
            "getArticleDirectSearchAllNumbersWithState",
            "Articles by any of their numbers (articleNumber, numberType as getArticles' searchType, searchExact or numbers that start or end with it), one record per number that matched, with the article's id, number, brand, generic article and state: Pegasus's getArticleDirectSearchAllNumbersWithState.",
            super::direct_search::get_article_direct_search,
        ).cached(),
        operation::<GetVehicleByIdsRequest, VehicleByIdsList>(
            "getVehicleByIds3",
            "Vehicle types by Ktype (carIds), with their details and, with motorCodes, their engine codes: Pegasus's getVehicleByIds3.",
            get_vehicle_by_ids,
        ).cached(),
        operation::<GetVehicleByIdsRequest, VehicleByIdsList>(
            "getVehicleByIds4",
            "The same as getVehicleByIds3 (Pegasus's getVehicleByIds4; partscat has no vehicle documents).",
            get_vehicle_by_ids,
        ).cached(),
        operation::<GetArticleLinkagesRequest, ArticleLinkages>(
            "getArticleLinkages",
            "Every vehicle an article fits, with position, quantity and notes, in one call.",
            get_article_linkages,
        ).cached(),
        operation::<GetArticleLinkedAllLinkingTargetRequest, ArticleLinkedTargetsList>(
            "getArticleLinkedAllLinkingTarget4",
            "The vehicle types an article fits, by its numeric id (legacyArticleId of getArticles), optionally of one maker or one Ktype, and with withMainArticles those of the kits holding it: Pegasus's getArticleLinkedAllLinkingTarget4.",
            super::linked_targets::get_article_linked_targets,
        ).cached(),
        operation::<GetArticleLinkedAllLinkingTargetsByIdsRequest, LinkDetailsList>(
            "getArticleLinkedAllLinkingTargetsByIds3",
            "How an article (articleId) fits the vehicle types of the links asked (linkedArticlePairs, as getArticleLinkedAllLinkingTarget4 answered them): each vehicle type's details and, with immediateAttributs, the position, quantity and notes: Pegasus's getArticleLinkedAllLinkingTargetsByIds3.",
            super::linked_targets::get_links_by_ids,
        ).cached(),
        operation::<GetVehiclesByKeyNumberPlatesRequest, PlateVehicleList>(
            "getVehiclesByKeyNumberPlates",
            "The vehicle types a registration plate or key number (keySystemNumber) names in a country, from the catalogue's plates data set, with details on request: Pegasus's getVehiclesByKeyNumberPlates.",
            super::plates::get_vehicles_by_plate,
        ).cached(),
        operation::<GetLinkageTargetsRequest, LinkageTargetList>(
            "getLinkageTargets",
            "Vehicle types by Ktype or by make, with their details.",
            get_linkage_targets,
        ).cached(),
        operation::<GetBrandsRequest, Brands>(
            "getBrands",
            "The brands (data suppliers) the provider may see.",
            get_brands,
        ).cached(),
        operation::<GetBrandsRequest, BrandList>(
            "getAmBrands",
            "The brands (aftermarket brands, data suppliers) the provider may see: Pegasus's name for getBrands.",
            get_am_brands,
        ).cached(),
        operation::<GetLocalesRequest, LanguageList>(
            "getLanguages",
            "The language of the catalogue's texts (setting catalogue.language).",
            |call, _| {
                let code = call.state.settings.catalogue_language.clone();
                answer(&LanguageList::of(vec![LanguageRecord {
                    language_name: locales::language_name(&code),
                    language_code: code,
                }]))
            },
        ),
        operation::<GetLocalesRequest, CountryList>(
            "getCountries",
            "The countries the catalogue is for (setting catalogue.countries).",
            |call, _| {
                let countries = call
                    .state
                    .settings
                    .catalogue_countries
                    .iter()
                    .map(|code| CountryRecord {
                        country_code: code.clone(),
                        country_name: locales::country_name(code),
                    })
                    .collect();
                answer(&CountryList::of(countries))
            },
        ),
        operation::<GetGenericArticlesRequest, GenericArticleList>(
            "getGenericArticles",
            "Every generic article (kind of part), or with linked and linkingTargetId those of the articles that fit a vehicle type.",
            get_generic_articles,
        ).cached(),
        operation::<GetManufacturersRequest, ManufacturerList>(
            "getManufacturers",
            "Vehicle makers (of OE numbers) and competitor parts makers.",
            get_manufacturers,
        ).cached(),
        operation::<GetPricesByKtypeRequest, prices::KtypePrices>(
            "getPricesByKtype",
            "The prices of the articles linked to a vehicle type.",
            |call, r| {
                cached(prices::ktype_prices_built(
                    call.state,
                    call.caller,
                    &r.linkage_target_id,
                    &Selection::default(),
                    &Paging::All,
                )?)
            },
        ),
        operation::<GetKitPriceRequest, prices::GenartPrices>(
            "getKitPrice",
            "Single-article (isKit false) or kit (isKit true) prices of a generic article for a vehicle type; a kit's price is its own list price, else the sum of its components'.",
            |call, r| {
                cached(prices::genart_prices(
                    call.state,
                    call.caller,
                    r.generic_article_id,
                    r.is_kit,
                    &r.linkage_target_id,
                )?)
            },
        ),
        operation::<GetExhaustKitPriceRequest, prices::ExhaustKit>(
            "getExhaustKitPrice",
            "The exhaust kit price of a vehicle type: its exhaust kits, else the cheapest fitting part of each exhaust generic article.",
            |call, r| {
                cached(prices::exhaust_kit(
                    call.state,
                    call.caller,
                    &r.linkage_target_id,
                )?)
            },
        ),
        operation::<GetVersionInfoRequest, VersionInfo>(
            "getVersionInfo",
            "The appliance's version, and the catalogue's data version and date.",
            get_version_info,
        ),
    ]
}

fn grant_failure(e: GrantError) -> Failure {
    match e {
        GrantError::Validity { .. } => Failure::bad(e.to_string()),
        GrantError::Store(e) => e.into(),
    }
}

fn add_dynamic_address(call: &Call<'_>, r: AddDynamicAddressRequest) -> Result<Value, Failure> {
    let address: Ipv4Addr = match r.address.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => text.parse().map_err(|_| {
            Failure::bad(format!(
                "Field 'address' must be an IPv4 address, not '{text}'"
            ))
        })?,
        _ => match call.client_ip {
            Some(IpAddr::V4(ip)) => ip,
            _ => {
                return Err(Failure::bad(
                    "Field 'address' is required: the call did not come over IPv4",
                ));
            }
        },
    };
    let state = call.state;
    let grant = access::add_dynamic_address(
        &state.store,
        state.clock.as_ref(),
        &call.caller.provider,
        address,
        r.validity_hours,
    )
    .map_err(grant_failure)?;
    answer(&DynamicAddress {
        provider_id: grant.provider,
        address: grant.address.to_string(),
        validity_hours: grant.validity_hours,
        expires_at: utc_timestamp(grant.expires_at),
    })
}

fn add_dynamic_api_key(call: &Call<'_>, r: AddDynamicApiKeyRequest) -> Result<Value, Failure> {
    let state = call.state;
    let grant = access::add_dynamic_key(
        &state.store,
        state.clock.as_ref(),
        &call.caller.provider,
        r.validity_hours,
    )
    .map_err(grant_failure)?;
    answer(&DynamicApiKey {
        provider_id: grant.provider,
        api_key: grant.api_key,
        validity_hours: grant.validity_hours,
        expires_at: utc_timestamp(grant.expires_at),
    })
}

fn get_version_info(call: &Call<'_>, _: GetVersionInfoRequest) -> Result<Value, Failure> {
    let status = status::of(&call.state.store);
    answer(&VersionInfo {
        build: env!("CARGO_PKG_VERSION").into(),
        data_version: status.data_version,
        data_date: utc_timestamp(status.updated_at),
    })
}

/// The brands the caller may see (only `only`, where the request names one), as records.
fn brand_records(call: &Call<'_>, only: Option<u32>) -> Result<Vec<BrandRecord>, Failure> {
    Ok(reference_lists::brands(&call.state.store, call.caller)?
        .into_iter()
        .filter(|(brand_id, _)| only.is_none_or(|only| only == *brand_id))
        .map(|(brand_id, brand_name)| BrandRecord {
            brand_id,
            brand_name,
        })
        .collect())
}

fn get_brands(call: &Call<'_>, r: GetBrandsRequest) -> Result<Value, Failure> {
    answer(&Brands::of(brand_records(call, r.data_supplier_id)?))
}

fn get_am_brands(call: &Call<'_>, r: GetBrandsRequest) -> Result<Value, Failure> {
    answer(&BrandList::of(brand_records(call, r.data_supplier_id)?))
}

fn get_generic_articles(call: &Call<'_>, r: GetGenericArticlesRequest) -> Result<Value, Failure> {
    // `linked`: the generic articles of the articles that fit the vehicle.
    let fitting = r
        .linked
        .unwrap_or(false)
        .then(|| r.linking_target_id.as_deref().unwrap_or(""));
    let generic_articles =
        reference_lists::generic_articles(&call.state.store, call.caller, fitting)?
            .into_iter()
            .map(|(id, name)| GenericArticleRecord {
                designation: name.clone(),
                generic_article_id: id,
                master_designation: name,
            })
            .collect();
    answer(&GenericArticleList::of(generic_articles))
}

fn get_manufacturers(call: &Call<'_>, _: GetManufacturersRequest) -> Result<Value, Failure> {
    let manufacturers = reference_lists::manufacturers(&call.state.store)?
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

fn get_linkage_targets(call: &Call<'_>, r: GetLinkageTargetsRequest) -> Result<Value, Failure> {
    let make = r
        .mfr_name
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty());
    if r.linkage_target_ids.is_empty() && make.is_none() {
        return Err(Failure::bad(
            "Field 'linkageTargetIds' or 'mfrName' is required",
        ));
    }
    let store = &call.state.store;
    let ids = &r.linkage_target_ids;
    let linkage_targets = reference_lists::vehicle_types(store, ids, make, "linkageTargetIds")?
        .iter()
        .map(linkage_target)
        .collect();
    answer(&LinkageTargetList { linkage_targets })
}

fn get_vehicle_by_ids(call: &Call<'_>, r: GetVehicleByIdsRequest) -> Result<Value, Failure> {
    let ids = r.car_ids.map(|l| l.array).unwrap_or_default();
    if ids.is_empty() {
        return Err(Failure::bad(
            "Field 'carIds' must hold at least one vehicle type (Ktype)",
        ));
    }
    let ktypes: Vec<String> = ids.iter().map(i64::to_string).collect();
    let motor_codes = r.motor_codes.unwrap_or(false);
    let found = reference_lists::vehicle_types(&call.state.store, &ktypes, None, "carIds")?
        .iter()
        .map(|v| super::vehicles::vehicle_by_ids(v, motor_codes))
        .collect();
    answer(&VehicleByIdsList::of(found))
}

fn get_article_linkages(call: &Call<'_>, r: GetArticleLinkagesRequest) -> Result<Value, Failure> {
    let (article, links) = reference_lists::article_with_links(
        &call.state.store,
        call.caller,
        r.data_supplier_id,
        &r.article_number,
    )?;
    answer(&ArticleLinkages {
        data_supplier_id: article.key.brand_id,
        article_number: article.reference,
        linkages: linkages(links),
    })
}
