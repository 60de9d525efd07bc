//! The vehicle types an article fits, by the article's numeric id, as Pegasus's clients ask
//! for them: `getArticleLinkedAllLinkingTarget4` lists the links (with the kits holding the
//! article, Pegasus's "main articles"), `getArticleLinkedAllLinkingTargetsByIds3` answers how
//! the article fits the vehicle types of the links asked, and
//! `getArticleLinkedAllLinkingTargetManufacturer2` (and `…Manufacturer`) the makers of those
//! vehicle types, a fitment list's first step.

use std::collections::HashMap;

use serde_json::Value;

use super::messages::*;
use crate::catalogue::{Link, Vehicle};
use crate::server::soap::call::answer;
use crate::server::soap::call::{Call, Failure};
use crate::server::soap::codes::target_types;
use crate::server::soap::vehicles::records::yyyymm;
use crate::service::articles::article_links::{self, LinkAttribute, LinkDetail, Wanted};
use crate::service::asked::{Asked, Unheld};
use crate::service::field::Field;

pub fn get_article_linked_targets(
    call: &Call<'_>,
    r: GetArticleLinkedAllLinkingTargetRequest,
) -> Result<Value, Failure> {
    let asked = Asked::new()
        .country("articleCountry", r.article_country.as_deref())
        .place("country", r.country.as_deref())
        .country_groups(r.country_group_flag);
    let wanted = wanted(
        r.linking_target_type.as_deref(),
        r.linking_target_id,
        r.linking_target_manu_id,
        r.with_main_articles,
    )?;
    let records = links_and_kits(call, asked, r.article_id, &wanted)?.map(|(links, main)| {
        let linked = links
            .into_iter()
            .map(
                |(article_link_id, linking_target_id, linking_target_type)| LinkedTargetRecord {
                    article_link_id,
                    linked: true,
                    linking_target_id,
                    linking_target_type,
                },
            )
            .collect();
        ArticleLinkedTargetsRecord {
            article_linkages: LinkedTargetRecordSeq { array: linked },
            main_article_linkages: MainArticleLinkRecordSeq { array: main },
        }
    });
    answer(&ArticleLinkedTargetsList::of(records.into_iter().collect()))
}

pub fn get_article_linked_targets3(
    call: &Call<'_>,
    r: GetArticleLinkedAllLinkingTarget3Request,
) -> Result<Value, Failure> {
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    let wanted = wanted(
        r.linking_target_type.as_deref(),
        r.linking_target_id,
        r.linking_target_manu_id,
        r.with_main_articles,
    )?;
    let records = links_and_kits(call, asked, r.article_id, &wanted)?.map(|(links, main)| {
        let linked = links
            .into_iter()
            .map(
                |(article_link_id, linking_target_id, linking_target_type)| LinkedTarget3Record {
                    article_link_id,
                    linking_target_id,
                    linking_target_type,
                },
            )
            .collect();
        ArticleLinkedTargets3Record {
            article_linkages: LinkedTarget3RecordSeq { array: linked },
            main_article_linkages: MainArticleLinkRecordSeq { array: main },
        }
    });
    answer(&ArticleLinkedTargets3List::of(
        records.into_iter().collect(),
    ))
}

/// Which of an article's vehicle types a request wants.
fn wanted(
    kind: Option<&str>,
    ktype: Option<i64>,
    maker_id: Option<i64>,
    kits: Option<bool>,
) -> Result<Wanted, Failure> {
    Ok(Wanted {
        kinds: target_types("linkingTargetType", kind)?,
        ktype: ktype.filter(|&k| k > 0).map(|k| k.to_string()),
        maker_id,
        kits: kits.unwrap_or(false),
    })
}

/// A link as both forms answer it: its id, the Ktype as a number, the vehicle type's kind.
type LinkedTarget = (i64, i64, String);

/// An article's links, and the links of the kits holding it.
type LinksAndKits = (Vec<LinkedTarget>, Vec<MainArticleLinkRecord>);

/// The article's links and the kits' (with `withMainArticles`); none where the caller sees
/// no such article.
fn links_and_kits(
    call: &Call<'_>,
    asked: Asked<'_>,
    article_id: Option<i64>,
    wanted: &Wanted,
) -> Result<Option<LinksAndKits>, Failure> {
    let id = Field::new("articleId", article_id);
    let Some(found) = article_links::links_of(call.context, &asked, id, wanted)? else {
        return Ok(None);
    };
    let id = i64::from(found.id);
    let linked = found
        .links
        .iter()
        .map(|(link, vehicle)| {
            (
                link_id(id, &link.ktype),
                ktype_number(&link.ktype),
                vehicle.target_type.code().to_string(),
            )
        })
        .collect();
    let main = found
        .kits
        .iter()
        .map(|(kit_id, ktype)| MainArticleLinkRecord {
            article_link_id: link_id(i64::from(*kit_id), ktype),
            linking_target_id: ktype_number(ktype),
            main_article_id: i64::from(*kit_id),
        })
        .collect();
    Ok(Some((linked, main)))
}

