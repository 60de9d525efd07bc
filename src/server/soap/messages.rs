//! The requests and answers of the SOAP and JSON operations. Field names follow the TecDoc
//! Pegasus 3.0 service where it has the concept (`dataSupplierIds`, `linkageTargetId`,
//! `perPage`); each doc comment is the field's documentation in the XSD.

use poem_openapi::{Enum, Object};
use serde::{Deserialize, Serialize};

use super::pegasus::{self, LinkageTarget};

macro_rules! request {
    ($(#[$doc:meta])* $name:ident { $($(#[$fdoc:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Object, Deserialize, Serialize)]
        #[oai(rename_all = "camelCase")]
        #[serde(rename_all = "camelCase", deny_unknown_fields)]
        pub struct $name {
            /// The ProviderId the call is made for (the `provider` query parameter is also
            /// accepted).
            #[oai(default)]
            #[serde(default)]
            pub provider: Option<String>,
            $($(#[$fdoc])* pub $field: $ty,)*
        }
    };
}

request!(
    /// `getVersionInfo`: no fields but the provider.
    GetVersionInfoRequest {}
);
request!(
    /// `getBrands` and `getAmBrands` (Pegasus's `amBrandsRequest`): the brands (data
    /// suppliers) the provider may see.
    GetBrandsRequest {
        /// The country the articles are sold in. Accepted, no effect.
        article_country: Option<String>,
        /// The language of names. partscat's catalogue has one language: accepted, no
        /// effect.
        lang: Option<String>,
        /// Only this brand (when the provider may see it).
        data_supplier_id: Option<u32>,
        /// Every detail of each brand. partscat keeps a brand's id and name only: accepted,
        /// no effect.
        include_all: Option<bool>,
        /// The brands' addresses. partscat keeps none: accepted, no effect.
        include_address_details: Option<bool>,
        /// The brands' logos. partscat keeps none: accepted, no effect.
        include_data_supplier_logo: Option<bool>,
    }
);
request!(
    /// `getGenericArticles`: every generic article, or those of the articles linked to a
    /// vehicle type. Every field of Pegasus 3.0's `genericArticlesRequest` is taken.
    GetGenericArticlesRequest {
        /// The country the articles are sold in. Accepted, no effect.
        article_country: Option<String>,
        /// The language of names. partscat's catalogue has one language: accepted, no
        /// effect.
        lang: Option<String>,
        /// true: only the generic articles of articles linked to `linkingTargetId`.
        linked: Option<bool>,
        /// The vehicle type (Ktype) `linked` refers to.
        linking_target_id: Option<String>,
        /// The kind of `linkingTargetId`. partscat links to vehicle types only: accepted, no
        /// effect.
        linking_target_type: Option<String>,
        /// Search tree nodes. partscat has no search tree: accepted, no effect.
        search_tree_nodes: Option<bool>,
    }
);
request!(
    /// `getManufacturers`: vehicle makers and competitor parts makers. Every field of
    /// Pegasus 3.0's `manufacturersRequest` is taken; none narrows partscat's answer.
    GetManufacturersRequest {
        /// The country. Accepted, no effect.
        country: Option<String>,
        /// Whether `country` is a country group. Accepted, no effect.
        country_group_flag: Option<bool>,
        /// A favoured list. Accepted, no effect.
        favoured_list: Option<i32>,
        /// The language of names. Accepted, no effect.
        lang: Option<String>,
        /// The kind of vehicle. Accepted, no effect.
        linking_target_type: Option<String>,
    }
);
request!(
    /// `addDynamicAddress`: admits an end user's IPv4 address for a while.
    AddDynamicAddressRequest {
        /// The end user's IPv4 address; omitted: the caller's own address.
        address: Option<String>,
        /// Whole hours, 1 to the provider's cap (default 1; never above 24).
        validity_hours: Option<u32>,
    }
);
request!(
    /// `addDynamicAPIKey`: a new key for an end user, valid for a while.
    AddDynamicApiKeyRequest {
        /// Whole hours, 1 to 24 (default 24).
        validity_hours: Option<u32>,
    }
);
request!(
    /// `getPricesByKtype`: prices of the articles linked to a vehicle type.
    GetPricesByKtypeRequest {
        /// The vehicle type (Ktype).
        linkage_target_id: String,
    }
);
request!(
    /// `getKitPrice`: single-article or kit prices of a generic article for a vehicle type.
    GetKitPriceRequest {
        /// The generic article (genart).
        generic_article_id: u32,
        /// true: kit prices; false: single articles.
        is_kit: bool,
        /// The vehicle type (Ktype).
        linkage_target_id: String,
    }
);
request!(
    /// `getExhaustKitPrice`: the exhaust kit price of a vehicle type.
    GetExhaustKitPriceRequest {
        /// The vehicle type (Ktype).
        linkage_target_id: String,
    }
);
request!(
    /// `getLinkageTargets`: vehicle types by id or by make.
    GetLinkageTargetsRequest {
        /// Vehicle types (Ktypes) to return; at most 100 different ones.
        #[oai(validator(max_items = 100))]
        linkage_target_ids: Vec<String>,
        /// Or every vehicle type of this make (case-insensitive).
        mfr_name: Option<String>,
    }
);
request!(
    /// `getArticleLinkages`: every vehicle an article fits, in one call.
    GetArticleLinkagesRequest {
        /// The brand (data supplier) of the article.
        data_supplier_id: u32,
        /// The article number, written any way (`0 986 494 048` or `0986-494.048`).
        article_number: String,
    }
);

/// How a number must match: on normalised numbers (letters and digits, upper case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize, Serialize)]
#[oai(rename = "SearchMatchType", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum SearchMatchType {
    Exact,
    Prefix,
    Suffix,
    PrefixOrSuffix,
}

/// A criterion value articles must carry (`criteriaFilters`).
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "CriteriaFilter", rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CriteriaFilter {
    /// The criterion's number. partscat's criteria are named, not numbered: accepted, no
    /// effect.
    pub criteria_id: i32,
    /// The value.
    pub raw_value: String,
}

/// An order for the articles (`sort`).
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "Sort", rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sort {
    /// `score` (the default order: brand id, then normalised number), `mfrName` (brand
    /// name), `articleNumber` (normalised number); `articleCreatedOn`, `linkageCreatedOn`
    /// and `linkageSortNum` are accepted and keep the default order (partscat keeps no
    /// creation dates or linkage order numbers).
    pub field: String,
    /// `asc` or `desc`.
    pub direction: String,
}

/// Assembly group facets. partscat has no assembly groups: accepted, no effect.
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "AssemblyGroupFacetOptions", rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AssemblyGroupFacetOptions {
    /// Accepted, no effect.
    pub enabled: Option<bool>,
    /// Accepted, no effect.
    pub assembly_group_type: Option<String>,
    /// Accepted, no effect.
    pub include_complete_tree: Option<bool>,
    /// Accepted, no effect.
    pub max_depth: Option<i32>,
}

request!(
    /// `getArticles`: articles by number, with filters, include flags, facets and paging.
    /// Every field of Pegasus 3.0's `articlesRequest` is taken; those partscat has no data
    /// for say so and change nothing.
    GetArticlesRequest {
        /// The country the articles are sold in. partscat holds one maker's catalogue for
        /// one market: accepted, no effect.
        article_country: Option<String>,
        /// The number searched for, written any way.
        search_query: Option<String>,
        /// 0 article number, 1 OE, 2 trade, 3 comparable (competitor), 4 replacement (the
        /// articles replacing it), 5 replaced (the articles it replaces), 6 EAN, 10 any
        /// (default), 99 free text (any number, or every word in the article's description
        /// or generic article name).
        search_type: Option<u32>,
        /// exact (default), prefix, suffix or prefix_or_suffix.
        search_match_type: Option<SearchMatchType>,
        /// Only these articles, by their numeric ids (`genericArticles[].legacyArticleId`); at
        /// most 1000 different ones. Without `searchQuery`, these are the articles listed.
        #[oai(validator(max_items = 1000))]
        legacy_article_ids: Vec<i64>,
        /// Only these brands; at most 100 different ones (repeats are merged).
        #[oai(validator(max_items = 100))]
        data_supplier_ids: Vec<u32>,
        /// Only these generic articles; at most 1000 different ones (repeats are merged).
        #[oai(validator(max_items = 1000))]
        generic_article_ids: Vec<u32>,
        /// Assembly group nodes. partscat has no assembly groups: accepted, no effect.
        assembly_group_node_ids: Vec<i64>,
        /// Criterion values the articles must carry. partscat's criteria are named, not
        /// numbered: accepted, no effect.
        criteria_filters: Vec<CriteriaFilter>,
        /// Only articles linked to this vehicle type (Ktype).
        linkage_target_id: Option<String>,
        /// The kind of `linkageTargetId` (`P`, `V`, `L`, `B`, `O`, `C`, `T`, `M`, `A`, `K`).
        /// partscat links articles to vehicle types only: accepted, no effect.
        linkage_target_type: Option<String>,
        /// The country linkages are filtered by. Accepted, no effect.
        linkage_target_country: Option<String>,
        /// Articles added since (YYYY-MM-DD). partscat keeps no creation dates: accepted, no
        /// effect.
        new_articles_date_from: Option<String>,
        /// Articles added until (YYYY-MM-DD). Accepted, no effect.
        new_articles_date_to: Option<String>,
        /// Linkages added since (YYYY-MM-DD). Accepted, no effect.
        new_linkages_date_from: Option<String>,
        /// Linkages added until (YYYY-MM-DD). Accepted, no effect.
        new_linkages_date_to: Option<String>,
        /// The make of new linkages. Accepted, no effect.
        new_linkages_mfr_id: Option<i32>,
        /// The language of texts. partscat's catalogue has one language: accepted, no
        /// effect.
        lang: Option<String>,
        /// 1 to 1000 (default 100); 0: counts and facets only.
        per_page: Option<u32>,
        /// From 1 (default) to maxAllowedPage.
        page: Option<u32>,
        /// Linkages per article, 1 to 1000 (with includeLinkages); absent: every linkage
        /// (partscat answers them in one call). `totalLinkages` counts them all.
        linkages_per_page: Option<u32>,
        /// From 1 (default): which page of each article's linkages.
        linkages_page: Option<u32>,
        /// How the articles are ordered; the first entry decides (default `score`).
        #[oai(validator(max_items = 10))]
        sort: Vec<Sort>,
        /// Every include flag below.
        include_all: Option<bool>,
        /// Status, packaging and the article's own description (`misc`).
        include_misc: Option<bool>,
        /// The article's generic article (`genericArticles`).
        include_generic_articles: Option<bool>,
        /// Article texts. partscat's articles have one description, given in `misc`:
        /// accepted, `articleText` stays empty.
        include_article_text: Option<bool>,
        /// The article's GTINs (EANs).
        #[oai(rename = "includeGTINs")]
        #[serde(rename = "includeGTINs")]
        include_gtins: Option<bool>,
        /// The article's trade numbers.
        include_trade_numbers: Option<bool>,
        /// The vehicle makers' (OE) numbers of the article.
        #[oai(rename = "includeOEMNumbers")]
        #[serde(rename = "includeOEMNumbers")]
        include_oem_numbers: Option<bool>,
        /// The articles this one replaces.
        include_replaces_articles: Option<bool>,
        /// The numbers that replace the article.
        include_replaced_by_articles: Option<bool>,
        /// The article's technical criteria.
        include_article_criteria: Option<bool>,
        /// Every vehicle the article fits.
        include_linkages: Option<bool>,
        /// The article's documents (`pdfs`).
        #[oai(rename = "includePDFs")]
        #[serde(rename = "includePDFs")]
        include_pdfs: Option<bool>,
        /// Images and 360-degree frames.
        include_images: Option<bool>,
        /// Counts of the matches per brand.
        include_data_supplier_facets: Option<bool>,
        /// Counts of the matches per generic article.
        include_generic_article_facets: Option<bool>,
        /// Assembly group facets. Accepted, no effect.
        assembly_group_facet_options: Option<AssemblyGroupFacetOptions>,
        /// Criteria facets. partscat's criteria are named, not numbered: accepted,
        /// `criteriaFacets` is not answered.
        include_criteria_facets: Option<bool>,
        /// Competitor and internal numbers of the article.
        include_comparable_numbers: Option<bool>,
        /// Links. partscat keeps no links: accepted, `links` stays empty.
        include_links: Option<bool>,
        /// Every price of the article.
        include_prices: Option<bool>,
        /// The `nextCursor` of the previous page: pages through a result of any size
        /// (`page` is then ignored).
        cursor: Option<String>,
    }
);

/// `getVersionInfo`.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VersionInfo {
    /// The appliance's version.
    pub build: String,
    /// Counts committed catalogue changes.
    pub data_version: u64,
    /// When the catalogue last changed (UTC, ISO 8601).
    pub data_date: String,
}

/// Pegasus answers a list as `data`, a sequence whose items are `array` elements: in JSON
/// `{"data": {"array": [...]}}`.
macro_rules! record_list {
    ($(#[$doc:meta])* $answer:ident, $seq:ident, $seq_name:literal, $record:ty) => {
        /// The records of a list answer.
        #[derive(Debug, Clone, Object, Serialize)]
        #[oai(rename = $seq_name)]
        pub struct $seq {
            /// The records, in id order.
            pub array: Vec<$record>,
        }

        $(#[$doc])*
        #[derive(Debug, Clone, Object, Serialize)]
        pub struct $answer {
            /// The records.
            pub data: $seq,
        }

        impl $answer {
            pub fn of(array: Vec<$record>) -> $answer {
                $answer {
                    data: $seq { array },
                }
            }
        }
    };
}

/// A brand (Pegasus's `amBrandsRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "amBrandsRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct BrandRecord {
    /// The brand's id (the `dataSupplierId` of its articles).
    pub brand_id: u32,
    /// The brand's name.
    pub brand_name: String,
}

record_list!(
    /// `getAmBrands`: the brands the provider may see.
    BrandList,
    BrandRecordSeq,
    "amBrandsRecordSeq",
    BrandRecord
);

/// A brand as the first releases answered `getBrands`.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct DataSupplier {
    /// The brand's id.
    pub data_supplier_id: u32,
    /// The brand's name.
    pub name: String,
}

/// `getBrands`: the brands the provider may see, as Pegasus lists them (`data`) and, the same
/// brands, as the first releases did (`dataSuppliers`): a moved field keeps its old place
/// (docs/compatibility.md).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct Brands {
    /// The brands, in id order.
    pub data: BrandRecordSeq,
    /// The same brands in the first releases' shape.
    pub data_suppliers: Vec<DataSupplier>,
}

