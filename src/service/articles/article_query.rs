//! `getArticles`' question answered in one call: a search, one page of its matches, each
//! article with the parts asked for, and the facets asked for, every text named in the
//! reader's language. The adapter maps the request to an `ArticlesAsked` and the
//! `ArticlesFound` to its wire shape; the question is checked here (the paging, the brands
//! named against the caller's rights, the countries, the vehicle kind, the node ids, what the
//! catalogue does not hold).

use std::collections::BTreeMap;

use super::article_detail::{self, ArticleDetail, Parts};
use super::article_page::{self, Cursor, MAX_PER_PAGE, Page, Paging};
use super::article_search::{self, Found, NumberHit, NumberKind, Search};
use super::criteria_filters::{CriteriaWanted, CriterionFacet};
use super::kit_parts::{KitPart, kit_parts, kits_holding};
use crate::budget::Budget;
use crate::catalogue::{Article, TargetType};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::categories::category_tree::{self, GroupFacet};
use crate::service::context::Context;
use crate::service::field::Field;
use crate::service::names::Names;
use crate::service::vehicles::vehicle_path;

/// What a `getArticles` call asks.
pub struct ArticlesAsked<'a> {
    /// The search; its `groups` are `node_ids`, once checked.
    pub search: Search<'a>,
    /// The assembly-group nodes the articles must lie under, as the request gives them.
    pub node_ids: Field<&'a [i64]>,
    /// The kinds of vehicle `search.ktype` must be of.
    pub vehicle_kind: Field<Option<&'static [TargetType]>>,
    /// The countries the answer is for, and what it asks that the catalogue does not hold.
    pub asked: Asked<'a>,
    /// Only the articles of these numeric ids; none: any.
    pub article_ids: Field<&'a [i64]>,
    pub paging: Paging,
    /// The page of each article's vehicle types to answer, where one is asked.
    pub linkages: LinkagePaging,
    pub parts: Parts,
    /// Each article's kit components.
    pub kit_parts: bool,
    /// The kits each article is a component of.
    pub part_of_kits: bool,
    pub brand_facets: bool,
    pub genart_facets: bool,
    pub group_facets: Option<GroupFacetAsk>,
    /// The criterion values the articles must carry: (criterion number, raw value) each.
    pub criteria_filters: Field<&'a [(i64, String)]>,
}

/// A page of each article's vehicle types: from page 1, all of them unless a size is given.
pub struct LinkagePaging {
    pub page: Field<Option<u32>>,
    pub per_page: Field<Option<u32>>,
}

impl LinkagePaging {
    /// The vehicle types to skip and to take.
    fn checked(&self) -> Result<Option<(usize, usize)>, ServiceError> {
        let page = self.page.value.unwrap_or(1);
        if page == 0 {
            return Err(ServiceError::bad_parameter(self.page.name, "must be >= 1"));
        }
        match self.per_page.value {
            None => Ok(None),
            Some(n) if (1..=MAX_PER_PAGE).contains(&n) => {
                Ok(Some((((page - 1) * n) as usize, n as usize)))
            }
            Some(_) => Err(ServiceError::bad_parameter(
                self.per_page.name,
                format!("must be >= 1 and <= {MAX_PER_PAGE}"),
            )),
        }
    }
}

/// The matches per node of one assembly-group tree.
pub struct GroupFacetAsk {
    pub target: TargetType,
    /// Every node of the tree, not only those with matches.
    pub complete: bool,
    pub max_depth: Option<u32>,
}

impl GroupFacetAsk {
    /// The counts per node of the tree asked, from the counts per generic article.
    pub fn facets(
        &self,
        context: &Context,
        by_genart: &BTreeMap<u32, u32>,
    ) -> Result<Vec<GroupFacet>, ServiceError> {
        category_tree::group_facets(
            context,
            self.target,
            by_genart,
            self.complete,
            self.max_depth,
        )
    }
}

