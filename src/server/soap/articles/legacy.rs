//! A shop's category page and article page in the legacy operations, and its search box:
//! `getArticleIdsWithState`, `getDirectArticlesByIds6` and `getAutoCompleteSuggestions`.
//! Each maps its request to one service call (`service::vehicles::vehicle_parts`, `articles_by_ids`,
//! `autocomplete`) and the answer to Pegasus's records.

use serde_json::Value;

use super::messages::*;
use crate::catalogue::documents::document_ids;
use crate::catalogue::{CrossKind, Date, MediaKind, Price};
use crate::server::soap::articles::linked_targets::link_id;
use crate::server::soap::articles::pegasus::{file_name, status_id, yyyymmdd};
use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::codes::target_types;
use crate::server::soap::fields::IntegerList;
use crate::service::articles::article_detail::Parts;
use crate::service::articles::articles_by_ids::{self, ArticleById, ByIds};
use crate::service::asked::Asked;
use crate::service::field::Field;
use crate::service::media_links::{MediaLinks, Variant};
use crate::service::vehicles::vehicle_parts::{self, PartsOrder, PartsQuestion};
use crate::service::{ServiceError, articles::autocomplete};

pub fn get_auto_complete_suggestions(
    call: &Call<'_>,
    r: GetAutoCompleteSuggestionsRequest,
) -> Result<Value, Failure> {
    let typed = Field::new("searchQuery", r.search_query.as_deref());
    let suggestions = autocomplete::completions(call.context, typed)?;
    answer(&AutoCompleteSuggestions { suggestions })
}

pub fn get_article_ids_with_state(
    call: &Call<'_>,
    r: GetArticleIdsWithStateRequest,
) -> Result<Value, Failure> {
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    let kinds = "linkingTargetType";
    let kinds = Field::new(
        kinds,
        target_types(kinds, r.linking_target_type.as_deref())?,
    );
    let order = match r.sort.unwrap_or(1) {
        0 | 1 => PartsOrder::Brand,
        2 => PartsOrder::GenericArticle,
        other => {
            return Err(ServiceError::bad_parameter(
                "sort",
                format!("{other} is not an order (1 brand, 2 generic article)"),
            )
            .into());
        }
    };
    let ids = |list: Option<IntegerList>| -> Vec<u32> {
        list.map(|l| l.array)
            .unwrap_or_default()
            .into_iter()
            .filter_map(|i| u32::try_from(i).ok())
            .collect()
    };
    let (genarts, brands) = (ids(r.generic_article_id), ids(r.brand_no));
    let question = PartsQuestion {
        ktype: Field::new("linkingTargetId", r.linking_target_id),
        kinds,
        node: Field::new("assemblyGroupNodeId", r.assembly_group_node_id),
        genarts: &genarts,
        brands: &brands,
        order,
    };
    let ktype = r.linking_target_id.unwrap_or(0).to_string();
    let records = vehicle_parts::parts(call.context, &asked, &question)?
        .into_iter()
        .enumerate()
        .map(|(place, part)| ArticleIdWithStateRecord {
            article_id: part.id.into(),
            article_link_id: link_id(part.id.into(), &ktype),
            article_no: part.article.reference,
            article_state_id: status_id(part.article.status),
            brand_name: part.brand_name,
            brand_no: part.article.key.brand_id.into(),
            generic_article_id: part.article.genart.into(),
            generic_article_name: part.genart_name,
            sort_no: i32::try_from(place + 1).unwrap_or(i32::MAX),
        })
        .collect();
    answer(&ArticleIdsWithStateList::of(records))
}

