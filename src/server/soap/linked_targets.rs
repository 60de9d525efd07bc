//! The vehicle types an article fits, by the article's numeric id, as Pegasus's clients ask
//! for them: `getArticleLinkedAllLinkingTarget4` lists the links (with the kits holding the
//! article, Pegasus's "main articles"), `getArticleLinkedAllLinkingTargetsByIds3` answers how
//! the article fits the vehicle types of the links asked.

use std::collections::HashMap;

use serde_json::Value;

use super::call::answer;
use super::call::{Call, Failure};
use super::messages::*;
use super::vehicles::yyyymm;
use crate::catalogue::{ArticleKey, Link, ManufacturerKind, Vehicle};
use crate::service::lookups;
use crate::store::Catalogue;

/// The article `articleId` names, if the catalogue holds it and the caller may see its brand.
fn article_of(
    call: &Call<'_>,
    catalogue: &Catalogue,
    id: Option<i64>,
) -> Result<Option<(i64, ArticleKey)>, Failure> {
    let id = match id {
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
    let article = match u32::try_from(id) {
        Ok(id) => catalogue.article_by_id(id)?,
        Err(_) => None,
    };
    Ok(article
        .filter(|a| call.caller.provider.sees_brand(a.brand_id))
        .map(|a| (id, a)))
}

pub fn get_article_linked_targets(
    call: &Call<'_>,
    r: GetArticleLinkedAllLinkingTargetRequest,
) -> Result<Value, Failure> {
    let catalogue = call.state.store.catalogue();
    let Some((id, article)) = article_of(call, &catalogue, r.article_id)? else {
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
    let wanted = |v: &Vehicle| {
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

pub fn get_links_by_ids(
    call: &Call<'_>,
    r: GetArticleLinkedAllLinkingTargetsByIdsRequest,
) -> Result<Value, Failure> {
    let catalogue = call.state.store.catalogue();
    let Some((id, article)) = article_of(call, &catalogue, r.article_id)? else {
        return answer(&LinkDetailsList::of(Vec::new()));
    };
    let mut fits: HashMap<i64, (Link, Vehicle)> = HashMap::new();
    for (link, vehicle) in lookups::applications(&catalogue, &article)? {
        fits.insert(link_id(id, &link.ktype), (link, vehicle));
    }
    let attributes = r.immediate_attributs.unwrap_or(false);
    let mut records = Vec::new();
    for pair in r.linked_article_pairs.map(|p| p.array).unwrap_or_default() {
        // A link of another article, or one whose Ktype the pair misnames, is not this one's.
        let Some((link, vehicle)) = fits.get(&pair.article_link_id) else {
            continue;
        };
        if ktype_number(&link.ktype) != pair.linking_target_id {
            continue;
        }
        records.push(LinkDetailsRecord {
            article_link_id: pair.article_link_id,
            linked_article_immediate_attributs: LinkAttributeRecordSeq {
                array: if attributes {
                    link_attributes(link)
                } else {
                    Vec::new()
                },
            },
            linked_vehicles: LinkedVehicleRecordSeq {
                array: vec![linked_vehicle(&catalogue, vehicle)?],
            },
            linking_target_id: pair.linking_target_id,
            linking_target_type: "P".into(),
        });
    }
    answer(&LinkDetailsList::of(records))
}

/// A link's position (where given), quantity and notes (where given).
fn link_attributes(link: &Link) -> Vec<LinkAttributeRecord> {
    let attribute = |name: &str, kind: &str, value: String| LinkAttributeRecord {
        attr_name: name.into(),
        attr_short_name: name.into(),
        attr_type: kind.into(),
        attr_value: value,
    };
    let mut attributes = Vec::new();
    if !link.position.is_empty() {
        attributes.push(attribute("Position", "A", link.position.clone()));
    }
    attributes.push(attribute("Quantity", "N", link.quantity.to_string()));
    if !link.notes.is_empty() {
        attributes.push(attribute("Notes", "A", link.notes.clone()));
    }
    attributes
}

fn linked_vehicle(catalogue: &Catalogue, v: &Vehicle) -> Result<LinkedVehicleRecord, Failure> {
    Ok(LinkedVehicleRecord {
        car_id: ktype_number(&v.ktype),
        car_desc: v.type_name.clone(),
        cylinder_capacity: v.ccm.into(),
        linking_target_type: "P".into(),
        manu_desc: v.make.clone(),
        manu_id: lookups::vehicle_maker_id(catalogue, &v.make)?.map_or(0, i64::from),
        model_desc: v.model.clone(),
        power_hp_from: v.hp.into(),
        power_hp_to: v.hp.into(),
        power_kw_from: v.kw.into(),
        power_kw_to: v.kw.into(),
        year_of_construction_from: yyyymm(&v.year_from),
        year_of_construction_to: v.year_to.as_ref().map(yyyymm),
    })
}