impl Brands {
    pub fn of(array: Vec<BrandRecord>) -> Brands {
        let data_suppliers = array
            .iter()
            .map(|b| DataSupplier {
                data_supplier_id: b.brand_id,
                name: b.brand_name.clone(),
            })
            .collect();
        Brands {
            data: BrandRecordSeq { array },
            data_suppliers,
        }
    }
}

/// A generic article (Pegasus's `genericArticlesRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "genericArticlesRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct GenericArticleRecord {
    /// What kind of part it is (`Brake Disc`).
    pub designation: String,
    /// The generic article's id (genart).
    pub generic_article_id: u32,
    /// Its name again: partscat's generic articles have one name.
    pub master_designation: String,
}

record_list!(
    /// `getGenericArticles`.
    GenericArticleList,
    GenericArticleRecordSeq,
    "genericArticlesRecordSeq",
    GenericArticleRecord
);

/// A manufacturer (Pegasus's `manufacturersRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "manufacturersRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ManufacturerRecord {
    /// The manufacturer's id.
    pub manu_id: u32,
    /// The manufacturer's name.
    pub manu_name: String,
    /// `vehicle` (OE numbers) or `parts` (competitor references).
    pub kind: String,
}

record_list!(
    /// `getManufacturers`.
    ManufacturerList,
    ManufacturerRecordSeq,
    "manufacturersRecordSeq",
    ManufacturerRecord
);