pub fn get_direct_articles_by_ids(
    call: &Call<'_>,
    r: GetDirectArticlesByIds6Request,
) -> Result<Value, Failure> {
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    let on = |flag: Option<bool>| flag.unwrap_or(false);
    let price_day = r.price_date.map(price_date).transpose()?;
    let wanted = Wanted {
        attributes: on(r.attributs),
        basic: on(r.basic_data),
        documents: on(r.documents),
        eans: on(r.ean_numbers),
        immediate_attributes: on(r.immediate_attributs),
        immediate_info: on(r.immediate_info),
        info: on(r.info),
        kits: on(r.main_articles),
        exchange_prices: on(r.normal_austausch_price),
        oe: on(r.oe_numbers),
        prices: on(r.prices),
        replaced_by: on(r.replaced_by_numbers),
        replaced: on(r.replaced_numbers),
        thumbnails: on(r.thumbnails),
        usage: on(r.usage_numbers),
    };
    let by_ids = ByIds {
        parts: Parts {
            numbers: true,
            criteria: wanted.attributes || wanted.immediate_attributes,
            prices: true,
            media: true,
            applications: false,
            id: true,
            replaced: wanted.replaced_by || wanted.replaced,
        },
        kits: wanted.kits,
        price_day,
    };
    let ids = r.article_id.as_ref().map_or(&[][..], |l| &l.array);
    let ids = Field::new("articleId", ids);
    let found = articles_by_ids::articles_by_ids(call.context, &asked, ids, by_ids)?;
    let records = found
        .into_iter()
        .map(|a| by_id_record(a, &wanted, call.context.links()))
        .collect();
    answer(&ArticlesByIds6List::of(records))
}

/// `priceDate`: YYYYMMDD.
pub(super) fn price_date(value: i32) -> Result<Date, ServiceError> {
    let text = value.to_string();
    let dashed = match text.len() {
        8 => format!("{}-{}-{}", &text[..4], &text[4..6], &text[6..]),
        _ => text,
    };
    Date::parse(&dashed).map_err(|_| {
        ServiceError::bad_parameter("priceDate", format!("{value} is not a date (YYYYMMDD)"))
    })
}

/// Which of an article's lists the request's flags ask for.
struct Wanted {
    attributes: bool,
    basic: bool,
    documents: bool,
    eans: bool,
    immediate_attributes: bool,
    immediate_info: bool,
    info: bool,
    kits: bool,
    exchange_prices: bool,
    oe: bool,
    prices: bool,
    replaced_by: bool,
    replaced: bool,
    thumbnails: bool,
    usage: bool,
}

fn price_record(p: &Price) -> ArticlePriceRecord {
    ArticlePriceRecord {
        currency: p.currency.clone(),
        price: p.amount.cents(),
        price_type_name: p.price_type.clone(),
        valid_date_from: p.valid_from.as_ref().map(yyyymmdd),
        valid_date_to: p.valid_to.as_ref().map(yyyymmdd),
    }
}

/// A kind of media by number, as `docTypeId` and `thumbTypeId` answer it.
fn doc_type_id(kind: MediaKind) -> i64 {
    match kind {
        MediaKind::Image => 1,
        MediaKind::Document => 2,
        MediaKind::Spin360 => 3,
    }
}

