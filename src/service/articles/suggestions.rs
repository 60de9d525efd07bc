//! Suggestions while a number is typed: the articles whose number is the one typed, then those
//! whose number starts with it, each with the kind of number that matched. Unlike a search,
//! it never reads a whole range of an index: the numbers that start with a few characters may
//! be hundreds of thousands, and a suggestion list shows a screenful.

use super::article_search::{NumberHit, NumberKind, number_hits};
use crate::budget::Budget;
use crate::catalogue::NumberMatch;
use crate::catalogue::{Article, normalise_reference};
use crate::service::ServiceError;
use crate::service::context::Context;

/// Suggestions answered at most.
pub const MAX_SUGGESTIONS: usize = 50;

/// An article a typed number leads to.
#[derive(Debug, Clone)]
pub struct Suggestion {
    /// The number is the one typed (normalised), not only one that starts with it.
    pub exact: bool,
    pub kind: NumberKind,
    /// The number that matched, as the data writes it.
    pub number: String,
    pub article: Article,
    pub article_id: u32,
    pub brand_name: String,
    pub genart_name: String,
}

/// Up to `limit` suggestions for `written` (at most `MAX_SUGGESTIONS`) among the brands the
/// caller sees: exact matches first, then numbers that start with it, each in index order.
pub fn suggestions(
    context: &Context,
    written: &str,
    limit: usize,
) -> Result<Vec<Suggestion>, ServiceError> {
    let caller = context.caller();
    let number = normalise_reference(written);
    if number.is_empty() {
        return Err(ServiceError::bad_parameter(
            "number",
            format!("`number` must hold at least one letter or digit, not '{written}'"),
        ));
    }
    let limit = limit.clamp(1, MAX_SUGGESTIONS);
    let catalogue = context.snapshot();
    let budget = Budget::unlimited();
    let exact = number_hits(
        catalogue,
        NumberKind::Any,
        NumberMatch::Exact,
        &number,
        &budget,
    )?;
    // Read more than is shown: a restricted caller's brands may be few among the first.
    let (references, cross) = catalogue.numbers_starting_with(&number, limit * 4)?;
    let starting = references
        .into_iter()
        .map(|key| {
            let reference = key.reference.clone();
            (key, NumberKind::Reference, reference)
        })
        .chain(
            cross
                .into_iter()
                .map(|hit| (hit.article, NumberKind::of_cross(hit.kind), hit.number)),
        );
    let candidates = exact
        .into_iter()
        .map(|h: NumberHit| (true, h.article, h.kind, h.written.unwrap_or(h.number)))
        .chain(starting.map(|(article, kind, number)| (false, article, kind, number)));
    let names = context.names();
    let mut found: Vec<Suggestion> = Vec::new();
    for (exact, key, kind, number) in candidates {
        let repeated = found.iter().any(|s| {
            s.article.key == key
                && s.kind == kind
                && normalise_reference(&s.number) == normalise_reference(&number)
        });
        if repeated || !caller.provider.sees_brand(key.brand_id) {
            continue;
        }
        let Some(article) = catalogue.article(&key)? else {
            continue;
        };
        // The reference index holds references normalised; the article, as written.
        let number = match kind {
            NumberKind::Reference => article.reference.clone(),
            _ => number,
        };
        found.push(Suggestion {
            exact,
            kind,
            number,
            article_id: catalogue.article_id(&key)?.unwrap_or(0),
            brand_name: names.brand(key.brand_id)?,
            genart_name: names.genart(article.genart)?,
            article,
        });
        if found.len() == limit {
            break;
        }
    }
    Ok(found)
}
