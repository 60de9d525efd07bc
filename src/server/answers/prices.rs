//! The price answers, for `/svc` and SOAP alike: their bodies (named schemas of the OpenAPI
//! document, and the XSD's types) and how each is built from `crate::service::prices` and
//! kept in the answer cache. A long `getPricesByKtype` list is streamed on `/svc`; SOAP, which
//! does not stream, takes it built whole.

use poem_openapi::{Enum, Object};
use serde::Serialize;

use super::records::Price;
use crate::server::AppState;
use crate::server::answer_cache::{Fresh, JsonBytes, LookupKind};
use crate::server::json_body::MaybeStreamed;
use crate::server::problem::Problem;
use crate::server::streaming::stream_json_list;
use crate::service::context::Context;
use crate::service::names::NamedArticle;
use crate::service::prices;
use crate::service::vehicles::vehicle_articles::{Listed, Paging, Selection, batches};

/// Which article a price belongs to.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ArticleRef", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct ArticleRef {
    /// The article's brand.
    pub brand_id: u32,
    /// The brand's name.
    pub brand_name: String,
    /// The reference as the maker writes it.
    pub reference: String,
    /// What kind of part it is.
    pub genart: u32,
    /// The generic article's name.
    pub genart_name: String,
}

/// Every price of an article.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "ArticlePrices", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct ArticlePrices {
    /// The article.
    pub article: ArticleRef,
    /// Every price of the article.
    pub prices: Vec<Price>,
}

/// The prices of the articles linked to a Ktype.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "KtypePrices", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct KtypePrices {
    /// The vehicle type.
    pub ktype: String,
    /// The articles linked to it, with their prices.
    pub articles: Vec<ArticlePrices>,
    /// The cursor of the next page (give it as `after`); absent on the last page and when the
    /// whole list was asked for.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// Where a kit's price comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize)]
#[oai(rename = "KitPriceSource", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum KitPriceSource {
    /// The kit's own list price.
    Own,
    /// The sum of its components' list prices times their quantities.
    Components,
    /// A component has no current list price (or they differ in currency, or the provider
    /// may not see its brand): no amount.
    Incomplete,
}

/// One component of a kit with its current list price.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "KitComponentPrice", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct KitComponentPrice {
    /// The component article.
    pub article: ArticleRef,
    /// How many the kit holds.
    pub quantity: u32,
    /// The component's current list price, per piece.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit_amount: Option<String>,
    /// ISO 4217 code of `unitAmount`.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
}

/// The price of a kit for a Ktype.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "KitPrice", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct KitPrice {
    /// The kit article; absent for an exhaust kit composed of the parts that fit.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kit: Option<ArticleRef>,
    /// Where the price comes from.
    pub source: KitPriceSource,
    /// ISO 4217 code; absent when `source` is `incomplete`.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// A decimal number as text; absent when `source` is `incomplete`.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<String>,
    /// The kit's components with their prices.
    pub components: Vec<KitComponentPrice>,
}

/// Prices of one generic article for a Ktype: single articles (`isKit` false) or kits.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "GenartPrices", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct GenartPrices {
    /// The vehicle type.
    pub ktype: String,
    /// The generic article.
    pub genart: u32,
    /// Whether kit prices were asked for.
    pub is_kit: bool,
    /// With `is_kit=0`: the articles of the genart that fit, with their prices.
    pub articles: Vec<ArticlePrices>,
    /// With `is_kit=1`: the kits of the genart for the Ktype, with their prices.
    pub kits: Vec<KitPrice>,
}

/// The exhaust kit(s) of a Ktype.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "ExhaustKit", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ExhaustKit {
    /// The vehicle type.
    pub ktype: String,
    /// The generic articles that count as exhaust system (configuration).
    pub exhaust_genarts: Vec<u32>,
    /// Kits defined for the Ktype whose components are all exhaust parts; where none is
    /// defined, one kit composed of the cheapest fitting part of each exhaust genart.
    pub kits: Vec<KitPrice>,
}