/// The vehicle makers of the vehicle types the article fits, as `(id, name)`.
fn fitment_makers(
    call: &Call<'_>,
    asked: Asked<'_>,
    article_id: Option<i64>,
    kind: Option<&str>,
) -> Result<Vec<(u32, String)>, Failure> {
    let kinds = target_types("linkingTargetType", kind)?;
    let id = Field::new("articleId", article_id);
    Ok(article_links::makers_of_links(call.context, &asked, id, kinds)?.unwrap_or_default())
}

pub fn get_fitment_makers2(call: &Call<'_>, r: GetFitmentMakers2Request) -> Result<Value, Failure> {
    let asked = Asked::new()
        .country("articleCountry", r.article_country.as_deref())
        .place("country", r.country.as_deref())
        .country_groups(r.country_group_flag);
    let makers = fitment_makers(call, asked, r.article_id, r.linking_target_type.as_deref())?;
    answer(&FitmentMakers2List::of(
        makers
            .into_iter()
            .map(|(manu_id, manu_name)| FitmentMaker2Record { manu_id, manu_name })
            .collect(),
    ))
}

pub fn get_fitment_makers(call: &Call<'_>, r: GetFitmentMakersRequest) -> Result<Value, Failure> {
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    let makers = fitment_makers(call, asked, r.article_id, r.linking_target_type.as_deref())?;
    answer(&FitmentMakersList::of(
        makers
            .into_iter()
            .map(|(manu_id, manu_name)| FitmentMakerRecord { manu_id, manu_name })
            .collect(),
    ))
}

/// A Ktype as Pegasus's numeric `linkingTargetId` (0 where it is not a number).
pub fn ktype_number(ktype: &str) -> i64 {
    ktype.trim().parse().unwrap_or(0)
}

/// An article's link to a vehicle type as one number: the article's id in the high 32 bits,
/// the Ktype in the low ones.
pub fn link_id(article_id: i64, ktype: &str) -> i64 {
    (article_id << 32) | (ktype_number(ktype) & 0xFFFF_FFFF)
}

pub fn get_links_by_ids(
    call: &Call<'_>,
    r: GetArticleLinkedAllLinkingTargetsByIdsRequest,
) -> Result<Value, Failure> {
    let asked = Asked::new()
        .country("articleCountry", r.article_country.as_deref())
        .zero(
            "numberplateType",
            r.numberplate_type,
            Unheld::RegistrationData,
        );
    let kinds = target_types("linkingTargetType", r.linking_target_type.as_deref())?;
    let pairs = r.linked_article_pairs.map(|p| p.array).unwrap_or_default();
    // A link of another article, or one whose Ktype the pair misnames, is not this one's.
    let pair_asked = |id: u32, link: &Link| {
        pairs.iter().any(|pair| {
            pair.article_link_id == link_id(i64::from(id), &link.ktype)
                && pair.linking_target_id == ktype_number(&link.ktype)
        })
    };
    let article = Field::new("articleId", r.article_id);
    let details = article_links::link_details(call.context, &asked, article, kinds, pair_asked);
    let Some(details) = details? else {
        return answer(&LinkDetailsList::of(Vec::new()));
    };
    let id = r.article_id.unwrap_or(0);
    let fits: HashMap<i64, LinkDetail> = details
        .into_iter()
        .map(|detail| (link_id(id, &detail.link.ktype), detail))
        .collect();
    let attributes = r.immediate_attributs.unwrap_or(false);
    let mut records = Vec::new();
    for pair in &pairs {
        let Some(detail) = fits.get(&pair.article_link_id) else {
            continue;
        };
        if ktype_number(&detail.link.ktype) != pair.linking_target_id {
            continue;
        }
        records.push(LinkDetailsRecord {
            article_link_id: pair.article_link_id,
            linked_article_immediate_attributs: LinkAttributeRecordSeq {
                array: if attributes {
                    detail.attributes.iter().map(link_attribute).collect()
                } else {
                    Vec::new()
                },
            },
            linked_vehicles: LinkedVehicleRecordSeq {
                array: vec![linked_vehicle(&detail.vehicle, detail.maker_id)],
            },
            linking_target_id: pair.linking_target_id,
            linking_target_type: detail.vehicle.target_type.code().to_string(),
        });
    }
    answer(&LinkDetailsList::of(records))
}

/// A link's attribute, as Pegasus records it: `N` a number, `A` a text.
fn link_attribute(a: &LinkAttribute) -> LinkAttributeRecord {
    LinkAttributeRecord {
        attr_name: a.name.clone(),
        attr_short_name: a.name.clone(),
        attr_type: if a.numeric { "N" } else { "A" }.into(),
        attr_value: a.value.clone(),
    }
}

fn linked_vehicle(v: &Vehicle, maker_id: Option<u32>) -> LinkedVehicleRecord {
    LinkedVehicleRecord {
        car_id: ktype_number(&v.ktype),
        car_desc: v.type_name.clone(),
        cylinder_capacity: v.ccm.into(),
        linking_target_type: v.target_type.code().to_string(),
        manu_desc: v.make.clone(),
        manu_id: maker_id.map_or(0, i64::from),
        model_desc: v.model.clone(),
        power_hp_from: v.hp.into(),
        power_hp_to: v.hp.into(),
        power_kw_from: v.kw.into(),
        power_kw_to: v.kw.into(),
        year_of_construction_from: yyyymm(&v.year_from),
        year_of_construction_to: v.year_to.as_ref().map(yyyymm),
    }
}