/// `addDynamicAddress`.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct DynamicAddress {
    /// The provider the address is admitted for.
    pub provider_id: String,
    /// The admitted IPv4 address.
    pub address: String,
    /// How many hours the grant lasts.
    pub validity_hours: u32,
    /// The first second it no longer works (UTC, ISO 8601).
    pub expires_at: String,
}

/// `addDynamicAPIKey`.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct DynamicApiKey {
    /// The provider the key belongs to.
    pub provider_id: String,
    /// Shown once; pass it as `api_key`, `X-Api-Key` or Basic user with this provider.
    pub api_key: String,
    /// How many hours the key lasts.
    pub validity_hours: u32,
    /// The first second it no longer works (UTC, ISO 8601).
    pub expires_at: String,
}

/// `getLinkageTargets`.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct LinkageTargetList {
    /// The vehicle types found.
    pub linkage_targets: Vec<LinkageTarget>,
}

/// A vehicle an article fits, and how.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleLinkage {
    /// The vehicle.
    pub linkage_target: LinkageTarget,
    /// Where on the vehicle (front, rear, …); empty if not given.
    pub position: String,
    /// How many the vehicle takes.
    pub quantity: u32,
    /// Fitting notes; empty if none.
    pub notes: String,
}

/// `getArticleLinkages`.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleLinkages {
    /// The article's brand.
    pub data_supplier_id: u32,
    /// The article number as the maker writes it.
    pub article_number: String,
    /// Every vehicle the article fits.
    pub linkages: Vec<ArticleLinkage>,
}

