//! `getArticleDirectSearchAllNumbersWithState`: Pegasus's number search, one record per number
//! that matched, over the same number indexes as `getArticles`.

use serde_json::Value;

use super::article_search::number_kind;
use super::call::answer;
use super::call::{Call, Failure};
use super::messages::*;
use super::pegasus::MiscArticleData;
use crate::catalogue::normalise_reference;
use crate::service::article_search::{NumberKind, number_hits};
use crate::service::names::Names;
use crate::store::{NumberMatch, StoreError};

/// Records answered at most.
const MAX_RECORDS: usize = 1000;

pub fn get_article_direct_search(
    call: &Call<'_>,
    r: GetArticleDirectSearchRequest,
) -> Result<Value, Failure> {
    let written = r.article_number.as_deref().unwrap_or("");
    let number = normalise_reference(written);
    if number.is_empty() {
        return Err(Failure::bad(format!(
            "Field 'articleNumber' must hold at least one letter or digit, not '{written}'"
        )));
    }
    let kind = number_kind("numberType", r.number_type.map_or(10, i64::from), false)?;
    let how = if r.search_exact.unwrap_or(true) {
        NumberMatch::Exact
    } else {
        NumberMatch::PrefixOrSuffix
    };
    let brand = r.brand_id.filter(|&b| b > 0);
    if let Some(brand) = brand {
        let brand = u32::try_from(brand)
            .map_err(|_| Failure::bad(format!("Field 'brandId' is not a brand id: {brand}")))?;
        call.caller.require_brand(brand)?;
    }
    let genart = r.generic_article_id.filter(|&g| g > 0);
    let catalogue = call.state.store.catalogue();
    let mut hits = number_hits(&catalogue, kind, how, &number, call.budget)?;
    hits.retain(|h| {
        call.caller.provider.sees_brand(h.article.brand_id)
            && brand.is_none_or(|b| i64::from(h.article.brand_id) == b)
    });
    // One record per article, number and kind (a competitor's and an internal number that
    // read the same are one comparable number).
    hits.sort_by(|a, b| {
        (&a.article, &a.number, number_type(a.kind)).cmp(&(
            &b.article,
            &b.number,
            number_type(b.kind),
        ))
    });
    hits.dedup_by(|a, b| a.article == b.article && a.number == b.number && a.kind == b.kind);
    let names = Names::new(&catalogue);
    let mut records = Vec::new();
    for (i, hit) in hits.into_iter().enumerate() {
        call.budget.check_every(i).map_err(StoreError::from)?;
        let Some(article) = catalogue.article(&hit.article)? else {
            continue;
        };
        if genart.is_some_and(|g| i64::from(article.genart) != g) {
            continue;
        }
        records.push(ArticleDirectSearchRecord {
            article_id: catalogue.article_id(&hit.article)?.map_or(0, i64::from),
            article_name: names.genart(article.genart)?,
            article_no: article.reference.clone(),
            article_search_no: hit.number,
            article_state_id: MiscArticleData::of(&article).article_status_id,
            brand_name: names.brand(article.key.brand_id)?,
            brand_no: article.key.brand_id.into(),
            generic_article_id: article.genart.into(),
            number_type: number_type(hit.kind),
        });
        if records.len() == MAX_RECORDS {
            break;
        }
    }
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