/// The facets of the counts `by` id, each named by `name`.
pub fn facets(
    by: &BTreeMap<u32, u32>,
    name: &dyn Fn(u32) -> Result<String, ServiceError>,
) -> Result<Vec<Facet>, ServiceError> {
    by.iter()
        .map(|(&id, &count)| {
            Ok(Facet {
                id,
                name: name(id)?,
                count,
            })
        })
        .collect()
}

/// One page of a search, with what was asked of each article and of the whole.
pub struct ArticlesFound {
    /// Articles in the whole result.
    pub total: u32,
    /// The last page `page` may name.
    pub max_allowed_page: u32,
    /// Where the next page starts; none on the last page.
    pub next_after: Option<Cursor>,
    pub articles: Vec<FoundArticle>,
    pub brand_facets: Option<Vec<Facet>>,
    pub genart_facets: Option<Vec<Facet>>,
    pub group_facets: Option<Vec<GroupFacet>>,
    pub criteria_facets: Option<Vec<CriterionFacet>>,
}

/// An article of the page.
pub struct FoundArticle {
    /// Its vehicle types (`applications`) cut to the page asked.
    pub detail: ArticleDetail,
    /// How many vehicle types it fits in all.
    pub linkages_total: u32,
    /// The numbers of it that matched the query, once each.
    pub matched: Vec<MatchedNumber>,
    pub kit_parts: Vec<KitPart>,
    pub part_of_kits: Vec<KitPart>,
}

/// A number of an article that matched the query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchedNumber {
    /// Never `Any` or `FreeText`: a reference match is `Reference`.
    pub kind: NumberKind,
    /// The kind's name in the reader's language.
    pub kind_name: String,
    /// As the data writes it.
    pub number: String,
    /// The number's maker (an OE number's vehicle maker), else the article's brand.
    pub maker_id: u32,
    pub maker_name: String,
}

/// Matches of one brand or generic article, with its name.
pub struct Facet {
    pub id: u32,
    pub name: String,
    pub count: u32,
}

/// Answers `asked`: the search over the brands the caller may see, the page, each article's
/// detail and what else was asked, the facets.
pub fn articles(
    context: &Context,
    asked: ArticlesAsked<'_>,
    budget: &Budget,
) -> Result<ArticlesFound, ServiceError> {
    let snapshot = context.snapshot();
    for brand in asked.search.brands {
        context.caller().require_brand(*brand)?;
    }
    held(context, &asked)?;
    let groups = node_ids(asked.node_ids)?;
    let paging = asked.paging.checked()?;
    let linkage_page = asked.linkages.checked()?;
    let named = match article_ids(asked.article_ids)? {
        Some(ids) => Some(article_search::articles_by_id(snapshot, &ids)?),
        None => None,
    };
    let wanted = CriteriaWanted::of(asked.criteria_filters)?;
    let search = Search {
        articles: named.as_deref(),
        groups: Field::new(asked.node_ids.name, &groups),
        criteria: Some(&wanted),
        ..asked.search
    };
    let criteria_counts = search.criteria_counts;
    let Found {
        matches,
        asked_first,
        mut matched_numbers,
        by_brand,
        by_genart,
        by_criterion,
    } = article_search::search(context, &search, budget)?;
    let names = context.names();
    let Page {
        total,
        max_allowed_page,
        shown,
        next_after,
    } = article_page::page(snapshot, &names, matches, asked_first, &paging)?;
    let caller = context.caller();
    let mut articles = Vec::with_capacity(shown.len());
    for article in shown {
        // A page of large articles stops where its client has gone or has no room.
        budget.check()?;
        let hits = matched_numbers.remove(&article.key).unwrap_or_default();
        let matched = matched_numbers_of(&names, &article, hits)?;
        let kit = match asked.kit_parts {
            true => kit_parts(snapshot, &names, caller, &article.key, None)?,
            false => Vec::new(),
        };
        let holding = match asked.part_of_kits {
            true => kits_holding(snapshot, &names, caller, &article.key)?,
            false => Vec::new(),
        };
        let mut detail = article_detail::detail(snapshot, &names, article, asked.parts)?;
        let linkages_total = detail.applications.len() as u32;
        if let Some((skip, take)) = linkage_page {
            let all = std::mem::take(&mut detail.applications);
            detail.applications = all.into_iter().skip(skip).take(take).collect();
        }
        articles.push(FoundArticle {
            detail,
            linkages_total,
            matched,
            kit_parts: kit,
            part_of_kits: holding,
        });
    }
    let brand_facets = match asked.brand_facets {
        true => Some(facets(&by_brand, &|id| names.brand(id))?),
        false => None,
    };
    let genart_facets = match asked.genart_facets {
        true => Some(facets(&by_genart, &|id| names.genart(id))?),
        false => None,
    };
    let group_facets = match &asked.group_facets {
        Some(ask) => Some(ask.facets(context, &by_genart)?),
        None => None,
    };
    let criteria_facets = match criteria_counts {
        true => Some(by_criterion.facets(&names, snapshot.criteria()?)?),
        false => None,
    };
    Ok(ArticlesFound {
        total,
        max_allowed_page,
        next_after,
        articles,
        brand_facets,
        genart_facets,
        group_facets,
        criteria_facets,
    })
}