/// An article as `getArticles` answers it, in Pegasus's `ArticleRecord` shape: the lists
/// are filled as the include flags ask, and stay `[]` otherwise.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ArticleRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleRecord {
    /// The brand (data supplier).
    pub data_supplier_id: u32,
    /// As the maker writes it.
    pub article_number: String,
    /// The brand again (Pegasus gives the brand's manufacturer).
    pub mfr_id: u32,
    /// The brand's name.
    pub mfr_name: String,
    /// Status, packaging and description (with includeMisc).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub misc: Option<pegasus::MiscArticleData>,
    /// The generic article (with includeGenericArticles).
    pub generic_articles: Vec<pegasus::GenericArticleRef>,
    /// Article texts: partscat answers none (the description is in `misc`).
    pub article_text: Vec<pegasus::ArticleText>,
    /// GTIN (EAN) codes (with includeGTINs).
    #[oai(rename = "gtins")]
    #[serde(rename = "gtins")]
    pub gtins: Vec<String>,
    /// Trade numbers (with includeTradeNumbers).
    pub trade_numbers: Vec<String>,
    /// Vehicle makers' numbers (with includeOEMNumbers).
    pub oem_numbers: Vec<pegasus::ArticleRef>,
    /// The articles of the same brand this one replaces: those naming it as replaced-by
    /// (with includeReplacesArticles).
    pub replaces_articles: Vec<pegasus::ArticleRef>,
    /// The articles of the same brand that replace it (with includeReplacedByArticles).
    pub replaced_by_articles: Vec<pegasus::ArticleRef>,
    /// Technical criteria (with includeArticleCriteria).
    pub article_criteria: Vec<pegasus::CriteriaRecord>,
    /// Vehicles it fits (with includeLinkages), each with the vehicle itself.
    pub linkages: Vec<pegasus::ArticleLinkageRecord>,
    /// Documents (with includePDFs).
    pub pdfs: Vec<pegasus::PdfRecord>,
    /// Images and 360-degree frames (with includeImages).
    pub images: Vec<pegasus::ImageRecord>,
    /// Competitor and internal numbers (with includeComparableNumbers).
    pub comparable_numbers: Vec<pegasus::ArticleRef>,
    /// The article's numbers that matched `searchQuery` (none without a query, or for an
    /// article found by its description).
    pub search_query_matches: Vec<pegasus::SearchQueryMatch>,
    /// Links: partscat keeps none.
    pub links: Vec<pegasus::LinkRecord>,
    /// Every vehicle it fits, over all linkage pages (with includeLinkages).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_linkages: Option<u32>,
    /// Prices (with includePrices).
    pub prices: Vec<pegasus::PriceRecord>,
    /// Upper-case letters and digits only: what searches compare.
    pub normalised_article_number: String,
}