/// The prices of the articles linked to a Ktype the caller may see, as selected and paged:
/// streamed when the whole of a long list is asked for. An unknown Ktype is 404.
pub fn ktype_prices(
    state: &AppState,
    context: &Context,
    ktype: &str,
    selection: &Selection,
    paging: &Paging,
) -> Result<MaybeStreamed<KtypePrices>, Problem> {
    state.answers.answer_or_stream(
        context,
        LookupKind::KtypePrices,
        &selection.cache_key(ktype, paging),
        || match prices::ktype_prices(context, ktype, selection, paging)? {
            Listed::Page { items, next } => Ok(Fresh::Whole(page_prices(ktype, items, next))),
            Listed::Streamed { keys, describe } => {
                let mut head = br#"{"ktype":"#.to_vec();
                serde_json::to_writer(&mut head, ktype).map_err(Problem::internal)?;
                head.extend_from_slice(br#","articles":["#);
                Ok(Fresh::Streamed(stream_json_list(
                    "getPricesByKtype",
                    head,
                    b"]}",
                    context.clone(),
                    batches(keys),
                    move |context, batch, list| {
                        describe(context, &batch)?
                            .into_iter()
                            .try_for_each(|p| list.item(&article_prices(p)))
                    },
                )))
            }
        },
    )
}

/// The same answer built whole however long: for SOAP, which does not stream.
pub fn ktype_prices_whole(
    context: &Context,
    ktype: &str,
    selection: &Selection,
    paging: &Paging,
) -> Result<KtypePrices, Problem> {
    let (items, next) = prices::ktype_prices(context, ktype, selection, paging)?.whole(context)?;
    Ok(page_prices(ktype, items, next))
}

/// One page of a Ktype's prices.
fn page_prices(
    ktype: &str,
    items: Vec<prices::ArticlePrices>,
    next: Option<String>,
) -> KtypePrices {
    KtypePrices {
        articles: items.into_iter().map(article_prices).collect(),
        ktype: ktype.to_owned(),
        next,
    }
}

/// Single-article or kit prices of a generic article for a Ktype.
pub fn genart_prices(
    state: &AppState,
    context: &Context,
    genart: u32,
    is_kit: bool,
    ktype: &str,
) -> Result<JsonBytes<GenartPrices>, Problem> {
    let kind = LookupKind::GenartPrices { genart, is_kit };
    state.answers.answer(context, kind, ktype, || {
        genart_prices_built(context, genart, is_kit, ktype)
    })
}

/// The same answer, built (the operations keep it in their own form).
pub fn genart_prices_built(
    context: &Context,
    genart: u32,
    is_kit: bool,
    ktype: &str,
) -> Result<GenartPrices, Problem> {
    let (articles, kits) = match prices::genart_prices(context, genart, is_kit, ktype)? {
        prices::GenartPrices::Articles(list) => {
            (list.into_iter().map(article_prices).collect(), vec![])
        }
        prices::GenartPrices::Kits(kits) => (vec![], kits.into_iter().map(kit_price).collect()),
    };
    Ok(GenartPrices {
        ktype: ktype.to_owned(),
        genart,
        is_kit,
        articles,
        kits,
    })
}

/// The exhaust kit price of a Ktype, with the configured exhaust generic articles.
pub fn exhaust_kit(
    state: &AppState,
    context: &Context,
    ktype: &str,
) -> Result<JsonBytes<ExhaustKit>, Problem> {
    state
        .answers
        .answer(context, LookupKind::ExhaustKit, ktype, || {
            exhaust_kit_built(context, ktype)
        })
}

/// The same answer, built (the operations keep it in their own form).
pub fn exhaust_kit_built(context: &Context, ktype: &str) -> Result<ExhaustKit, Problem> {
    let kits = prices::exhaust_kits(context, ktype)?;
    Ok(ExhaustKit {
        ktype: ktype.to_owned(),
        exhaust_genarts: context.exhaust_genarts().to_vec(),
        kits: kits.into_iter().map(kit_price).collect(),
    })
}

fn article_ref(a: NamedArticle) -> ArticleRef {
    ArticleRef {
        brand_id: a.article.key.brand_id,
        brand_name: a.brand_name,
        reference: a.article.reference,
        genart: a.article.genart,
        genart_name: a.genart_name,
    }
}

fn article_prices(p: prices::ArticlePrices) -> ArticlePrices {
    ArticlePrices {
        prices: p.prices.iter().map(Price::from).collect(),
        article: article_ref(p.article),
    }
}

fn kit_price(k: prices::KitPrice) -> KitPrice {
    let components = k
        .components
        .into_iter()
        .map(|c| KitComponentPrice {
            article: article_ref(c.article),
            quantity: c.quantity,
            unit_amount: c.unit.as_ref().map(|p| p.amount.to_string()),
            currency: c.unit.map(|p| p.currency),
        })
        .collect();
    let (currency, amount) = k.total.map_or((None, None), |(currency, amount)| {
        (Some(currency), Some(amount.to_string()))
    });
    KitPrice {
        kit: k.kit.map(article_ref),
        source: match k.source {
            prices::KitSource::Own => KitPriceSource::Own,
            prices::KitSource::Components => KitPriceSource::Components,
            prices::KitSource::Incomplete => KitPriceSource::Incomplete,
        },
        currency,
        amount,
        components,
    }
}
