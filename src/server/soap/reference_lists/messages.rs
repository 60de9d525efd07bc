//! The reference lists: the version, brands, generic articles, manufacturers, languages and countries.

use poem_openapi::Object;
use serde::Serialize;

request!(
    /// `getVersionInfo`: no fields but the provider.
    GetVersionInfoRequest {}
);

request!(
    /// `getBrands` and `getAmBrands` (Pegasus's `amBrandsRequest`): the brands (data
    /// suppliers) the provider may see.
    GetBrandsRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// Only this brand (when the provider may see it).
        data_supplier_id: Option<u32>,
        /// Every detail of each brand partscat keeps: its id and name, as without it.
        include_all: Option<bool>,
        /// Each brand's address (`addressDetails`), where the catalogue keeps one.
        include_address_details: Option<bool>,
        /// Must be false: the catalogue keeps no logos.
        include_data_supplier_logo: Option<bool>,
    }
);

request!(
    /// `getGenericArticles`: every generic article, or those of the articles linked to a
    /// vehicle type. Every field of Pegasus 3.0's `genericArticlesRequest` is taken; those
    /// the catalogue cannot honour are refused naming the field.
    GetGenericArticlesRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// true: only the generic articles of articles linked to `linkingTargetId`.
        linked: Option<bool>,
        /// The vehicle type (Ktype) `linked` refers to.
        linking_target_id: Option<String>,
        /// The kind of `linkingTargetId`: a vehicle type of another kind is refused.
        linking_target_type: Option<String>,
        /// true: a record per assembly-group node each generic article sits under (the
        /// assembly groups are TecDoc's search tree), with its `searchTreeNodeId`.
        search_tree_nodes: Option<bool>,
    }
);

request!(
    /// `getManufacturers`: vehicle makers and competitor parts makers, or (with
    /// `linkingTargetType`) the vehicle makers with vehicle types of that kind.
    GetManufacturersRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        country: Option<String>,
        /// true: `country` names a country group (`tecdocCode` of `getCountryGroups`),
        /// not a country.
        country_group_flag: Option<bool>,
        /// Must be 0: the catalogue keeps no favoured lists.
        favoured_list: Option<i32>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
        /// Only the vehicle makers with vehicle types of this kind (`P`, `L`, `B`, `C`, `T`,
        /// `M`, `A`, `K`; `V` = P and L, `O` = C and T).
        linking_target_type: Option<String>,
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

request!(
    /// `getPegasusVersionInfo2`: the service's version and the catalogue's data release, which
    /// clients key their caches by.
    GetPegasusVersionInfo2Request {}
);

/// `getPegasusVersionInfo2` (Pegasus's `pegasusVersionInfo2Response`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PegasusVersionInfo2 {
    /// The appliance's major version.
    pub major: u32,
    /// Its minor version.
    pub minor: u32,
    /// Its patch version.
    pub revision: u32,
    /// The catalogue's data version as a number (counts committed changes; a cache keyed
    /// by it is current while it does not change).
    pub build: u64,
    /// The catalogue's data version.
    pub data_version: String,
    /// The data version of the reference data (makes, vehicle types, generic articles): the
    /// catalogue's own, as partscat keeps both in one catalogue.
    pub ref_data_version: String,
    /// When the catalogue last changed (UTC, ISO 8601).
    pub date: String,
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
    /// The brand's id again, as `getBrands` answers it (not in `getAmBrands`).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_supplier_id: Option<u32>,
    /// The brand's name again, as `getBrands` answers it (not in `getAmBrands`).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mfr_name: Option<String>,
    /// With `includeAddressDetails`: the brand's address, where the catalogue keeps one.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address_details: Option<Vec<BrandAddressRecord>>,
}

record_list!(
    /// `getAmBrands`: the brands the provider may see.
    BrandList,
    BrandRecordSeq,
    "amBrandsRecordSeq",
    BrandRecord
);

request!(
    /// `getAmBrandAddress` (Pegasus's `amBrandAddressRequest`): where a brand's maker is
    /// reached.
    GetAmBrandAddressRequest {
        /// A country (ISO 3166-1, any case): every article and vehicle is valid in each.
        article_country: Option<String>,
        /// The brand (`brandId` of `getAmBrands`). Required.
        brand_no: Option<i64>,
        /// The language of the answer's texts, in any case: one of `getLanguages`' (absent: the
        /// catalogue's first); a text missing in it falls back along their order. Another
        /// language code is answered in the catalogue's first.
        lang: Option<String>,
    }
);

/// A brand's address (Pegasus's `amBrandAddressRecord`); a part the catalogue does not keep
/// is absent.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "amBrandAddressRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct BrandAddressRecord {
    /// The brand's name.
    pub address_name: String,
    /// 1: the brand's own address, the one the catalogue keeps.
    pub address_type: i64,
    /// The city.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    /// An email address.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// A fax number.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fax: Option<String>,
    /// The brand's name.
    pub name: String,
    /// A phone number.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// The street and number.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub street: Option<String>,
    /// The website.
    #[oai(rename = "wwwURL", skip_serializing_if_is_none)]
    #[serde(rename = "wwwURL", skip_serializing_if = "Option::is_none")]
    pub www_url: Option<String>,
    /// The postcode.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zip: Option<String>,
    /// The country (ISO 3166-1 alpha-2).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zip_country_code: Option<String>,
}

record_list!(
    /// `getAmBrandAddress`: the brand's address; none where the provider may not see the
    /// brand or the catalogue keeps no address for it.
    BrandAddressList,
    BrandAddressRecordSeq,
    "amBrandAddressRecordSeq",
    BrandAddressRecord
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
    /// With `searchTreeNodes`: the assembly-group node it sits under (a record per node).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search_tree_node_id: Option<u32>,
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

request!(
    /// `getLanguages`, `getCountries` and `getCountryGroups` (Pegasus's `languagesRequest`,
    /// `countriesRequest`, `countryGroupsRequest`).
    GetLocalesRequest {
        /// The language of the names (English, German or French; another of the catalogue's
        /// takes the next of its order that is one of them).
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
    /// Its name in the asked language.
    pub language_name: String,
}

record_list!(
    /// `getLanguages`: the languages of the catalogue's texts (setting `catalogue.languages`).
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
    /// Its name in the asked language.
    pub country_name: String,
}

record_list!(
    /// `getCountries`: the countries the catalogue is for (setting `catalogue.countries`).
    CountryList,
    CountryRecordSeq,
    "countriesRecordSeq",
    CountryRecord
);

/// A country group (Pegasus's `countryGroupsRecord`).
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "countryGroupsRecord", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct CountryGroupRecord {
    /// Its name in the asked language.
    pub country_name: String,
    /// Its code (`EU`), as `countryGroupFlag: true` takes it in place of a country.
    pub tecdoc_code: String,
}

record_list!(
    /// `getCountryGroups`: the country groups of the catalogue's countries.
    CountryGroupList,
    CountryGroupRecordSeq,
    "countryGroupsRecordSeq",
    CountryGroupRecord
);