fn by_id_record(a: ArticleById, w: &Wanted, links: &MediaLinks) -> ArticleByIdRecord {
    let d = &a.detail;
    let doc_ids = document_ids(d.id, &d.media);
    let numbered = || d.media.iter().zip(doc_ids.iter().copied());
    let numbers = |kind: CrossKind| d.numbers.iter().filter(move |n| n.number.kind == kind);
    let exchange = |p: &&Price| p.price_type.eq_ignore_ascii_case("exchange");
    let images = || numbered().filter(|(m, _)| m.kind != MediaKind::Document);
    let id = i64::from(d.id);
    ArticleByIdRecord {
        article_attributes: w.attributes.then(|| ArticleAttributeRecordSeq {
            array: d
                .criteria
                .iter()
                .map(|c| ArticleAttributeRecord {
                    attr_id: c.id.into(),
                    attr_is_interval: c.interval,
                    attr_name: c.name.clone(),
                    attr_type: c.kind.letter().into(),
                    attr_unit: c.unit.clone(),
                    attr_value: c.value.clone(),
                })
                .collect(),
        }),
        article_documents: w.documents.then(|| ArticleDocumentRecordSeq {
            array: numbered()
                .map(|(m, doc_id)| ArticleDocumentRecord {
                    doc_file_name: file_name(&m.uri),
                    doc_file_type_name: match m.kind {
                        MediaKind::Image => "image",
                        MediaKind::Spin360 => "image360",
                        MediaKind::Document => "document",
                    }
                    .into(),
                    doc_id: doc_id.to_string(),
                    doc_text: m.description.clone(),
                    doc_type_id: doc_type_id(m.kind),
                    doc_type_name: a.media_kind_names.get(&m.kind).cloned().unwrap_or_default(),
                    doc_url: links.address(doc_id, Variant::File),
                })
                .collect(),
        }),
        article_info: w.info.then(|| ArticleInfoRecordSeq { array: Vec::new() }),
        article_prices: w.prices.then(|| ArticlePriceRecordSeq {
            array: d
                .prices
                .iter()
                .filter(|p| !exchange(p))
                .map(price_record)
                .collect(),
        }),
        article_thumbnails: w.thumbnails.then(|| ThumbnailRecordSeq {
            array: images()
                .map(|(m, doc_id)| ThumbnailRecord {
                    thumb_doc_id: doc_id.to_string(),
                    thumb_file_name: file_name(&m.uri),
                    thumb_type_id: doc_type_id(m.kind),
                })
                .collect(),
        }),
        direct_article: w.basic.then(|| DirectArticleRecord {
            article_add_name: d.article.description.clone(),
            article_id: id,
            article_name: d.genart_name.clone(),
            article_no: d.article.reference.clone(),
            article_state: status_id(d.article.status).into(),
            article_state_name: d.status_name.clone(),
            brand_name: d.brand_name.clone(),
            brand_no: d.article.key.brand_id.into(),
            generic_article_id: d.article.genart.into(),
            has_axle_link: false,
            has_documents: !d.media.is_empty(),
            has_oen: numbers(CrossKind::Oe).next().is_some(),
            has_part_list: a.is_kit,
            has_prices: !d.prices.is_empty(),
            has_usage: numbers(CrossKind::Trade).next().is_some(),
            has_vehicle_link: a.linked,
            packing_unit: i32::try_from(d.article.packaging_unit).unwrap_or(i32::MAX),
        }),
        ean_number: w.eans.then(|| EanRecordSeq {
            array: d
                .article
                .eans
                .iter()
                .map(|e| EanRecord {
                    ean_number: e.clone(),
                })
                .collect(),
        }),
        immediate_attributs: w.immediate_attributes.then(|| ImmediateAttributeRecordSeq {
            array: d
                .criteria
                .iter()
                .map(|c| ImmediateAttributeRecord {
                    attr_id: c.id.into(),
                    attr_name: c.name.clone(),
                    attr_type: c.kind.letter().into(),
                    attr_unit: c.unit.clone(),
                    attr_value: c.value.clone(),
                })
                .collect(),
        }),
        immediate_info: w
            .immediate_info
            .then(|| ImmediateInfoRecordSeq { array: Vec::new() }),
        main_article: w.kits.then(|| MainArticleRecordSeq {
            array: a
                .kits
                .iter()
                .map(|k| MainArticleRecord {
                    article_add_name: k.article.description.clone(),
                    article_id: k.id.into(),
                    article_name: k.genart_name.clone(),
                    article_number: k.article.reference.clone(),
                })
                .collect(),
        }),
        normal_austausch_price: w.exchange_prices.then(|| ArticlePriceRecordSeq {
            array: d.prices.iter().filter(exchange).map(price_record).collect(),
        }),
        oen_numbers: w.oe.then(|| OeNumberRecordSeq {
            array: numbers(CrossKind::Oe)
                .enumerate()
                .map(|(place, n)| OeNumberRecord {
                    brand_name: n.manufacturer_name.clone().unwrap_or_default(),
                    oe_number: n.number.number.clone(),
                    sort_number: i32::try_from(place + 1).unwrap_or(i32::MAX),
                })
                .collect(),
        }),
        replaced_by_number: w.replaced_by.then(|| ReplacementRecordSeq {
            array: a
                .replaced_by
                .iter()
                .map(|(number, id)| ReplacementRecord {
                    replace_article_id: id.map_or(0, i64::from),
                    replace_number: number.clone(),
                })
                .collect(),
        }),
        replaced_number: w.replaced.then(|| ReplacementRecordSeq {
            array: a
                .replaced
                .iter()
                .map(|(number, older_id)| ReplacementRecord {
                    replace_article_id: i64::from(*older_id),
                    replace_number: number.clone(),
                })
                .collect(),
        }),
        usage_numbers2: w.usage.then(|| UsageNumberRecordSeq {
            array: numbers(CrossKind::Trade)
                .map(|n| UsageNumberRecord {
                    display_immediate: true,
                    usage_number: n.number.number.clone(),
                })
                .collect(),
        }),
    }
}
