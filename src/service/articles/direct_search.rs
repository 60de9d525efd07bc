//! The number search of Pegasus's `getArticleDirectSearchAllNumbersWithState`: one hit per
//! article, number and kind that matched, over the same number indexes as the article search.

use std::cmp::Ordering;

use super::article_search::{NumberKind, number_hits};
use crate::budget::Budget;
use crate::catalogue::NumberMatch;
use crate::catalogue::{Article, normalise_reference};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;

/// Hits answered at most.
pub const MAX_HITS: usize = 1000;

/// What is searched.
#[derive(Debug, Clone)]
pub struct DirectSearch<'a> {
    /// The number as the client wrote it.
    pub written: Field<&'a str>,
    pub kind: NumberKind,
    pub how: NumberMatch,
    /// Only this brand's articles (by id).
    pub brand: Field<Option<i64>>,
    /// Only the articles of this generic article.
    pub genart: Option<i64>,
}

/// An article found by one of its numbers.
#[derive(Debug, Clone)]
pub struct DirectHit {
    pub article: Article,
    pub article_id: Option<u32>,
    /// The number that matched, and its kind.
    pub number: String,
    pub kind: NumberKind,
    pub genart_name: String,
    pub brand_name: String,
}

/// The articles of brands the caller sees that `search` finds, one hit per article, number
/// and kind, ordered by article, number and then kind as `kinds` orders them (the protocol's
/// own order of kinds); at most `MAX_HITS`.
pub fn direct_search(
    context: &Context,
    asked: &Asked<'_>,
    budget: &Budget,
    search: &DirectSearch<'_>,
    kinds: impl Fn(NumberKind, NumberKind) -> Ordering,
) -> Result<Vec<DirectHit>, ServiceError> {
    asked.check()?;
    let caller = context.caller();
    let written = search.written;
    let number = normalise_reference(written.value);
    if number.is_empty() {
        return Err(ServiceError::bad_parameter(
            written.name,
            format!(
                "must hold at least one letter or digit, not '{}'",
                written.value
            ),
        ));
    }
    let brand = search.brand.map(Field::id)?;
    if let Some(brand) = brand {
        caller.require_brand(brand)?;
    }
    let catalogue = context.snapshot();
    let mut hits = number_hits(catalogue, search.kind, search.how, &number, budget)?;
    hits.retain(|h| {
        caller.provider.sees_brand(h.article.brand_id)
            && brand.is_none_or(|b| h.article.brand_id == b)
    });
    // A competitor's and an internal number that read the same are one comparable number.
    hits.sort_by(|a, b| {
        (&a.article, &a.number)
            .cmp(&(&b.article, &b.number))
            .then_with(|| kinds(a.kind, b.kind))
    });
    hits.dedup_by(|a, b| a.article == b.article && a.number == b.number && a.kind == b.kind);
    let names = context.names();
    let mut found = Vec::new();
    for (i, hit) in hits.into_iter().enumerate() {
        budget.check_every(i).map_err(ServiceError::from)?;
        let Some(article) = catalogue.article(&hit.article)? else {
            continue;
        };
        if search
            .genart
            .is_some_and(|g| i64::from(article.genart) != g)
        {
            continue;
        }
        found.push(DirectHit {
            article_id: catalogue.article_id(&hit.article)?,
            genart_name: names.genart(article.genart)?,
            brand_name: names.brand(article.key.brand_id)?,
            number: hit.number,
            kind: hit.kind,
            article,
        });
        if found.len() == MAX_HITS {
            break;
        }
    }
    Ok(found)
}
