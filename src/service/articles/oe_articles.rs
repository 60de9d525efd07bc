//! The vehicle makers' (OE) part numbers for the vehicle a VIN names (`getOEArticlesByVIN`):
//! the vehicle types of the VIN (`vehicles::vins`), the articles linked to them, and the OE
//! numbers those articles carry, each OE part once per generic article with the aftermarket
//! articles that cross to it; narrowed, ordered, paged and counted as Pegasus does.

use std::collections::{BTreeMap, BTreeSet};

use super::article_query::{Facet, GroupFacetAsk, facets, node_ids};
use crate::budget::Budget;
use crate::catalogue::{ArticleKey, CrossKind, normalise_reference};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::categories::category_tree::{self, GroupFacet};
use crate::service::context::Context;
use crate::service::field::Field;
use crate::service::vehicles::vins::{self, VinAsked};

/// OE articles on one page at most.
pub const MAX_PER_PAGE: u32 = 100;

/// What a request for a VIN's OE articles asks.
pub struct OeAsked<'a> {
    /// The VIN as the client wrote it (spaces, dashes and case aside).
    pub vin: Field<&'a str>,
    /// Only the aftermarket articles of these brands (none: every brand the caller sees).
    pub brands: &'a [u32],
    /// Only OE parts of these generic articles (none: all).
    pub genarts: &'a [u32],
    /// Only OE parts whose generic article sits at or below one of these assembly groups.
    pub node_ids: Field<&'a [i64]>,
    /// 0 to `MAX_PER_PAGE`: 0 answers the counts and facets only.
    pub per_page: Field<u32>,
    /// From 1.
    pub page: Field<u32>,
    pub order: OeOrder,
    pub descending: bool,
    /// Each OE part's aftermarket articles.
    pub aftermarket: bool,
    pub brand_facets: bool,
    pub genart_facets: bool,
    pub group_facets: Option<GroupFacetAsk>,
}

/// The order of the OE parts; ties go by maker name, then number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OeOrder {
    MakerName,
    Number,
    GenartName,
}

/// A vehicle maker's part number, as the catalogue's articles cross to it.
pub struct OeArticle {
    /// As the first article (in catalogue order) writes it.
    pub number: String,
    /// The vehicle maker (id, name), where the data names it.
    pub maker: Option<(u32, String)>,
    pub genart_id: u32,
    pub genart_name: String,
    /// The articles that carry the number (with `aftermarket`), by brand name and number.
    pub aftermarket: Vec<AftermarketArticle>,
}

/// An article of the catalogue that crosses to an OE part.
pub struct AftermarketArticle {
    /// As the maker writes it.
    pub reference: String,
    pub brand_id: u32,
    pub brand_name: String,
}

/// A page of a VIN's OE parts, how many there are, and the counts asked for.
pub struct OeFound {
    pub total: usize,
    pub articles: Vec<OeArticle>,
    /// OE parts per brand of the articles that cross to them.
    pub brand_facets: Option<Vec<Facet>>,
    pub genart_facets: Option<Vec<Facet>>,
    pub group_facets: Option<Vec<GroupFacet>>,
}

/// An OE part as the store tells it from others: its maker, normalised number and generic
/// article.
type OeKey = (Option<u32>, String, u32);

