//! `getArticles` over `crate::service::article_search`: the request's fields checked and read,
//! page paging (as the anchor, up to a window) and a cursor that pages through a result of
//! any size, the facets and the articles with what the include flags ask for.

use std::collections::BTreeMap;

use base64::Engine as _;
use serde_json::Value;

use super::call::{Call, Failure};
use super::messages::*;
use super::vehicles::linkages_of;
use crate::catalogue::{self as model, ArticleKey};
use crate::server::answers::records::{CrossKind, Media, Names, Price};
use crate::server::problem::Problem;
use crate::service::article_search::{self, Found, NumberKind, Search};
use crate::store::{Catalogue, NumberMatch};

/// `perPage` at most.
const MAX_PER_PAGE: u32 = 1000;
const DEFAULT_PER_PAGE: u32 = 100;
/// `page` × `perPage` may reach this far into a result; the cursor goes further.
const PAGE_WINDOW: u32 = 10_000;

pub fn get_articles(call: &Call<'_>, r: GetArticlesRequest) -> Result<Value, Failure> {
    let per_page = r.per_page.unwrap_or(DEFAULT_PER_PAGE);
    if per_page > MAX_PER_PAGE {
        return Err(Failure::bad(format!(
            "Field 'perPage' must be >= 0 and <= {MAX_PER_PAGE}"
        )));
    }
    let page = r.page.unwrap_or(1);
    if page == 0 {
        return Err(Failure::bad("Field 'page' must be >= 1"));
    }
    let kind = match r.search_type.unwrap_or(10) {
        0 => NumberKind::Reference,
        1 => NumberKind::Oe,
        2 => NumberKind::Trade,
        3 => NumberKind::Comparable,
        4 => NumberKind::Replacements,
        5 => NumberKind::Replaced,
        6 => NumberKind::Ean,
        10 => NumberKind::Any,
        _ => {
            return Err(Failure::bad(
                "Field 'searchType' must be one of 0, 1, 2, 3, 4, 5, 6, 10",
            ));
        }
    };
    let after = r.cursor.as_deref().map(decode_cursor).transpose()?;
    for brand in &r.data_supplier_ids {
        call.caller.require_brand(*brand)?;
    }
    let catalogue = call.state.store.catalogue();
    let search = Search {
        query: r.search_query.as_deref(),
        kind,
        how: match r.search_match_type.unwrap_or(SearchMatchType::Exact) {
            SearchMatchType::Exact => NumberMatch::Exact,
            SearchMatchType::Prefix => NumberMatch::Prefix,
            SearchMatchType::Suffix => NumberMatch::Suffix,
            SearchMatchType::PrefixOrSuffix => NumberMatch::PrefixOrSuffix,
        },
        // Repeated ids were merged when the request was read.
        brands: &r.data_supplier_ids,
        genarts: &r.generic_article_ids,
        ktype: r.linkage_target_id.as_deref(),
        genart_counts: r.include_generic_article_facets.unwrap_or(false),
    };
    let Found {
        matches,
        by_brand,
        by_genart,
    } = article_search::search(&catalogue, call.caller, &search, call.budget)?;

    let total = matches.len() as u32;
    let max_allowed_page = if per_page == 0 {
        0
    } else {
        total.div_ceil(per_page).min(PAGE_WINDOW / per_page).max(1)
    };
    let start = match &after {
        Some(last) => matches.partition_point(|k| k <= last),
        None => {
            if per_page > 0 && page > max_allowed_page {
                return Err(Failure::bad(format!(
                    "Field 'page' must be <= maxAllowedPage ({max_allowed_page}); page further with 'cursor'"
                )));
            }
            ((page - 1) * per_page) as usize
        }
    };
    let end = (start + per_page as usize).min(matches.len());
    let shown = matches.get(start..end).unwrap_or_default();
    let next_cursor = match shown.last() {
        Some(last) if end < matches.len() => Some(encode_cursor(last)),
        _ => None,
    };

    let includes = Includes::of(&r);
    let names = Names::new(&catalogue);
    let mut articles = Vec::with_capacity(shown.len());
    for key in shown {
        if let Some(a) = catalogue.article(key)? {
            articles.push(record(&catalogue, &names, &a, &includes)?);
        }
    }
    let facets = |counts: BTreeMap<u32, u32>, name: &dyn Fn(u32) -> String| -> Vec<Facet> {
        counts
            .into_iter()
            .map(|(id, count)| Facet {
                id,
                name: name(id),
                count,
            })
            .collect()
    };
    let brand_name = |id| names.brand(id).unwrap_or_default();
    let genart_name = |id| names.genart(id).unwrap_or_default();
    let answer = ArticleSearch {
        total_matching_articles: total,
        max_allowed_page,
        articles,
        data_supplier_facets: if r.include_data_supplier_facets.unwrap_or(false) {
            facets(by_brand, &brand_name)
        } else {
            Vec::new()
        },
        generic_article_facets: if r.include_generic_article_facets.unwrap_or(false) {
            facets(by_genart, &genart_name)
        } else {
            Vec::new()
        },
        next_cursor,
    };
    serde_json::to_value(&answer).map_err(|e| Problem::internal(e).into())
}

