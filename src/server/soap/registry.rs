//! Every SOAP/JSON operation, declared once: its row says its name, who may call it, what it
//! does (for the XSD and WSDL), its request and answer types, its handler in its family's
//! folder, whether its answers may be kept and whether a call may take long. Every endpoint
//! (DLB, DLW, their JSON twins) carries every row, in this order, which the WSDLs follow.
//! An operation not here is refused, whatever its handler; a failure is an answer too: its
//! `status` and a `statusText` naming the field.

use std::sync::LazyLock;

use poem_openapi::registry::Registry;
use poem_openapi::types::Type;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::access::messages::*;
use super::articles::messages::*;
use super::call::{Call, Failure};
use super::categories::messages::*;
use super::criteria::messages::*;
use super::prices::messages::*;
use super::reference_lists::messages::*;
use super::vehicles::messages::*;
use super::{access, articles, categories, criteria, prices, reference_lists, vehicles};
use crate::accounts::Scope;
use crate::server::answers::prices::{ExhaustKit, GenartPrices, KtypePrices};
use crate::server::registry::Access;

type Runner = Box<dyn Fn(&Call<'_>, Value) -> Result<Value, Failure> + Send + Sync>;

/// Whether a call may take long, and so runs on the blocking pool: a read of a whole index
/// (suffix matches, free text, a search without a number, vehicles by make) or a grant,
/// which flushes.
enum Blocking {
    Never,
    Always,
    /// When its fields (as read by its request type) say so.
    When(fn(&Value) -> bool),
}

pub struct Operation {
    pub name: &'static str,
    pub access: Access,
    /// What it does, for the XSD and WSDL.
    pub doc: &'static str,
    /// The XSD type of the request's fields.
    pub request_type: String,
    /// The XSD type whose fields follow `status` and `statusText` in the answer.
    pub answer_type: String,
    /// A pure catalogue read, whose answers the answer cache may keep.
    pub cacheable: bool,
    blocking: Blocking,
    register: fn(&mut Registry),
    run: Runner,
}

impl Operation {
    pub fn register(&self, registry: &mut Registry) {
        (self.register)(registry)
    }

    /// Whether this call may take long.
    pub fn may_block(&self, fields: &Value) -> bool {
        match self.blocking {
            Blocking::Never => false,
            Blocking::Always => true,
            Blocking::When(asks_long) => asks_long(fields),
        }
    }

    /// Runs the operation on fields already read by the request type.
    pub fn run(&self, call: &Call<'_>, fields: Value) -> Result<Value, Failure> {
        (self.run)(call, fields)
    }

    fn doc(mut self, doc: &'static str) -> Operation {
        self.doc = doc;
        self
    }

    fn cached(mut self) -> Operation {
        self.cacheable = true;
        self
    }

    fn blocks(mut self) -> Operation {
        self.blocking = Blocking::Always;
        self
    }

    fn blocks_when(mut self, asks_long: fn(&Value) -> bool) -> Operation {
        self.blocking = Blocking::When(asks_long);
        self
    }
}

fn row<Req, Ans>(
    name: &'static str,
    access: Access,
    run: fn(&Call<'_>, Req) -> Result<Value, Failure>,
) -> Operation
where
    Req: DeserializeOwned + Type + 'static,
    Ans: Type,
{
    Operation {
        name,
        access,
        doc: "",
        request_type: Req::name().into_owned(),
        answer_type: Ans::name().into_owned(),
        cacheable: false,
        blocking: Blocking::Never,
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

const READ: Access = Access::Scope(Scope::Read);
/// The provider's own key or whitelisted address, never an end user's grant.
const OWN: Access = Access::OwnCredentials;
/// Any authenticated caller: what reveals nothing of the catalogue.
const ANY: Access = Access::AnyCaller;

/// Every operation, in the WSDLs' order.
pub fn operations() -> &'static [Operation] {
    static OPERATIONS: LazyLock<Vec<Operation>> = LazyLock::new(rows);
    &OPERATIONS
}

/// The operation of this name; none for one not in the registry.
pub fn operation(name: &str) -> Option<&'static Operation> {
    operations().iter().find(|o| o.name == name)
}

fn rows() -> Vec<Operation> {
    vec![
        row::<AddDynamicAddressRequest, DynamicAddress>("addDynamicAddress", OWN, access::add_dynamic_address)
            .doc("Admits an end user's IPv4 address for the provider for a while (default 1 hour, at most the provider's cap, never above 24). Needs the provider's own key or whitelisted address.")
            .blocks(),
        row::<AddDynamicApiKeyRequest, DynamicApiKey>("addDynamicAPIKey", OWN, access::add_dynamic_api_key)
            .doc("Makes a key for an end user, valid 1 to 24 hours (default 24); the key is shown once. Needs the provider's own key or whitelisted address.")
            .blocks(),
        row::<GetArticlesRequest, ArticleSearch>("getArticles", READ, articles::get_articles)
            .doc("Articles by any of their numbers (searchType, searchMatchType on normalised numbers), narrowed by brand, generic article and vehicle, with include flags, facets, sorting, page paging and a cursor; requests and answers in the shapes of Pegasus 3.0's articlesRequest and articlesResponse.")
            .cached()
            .blocks_when(search_reads_an_index),
        row::<GetArticleDirectSearchRequest, ArticleDirectSearchList>("getArticleDirectSearchAllNumbersWithState", READ, articles::get_article_direct_search)
            .doc("Articles by any of their numbers (articleNumber, numberType as getArticles' searchType, searchExact or numbers that start or end with it), one record per number that matched, with the article's id, number, brand, generic article and state: Pegasus's getArticleDirectSearchAllNumbersWithState.")
            .cached()
            .blocks_when(not_exact),
        row::<GetVehicleByIdsRequest, VehicleByIdsList>("getVehicleByIds3", READ, vehicles::get_vehicle_by_ids)
            .doc("Vehicle types by Ktype (carIds), with their details and, with motorCodes, their engine codes: Pegasus's getVehicleByIds3.")
            .cached(),
        row::<GetVehicleByIdsRequest, VehicleByIdsList>("getVehicleByIds4", READ, vehicles::get_vehicle_by_ids)
            .doc("The same as getVehicleByIds3 (Pegasus's getVehicleByIds4; partscat has no vehicle documents).")
            .cached(),
        row::<GetArticleLinkagesRequest, ArticleLinkages>("getArticleLinkages", READ, articles::get_article_linkages)
            .doc("Every vehicle an article fits, with position, quantity and notes, in one call.")
            .cached(),
        row::<GetArticleLinkedAllLinkingTargetRequest, ArticleLinkedTargetsList>("getArticleLinkedAllLinkingTarget4", READ, articles::get_article_linked_targets)
            .doc("The vehicle types an article fits, by its numeric id (legacyArticleId of getArticles), optionally of one maker or one Ktype, and with withMainArticles those of the kits holding it: Pegasus's getArticleLinkedAllLinkingTarget4.")
            .cached()
            .blocks_when(with_main_articles),
        row::<GetArticleLinkedAllLinkingTarget3Request, ArticleLinkedTargets3List>("getArticleLinkedAllLinkingTarget3", READ, articles::get_article_linked_targets3)
            .doc("The older form of getArticleLinkedAllLinkingTarget4, without its country fields and its links' linked: Pegasus's getArticleLinkedAllLinkingTarget3.")
            .cached()
            .blocks_when(with_main_articles),
        row::<GetFitmentMakers2Request, FitmentMakers2List>("getArticleLinkedAllLinkingTargetManufacturer2", READ, articles::get_fitment_makers2)
            .doc("The vehicle makers of the vehicle types an article fits (articleId, the legacyArticleId of getArticles), optionally of one kind, in name order: a fitment list's first step, each make then opened with getArticleLinkedAllLinkingTarget4's linkingTargetManuId. Pegasus's getArticleLinkedAllLinkingTargetManufacturer2.")
            .cached(),
        row::<GetFitmentMakersRequest, FitmentMakersList>("getArticleLinkedAllLinkingTargetManufacturer", READ, articles::get_fitment_makers)
            .doc("The same as getArticleLinkedAllLinkingTargetManufacturer2, without its country fields: Pegasus's getArticleLinkedAllLinkingTargetManufacturer.")
            .cached(),
        row::<GetArticleLinkedAllLinkingTargetsByIdsRequest, LinkDetailsList>("getArticleLinkedAllLinkingTargetsByIds3", READ, articles::get_links_by_ids)
            .doc("How an article (articleId) fits the vehicle types of the links asked (linkedArticlePairs, as getArticleLinkedAllLinkingTarget4 answered them): each vehicle type's details and, with immediateAttributs, the position, quantity and notes: Pegasus's getArticleLinkedAllLinkingTargetsByIds3.")
            .cached(),
        row::<GetVehiclesByVinRequest, VehiclesByVin>("getVehiclesByVIN", READ, vehicles::get_vehicles_by_vin)
            .doc("The vehicle types a vehicle identification number names, from the catalogue's vins data set, with their makers and model series: Pegasus's getVehiclesByVIN.")
            .cached(),
        row::<GetOeArticlesByVinRequest, OeArticlesByVin>("getOEArticlesByVIN", READ, articles::get_oe_articles_by_vin)
            .doc("The vehicle makers' (OE) part numbers for the vehicle a VIN names: the OE numbers of the articles linked to the VIN's vehicle types (vins data set), each part once per generic article, with the articles crossing to it, facets, sorting and paging: Pegasus's getOEArticlesByVIN.")
            .cached()
            .blocks(),
        row::<GetMotorIdsByManuIdCriteria2Request, MotorIdList>("getMotorIdsByManuIdCriteria2", READ, vehicles::get_motor_ids_by_manu_id_criteria2)
            .doc("The numbers (motorId) of a vehicle maker's engines (manuId, required), by engine code (motorCode, whole or its start with searchExactCode false) and by the displacement, power and years of the vehicle types carrying them: Pegasus's getMotorIdsByManuIdCriteria2. A number is derived from the maker and the code, the same in every store.")
            .cached()
            .blocks(),
        row::<GetVehicleIdsByMotor2Request, VehicleIdByMotorList>("getVehicleIdsByMotor2", READ, vehicles::get_vehicle_ids_by_motor2)
            .doc("The vehicle types carrying an engine (motorId of getMotorIdsByManuIdCriteria2), optionally of one kind (carType), in Ktype order: Pegasus's getVehicleIdsByMotor2.")
            .cached()
            .blocks(),
        row::<GetVehiclesByKeyNumberPlatesRequest, PlateVehicleList>("getVehiclesByKeyNumberPlates", READ, vehicles::get_vehicles_by_plate)
            .doc("The vehicle types a registration plate or key number (keySystemNumber) names in a country, from the catalogue's plates data set, with details on request: Pegasus's getVehiclesByKeyNumberPlates.")
            .cached(),
        row::<GetLinkageTargetsRequest, LinkageTargetList>("getLinkageTargets", READ, vehicles::get_linkage_targets)
            .doc("Vehicle types narrowed by kind, Ktype, maker and model series, a page of them with their details, and the counts of their makers and model series: Pegasus's getLinkageTargets.")
            .cached()
            .blocks_when(without_ids),
        row::<GetManufacturers2Request, Manufacturer2List>("getManufacturers2", READ, vehicles::get_manufacturers2)
            .doc("The vehicle makers with vehicle types (of linkingTargetType), with the kinds of their types: Pegasus's getManufacturers2.")
            .cached(),
        row::<GetModelSeriesRequest, ModelSeriesList>("getModelSeries", READ, vehicles::get_model_series)
            .doc("A maker's model series with vehicle types (of linkingTargetType): Pegasus's getModelSeries.")
            .cached(),
        row::<GetModelSeriesRequest, ModelSeriesList>("getModelSeries2", READ, vehicles::get_model_series2)
            .doc("getModelSeries with favorFlag: Pegasus's getModelSeries2.")
            .cached(),
        row::<GetVehicleIdsByCriteriaRequest, VehicleIdList>("getVehicleIdsByCriteria", READ, vehicles::get_vehicle_ids_by_criteria)
            .doc("The vehicle types of a maker or model series, narrowed by kind, displacement, power, year of construction and name: Pegasus's getVehicleIdsByCriteria.")
            .cached(),
        row::<GetChildNodesRequest, ChildNodeList>("getChildNodesAllLinkingTarget2", READ, categories::get_child_nodes)
            .doc("The assembly groups of a tree, or of a vehicle type with the count of its parts under each (linked: only those with parts): Pegasus's getChildNodesAllLinkingTarget2.")
            .cached(),
        row::<GetShortCuts2Request, ShortCuts2List>("getShortCuts2", READ, categories::get_short_cuts2)
            .doc("The shortcuts into the search tree (its first level) of a tree, or of a vehicle type (linked: only those with parts): Pegasus's getShortCuts2.")
            .cached(),
        row::<GetArticleIdsWithStateRequest, ArticleIdsWithStateList>("getArticleIdsWithState", READ, articles::get_article_ids_with_state)
            .doc("The parts that fit a vehicle type, optionally under an assembly group and of some brands and generic articles, with their ids, names and state: Pegasus's getArticleIdsWithState.")
            .cached(),
        row::<GetDirectArticlesByIds6Request, ArticlesByIds6List>("getDirectArticlesByIds6", READ, articles::get_direct_articles_by_ids)
            .doc("Articles by numeric id with their basic data, criteria, documents, pictures, EAN, OE and trade numbers, prices, replacements and kits, as the flags ask: Pegasus's getDirectArticlesByIds6.")
            .cached(),
        row::<GetDirectArticlesByIds6Request, ArticlesByIds6List>("getDirectArticlesByIds7", READ, articles::get_direct_articles_by_ids)
            .doc("The same as getDirectArticlesByIds6 (Pegasus's getDirectArticlesByIds7, whose records add what partscat does not answer in either: the article as linked to a vehicle type).")
            .cached(),
        row::<GetArticlePartListRequest, ArticlePartListList>("getArticlePartList", READ, articles::get_article_part_list)
            .doc("A kit's components (articleId, the legacyArticleId of getArticles), those it holds for one vehicle type where linkingTargetId or articleLinkId names one, each with its number, brand, generic article, state, criteria, quantity and flags: Pegasus's getArticlePartList.")
            .cached(),
        row::<GetAutoCompleteSuggestionsRequest, AutoCompleteSuggestions>("getAutoCompleteSuggestions", READ, articles::get_auto_complete_suggestions)
            .doc("Completions of what is typed into a search box: generic-article names, then article and cross numbers: Pegasus's getAutoCompleteSuggestions.")
            .cached(),
        row::<GetBrandsRequest, Brands>("getBrands", READ, reference_lists::get_brands)
            .doc("The brands (data suppliers) the provider may see.")
            .cached(),
        row::<GetBrandsRequest, BrandList>("getAmBrands", READ, reference_lists::get_am_brands)
            .doc("The brands (aftermarket brands, data suppliers) the provider may see: Pegasus's name for getBrands.")
            .cached(),
        row::<GetAmBrandAddressRequest, BrandAddressList>("getAmBrandAddress", READ, reference_lists::get_am_brand_address)
            .doc("Where a brand's maker is reached (brandNo, as getAmBrands names the brand): its street, postcode, city, country, phone, fax, email and website, where the catalogue keeps them: Pegasus's getAmBrandAddress.")
            .cached(),
        row::<GetLocalesRequest, LanguageList>("getLanguages", READ, reference_lists::get_languages)
            .doc("The languages of the catalogue's texts, in fallback order (setting catalogue.languages)."),
        row::<GetLocalesRequest, CountryList>("getCountries", READ, reference_lists::get_countries)
            .doc("The countries the catalogue is for (setting catalogue.countries)."),
        row::<GetLocalesRequest, CountryGroupList>("getCountryGroups", READ, reference_lists::get_country_groups)
            .doc("The country groups of the catalogue's countries (the EU, the EEA, EFTA, Benelux, the Nordic and the Baltic states), each code as countryGroupFlag takes it in place of a country: Pegasus's getCountryGroups."),
        row::<GetCriteria2Request, Criteria2List>("getCriteria2", READ, criteria::get_criteria2)
            .doc("Every criterion the catalogue numbers, with its name, short name, type, unit, whether its values are ranges and its successor: Pegasus's getCriteria2.")
            .cached(),
        row::<GetKeyValuesRequest, KeyValuesList>("getKeyValues", READ, criteria::get_key_values)
            .doc("The keys of a key table (keyTableId, as a key-table criterion's definition names it) with their texts: Pegasus's getKeyValues.")
            .cached(),
        row::<GetGenericArticlesRequest, GenericArticleList>("getGenericArticles", READ, reference_lists::get_generic_articles)
            .doc("Every generic article (kind of part), or with linked and linkingTargetId those of the articles that fit a vehicle type.")
            .cached(),
        row::<GetManufacturersRequest, ManufacturerList>("getManufacturers", READ, reference_lists::get_manufacturers)
            .doc("Vehicle makers (of OE numbers) and competitor parts makers.")
            .cached(),
        row::<GetPricesByKtypeRequest, KtypePrices>("getPricesByKtype", READ, prices::get_prices_by_ktype)
            .doc("The prices of the articles linked to a vehicle type.")
            .cached(),
        row::<GetKitPriceRequest, GenartPrices>("getKitPrice", READ, prices::get_kit_price)
            .doc("Single-article (isKit false) or kit (isKit true) prices of a generic article for a vehicle type; a kit's price is its own list price, else the sum of its components'.")
            .cached(),
        row::<GetExhaustKitPriceRequest, ExhaustKit>("getExhaustKitPrice", READ, prices::get_exhaust_kit_price)
            .doc("The exhaust kit price of a vehicle type: its exhaust kits, else the cheapest fitting part of each exhaust generic article.")
            .cached(),
        row::<GetVersionInfoRequest, VersionInfo>("getVersionInfo", ANY, reference_lists::get_version_info)
            .doc("The appliance's version, and the catalogue's data version and date."),
        row::<GetPegasusVersionInfo2Request, PegasusVersionInfo2>("getPegasusVersionInfo2", ANY, reference_lists::get_pegasus_version_info2)
            .doc("The appliance's version (major, minor, revision) and the catalogue's data release (dataVersion, refDataVersion, its number as build, and its date), which clients key their caches by: Pegasus's getPegasusVersionInfo2."),
    ]
}

/// Suffix matches, free text and a search without a number read a whole index.
fn search_reads_an_index(fields: &Value) -> bool {
    let text = |name: &str| fields.get(name).and_then(Value::as_str);
    matches!(text("searchMatchType"), Some("suffix" | "prefix_or_suffix"))
        || fields.get("searchType").and_then(Value::as_u64) == Some(99)
        || text("searchQuery").is_none()
}

/// Not exact: numbers that end with the query too.
fn not_exact(fields: &Value) -> bool {
    fields.get("searchExact").and_then(Value::as_bool) == Some(false)
}

/// Kits holding an article are found by reading every kit.
fn with_main_articles(fields: &Value) -> bool {
    fields.get("withMainArticles").and_then(Value::as_bool) == Some(true)
}

/// Without ids every vehicle type is read.
fn without_ids(fields: &Value) -> bool {
    let ids = fields.get("linkageTargetIds").and_then(Value::as_array);
    ids.is_none_or(Vec::is_empty)
}

/// Who may call the operation of this name; none for an operation not in the registry.
pub fn operation_access(name: &str) -> Option<Access> {
    operation(name).map(|o| o.access)
}
