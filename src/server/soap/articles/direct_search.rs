//! `getArticleDirectSearchAllNumbersWithState`: Pegasus's number search, one record per number
//! that matched (`service::articles::direct_search`), in Pegasus's record.

use serde_json::Value;

use super::messages::*;
use super::pegasus;
use super::search::number_kind;
use crate::catalogue::NumberMatch;
use crate::server::soap::call::answer;
use crate::server::soap::call::{Call, Failure};
use crate::service::ServiceError;
use crate::service::articles::article_search::NumberKind;
use crate::service::articles::direct_search::{self, DirectSearch};
use crate::service::asked::Asked;
use crate::service::field::Field;

pub fn get_article_direct_search(
    call: &Call<'_>,
    r: GetArticleDirectSearchRequest,
) -> Result<Value, Failure> {
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    if let Some(other) = r.sort_type.filter(|t| !matches!(t, 0 | 1)) {
        return Err(ServiceError::bad_parameter(
            "sortType",
            format!("{other} is not an order partscat keeps (1: brand, then number)"),
        )
        .into());
    }
    let kind = number_kind("numberType", r.number_type.map_or(10, i64::from), false)?;
    let how = if r.search_exact.unwrap_or(true) {
        NumberMatch::Exact
    } else {
        NumberMatch::PrefixOrSuffix
    };
    let search = DirectSearch {
        written: Field::new("articleNumber", r.article_number.as_deref().unwrap_or("")),
        kind,
        how,
        brand: Field::new("brandId", r.brand_id.filter(|&b| b > 0)),
        genart: r.generic_article_id.filter(|&g| g > 0),
    };
    let by_number_type = |a, b| number_type(a).cmp(&number_type(b));
    let (context, budget) = (call.context, call.budget);
    let hits = direct_search::direct_search(context, &asked, budget, &search, by_number_type)?;
    let records = hits
        .into_iter()
        .map(|hit| ArticleDirectSearchRecord {
            article_id: hit.article_id.map_or(0, i64::from),
            article_name: hit.genart_name,
            article_no: hit.article.reference.clone(),
            article_search_no: hit.number,
            article_state_id: pegasus::status_id(hit.article.status),
            brand_name: hit.brand_name,
            brand_no: hit.article.key.brand_id.into(),
            generic_article_id: hit.article.genart.into(),
            number_type: number_type(hit.kind),
        })
        .collect();
    answer(&ArticleDirectSearchList::of(records))
}

/// A number kind as Pegasus's `numberType`.
fn number_type(kind: NumberKind) -> i32 {
    match kind {
        NumberKind::Reference | NumberKind::Any | NumberKind::FreeText => 0,
        NumberKind::Oe => 1,
        NumberKind::Trade => 2,
        NumberKind::Comparable => 3,
        NumberKind::Replacements => 4,
        NumberKind::Replaced => 5,
        NumberKind::Ean => 6,
    }
}