/// Answers `q`: the OE parts of the articles linked to the VIN's vehicle types.
pub fn oe_articles_of_vin(
    context: &Context,
    asked: &Asked<'_>,
    q: &OeAsked<'_>,
    budget: &Budget,
) -> Result<OeFound, ServiceError> {
    let caller = context.caller();
    for &brand in q.brands {
        caller.require_brand(brand)?;
    }
    if q.per_page.value > MAX_PER_PAGE {
        return Err(ServiceError::bad_parameter(
            q.per_page.name,
            format!("must be >= 0 and <= {MAX_PER_PAGE}"),
        ));
    }
    if q.page.value == 0 {
        return Err(ServiceError::bad_parameter(q.page.name, "must be >= 1"));
    }
    let grouped = match q.node_ids.value {
        [] => None,
        _ => Some(category_tree::genarts_under(
            context.snapshot(),
            &node_ids(q.node_ids)?,
            q.node_ids.name,
        )?),
    };
    let vin = VinAsked {
        vin: q.vin,
        maker: Field::new("manuId", None),
        series: Field::new("modelId", None),
        most: Field::new("maxVehiclesToReturn", None),
    };
    let vehicles = vins::vehicles_of_vin(context, asked, &vin)?.vehicles;
    let catalogue = context.snapshot();
    let mut linked = BTreeSet::new();
    for v in &vehicles {
        linked.extend(catalogue.articles_by_ktype(v.vehicle.ktype.trim())?);
    }
    let brands: BTreeSet<u32> = q.brands.iter().copied().collect();
    let genarts: BTreeSet<u32> = q.genarts.iter().copied().collect();
    // Each OE part with its written number and the articles crossing to it (each with its
    // reference as written).
    let mut parts: BTreeMap<OeKey, (String, Vec<(ArticleKey, String)>)> = BTreeMap::new();
    for (i, key) in linked.into_iter().enumerate() {
        budget.check_every(i).map_err(ServiceError::from)?;
        if !caller.provider.sees_brand(key.brand_id)
            || (!brands.is_empty() && !brands.contains(&key.brand_id))
        {
            continue;
        }
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
        for x in catalogue.cross_references_of(&key)? {
            if x.kind != CrossKind::Oe {
                continue;
            }
            let oe = (
                x.manufacturer_id,
                normalise_reference(&x.number),
                article.genart,
            );
            let (_, crossing) = parts.entry(oe).or_insert_with(|| (x.number, Vec::new()));
            if !crossing.iter().any(|(k, _)| *k == key) {
                crossing.push((key.clone(), article.reference.clone()));
            }
        }
    }
    let names = context.names();
    let mut by_brand: BTreeMap<u32, u32> = BTreeMap::new();
    let mut by_genart: BTreeMap<u32, u32> = BTreeMap::new();
    let mut all = Vec::with_capacity(parts.len());
    for ((maker, _, genart), (number, crossing)) in parts {
        *by_genart.entry(genart).or_default() += 1;
        let brands: BTreeSet<u32> = crossing.iter().map(|(k, _)| k.brand_id).collect();
        for brand in brands {
            *by_brand.entry(brand).or_default() += 1;
        }
        let maker = match maker {
            Some(id) => Some((id, names.manufacturer(id)?)),
            None => None,
        };
        let mut aftermarket = Vec::new();
        if q.aftermarket {
            for (key, reference) in crossing {
                aftermarket.push(AftermarketArticle {
                    reference,
                    brand_id: key.brand_id,
                    brand_name: names.brand(key.brand_id)?,
                });
            }
            aftermarket.sort_by(|a, b| {
                (&a.brand_name, a.brand_id, &a.reference).cmp(&(
                    &b.brand_name,
                    b.brand_id,
                    &b.reference,
                ))
            });
        }
        all.push(OeArticle {
            number,
            maker,
            genart_id: genart,
            genart_name: names.genart(genart)?,
            aftermarket,
        });
    }
    sort(&mut all, q.order, q.descending);
    let total = all.len();
    let skip = (q.page.value as usize - 1).saturating_mul(q.per_page.value as usize);
    let articles = all
        .into_iter()
        .skip(skip)
        .take(q.per_page.value as usize)
        .collect();
    let group_facets = match &q.group_facets {
        Some(ask) => Some(ask.facets(context, &by_genart)?),
        None => None,
    };
    Ok(OeFound {
        total,
        articles,
        brand_facets: match q.brand_facets {
            true => Some(facets(&by_brand, &|id| names.brand(id))?),
            false => None,
        },
        genart_facets: match q.genart_facets {
            true => Some(facets(&by_genart, &|id| names.genart(id))?),
            false => None,
        },
        group_facets,
    })
}

/// Puts the OE parts in the asked order: the asked key, then maker name, normalised number and
/// generic article, so that equal keys keep one order.
fn sort(parts: &mut [OeArticle], order: OeOrder, descending: bool) {
    let maker = |p: &OeArticle| p.maker.as_ref().map_or("", |m| m.1.as_str()).to_lowercase();
    let tie = |p: &OeArticle| (maker(p), normalise_reference(&p.number), p.genart_id);
    parts.sort_by_cached_key(|p| {
        let first = match order {
            OeOrder::MakerName => maker(p),
            OeOrder::Number => normalise_reference(&p.number),
            OeOrder::GenartName => p.genart_name.to_lowercase(),
        };
        (first, tie(p))
    });
    if descending {
        parts.reverse();
    }
}
