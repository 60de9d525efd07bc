//! A vehicle type's parts as a legacy shop lists them (Pegasus's `getArticleIdsWithState`):
//! those the caller may see that fit the vehicle, under an assembly-group node, of some
//! generic articles and brands, each with its id, names and state, in the order asked.

use std::collections::BTreeSet;

use super::vehicle_path::{articles_under, kind_named, vehicle};
use crate::catalogue::{Article, ArticleKey, TargetType};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;

/// What narrows the parts; empty lists narrow nothing.
#[derive(Debug, Clone)]
pub struct PartsQuestion<'q> {
    /// The vehicle type (required); its kind must be one of `kinds`, where they are named.
    pub ktype: Field<Option<i64>>,
    pub kinds: Field<Option<&'static [TargetType]>>,
    /// Only the parts under this assembly-group node.
    pub node: Field<Option<i64>>,
    pub genarts: &'q [u32],
    pub brands: &'q [u32],
    pub order: PartsOrder,
}

/// The order of the answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PartsOrder {
    /// By brand name, then article number.
    #[default]
    Brand,
    /// By generic-article name, then brand name and article number.
    GenericArticle,
}

/// A part that fits, with what a list shows of it.
#[derive(Debug, Clone)]
pub struct Part {
    pub article: Article,
    /// Its numeric id (`legacyArticleId`), 0 where it has none.
    pub id: u32,
    pub brand_name: String,
    pub genart_name: String,
}

/// The parts `q` asks for. An unknown vehicle type, or a node outside its tree, is refused
/// naming its field.
pub fn parts(
    context: &Context,
    asked: &Asked<'_>,
    q: &PartsQuestion<'_>,
) -> Result<Vec<Part>, ServiceError> {
    asked.check()?;
    let catalogue = context.snapshot();
    let caller = context.caller();
    let ktype = q.ktype.required()?;
    let ktype = Field::new(ktype.name, ktype.value.to_string());
    kind_named(catalogue, q.kinds, Some(&ktype.value))?;
    let node = q.node.map(|n| {
        u32::try_from(n.value)
            .map_err(|_| ServiceError::bad_parameter(n.name, format!("{} is not a node", n.value)))
    })?;
    let v = vehicle(catalogue, &ktype.value, ktype.name)?;
    let keys: Vec<ArticleKey> = match node {
        Some(node) => articles_under(catalogue, caller, &v, &[node], q.node.name)?,
        None => caller.visible(catalogue.articles_by_ktype(&v.ktype)?),
    };
    let genarts: BTreeSet<u32> = q.genarts.iter().copied().collect();
    let names = context.names();
    let mut found = Vec::new();
    for key in keys {
        if !q.brands.is_empty() && !q.brands.contains(&key.brand_id) {
            continue;
        }
        let Some(article) = catalogue.article(&key)? else {
            continue;
        };
        if !genarts.is_empty() && !genarts.contains(&article.genart) {
            continue;
        }
        found.push(Part {
            id: catalogue.article_id(&key)?.unwrap_or(0),
            brand_name: names.brand(key.brand_id)?,
            genart_name: names.genart(article.genart)?,
            article,
        });
    }
    match q.order {
        PartsOrder::Brand => found.sort_by(|a, b| {
            (&a.brand_name, &a.article.reference).cmp(&(&b.brand_name, &b.article.reference))
        }),
        PartsOrder::GenericArticle => found.sort_by(|a, b| {
            (&a.genart_name, &a.brand_name, &a.article.reference).cmp(&(
                &b.genart_name,
                &b.brand_name,
                &b.article.reference,
            ))
        }),
    }
    Ok(found)
}
