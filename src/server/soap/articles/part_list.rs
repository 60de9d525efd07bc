//! `getArticlePartList`: a kit's components, each with its numbers, criteria and flags.

use serde_json::Value;

use super::legacy::price_date;
use super::messages::*;
use super::pegasus::status_id;
use crate::catalogue::CrossKind;
use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::codes::target_types;
use crate::service::ServiceError;
use crate::service::articles::kit_parts::{self, ListedPart};
use crate::service::asked::Asked;
use crate::service::field::Field;

pub fn get_article_part_list(
    call: &Call<'_>,
    r: GetArticlePartListRequest,
) -> Result<Value, Failure> {
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    let kinds = target_types("linkingTargetType", r.linking_target_type.as_deref())?;
    let ktype = asked_ktype(&r)?.map(|k| k.to_string());
    let price_day = r.price_date.map(price_date).transpose()?;
    let parts = kit_parts::part_list(
        call.context,
        &asked,
        Field::new("articleId", r.article_id),
        ktype.as_deref(),
        Field::new("linkingTargetType", kinds),
        price_day,
    )?;
    let lists = parts
        .filter(|parts| !parts.is_empty())
        .map(|parts| PartListRecord {
            partlist_info: PartListItemRecordSeq {
                array: parts.into_iter().map(item).collect(),
            },
        });
    answer(&ArticlePartListList::of(lists.into_iter().collect()))
}

/// The Ktype the request narrows the list to: `linkingTargetId`, or the one of the link
/// `articleLinkId` (the kit's id × 2³² + the Ktype); both must agree where both are given.
fn asked_ktype(r: &GetArticlePartListRequest) -> Result<Option<i64>, ServiceError> {
    let Some(link) = r.article_link_id else {
        return Ok(r.linking_target_id);
    };
    let (article, ktype) = (link >> 32, link & 0xFFFF_FFFF);
    if link <= 0 {
        return Err(ServiceError::bad_parameter(
            "articleLinkId",
            format!("must be a link id (the kit's id × 2³² + a Ktype), not {link}"),
        ));
    }
    if let Some(id) = r.article_id.filter(|&id| id != article) {
        return Err(ServiceError::bad_parameter(
            "articleLinkId",
            format!("{link} is a link of article {article}, not of articleId {id}"),
        ));
    }
    match r.linking_target_id {
        Some(asked) if asked != ktype => Err(ServiceError::bad_parameter(
            "linkingTargetId",
            format!("{asked} is not the vehicle type of articleLinkId {link}, {ktype}"),
        )),
        _ => Ok(Some(ktype)),
    }
}

fn item(part: ListedPart) -> PartListItemRecord {
    let a = part.component;
    let d = &a.detail;
    let has = |kind: CrossKind| d.numbers.iter().any(|n| n.number.kind == kind);
    PartListItemRecord {
        partlist_attributs: PartListAttributeRecordSeq {
            array: d
                .criteria
                .iter()
                .map(|c| PartListAttributeRecord {
                    attr_id: c.id.into(),
                    attr_is_conditional: false,
                    attr_is_interval: c.interval,
                    attr_name: c.name.clone(),
                    attr_type: c.kind.letter().into(),
                    attr_unit: c.unit.clone(),
                    attr_value: c.value.clone(),
                    is_partlist_attr: false,
                })
                .collect(),
        },
        partlist_details: PartListDetailRecord {
            article_add_name: d.article.description.clone(),
            article_name: d.genart_name.clone(),
            article_no: d.article.reference.clone(),
            article_state: status_id(d.article.status).into(),
            article_state_name: d.status_name.clone(),
            brand_name: d.brand_name.clone(),
            brand_no: d.article.key.brand_id.into(),
            generic_article_id: d.article.genart.into(),
            generic_article_name: d.genart_name.clone(),
            has_axle_link: false,
            has_documents: !d.media.is_empty(),
            has_mark_link: false,
            has_motor_link: false,
            has_oen: has(CrossKind::Oe),
            has_part_list: a.is_kit,
            has_prices: !d.prices.is_empty(),
            has_security_info: false,
            has_vehicle_link: a.linked,
            packing_unit: i32::try_from(d.article.packaging_unit).unwrap_or(i32::MAX),
            part_article_id: d.id.into(),
            quantity: i32::try_from(part.quantity).unwrap_or(i32::MAX),
        },
    }
}
