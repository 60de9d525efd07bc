//! Articles by any of their numbers: the maker's references, OE, trade, competitor and
//! internal numbers, EANs, and the numbers articles replace or are replaced by, each under
//! four match modes on normalised numbers; narrowed by brand, generic article and vehicle;
//! counted per brand and per generic article for facets. Every read is charged to the
//! request's budget, so a search over a whole index stops where the budget ends.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::criteria_filters::{CriteriaCounts, CriteriaWanted};
use super::free_text;
use crate::budget::Budget;
use crate::catalogue::NumberMatch;
use crate::catalogue::{ArticleKey, CrossKind, normalise_reference};
use crate::service::ServiceError;
use crate::service::categories::category_tree;
use crate::service::context::Context;
use crate::service::field::Field;
use crate::store::Catalogue;

/// Which numbers a query is matched against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberKind {
    /// The maker's own references.
    Reference,
    Oe,
    Trade,
    /// Competitor and internal numbers.
    Comparable,
    /// The articles that replace those whose reference matches.
    Replacements,
    /// The articles whose replaced-by numbers match.
    Replaced,
    Ean,
    /// References and every cross number.
    Any,
    /// Every number as `Any`, and the words of the article's description or generic article
    /// name (a read of every article).
    FreeText,
}

impl NumberKind {
    /// Its name in the catalogue's default language, the term a `texts` row translates.
    pub fn name(self) -> &'static str {
        match self {
            NumberKind::Oe => "OE number",
            NumberKind::Trade => "Trade number",
            NumberKind::Comparable => "Comparable number",
            NumberKind::Replacements => "Replaces number",
            NumberKind::Replaced => "Replaced by number",
            NumberKind::Ean => "EAN number",
            NumberKind::Reference | NumberKind::Any | NumberKind::FreeText => "Article number",
        }
    }

    /// The kind a cross number of `kind` is searched as.
    pub fn of_cross(kind: CrossKind) -> NumberKind {
        match kind {
            CrossKind::Oe => NumberKind::Oe,
            CrossKind::Trade => NumberKind::Trade,
            CrossKind::Ean => NumberKind::Ean,
            CrossKind::Competitor | CrossKind::Internal => NumberKind::Comparable,
        }
    }
}

/// A search: a query under a match mode, or, without one, the articles named, a vehicle's or
/// brands' articles; then the filters.
pub struct Search<'a> {
    /// As written; compared normalised.
    pub query: Field<Option<&'a str>>,
    pub kind: NumberKind,
    pub how: NumberMatch,
    /// Only these articles (none: any).
    pub articles: Option<&'a [ArticleKey]>,
    /// Only these brands (none: every brand the caller sees).
    pub brands: &'a [u32],
    /// Only these generic articles (none: all).
    pub genarts: &'a [u32],
    /// Only articles linked to this vehicle.
    pub ktype: Option<&'a str>,
    /// Only articles whose generic article sits at or below one of these assembly groups
    /// (none: any).
    pub groups: Field<&'a [u32]>,
    /// Count the matches per generic article (reads each match's article).
    pub genart_counts: bool,
    /// Only articles carrying these criteria (none: any).
    pub criteria: Option<&'a CriteriaWanted>,
    /// Count the matches per criterion value (reads each match's criteria).
    pub criteria_counts: bool,
}

/// What a search found: the matching articles, and their counts.
#[derive(Debug, Default)]
pub struct Found {
    /// In article order: first those found by a number or in the reader's language, then
    /// (free text) those found through another language's texts only.
    pub matches: Vec<ArticleKey>,
    /// How many of `matches` are of the first kind.
    pub asked_first: usize,
    /// Of each match found by a query, the numbers of it that matched (Pegasus's
    /// `searchQueryMatches`); none for an article found by its description only.
    pub matched_numbers: BTreeMap<ArticleKey, Vec<NumberHit>>,
    pub by_brand: BTreeMap<u32, u32>,
    /// Filled where the search asked for it, or filtered by generic article.
    pub by_genart: BTreeMap<u32, u32>,
    /// Filled where the search asked for it.
    pub by_criterion: CriteriaCounts,
}

