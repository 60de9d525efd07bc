//! `getArticleLinkedAllLinkingTarget4`: the vehicle types an article fits, by the article's
//! numeric id, with the kits holding it (Pegasus's "main articles").

use serde_json::Value;

use super::call::{Call, Failure};
use super::messages::*;
use super::operations::answer;
use crate::catalogue::ManufacturerKind;
use crate::service::lookups;

pub fn get_article_linked_targets(
    call: &Call<'_>,
    r: GetArticleLinkedAllLinkingTargetRequest,
) -> Result<Value, Failure> {
    let id = match r.article_id {
        Some(id) if id > 0 => id,
        Some(id) => {
            return Err(Failure::bad(format!(
                "Field 'articleId' must be a positive article id, not {id}"
            )));
        }
        None => {
            return Err(Failure::bad(
                "Field 'articleId' is required: the article's legacyArticleId from getArticles",
            ));
        }
    };
    let catalogue = call.state.store.catalogue();
    let article = match u32::try_from(id) {
        Ok(id) => catalogue.article_by_id(id)?,
        Err(_) => None,
    };
    let Some(article) = article.filter(|a| call.caller.provider.sees_brand(a.brand_id)) else {
        return answer(&ArticleLinkedTargetsList::of(Vec::new()));
    };
    // Only this Ktype, only this maker's vehicles (by the maker's name, as vehicles hold it).
    let ktype = r
        .linking_target_id
        .filter(|&k| k > 0)
        .map(|k| k.to_string());
    let maker = match r.linking_target_manu_id.filter(|&m| m > 0) {
        Some(m) => Some(
            u32::try_from(m)
                .ok()
                .map(|m| catalogue.manufacturer(m))
                .transpose()?
                .flatten()
                .filter(|m| m.kind == ManufacturerKind::VehicleMaker)
                .map(|m| m.name.to_lowercase())
                .unwrap_or_default(),
        ),
        None => None,
    };
    let wanted = |v: &crate::catalogue::Vehicle| {
        ktype.as_ref().is_none_or(|k| v.ktype.trim() == k)
            && maker.as_ref().is_none_or(|m| v.make.to_lowercase() == *m)
    };
    let mut linked = Vec::new();
    for (link, vehicle) in lookups::applications(&catalogue, &article)? {
        if wanted(&vehicle) {
            linked.push(LinkedTargetRecord {
                article_link_id: link_id(id, &link.ktype),
                linked: true,
                linking_target_id: ktype_number(&link.ktype),
                linking_target_type: "P".into(),
            });
        }
    }
    let mut main = Vec::new();
    if r.with_main_articles.unwrap_or(false) {
        for kit in lookups::kits_holding(&catalogue, &article)? {
            if !call.caller.provider.sees_brand(kit.kit.brand_id) {
                continue;
            }
            let Some(vehicle) = catalogue.vehicle(&kit.ktype)? else {
                continue;
            };
            let Some(kit_id) = catalogue.article_id(&kit.kit)? else {
                continue;
            };
            if wanted(&vehicle) {
                main.push(MainArticleLinkRecord {
                    article_link_id: link_id(i64::from(kit_id), &kit.ktype),
                    linking_target_id: ktype_number(&kit.ktype),
                    main_article_id: i64::from(kit_id),
                });
            }
        }
    }
    answer(&ArticleLinkedTargetsList::of(vec![
        ArticleLinkedTargetsRecord {
            article_linkages: LinkedTargetRecordSeq { array: linked },
            main_article_linkages: MainArticleLinkRecordSeq { array: main },
        },
    ]))
}

/// A Ktype as Pegasus's numeric `linkingTargetId` (0 where it is not a number).
fn ktype_number(ktype: &str) -> i64 {
    ktype.trim().parse().unwrap_or(0)
}

/// An article's link to a vehicle type as one number: the article's id in the high 32 bits,
/// the Ktype in the low ones.
fn link_id(article_id: i64, ktype: &str) -> i64 {
    (article_id << 32) | (ktype_number(ktype) & 0xFFFF_FFFF)
}
