//! Articles by their numeric ids with the parts of them a legacy shop's article page shows
//! (Pegasus's `getDirectArticlesByIds6` and `…7`): numbers, criteria, prices, media, the articles that
//! replace it and that it replaces, and the kits it is part of.

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, BTreeSet};

use super::article_detail::{ArticleDetail, Parts, detail};
use crate::catalogue::{Article, ArticleKey, Date, MediaKind, normalise_reference};
use crate::service::ServiceError;
use crate::service::asked::Asked;
use crate::service::context::Context;
use crate::service::field::Field;
use crate::service::names::Names;

/// Ids one question may name at most.
pub const MAX_IDS: usize = 100;

/// What is asked of each article.
#[derive(Debug, Clone, Copy, Default)]
pub struct ByIds {
    pub parts: Parts,
    /// The kits it is a component of.
    pub kits: bool,
    /// Only the prices valid on this day; `None`: every price.
    pub price_day: Option<Date>,
}

/// Another article an answer names, with its id (0 where it has none).
#[derive(Debug, Clone)]
pub struct Named {
    pub id: u32,
    pub article: Article,
    pub genart_name: String,
}

/// An article with what was asked of it.
pub struct ArticleById {
    pub detail: ArticleDetail,
    /// The articles of its brand that replace it, by the numbers its row names (`None`
    /// where the catalogue does not hold the replacing number as an article).
    pub replaced_by: Vec<(String, Option<u32>)>,
    /// The articles it replaces: each one's number as written and id (0 where it has none).
    pub replaced: Vec<(String, u32)>,
    pub kits: Vec<Named>,
    /// Whether it is a kit itself, with components for some vehicle type.
    pub is_kit: bool,
    /// Whether it fits a vehicle type.
    pub linked: bool,
    /// What each kind of its media is called in the asked language.
    pub media_kind_names: BTreeMap<MediaKind, String>,
}

/// The articles of `ids` the caller may see, in the order asked, each once; an id the
/// catalogue lacks or of a brand the caller may not see is left out.
pub fn articles_by_ids(
    context: &Context,
    asked: &Asked<'_>,
    ids: Field<&[i64]>,
    wanted: ByIds,
) -> Result<Vec<ArticleById>, ServiceError> {
    asked.check()?;
    let catalogue = context.snapshot();
    let caller = context.caller();
    if ids.value.len() > MAX_IDS {
        return Err(ServiceError::bad_parameter(
            ids.name,
            format!("must hold at most {MAX_IDS} ids"),
        ));
    }
    let ids = ids.value;
    let names = context.names();
    let mut seen = BTreeSet::new();
    let mut found = Vec::new();
    for &id in ids {
        let Ok(id) = u32::try_from(id) else { continue };
        if !seen.insert(id) {
            continue;
        }
        let Some(key) = catalogue.article_by_id(id)? else {
            continue;
        };
        if !caller.provider.sees_brand(key.brand_id) {
            continue;
        }
        let Some(article) = catalogue.article(&key)? else {
            continue;
        };
        found.push(one(context, &names, article, wanted)?);
    }
    Ok(found)
}

/// `article` with what `wanted` asks of it.
pub(super) fn one(
    context: &Context,
    names: &Names<'_>,
    article: Article,
    wanted: ByIds,
) -> Result<ArticleById, ServiceError> {
    let catalogue = context.snapshot();
    let caller = context.caller();
    let key = article.key.clone();
    let replaced_by = if wanted.parts.replaced {
        let mut found = Vec::new();
        for written in &article.replaced_by {
            let newer = ArticleKey {
                brand_id: key.brand_id,
                reference: normalise_reference(written),
            };
            found.push((written.clone(), catalogue.article_id(&newer)?));
        }
        found
    } else {
        Vec::new()
    };
    let mut kits = Vec::new();
    if wanted.kits {
        for kit in catalogue.kits_holding(&key)? {
            if !caller.provider.sees_brand(kit.brand_id) {
                continue;
            }
            let Some(kit_article) = catalogue.article(&kit)? else {
                continue;
            };
            kits.push(Named {
                id: catalogue.article_id(&kit)?.unwrap_or(0),
                genart_name: names.genart(kit_article.genart)?,
                article: kit_article,
            });
        }
    }
    let is_kit = !catalogue.components_of_kit(&key)?.is_empty();
    let linked = !catalogue.links_of(&key)?.is_empty();
    let mut detail = detail(catalogue, names, article, wanted.parts)?;
    let mut replaced = Vec::new();
    for older in &detail.replaced {
        let id = catalogue.article_id(&older.key)?.unwrap_or(0);
        replaced.push((older.reference.clone(), id));
    }
    if let Some(day) = wanted.price_day {
        detail.prices.retain(|p| {
            p.valid_from.is_none_or(|d| d <= day) && p.valid_to.is_none_or(|d| d >= day)
        });
    }
    let mut media_kind_names = BTreeMap::new();
    for m in &detail.media {
        if let Entry::Vacant(slot) = media_kind_names.entry(m.kind) {
            slot.insert(names.term(m.kind.term())?);
        }
    }
    Ok(ArticleById {
        media_kind_names,
        detail,
        replaced_by,
        replaced,
        kits,
        is_kit,
        linked,
    })
}