/// Runs the search over the brands the caller may see. A query without a letter or digit is a
/// bad parameter named by the query's field; without a query, the articles named, else a
/// vehicle's, else the brands', else every article the caller may see.
pub fn search(context: &Context, s: &Search<'_>, budget: &Budget) -> Result<Found, ServiceError> {
    let (catalogue, caller) = (context.snapshot(), context.caller());
    let query = s.query.value;
    let mut matched_numbers = BTreeMap::new();
    // Free text may be in any script; a number is ASCII letters and digits.
    let words = |text: &str| text.chars().any(char::is_alphanumeric);
    let free_text = s.kind == NumberKind::FreeText && query.is_some_and(words);
    // Free text's matches through another language's texts only come after the others.
    let mut later = BTreeSet::new();
    let candidates = match query.map(normalise_reference) {
        Some(q) if q.is_empty() && !free_text => {
            return Err(ServiceError::bad_parameter(
                s.query.name,
                "must hold at least one letter or digit",
            ));
        }
        Some(q) => {
            // Words without a letter or digit of a number match descriptions only.
            let hits = match q.is_empty() {
                true => Vec::new(),
                false => number_hits(catalogue, s.kind, s.how, &q, budget)?,
            };
            for hit in hits {
                matched_numbers
                    .entry(hit.article.clone())
                    .or_insert_with(Vec::new)
                    .push(hit);
            }
            let mut found: BTreeSet<ArticleKey> = matched_numbers.keys().cloned().collect();
            if let (NumberKind::FreeText, Some(text)) = (s.kind, query) {
                let described = free_text::described(catalogue, context.language(), text, budget)?;
                found.extend(described.in_language);
                later = &described.elsewhere - &found;
            }
            found
        }
        None => match s.articles {
            Some(named) => named.iter().cloned().collect(),
            None => unsearched(context, s, budget)?,
        },
    };
    let named: Option<HashSet<&ArticleKey>> = s.articles.map(|a| a.iter().collect());
    let brands: HashSet<u32> = s.brands.iter().copied().collect();
    let genarts: HashSet<u32> = s.genarts.iter().copied().collect();
    let grouped: Option<BTreeSet<u32>> = match s.groups.value {
        [] => None,
        nodes => Some(category_tree::genarts_under(
            catalogue,
            nodes,
            s.groups.name,
        )?),
    };
    let linked: Option<HashSet<ArticleKey>> = match s.ktype {
        Some(ktype) => Some(
            catalogue
                .articles_by_ktype(ktype.trim())?
                .into_iter()
                .collect(),
        ),
        None => None,
    };
    // An article is read here only when its generic article is needed; the caller reads the
    // articles of the page it shows.
    let needs_genart = !genarts.is_empty() || grouped.is_some() || s.genart_counts;
    let wanted = s.criteria.filter(|w| !w.is_empty());
    let criteria = match wanted.is_some() || s.criteria_counts {
        true => Some(catalogue.criteria()?),
        false => None,
    };
    let mut found = Found::default();
    let first = candidates.len();
    for (i, key) in candidates.into_iter().chain(later).enumerate() {
        budget.check_every(i).map_err(ServiceError::from)?;
        if !caller.provider.sees_brand(key.brand_id)
            || (!brands.is_empty() && !brands.contains(&key.brand_id))
            || named.as_ref().is_some_and(|n| !n.contains(&key))
            || linked.as_ref().is_some_and(|l| !l.contains(&key))
        {
            continue;
        }
        let mut genart = None;
        if needs_genart {
            let Some(article) = catalogue.article(&key)? else {
                continue;
            };
            if (!genarts.is_empty() && !genarts.contains(&article.genart))
                || grouped
                    .as_ref()
                    .is_some_and(|g| !g.contains(&article.genart))
            {
                continue;
            }
            genart = Some(article.genart);
        }
        if let Some(criteria) = criteria {
            let rows = catalogue.criteria_of(&key)?;
            if wanted.is_some_and(|w| !w.held_by(criteria, &rows)) {
                continue;
            }
            if s.criteria_counts {
                found.by_criterion.add(criteria, rows);
            }
        }
        if let Some(genart) = genart {
            *found.by_genart.entry(genart).or_default() += 1;
        }
        *found.by_brand.entry(key.brand_id).or_default() += 1;
        if let Some(hits) = matched_numbers.remove(&key) {
            found.matched_numbers.insert(key.clone(), hits);
        }
        if i < first {
            found.asked_first += 1;
        }
        found.matches.push(key);
    }
    Ok(found)
}

/// An article found by one of its numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberHit {
    pub article: ArticleKey,
    /// The kind of the number that matched: never `Any`.
    pub kind: NumberKind,
    /// The number that matched, normalised.
    pub number: String,
    /// A cross number as the data writes it (`None`: the normalised number is all there is).
    pub written: Option<String>,
    /// A cross number's manufacturer (an OE number's vehicle maker).
    pub manufacturer_id: Option<u32>,
}

