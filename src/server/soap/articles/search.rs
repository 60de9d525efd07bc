//! `getArticles` over `crate::service::articles::article_search`: the request's fields checked and read,
//! page paging (as the anchor, up to a window) and a cursor that pages through a result of
//! any size, the facets and the articles with what the include flags ask for.

use base64::Engine as _;
use serde_json::Value;

use super::messages::*;
use super::pegasus;
use super::record::{Includes, record};
use crate::catalogue::{ArticleKey, NumberMatch, TargetType};
use crate::server::soap::call::{Call, Failure};
use crate::server::soap::codes::target_types;
use crate::service::ServiceError;
use crate::service::articles::article_page::{Cursor, Order, Paging};
use crate::service::articles::article_query::{
    self, ArticlesAsked, Facet, GroupFacetAsk, LinkagePaging, MatchedNumber,
};
use crate::service::articles::article_search::{NumberKind, Search};
use crate::service::articles::criteria_filters::CriterionFacet;
use crate::service::asked::{Asked, Unheld};
use crate::service::categories::category_tree::GroupFacet;
use crate::service::field::Field;

const DEFAULT_PER_PAGE: u32 = 100;

pub fn get_articles(call: &Call<'_>, r: GetArticlesRequest) -> Result<Value, Failure> {
    let paging = Paging {
        per_page: Field::new("perPage", r.per_page.unwrap_or(DEFAULT_PER_PAGE)),
        page: Field::new("page", r.page.unwrap_or(1)),
        after: Field::new(
            "cursor",
            r.cursor.as_deref().map(decode_cursor).transpose()?,
        ),
        order: Field::new("sort", order(&r.sort)?),
    };
    let kind = number_kind("searchType", r.search_type.map_or(10, i64::from), true)?;
    let kind_code = r.linkage_target_type.as_deref();
    let vehicle_kind = target_types("linkageTargetType", kind_code)?;
    let group_ask = group_facet_ask(r.assembly_group_facet_options.as_ref())?;
    let genart_ask = r.include_generic_article_facets.unwrap_or(false);
    let includes = Includes::of(&r);
    let criteria_filters: Vec<(i64, String)> = r
        .criteria_filters
        .iter()
        .map(|f| (i64::from(f.criteria_id), f.raw_value.clone()))
        .collect();
    let asked = ArticlesAsked {
        search: Search {
            query: Field::new("searchQuery", r.search_query.as_deref()),
            kind,
            how: match r.search_match_type.unwrap_or(SearchMatchType::Exact) {
                SearchMatchType::Exact => NumberMatch::Exact,
                SearchMatchType::Prefix => NumberMatch::Prefix,
                SearchMatchType::Suffix => NumberMatch::Suffix,
                SearchMatchType::PrefixOrSuffix => NumberMatch::PrefixOrSuffix,
            },
            articles: None,
            // Repeated ids were merged when the request was read.
            brands: &r.data_supplier_ids,
            genarts: &r.generic_article_ids,
            ktype: r.linkage_target_id.as_deref(),
            groups: Field::new("assemblyGroupNodeIds", &[]),
            genart_counts: genart_ask || group_ask.is_some(),
            criteria: None,
            criteria_counts: r.include_criteria_facets.unwrap_or(false),
        },
        node_ids: Field::new("assemblyGroupNodeIds", &r.assembly_group_node_ids),
        vehicle_kind: Field::new("linkageTargetType", vehicle_kind),
        asked: unheld(&r),
        article_ids: Field::new("legacyArticleIds", &r.legacy_article_ids),
        paging,
        linkages: LinkagePaging {
            page: Field::new("linkagesPage", r.linkages_page),
            per_page: Field::new("linkagesPerPage", r.linkages_per_page),
        },
        parts: includes.parts(),
        kit_parts: includes.parts_list,
        part_of_kits: includes.part_of_kits,
        brand_facets: r.include_data_supplier_facets.unwrap_or(false),
        genart_facets: genart_ask,
        group_facets: group_ask,
        criteria_filters: Field::new("criteriaFilters", &criteria_filters),
    };
    let found = article_query::articles(call.context, asked, call.budget)?;
    let articles = found
        .articles
        .into_iter()
        .map(|a| {
            let mut record = record(a.detail, a.linkages_total, &includes, call.context.links());
            record.search_query_matches = a.matched.into_iter().map(query_match).collect();
            record.parts_list_articles =
                a.kit_parts.into_iter().map(PartsListArticle::of).collect();
            record.part_of_kits = a
                .part_of_kits
                .into_iter()
                .map(PartsListArticle::of)
                .collect();
            record
        })
        .collect();
    let answer = ArticleSearch {
        total_matching_articles: found.total,
        max_allowed_page: found.max_allowed_page,
        articles,
        data_supplier_facets: found.brand_facets.map(brand_facets),
        generic_article_facets: found.genart_facets.map(genart_facets),
        assembly_group_facets: found.group_facets.map(group_facets),
        criteria_facets: found.criteria_facets.map(criteria_facets),
        next_cursor: found.next_after.as_ref().map(encode_cursor),
    };
    crate::server::soap::call::answer(&answer)
}

