//! What a kit holds and which kits hold an article: each article once, whatever vehicle
//! types the kit is defined for, among the brands the caller sees.

use crate::catalogue::{Article, ArticleKey, KitComponent};
use crate::service::ServiceError;
use crate::service::caller::Caller;
use crate::service::names::Names;
use crate::store::Catalogue;

/// A component of a kit, or a kit an article is a component of.
#[derive(Debug, Clone)]
pub struct KitPart {
    pub article: Article,
    /// Its numeric id (`legacyArticleId`), 0 when it has none.
    pub article_id: u32,
    pub brand_name: String,
    pub genart_name: String,
    /// How many of the component the kit holds (the largest over its vehicle types).
    pub quantity: u32,
}

/// The components of `kit` the caller may see, in the order of their keys; none for an article
/// that is no kit.
pub fn kit_parts(
    catalogue: &Catalogue,
    names: &Names<'_>,
    caller: &Caller,
    kit: &ArticleKey,
) -> Result<Vec<KitPart>, ServiceError> {
    let mut rows = catalogue.components_of_kit(kit)?;
    rows.sort_by(|a, b| a.component.cmp(&b.component));
    each_once(catalogue, names, caller, rows, |row| &row.component)
}

/// The kits the caller may see that hold `component`, in the order of their keys, each with
/// how many of it it holds (the largest over the kit's vehicle types).
pub fn kits_holding(
    catalogue: &Catalogue,
    names: &Names<'_>,
    caller: &Caller,
    component: &ArticleKey,
) -> Result<Vec<KitPart>, ServiceError> {
    let rows = super::lookups::kits_holding(catalogue, component)?;
    each_once(catalogue, names, caller, rows, |row| &row.kit)
}

/// One part per article that `side` names in `rows` (whose rows of one article are
/// adjacent), among the brands the caller sees. An article named by several rows (one per
/// vehicle type) keeps the largest quantity.
fn each_once(
    catalogue: &Catalogue,
    names: &Names<'_>,
    caller: &Caller,
    rows: Vec<KitComponent>,
    side: impl Fn(&KitComponent) -> &ArticleKey,
) -> Result<Vec<KitPart>, ServiceError> {
    let mut parts: Vec<KitPart> = Vec::new();
    for row in &rows {
        let key = side(row);
        if !caller.provider.sees_brand(key.brand_id) {
            continue;
        }
        if let Some(last) = parts.last_mut().filter(|p| p.article.key == *key) {
            last.quantity = last.quantity.max(row.quantity);
            continue;
        }
        parts.extend(kit_part(catalogue, names, key, row.quantity)?);
    }
    Ok(parts)
}

/// The article `key` with its names and id, as a kit's list shows it; none where the
/// catalogue no longer holds it.
fn kit_part(
    catalogue: &Catalogue,
    names: &Names<'_>,
    key: &ArticleKey,
    quantity: u32,
) -> Result<Option<KitPart>, ServiceError> {
    let Some(article) = catalogue.article(key)? else {
        return Ok(None);
    };
    Ok(Some(KitPart {
        article_id: catalogue.article_id(key)?.unwrap_or(0),
        brand_name: names.brand(key.brand_id)?,
        genart_name: names.genart(article.genart)?,
        quantity,
        article,
    }))
}