/// `getArticles`, in Pegasus's `articlesResponse` shape.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleSearch {
    /// Every match, over all pages.
    pub total_matching_articles: u32,
    /// The last page `page` may ask for at this `perPage`; further, use the cursor.
    pub max_allowed_page: u32,
    /// This page's articles.
    pub articles: Vec<ArticleRecord>,
    /// Matches per brand (with includeDataSupplierFacets).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_supplier_facets: Option<pegasus::DataSupplierFacets>,
    /// Matches per generic article (with includeGenericArticleFacets).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generic_article_facets: Option<pegasus::GenericArticleFacets>,
    /// Pass it as `cursor` for the next page; absent on the last page.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// A list of numbers, as Pegasus sends it (`{"array": [...]}`).
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "integerList")]
#[serde(deny_unknown_fields)]
pub struct IntegerList {
    /// The numbers; at most 100 different ones (repeats are merged).
    #[oai(validator(max_items = 100))]
    pub array: Vec<i64>,
}

request!(
    /// `getVehicleByIds3` and `getVehicleByIds4` (Pegasus's `vehicleByIds3Request`):
    /// vehicle types by Ktype. Every field is taken; partscat answers each vehicle's details
    /// and, with `motorCodes`, its engine code, and has no data for the other parts.
    GetVehicleByIdsRequest {
        /// The country the articles are sold in. Accepted, no effect.
        article_country: Option<String>,
        /// Axles. partscat has no axle data: accepted, no effect.
        axles: Option<bool>,
        /// Cabs. Accepted, no effect.
        cabs: Option<bool>,
        /// The vehicle types (Ktypes).
        car_ids: Option<IntegerList>,
        /// The countries of the vehicle selection. Accepted, no effect.
        countries_car_selection: Option<String>,
        /// The country. Accepted, no effect.
        country: Option<String>,
        /// Whether `country` is a country group. Accepted, no effect.
        country_group_flag: Option<bool>,
        /// KBA numbers. partscat has no KBA data: accepted, no effect.
        kba_data: Option<bool>,
        /// The language of names. partscat's catalogue has one language: accepted, no
        /// effect.
        lang: Option<String>,
        /// true: each vehicle's engine code (`motorCodes`).
        motor_codes: Option<bool>,
        /// The kind of number plate. Accepted, no effect.
        numberplate_type: Option<i32>,
        /// Prototypes. Accepted, no effect.
        proto_types: Option<bool>,
        /// Registration data. Accepted, no effect.
        registration_info: Option<bool>,
        /// Secondary types. Accepted, no effect.
        secondary_types: Option<bool>,
        /// Wheelbases. Accepted, no effect.
        wheelbases: Option<bool>,
    }
);

/// An engine code of a vehicle type.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "motorCodesByCarIdRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct MotorCodeRecord {
    /// The engine code (`CHZD`).
    pub motor_code: String,
}

/// The engine codes of a vehicle type.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "motorCodesByCarIdRecordSeq")]
pub struct MotorCodeRecordSeq {
    /// The codes.
    pub array: Vec<MotorCodeRecord>,
}

/// A vehicle type's details (Pegasus's `vehicleByIdRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "vehicleByIdRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VehicleDetails {
    /// The Ktype.
    pub car_id: i64,
    /// Displacement in cm³.
    pub ccm_tech: i64,
    /// Displacement in cm³.
    pub cylinder_capacity_ccm: i64,
    /// Fuel.
    pub fuel_type: String,
    /// The make.
    pub manu_name: String,
    /// The model (`A3 Sportback (8VA, 8VF)`).
    pub model_name: String,
    /// The engine code.
    pub motor_type: String,
    /// Power in HP.
    pub power_hp_from: i32,
    /// Power in HP: partscat holds one figure.
    pub power_hp_to: i32,
    /// Power in kW.
    pub power_kw_from: i32,
    /// Power in kW: partscat holds one figure.
    pub power_kw_to: i32,
    /// The type (`1.0 TSI`).
    pub type_name: String,
    /// First built, YYYYMM (month 00 where only the year is known).
    pub year_of_constr_from: i32,
    /// Last built, YYYYMM; absent while the type is built.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year_of_constr_to: Option<i32>,
}

/// A vehicle type (Pegasus's `vehicleByIds3Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "vehicleByIds3Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct VehicleByIdsRecord {
    /// The Ktype.
    pub car_id: i64,
    /// Its engine codes (with motorCodes).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motor_codes: Option<MotorCodeRecordSeq>,
    /// Its details.
    pub vehicle_details: VehicleDetails,
}

record_list!(
    /// `getVehicleByIds3` and `getVehicleByIds4`: the vehicle types found, in the order
    /// asked; a Ktype the catalogue lacks is left out.
    VehicleByIdsList,
    VehicleByIdsRecordSeq,
    "vehicleByIds3RecordSeq",
    VehicleByIdsRecord
);

request!(
    /// `getLanguages` and `getCountries` (Pegasus's `languagesRequest`, `countriesRequest`).
    GetLocalesRequest {
        /// The language of the names. partscat names languages and countries in English:
        /// accepted, no effect.
        lang: Option<String>,
    }
);

/// A language (Pegasus's `languagesRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "languagesRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct LanguageRecord {
    /// ISO 639-1 (`en`).
    pub language_code: String,
    /// Its English name.
    pub language_name: String,
}

record_list!(
    /// `getLanguages`: the language of the catalogue's texts (setting `catalogue.language`).
    LanguageList,
    LanguageRecordSeq,
    "languagesRecordSeq",
    LanguageRecord
);

/// A country (Pegasus's `countriesRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "countriesRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct CountryRecord {
    /// ISO 3166-1 alpha-2 (`DE`).
    pub country_code: String,
    /// Its English name.
    pub country_name: String,
}