/// The request's countries, and what it asks that the catalogue does not hold.
fn unheld(r: &GetArticlesRequest) -> Asked<'_> {
    let dates = Unheld::CreationDates;
    Asked::new()
        .country("articleCountry", r.article_country.as_deref())
        .country("linkageTargetCountry", r.linkage_target_country.as_deref())
        .absent(
            "newArticlesDateFrom",
            r.new_articles_date_from.is_some(),
            dates,
        )
        .absent("newArticlesDateTo", r.new_articles_date_to.is_some(), dates)
        .absent(
            "newLinkagesDateFrom",
            r.new_linkages_date_from.is_some(),
            dates,
        )
        .absent("newLinkagesDateTo", r.new_linkages_date_to.is_some(), dates)
        .absent("newLinkagesMfrId", r.new_linkages_mfr_id.is_some(), dates)
}

/// How many matches each brand has, with its name.
pub(super) fn brand_facets(facets: Vec<Facet>) -> pegasus::DataSupplierFacets {
    let counts: Vec<_> = facets
        .into_iter()
        .map(|f| pegasus::DataSupplierFacetCount {
            data_supplier_id: pegasus::number(f.id),
            mfr_id: pegasus::number(f.id),
            mfr_name: f.name,
            count: f.count.into(),
        })
        .collect();
    pegasus::DataSupplierFacets {
        total: counts.len() as i32,
        counts,
    }
}

/// How many matches each criterion value has.
fn criteria_facets(facets: Vec<CriterionFacet>) -> pegasus::CriteriaFacets {
    let counts: Vec<_> = facets
        .into_iter()
        .map(|f| {
            let c = pegasus::CriteriaRecord::of(&f.criterion);
            pegasus::CriteriaFacetCount {
                criteria_id: c.criteria_id,
                criteria_description: c.criteria_description,
                criteria_abbr_description: c.criteria_abbr_description,
                criteria_unit_description: c.criteria_unit_description,
                criteria_type: c.criteria_type,
                raw_value: c.raw_value,
                formatted_value: c.formatted_value,
                count: f.count.into(),
            }
        })
        .collect();
    pegasus::CriteriaFacets {
        total: counts.len() as i32,
        counts,
    }
}

/// What `assemblyGroupFacetOptions` asks for, where it is enabled.
pub(super) fn group_facet_ask(
    options: Option<&AssemblyGroupFacetOptions>,
) -> Result<Option<GroupFacetAsk>, ServiceError> {
    let Some(options) = options.filter(|o| o.enabled == Some(true)) else {
        return Ok(None);
    };
    let field = "assemblyGroupFacetOptions.assemblyGroupType";
    let target = match target_types(field, options.assembly_group_type.as_deref())? {
        None => TargetType::PassengerCar,
        Some(kinds) => TargetType::tree_of(kinds).ok_or_else(|| {
            ServiceError::bad_parameter(field, "must name one tree (P, O, or one kind)")
        })?,
    };
    let max_depth = match options.max_depth {
        None => None,
        Some(d) if d >= 1 => Some(d as u32),
        Some(d) => {
            return Err(ServiceError::bad_parameter(
                "assemblyGroupFacetOptions.maxDepth",
                format!("{d} is below 1 (the roots)"),
            ));
        }
    };
    Ok(Some(GroupFacetAsk {
        target,
        complete: options.include_complete_tree.unwrap_or(false),
        max_depth,
    }))
}

/// The matches per node of the tree asked for.
pub(super) fn group_facets(facets: Vec<GroupFacet>) -> pegasus::AssemblyGroupFacets {
    let counts: Vec<_> = facets
        .into_iter()
        .map(|f| pegasus::AssemblyGroupFacetCount {
            assembly_group_node_id: f.group.id.into(),
            assembly_group_name: f.group.name,
            assembly_group_type: f.group.target_type.group_code().to_string(),
            parent_node_id: f.group.parent.map(i64::from),
            children: f.children as i32,
            count: f.count.into(),
        })
        .collect();
    pegasus::AssemblyGroupFacets {
        total: counts.len() as i32,
        counts,
    }
}

