//! What a kit holds (for any vehicle type or one) and which kits hold an article: each article
//! once, among the brands the caller sees; and a kit's part list, each component with what
//! its article page shows.

use super::article_detail::Parts;
use super::article_links::article_of;
use super::articles_by_ids::{self, ArticleById, ByIds};
use crate::catalogue::{Article, ArticleKey, Date, KitComponent, TargetType};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::caller::Caller;
use crate::service::context::Context;
use crate::service::field::Field;
use crate::service::names::Names;
use crate::service::vehicles::vehicle_path::kind_named;
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

/// The components of `kit` the caller may see, in the order of their keys: those it holds for
/// the vehicle type `ktype` where one is named, else for any; none for an article that is no
/// kit.
pub fn kit_parts(
    catalogue: &Catalogue,
    names: &Names<'_>,
    caller: &Caller,
    kit: &ArticleKey,
    ktype: Option<&str>,
) -> Result<Vec<KitPart>, ServiceError> {
    let mut rows = catalogue.components_of_kit(kit)?;
    if let Some(ktype) = ktype {
        rows.retain(|row| row.ktype == ktype.trim());
    }
    rows.sort_by(|a, b| a.component.cmp(&b.component));
    each_once(catalogue, names, caller, rows, |row| &row.component)
}

/// A row of a kit's part list: a component with what its article page shows of it.
pub struct ListedPart {
    pub component: ArticleById,
    /// How many of it the kit holds (for the vehicle type asked, else the largest over the
    /// kit's vehicle types).
    pub quantity: u32,
}

/// The part list of the kit `id` (Pegasus's `getArticlePartList`): its components the caller
/// may see, in the order of their keys, those it holds for the vehicle type `ktype` where one
/// is named (whose kind `kinds` must name, where it names any); each with its numbers,
/// criteria, media and prices (those valid on `price_day` where one is named). `None` where the
/// caller sees no such article; empty for an article that is no kit.
pub fn part_list(
    context: &Context,
    asked: &Asked<'_>,
    id: Field<Option<i64>>,
    ktype: Option<&str>,
    kinds: Field<Option<&[TargetType]>>,
    price_day: Option<Date>,
) -> Result<Option<Vec<ListedPart>>, ServiceError> {
    asked.check()?;
    let catalogue = context.snapshot();
    kind_named(catalogue, kinds, ktype)?;
    let Some((_, kit)) = article_of(context, id)? else {
        return Ok(None);
    };
    let names = context.names();
    let wanted = ByIds {
        parts: Parts {
            numbers: true,
            criteria: true,
            prices: true,
            media: true,
            applications: false,
            id: true,
            replaced: false,
        },
        kits: false,
        price_day,
    };
    let mut listed = Vec::new();
    for part in kit_parts(catalogue, &names, context.caller(), &kit, ktype)? {
        listed.push(ListedPart {
            component: articles_by_ids::one(context, &names, part.article, wanted)?,
            quantity: part.quantity,
        });
    }
    Ok(Some(listed))
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