record_list!(
    /// `getCountries`: the countries the catalogue is for (setting `catalogue.countries`).
    CountryList,
    CountryRecordSeq,
    "countriesRecordSeq",
    CountryRecord
);

request!(
    /// `getArticleLinkedAllLinkingTarget4` (Pegasus's
    /// `articleLinkedAllLinkingTarget4Request`): the vehicle types an article fits, by the
    /// article's numeric id (`legacyArticleId` of `getArticles`).
    GetArticleLinkedAllLinkingTargetRequest {
        /// The country the articles are sold in. Accepted, no effect.
        article_country: Option<String>,
        /// The article's numeric id (`genericArticles[].legacyArticleId` of `getArticles`).
        article_id: Option<i64>,
        /// The country. Accepted, no effect.
        country: Option<String>,
        /// Whether `country` is a country group. Accepted, no effect.
        country_group_flag: Option<bool>,
        /// The language of names. partscat's catalogue has one language: accepted, no
        /// effect.
        lang: Option<String>,
        /// Only this vehicle type (Ktype); absent or 0: every one.
        linking_target_id: Option<i64>,
        /// Only vehicles of this maker (`manuId` of `getManufacturers`); absent, 0 or -1:
        /// every maker.
        linking_target_manu_id: Option<i64>,
        /// The kind of vehicle. partscat's vehicle types are one kind, answered as `P`:
        /// accepted, no effect.
        linking_target_type: Option<String>,
        /// true: also the vehicle types of the kits the article is part of
        /// (`mainArticleLinkages`).
        with_main_articles: Option<bool>,
    }
);

/// One vehicle type an article fits (Pegasus's `articleLinkedAllLinkingTargetDetailsRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleLinkedAllLinkingTargetDetailsRecord",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct LinkedTargetRecord {
    /// The link's id: the article's id times 2³² plus the Ktype.
    pub article_link_id: i64,
    /// Always true: partscat lists the links the article has.
    pub linked: bool,
    /// The Ktype (0 where it is not a number).
    pub linking_target_id: i64,
    /// `P`: a vehicle type.
    pub linking_target_type: String,
}

/// The vehicle types an article fits.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articleLinkedAllLinkingTargetDetailsRecordSeq")]
pub struct LinkedTargetRecordSeq {
    /// The vehicle types, in Ktype order.
    pub array: Vec<LinkedTargetRecord>,
}

/// One vehicle type a kit holding the article fits (Pegasus's
/// `mainArticleLinkedVehiclesRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "mainArticleLinkedVehiclesRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct MainArticleLinkRecord {
    /// The kit's link's id: the kit's id times 2³² plus the Ktype.
    pub article_link_id: i64,
    /// The Ktype (0 where it is not a number).
    pub linking_target_id: i64,
    /// The kit's numeric id.
    pub main_article_id: i64,
}

/// The vehicle types of the kits holding the article.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "mainArticleLinkedVehiclesRecordSeq")]
pub struct MainArticleLinkRecordSeq {
    /// The kits' vehicle types (with withMainArticles).
    pub array: Vec<MainArticleLinkRecord>,
}

/// An article's vehicle types (Pegasus's `articleLinkedAllLinkingTarget4Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleLinkedAllLinkingTarget4Record",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct ArticleLinkedTargetsRecord {
    /// The vehicle types the article fits.
    pub article_linkages: LinkedTargetRecordSeq,
    /// The vehicle types of the kits the article is part of (with withMainArticles).
    pub main_article_linkages: MainArticleLinkRecordSeq,
}

record_list!(
    /// `getArticleLinkedAllLinkingTarget4`: one record for the article; none for an id the
    /// catalogue does not hold or a brand the caller may not see.
    ArticleLinkedTargetsList,
    ArticleLinkedTargetsRecordSeq,
    "articleLinkedAllLinkingTarget4RecordSeq",
    ArticleLinkedTargetsRecord
);

request!(
    /// `getArticleDirectSearchAllNumbersWithState` (Pegasus's
    /// `articleDirectSearchAllNumbersWithStateRequest`): articles by any of their numbers, one
    /// record per number that matched.
    GetArticleDirectSearchRequest {
        /// The country the articles are sold in. Accepted, no effect.
        article_country: Option<String>,
        /// The number searched for, written any way.
        article_number: Option<String>,
        /// Only this brand (`dataSupplierId`); absent or 0: every brand.
        brand_id: Option<i64>,
        /// Only this generic article; absent or 0: every one.
        generic_article_id: Option<i64>,
        /// The language of names. partscat's catalogue has one language: accepted, no
        /// effect.
        lang: Option<String>,
        /// 0 article number, 1 OE, 2 trade, 3 comparable, 4 replacement (the articles
        /// replacing it), 5 replaced (the articles it replaces), 6 EAN, 10 any (default).
        number_type: Option<i32>,
        /// true (default): the whole number; false: numbers that start or end with it.
        search_exact: Option<bool>,
        /// Pegasus's order. partscat answers in brand, then number order: accepted, no
        /// effect.
        sort_type: Option<i32>,
    }
);