/// Every number of the searched kind that matches `query` (normalised) as `how` says, with
/// its article: an article is found once per number of it that matches.
pub fn number_hits(
    catalogue: &Catalogue,
    kind: NumberKind,
    how: NumberMatch,
    query: &str,
    budget: &Budget,
) -> Result<Vec<NumberHit>, ServiceError> {
    let mut hits = Vec::new();
    if matches!(
        kind,
        NumberKind::Reference | NumberKind::Any | NumberKind::FreeText
    ) {
        for key in catalogue.references_matching(query, how, budget)? {
            hits.push(NumberHit::plain(
                key.clone(),
                NumberKind::Reference,
                key.reference,
            ));
        }
    }
    let cross_kinds = cross_kinds(kind);
    if !cross_kinds.is_empty() {
        for hit in catalogue.cross_numbers_matching(query, how, budget)? {
            if cross_kinds.contains(&hit.kind) {
                hits.push(NumberHit {
                    article: hit.article,
                    kind: NumberKind::of_cross(hit.kind),
                    number: normalise_reference(&hit.number),
                    written: Some(hit.number),
                    manufacturer_id: hit.manufacturer_id,
                });
            }
        }
    }
    if kind == NumberKind::Replacements {
        hits.extend(replacements(catalogue, how, query, budget)?);
    }
    if kind == NumberKind::Replaced {
        for (article, number) in catalogue.articles_replaced_by(query, how, budget)? {
            hits.push(NumberHit::plain(article, kind, number));
        }
    }
    Ok(hits)
}

/// The kinds of cross number a search of `kind` reads.
fn cross_kinds(kind: NumberKind) -> &'static [CrossKind] {
    match kind {
        NumberKind::Oe => &[CrossKind::Oe],
        NumberKind::Trade => &[CrossKind::Trade],
        NumberKind::Comparable => &[CrossKind::Competitor, CrossKind::Internal],
        NumberKind::Ean => &[CrossKind::Ean],
        NumberKind::Any | NumberKind::FreeText => &[
            CrossKind::Oe,
            CrossKind::Competitor,
            CrossKind::Internal,
            CrossKind::Trade,
            CrossKind::Ean,
        ],
        _ => &[],
    }
}

/// The articles that replace those whose reference matches: each found under the number
/// of the article it replaces.
fn replacements(
    catalogue: &Catalogue,
    how: NumberMatch,
    query: &str,
    budget: &Budget,
) -> Result<Vec<NumberHit>, ServiceError> {
    let mut hits = Vec::new();
    for key in catalogue.references_matching(query, how, budget)? {
        let Some(article) = catalogue.article(&key)? else {
            continue;
        };
        for written in &article.replaced_by {
            let replacement = ArticleKey {
                brand_id: key.brand_id,
                reference: normalise_reference(written),
            };
            if catalogue.article(&replacement)?.is_some() {
                let number = key.reference.clone();
                hits.push(NumberHit::plain(
                    replacement,
                    NumberKind::Replacements,
                    number,
                ));
            }
        }
    }
    Ok(hits)
}

impl NumberHit {
    /// A hit on a number the article's own data holds (no written form, no manufacturer).
    fn plain(article: ArticleKey, kind: NumberKind, number: String) -> NumberHit {
        NumberHit {
            article,
            kind,
            number,
            written: None,
            manufacturer_id: None,
        }
    }
}

/// Without a query: the articles of the vehicle, else of the brands.
fn unsearched(
    context: &Context,
    s: &Search<'_>,
    budget: &Budget,
) -> Result<BTreeSet<ArticleKey>, ServiceError> {
    let catalogue = context.snapshot();
    if let Some(ktype) = s.ktype {
        return Ok(catalogue
            .articles_by_ktype(ktype.trim())?
            .into_iter()
            .collect());
    }
    // The brands named, or (a catalogue walked by category, or whole) every brand the
    // caller sees: its articles are read as a named brand's are.
    let brands: Vec<u32> = match s.brands {
        [] => {
            let mut seen = Vec::new();
            for brand in catalogue.brands() {
                let id = brand?.id;
                if context.caller().provider.sees_brand(id) {
                    seen.push(id);
                }
            }
            seen
        }
        named => named.to_vec(),
    };
    let mut found = BTreeSet::new();
    for brand in brands {
        for (i, article) in catalogue.articles_of_brand(brand).enumerate() {
            budget.check_every(i).map_err(ServiceError::from)?;
            found.insert(article?.key);
        }
    }
    Ok(found)
}

/// The articles of these numeric ids (`legacyArticleId`); an id the catalogue does not hold
/// names nothing.
pub fn articles_by_id(catalogue: &Catalogue, ids: &[u32]) -> Result<Vec<ArticleKey>, ServiceError> {
    let mut named = Vec::with_capacity(ids.len());
    for &id in ids {
        named.extend(catalogue.article_by_id(id)?);
    }
    Ok(named)
}