/// Refuses what the search asks of the catalogue that it does not hold, by name, and a
/// vehicle kind that is not the named vehicle's.
fn held(context: &Context, asked: &ArticlesAsked<'_>) -> Result<(), ServiceError> {
    asked.asked.check()?;
    let ktype = asked.search.ktype;
    vehicle_path::kind_named(context.snapshot(), asked.vehicle_kind, ktype)
}

/// The articles' ids as the store's (none asked: any article); one that cannot be an
/// article's id is refused.
fn article_ids(ids: Field<&[i64]>) -> Result<Option<Vec<u32>>, ServiceError> {
    if ids.value.is_empty() {
        return Ok(None);
    }
    let read = |&id: &i64| {
        u32::try_from(id).ok().filter(|&id| id > 0).ok_or_else(|| {
            ServiceError::bad_parameter(
                ids.name,
                format!("holds the articles' positive ids, not {id}"),
            )
        })
    };
    ids.value
        .iter()
        .map(read)
        .collect::<Result<_, _>>()
        .map(Some)
}

/// The node ids as the store's; one out of range is a bad parameter naming the field.
pub(super) fn node_ids(ids: Field<&[i64]>) -> Result<Vec<u32>, ServiceError> {
    ids.value
        .iter()
        .map(|&n| {
            u32::try_from(n)
                .map_err(|_| ServiceError::bad_parameter(ids.name, format!("{n} is not a node id")))
        })
        .collect()
}

/// The article's numbers that matched, once each, named.
fn matched_numbers_of(
    names: &Names<'_>,
    article: &Article,
    hits: Vec<NumberHit>,
) -> Result<Vec<MatchedNumber>, ServiceError> {
    let mut matched = Vec::new();
    for hit in hits {
        let kind = match hit.kind {
            NumberKind::Any | NumberKind::FreeText => NumberKind::Reference,
            kind => kind,
        };
        let (maker_id, maker_name) = match hit.manufacturer_id {
            Some(maker) => (maker, names.manufacturer(maker)?),
            None => (article.key.brand_id, names.brand(article.key.brand_id)?),
        };
        let number = match (hit.written, kind) {
            (Some(written), _) => written,
            (None, NumberKind::Reference) => article.reference.clone(),
            (None, _) => hit.number,
        };
        let one = MatchedNumber {
            kind,
            kind_name: names.term(kind.name())?,
            number,
            maker_id,
            maker_name,
        };
        if !matched.contains(&one) {
            matched.push(one);
        }
    }
    Ok(matched)
}