/// An article found by one of its numbers (Pegasus's
/// `articleDirectSearchAllNumbersWithStateRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleDirectSearchAllNumbersWithStateRecord",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct ArticleDirectSearchRecord {
    /// The article's numeric id (`legacyArticleId`).
    pub article_id: i64,
    /// Its generic article's name.
    pub article_name: String,
    /// The article's number as the maker writes it.
    pub article_no: String,
    /// The number that matched, normalised.
    pub article_search_no: String,
    /// 1 active, 2 announced, 3 discontinued.
    pub article_state_id: i32,
    /// The brand's name.
    pub brand_name: String,
    /// The brand (`dataSupplierId`).
    pub brand_no: i64,
    /// The generic article.
    pub generic_article_id: i64,
    /// The kind of number that matched (0, 1, 2, 3, 4, 5 or 6, as `numberType`).
    pub number_type: i32,
}

record_list!(
    /// `getArticleDirectSearchAllNumbersWithState`: at most 1000 records, in brand and
    /// number order.
    ArticleDirectSearchList,
    ArticleDirectSearchRecordSeq,
    "articleDirectSearchAllNumbersWithStateRecordSeq",
    ArticleDirectSearchRecord
);

request!(
    /// `getArticleLinkedAllLinkingTargetsByIds3` (Pegasus's
    /// `articleLinkedAllLinkingTargetsByIds3Request`): how an article fits the vehicle types
    /// named by the links `getArticleLinkedAllLinkingTarget4` answered.
    GetArticleLinkedAllLinkingTargetsByIdsRequest {
        /// The country the articles are sold in. Accepted, no effect.
        article_country: Option<String>,
        /// The article's numeric id (`genericArticles[].legacyArticleId` of `getArticles`).
        article_id: Option<i64>,
        /// true: the position, quantity and notes of each fit
        /// (`linkedArticleImmediateAttributs`).
        immediate_attributs: Option<bool>,
        /// The language of names. partscat's catalogue has one language: accepted, no
        /// effect.
        lang: Option<String>,
        /// The links: `articleLinkId` and `linkingTargetId` as
        /// `getArticleLinkedAllLinkingTarget4` answered them.
        linked_article_pairs: Option<LinkedArticlePairList>,
        /// The kind of vehicle. partscat's vehicle types are one kind, answered as `P`:
        /// accepted, no effect.
        linking_target_type: Option<String>,
        /// The kind of number plate. Accepted, no effect.
        numberplate_type: Option<i32>,
    }
);

/// A link of an article to a vehicle type (Pegasus's `linkedArticlePair`).
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "linkedArticlePair", rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LinkedArticlePair {
    /// The link's id (`articleLinkId` of `getArticleLinkedAllLinkingTarget4`).
    pub article_link_id: i64,
    /// The Ktype.
    pub linking_target_id: i64,
}

/// Links, as Pegasus sends them (`{"array": [...]}`).
#[derive(Debug, Clone, Object, Deserialize, Serialize)]
#[oai(rename = "linkedArticlePairSeq")]
#[serde(deny_unknown_fields)]
pub struct LinkedArticlePairList {
    /// The links; at most 100 different ones (repeats are merged).
    #[oai(validator(max_items = 100))]
    pub array: Vec<LinkedArticlePair>,
}

/// One thing to know about how an article fits a vehicle type (Pegasus's
/// `immediateAttributsLinkedElementsRecord`): its position, quantity or notes.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "immediateAttributsLinkedElementsRecord",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct LinkAttributeRecord {
    /// `Position`, `Quantity` or `Notes`.
    pub attr_name: String,
    /// The same.
    pub attr_short_name: String,
    /// `N` a number, `A` text.
    pub attr_type: String,
    /// The value as the catalogue holds it.
    pub attr_value: String,
}

/// How an article fits a vehicle type.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "immediateAttributsLinkedElementsRecordSeq")]
pub struct LinkAttributeRecordSeq {
    /// The position, quantity and notes (with immediateAttributs).
    pub array: Vec<LinkAttributeRecord>,
}

/// A vehicle type an article fits (Pegasus's `articleLinkedVehiclesById2Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articleLinkedVehiclesById2Record", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct LinkedVehicleRecord {
    /// The Ktype.
    pub car_id: i64,
    /// The type's name (`1.6 TDI`).
    pub car_desc: String,
    /// Displacement in cm³.
    pub cylinder_capacity: i64,
    /// `P`: a vehicle type.
    pub linking_target_type: String,
    /// The vehicle maker's name.
    pub manu_desc: String,
    /// The vehicle maker (`manuId` of `getManufacturers`; 0 where the catalogue has none).
    pub manu_id: i64,
    /// The model's name.
    pub model_desc: String,
    /// Power in hp.
    pub power_hp_from: i32,
    /// Power in hp.
    pub power_hp_to: i32,
    /// Power in kW.
    pub power_kw_from: i32,
    /// Power in kW.
    pub power_kw_to: i32,
    /// Built from (YYYYMM).
    pub year_of_construction_from: i32,
    /// Built until (YYYYMM); absent while still built.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year_of_construction_to: Option<i32>,
}

/// The vehicle type of a link.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "articleLinkedVehiclesById2RecordSeq")]
pub struct LinkedVehicleRecordSeq {
    /// The vehicle type.
    pub array: Vec<LinkedVehicleRecord>,
}