/// How many matches each generic article has, with its name.
pub(super) fn genart_facets(facets: Vec<Facet>) -> pegasus::GenericArticleFacets {
    let counts: Vec<_> = facets
        .into_iter()
        .map(|f| pegasus::GenericArticleFacetCount {
            generic_article_id: pegasus::number(f.id),
            generic_article_description: f.name,
            count: f.count.into(),
        })
        .collect();
    pegasus::GenericArticleFacets {
        total: counts.len() as i32,
        counts,
    }
}

/// A Pegasus number type (`searchType`, `numberType`): 0 article number, 1 OE, 2 trade,
/// 3 comparable, 4 replacement, 5 replaced, 6 EAN, 10 any; 99 free text where `free_text`.
pub fn number_kind(field: &str, code: i64, free_text: bool) -> Result<NumberKind, Failure> {
    Ok(match code {
        0 => NumberKind::Reference,
        1 => NumberKind::Oe,
        2 => NumberKind::Trade,
        3 => NumberKind::Comparable,
        4 => NumberKind::Replacements,
        5 => NumberKind::Replaced,
        6 => NumberKind::Ean,
        10 => NumberKind::Any,
        99 if free_text => NumberKind::FreeText,
        _ => {
            return Err(Failure::bad(format!(
                "Field '{field}' must be one of 0, 1, 2, 3, 4, 5, 6, 10{}",
                if free_text { ", 99" } else { "" }
            )));
        }
    })
}

/// The order `sort` asks for; its first entry decides.
fn order(sort: &[Sort]) -> Result<Order, Failure> {
    let Some(first) = sort.first() else {
        return Ok(Order::Score);
    };
    let descending = descending(first)?;
    Ok(match first.field.trim() {
        "score" | "articleCreatedOn" | "linkageCreatedOn" | "linkageSortNum" => Order::Score,
        "mfrName" => Order::BrandName { descending },
        "articleNumber" => Order::Number { descending },
        other => {
            return Err(Failure::bad(format!(
                "Field 'field' must be one of score, mfrName, articleNumber, articleCreatedOn, linkageCreatedOn, linkageSortNum, not '{other}'"
            )));
        }
    })
}

/// Whether `sort` asks for the descending order.
pub(super) fn descending(sort: &Sort) -> Result<bool, Failure> {
    match sort.direction.trim() {
        "asc" => Ok(false),
        "desc" => Ok(true),
        other => Err(Failure::bad(format!(
            "Field 'direction' must be asc or desc, not '{other}'"
        ))),
    }
}

/// A number that matched the query, as Pegasus's `searchQueryMatches` names it.
fn query_match(m: MatchedNumber) -> pegasus::SearchQueryMatch {
    let match_type = match m.kind {
        NumberKind::Oe => "OENumber",
        NumberKind::Trade => "TradeNumber",
        NumberKind::Comparable => "ComparableNumber",
        NumberKind::Replacements => "ReplacesNumber",
        NumberKind::Replaced => "ReplacedByNumber",
        NumberKind::Ean => "EANNumber",
        NumberKind::Reference | NumberKind::Any | NumberKind::FreeText => "ArticleNumber",
    };
    pegasus::SearchQueryMatch {
        match_type: match_type.into(),
        description: m.kind_name,
        matched: m.number,
        mfr_id: m.maker_id.into(),
        mfr_name: m.maker_name,
    }
}

/// A cursor names the last article of a page: brand and normalised reference.
/// `brand:reference` of the page's last article, `~` ahead where it was among the later
/// matches (a cursor without one, as earlier releases gave, is of the first).
fn encode_cursor(last: &Cursor) -> String {
    let later = if last.later { "~" } else { "" };
    let key = &last.key;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(format!("{later}{}:{}", key.brand_id, key.reference))
}

fn decode_cursor(text: &str) -> Result<Cursor, Failure> {
    let bad = || Failure::bad("Field 'cursor' is not a cursor this service gave");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text.trim())
        .map_err(|_| bad())?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let (later, text) = match text.strip_prefix('~') {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    let (brand, reference) = text.split_once(':').ok_or_else(bad)?;
    if !brand.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    Ok(Cursor {
        later,
        key: ArticleKey {
            brand_id: brand.parse().map_err(|_| bad())?,
            reference: reference.to_owned(),
        },
    })
}