struct Includes {
    criteria: bool,
    gtins: bool,
    oem: bool,
    comparable: bool,
    replaced_by: bool,
    images: bool,
    prices: bool,
    linkages: bool,
}

impl Includes {
    fn of(r: &GetArticlesRequest) -> Includes {
        let all = r.include_all.unwrap_or(false);
        let flag = |f: Option<bool>| all || f.unwrap_or(false);
        Includes {
            criteria: flag(r.include_article_criteria),
            gtins: flag(r.include_gtins),
            oem: flag(r.include_oem_numbers),
            comparable: flag(r.include_comparable_numbers),
            replaced_by: flag(r.include_replaced_by_articles),
            images: flag(r.include_images),
            prices: flag(r.include_prices),
            linkages: flag(r.include_linkages),
        }
    }
}

fn record(
    catalogue: &Catalogue,
    names: &Names<'_>,
    a: &model::Article,
    inc: &Includes,
) -> Result<ArticleRecord, Failure> {
    let key = &a.key;
    let (mut oem_numbers, mut comparable_numbers) = (Vec::new(), Vec::new());
    if inc.oem || inc.comparable {
        for number in names.numbers(key)? {
            match number.kind {
                CrossKind::Ean => {}
                CrossKind::Oe if inc.oem => oem_numbers.push(number),
                CrossKind::Oe => {}
                _ if inc.comparable => comparable_numbers.push(number),
                _ => {}
            }
        }
    }
    Ok(ArticleRecord {
        data_supplier_id: key.brand_id,
        mfr_name: names.brand(key.brand_id)?,
        article_number: a.reference.clone(),
        normalised_article_number: key.reference.clone(),
        generic_article_id: a.genart,
        generic_article_description: names.genart(a.genart)?,
        description: a.description.clone(),
        status: a.status.into(),
        packaging_unit: a.packaging_unit,
        gtins: if inc.gtins {
            a.eans.clone()
        } else {
            Vec::new()
        },
        article_criteria: if inc.criteria {
            names.criteria(key)?
        } else {
            Vec::new()
        },
        oem_numbers,
        comparable_numbers,
        replaced_by_articles: if inc.replaced_by {
            a.replaced_by.clone()
        } else {
            Vec::new()
        },
        images: if inc.images {
            catalogue.media_of(key)?.iter().map(Media::from).collect()
        } else {
            Vec::new()
        },
        prices: if inc.prices {
            catalogue.prices_of(key)?.iter().map(Price::from).collect()
        } else {
            Vec::new()
        },
        linkages: if inc.linkages {
            linkages_of(catalogue, key)?
        } else {
            Vec::new()
        },
    })
}

/// A cursor names the last article of a page: brand and normalised reference.
fn encode_cursor(last: &ArticleKey) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(format!("{}:{}", last.brand_id, last.reference))
}

fn decode_cursor(text: &str) -> Result<ArticleKey, Failure> {
    let bad = || Failure::bad("Field 'cursor' is not a cursor this service gave");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(text.trim())
        .map_err(|_| bad())?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let (brand, reference) = text.split_once(':').ok_or_else(bad)?;
    Ok(ArticleKey {
        brand_id: brand.parse().map_err(|_| bad())?,
        reference: reference.to_owned(),
    })
}