/// How an article fits one vehicle type (Pegasus's
/// `articleLinkedAllLinkingTargetsByIds3Record`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(
    rename = "articleLinkedAllLinkingTargetsByIds3Record",
    rename_all = "camelCase"
)]
#[serde(rename_all = "camelCase")]
pub struct LinkDetailsRecord {
    /// The link's id, as asked.
    pub article_link_id: i64,
    /// The position, quantity and notes (with immediateAttributs; otherwise empty).
    pub linked_article_immediate_attributs: LinkAttributeRecordSeq,
    /// The vehicle type.
    pub linked_vehicles: LinkedVehicleRecordSeq,
    /// The Ktype.
    pub linking_target_id: i64,
    /// `P`: a vehicle type.
    pub linking_target_type: String,
}

record_list!(
    /// `getArticleLinkedAllLinkingTargetsByIds3`: one record per link the article has, in the
    /// order asked; none for a link of another article or one the catalogue does not hold.
    LinkDetailsList,
    LinkDetailsRecordSeq,
    "articleLinkedAllLinkingTargetsByIds3RecordSeq",
    LinkDetailsRecord
);

request!(
    /// `getVehiclesByKeyNumberPlates` (Pegasus's `vehiclesByKeyNumberPlatesRequest`): the
    /// vehicle types a registration plate or key number names in a country, from the
    /// catalogue's `plates` data set. Pegasus forwards this call to plate services with their
    /// own credentials; partscat answers from its own data, so those fields are taken and
    /// have no effect.
    GetVehiclesByKeyNumberPlatesRequest {
        /// A plate service's customer name. Accepted, no effect.
        company_name: Option<String>,
        /// The country of the plate or key number (ISO 3166-1 alpha-2, `DE`).
        country: Option<String>,
        /// true: each vehicle type's details (`vehicleDetails`).
        details: Option<bool>,
        /// A plate service's end-customer password. Accepted, no effect.
        end_customer_password: Option<String>,
        /// A plate service's end-customer user. Accepted, no effect.
        end_customer_username: Option<String>,
        /// A plate service's key. Accepted, no effect.
        id_key: Option<String>,
        /// A plate service's user initials. Accepted, no effect.
        initials: Option<String>,
        /// The plate or key number as written (`AB12 CDE`, `0603/BJQ`); letters and digits
        /// are compared.
        key_system_number: Option<String>,
        /// The kind of number (`key_system` of the plates file); rows without one match any.
        /// Absent or 0: any kind.
        key_system_type: Option<i64>,
        /// The language of names. partscat's catalogue has one language: accepted, no
        /// effect.
        lang: Option<String>,
        /// The kind of vehicle. partscat's vehicle types are one kind, answered as `P`:
        /// accepted, no effect.
        linking_target_type: Option<String>,
        /// A plate service's password. Accepted, no effect.
        mandator_password: Option<String>,
        /// A plate service's user. Accepted, no effect.
        mandator_username: Option<String>,
        /// Pictures of the vehicle. partscat has none: accepted, no effect.
        picture: Option<bool>,
        /// A plate service's product. Accepted, no effect.
        product_id: Option<String>,
        /// A plate service's name. Accepted, no effect.
        service_name: Option<String>,
    }
);

/// A vehicle type's details as a plate search answers them (Pegasus's `vehicleDetails`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "vehicleDetails", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PlateVehicleDetails {
    /// Make, model and type (`VW Golf VII 1.6 TDI`).
    pub car_name: String,
    /// The plate's country.
    pub country: String,
    /// Displacement in cm³.
    pub engine_capacity: String,
    /// The engine code.
    pub engine_code: String,
    /// Fuel.
    pub fuel: String,
    /// The vehicle type (Ktype).
    #[oai(rename = "KTypeNumbers")]
    #[serde(rename = "KTypeNumbers")]
    pub ktype_numbers: i64,
    /// Power in kW.
    pub kw1: String,
    /// `P`: a vehicle type.
    pub linking_target_type: String,
    /// The vehicle maker's id (`manuId` of `getManufacturers`; 0 where the make is not one).
    pub manu_id: i64,
    /// The make.
    pub mark: String,
    /// The model.
    pub model: String,
    /// The plate or key number as the catalogue writes it.
    pub registration_number: String,
    /// First built, `YYYY-MM`.
    pub year_from: String,
}

/// A vehicle type a plate names (Pegasus's `vehiclesByKeyNumberPlatesRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "vehiclesByKeyNumberPlatesRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PlateVehicleRecord {
    /// The vehicle type (Ktype; 0 where it is not a number).
    pub car_id: i64,
    /// Make, model and type.
    pub car_name: String,
    /// The plate's country.
    pub country: String,
    /// `P`: a vehicle type.
    pub linking_target_type: String,
    /// The vehicle maker's id (`manuId` of `getManufacturers`; 0 where the make is not one).
    pub manu_id: i64,
    /// Its details (with details).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vehicle_details: Option<PlateVehicleDetails>,
}

record_list!(
    /// `getVehiclesByKeyNumberPlates`: the vehicle types the plate names, in Ktype order;
    /// none for a plate the catalogue does not hold.
    PlateVehicleList,
    PlateVehicleRecordSeq,
    "vehiclesByKeyNumberPlatesRecordSeq",
    PlateVehicleRecord
);
