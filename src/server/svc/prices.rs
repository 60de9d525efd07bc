//! Prices by vehicle: `getPricesByKtype`, `price/:genart/:is_kit/:ktype` and the exhaust kit
//! `e/k/:ktype`. A kit's price is its own list price where it has one, else the sum of its
//! components' list prices times their quantities.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{ParseError, ParseFromParameter, ParseResult, Type};
use poem_openapi::{Enum, Object, OpenApi};
use serde::Serialize;
use std::borrow::Cow;

use super::ApiTag;
use super::lookups::known_vehicle;
use super::schema::{Names, Price};
use super::vehicle_articles::{Paging, Selection, batches, streams};
use crate::catalogue::{self as model, Amount, ArticleKey, Date};
use crate::server::AppState;
use crate::server::answer_cache::{Fresh, JsonBytes, LookupKind};
use crate::server::auth::Credentials;
use crate::server::json_body::MaybeStreamed;
use crate::server::problem::{ApiError, Lookup, Problem};
use crate::server::streaming::stream_json_list;
use crate::service::caller::Caller;
use crate::store::{Catalogue, StoreError};

type Answer<T> = Result<JsonBytes<T>, ApiError<Lookup>>;

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
    /// A component has no current list price (or they differ in currency): no amount.
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

/// `is_kit`: `0` or `1`, said as an integer enum in the document.
#[derive(Debug, Clone, Copy)]
pub struct IsKit(bool);

impl Type for IsKit {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        "integer(0|1)".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            enum_items: vec![0.into(), 1.into()],
            ..MetaSchema::new("integer")
        }))
    }

    fn as_raw_value(&self) -> Option<&Self> {
        Some(self)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self> + 'a> {
        Box::new(std::iter::once(self))
    }
}

impl ParseFromParameter for IsKit {
    fn parse_from_parameter(value: &str) -> ParseResult<Self> {
        match value {
            "0" => Ok(IsKit(false)),
            "1" => Ok(IsKit(true)),
            _ => Err(ParseError::custom("must be 0 or 1")),
        }
    }
}

pub struct PriceApi;

// Each operation parameter is a function argument in poem-openapi.
#[allow(clippy::too_many_arguments)]
#[OpenApi(tag = "ApiTag::Prices")]
impl PriceApi {
    /// The prices of the articles linked to a Ktype, in article order.
    ///
    /// An unknown Ktype is 404; a known one without articles answers an empty list.
    /// `genart` and `brand_id` narrow the list. With `limit` or `after` the answer is one page:
    /// give its `next` as `after` for the following page until `next` is absent. Without them
    /// the whole list is answered; a long one is streamed.
    #[oai(
        path = "/svc/getPricesByKtype/:ktype",
        method = "get",
        operation_id = "getPricesByKtype"
    )]
    async fn get_prices_by_ktype(
        &self,
        state: Data<&Arc<AppState>>,
        /// The vehicle type (Ktype).
        #[oai(
            example = "crate::server::svc::examples::ktype",
            validator(min_length = 1)
        )]
        ktype: Path<String>,
        /// The ProviderId the call is made for.
        #[oai(name = "provider", example = "crate::server::svc::examples::provider")]
        _provider: Query<String>,
        /// Only articles of this generic article.
        #[oai(validator(minimum(value = "1"), maximum(value = "4294967295")))]
        genart: Query<Option<u32>>,
        /// Only articles of this brand.
        #[oai(validator(minimum(value = "1"), maximum(value = "4294967295")))]
        brand_id: Query<Option<u32>>,
        /// At most this many articles (a page; 1000 when only `after` is given).
        #[oai(validator(minimum(value = "1"), maximum(value = "10000")))]
        limit: Query<Option<u32>>,
        /// The `next` cursor of the previous page.
        #[oai(validator(min_length = 1, pattern = "^[A-Za-z0-9_-]+$"))]
        after: Query<Option<String>>,
        _credentials: Credentials,
        caller: Data<&Caller>,
    ) -> Result<MaybeStreamed<KtypePrices>, ApiError<Lookup>> {
        let selection = Selection {
            genart: genart.0,
            brand_id: brand_id.0,
        };
        let paging = Paging::from_query(limit.0, after.0.as_deref())?;
        Ok(ktype_prices(&state, &caller, &ktype, &selection, &paging)?)
    }

    /// Prices of a generic article for a Ktype: of its single articles or of its kits.
    ///
    /// `is_kit=0`: the articles of the generic article that fit the vehicle, with their
    /// prices. `is_kit=1`: its kits, each with its own list price, else the sum of its
    /// components' prices.
    #[oai(
        path = "/svc/price/:genart/:is_kit/:ktype",
        method = "get",
        operation_id = "price"
    )]
    async fn price(
        &self,
        state: Data<&Arc<AppState>>,
        /// The generic article.
        #[oai(
            example = "crate::server::svc::examples::genart",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        genart: Path<u32>,
        /// 1: kit prices; 0: single articles.
        is_kit: Path<IsKit>,
        /// The vehicle type (Ktype).
        #[oai(
            example = "crate::server::svc::examples::ktype",
            validator(min_length = 1)
        )]
        ktype: Path<String>,
        /// The ProviderId the call is made for.
        #[oai(name = "provider", example = "crate::server::svc::examples::provider")]
        _provider: Query<String>,
        _credentials: Credentials,
        caller: Data<&Caller>,
    ) -> Answer<GenartPrices> {
        Ok(genart_prices(
            &state, &caller, genart.0, is_kit.0.0, &ktype,
        )?)
    }

    /// The exhaust kit price of a Ktype.
    ///
    /// Which generic articles count as exhaust system is configuration (`exhaust_genarts`).
    #[oai(
        path = "/svc/e/k/:ktype",
        method = "get",
        operation_id = "exhaustKitPrice"
    )]
    async fn exhaust_kit(
        &self,
        state: Data<&Arc<AppState>>,
        /// The vehicle type (Ktype).
        #[oai(
            example = "crate::server::svc::examples::ktype",
            validator(min_length = 1)
        )]
        ktype: Path<String>,
        /// The ProviderId the call is made for.
        #[oai(name = "provider", example = "crate::server::svc::examples::provider")]
        _provider: Query<String>,
        _credentials: Credentials,
        caller: Data<&Caller>,
    ) -> Answer<ExhaustKit> {
        Ok(exhaust_kit(&state, &caller, &ktype)?)
    }
}

/// The prices of the articles linked to a Ktype the caller may see, as selected and paged:
/// streamed when the whole of a long list is asked for. An unknown Ktype is 404.
fn ktype_prices(
    state: &AppState,
    caller: &Caller,
    ktype: &str,
    selection: &Selection,
    paging: &Paging,
) -> Result<MaybeStreamed<KtypePrices>, Problem> {
    let catalogue = state.store.catalogue();
    state.answers.answer_or_stream(
        catalogue.data_version(),
        LookupKind::KtypePrices,
        &selection.cache_key(ktype, paging),
        caller.brands(),
        || {
            known_vehicle(&catalogue, ktype)?;
            let keys = selection.keys(&catalogue, caller, ktype)?;
            if !streams(paging, &keys) {
                return page_prices(&catalogue, ktype, paging, &keys).map(Fresh::Whole);
            }
            let mut head = br#"{"ktype":"#.to_vec();
            serde_json::to_writer(&mut head, ktype).map_err(Problem::internal)?;
            head.extend_from_slice(br#","articles":["#);
            Ok(Fresh::Streamed(stream_json_list(
                "getPricesByKtype",
                head,
                b"]}",
                catalogue.clone(),
                batches(keys),
                |catalogue, batch, list| {
                    let prices = Pricing::new(catalogue)
                        .article_prices(&batch)
                        .map_err(|p| StoreError::Engine(p.0.detail))?;
                    prices.iter().try_for_each(|p| list.item(p))
                },
            )))
        },
    )
}

/// The same answer built whole (and cached) however long: for SOAP, which does not stream.
pub fn ktype_prices_built(
    state: &AppState,
    caller: &Caller,
    ktype: &str,
    selection: &Selection,
    paging: &Paging,
) -> Result<JsonBytes<KtypePrices>, Problem> {
    let catalogue = state.store.catalogue();
    state.answers.answer(
        catalogue.data_version(),
        LookupKind::KtypePrices,
        &selection.cache_key(ktype, paging),
        caller.brands(),
        || {
            known_vehicle(&catalogue, ktype)?;
            let keys = selection.keys(&catalogue, caller, ktype)?;
            page_prices(&catalogue, ktype, paging, &keys)
        },
    )
}

/// The prices of one page of a selection's keys.
fn page_prices(
    catalogue: &Catalogue,
    ktype: &str,
    paging: &Paging,
    keys: &[ArticleKey],
) -> Result<KtypePrices, Problem> {
    let (page, next) = paging.window(keys);
    Ok(KtypePrices {
        articles: Pricing::new(catalogue).article_prices(page)?,
        ktype: ktype.to_owned(),
        next,
    })
}

/// Single-article or kit prices of a generic article for a Ktype.
pub fn genart_prices(
    state: &AppState,
    caller: &Caller,
    genart: u32,
    is_kit: bool,
    ktype: &str,
) -> Result<JsonBytes<GenartPrices>, Problem> {
    let catalogue = state.store.catalogue();
    let kind = LookupKind::GenartPrices { genart, is_kit };
    state.answers.answer(
        catalogue.data_version(),
        kind,
        ktype,
        caller.brands(),
        || {
            known_vehicle(&catalogue, ktype)?;
            if catalogue.generic_article(genart)?.is_none() {
                return Err(Problem::not_found(format!(
                    "no generic article has the id {genart}"
                )));
            }
            let keys = caller.visible(catalogue.articles_by_genart_ktype(genart, ktype)?);
            let mut pricing = Pricing::new(&catalogue);
            let (articles, kits) = if is_kit {
                let mut kits = Vec::new();
                for kit in caller.visible(catalogue.kits_by_ktype(ktype)?) {
                    if catalogue.article(&kit)?.is_some_and(|a| a.genart == genart) {
                        kits.push(kit);
                    }
                }
                (Vec::new(), pricing.kit_prices(&kits, ktype)?)
            } else {
                let kits = catalogue.kits_by_ktype(ktype)?;
                let singles: Vec<_> = keys.into_iter().filter(|k| !kits.contains(k)).collect();
                (pricing.article_prices(&singles)?, Vec::new())
            };
            Ok(GenartPrices {
                ktype: ktype.to_owned(),
                genart,
                is_kit,
                articles,
                kits,
            })
        },
    )
}

/// The exhaust kit price of a Ktype: its exhaust kits, else the cheapest exhaust part of
/// each configured generic article.
pub fn exhaust_kit(
    state: &AppState,
    caller: &Caller,
    ktype: &str,
) -> Result<JsonBytes<ExhaustKit>, Problem> {
    let catalogue = state.store.catalogue();
    state.answers.answer(
        catalogue.data_version(),
        LookupKind::ExhaustKit,
        ktype,
        caller.brands(),
        || {
            known_vehicle(&catalogue, ktype)?;
            let exhaust = &state.settings.exhaust_genarts;
            let mut pricing = Pricing::new(&catalogue);
            let mut kits = Vec::new();
            for kit in caller.visible(catalogue.kits_by_ktype(ktype)?) {
                let components = catalogue.kit_components(&kit, ktype)?;
                let mut all_exhaust = !components.is_empty();
                for c in &components {
                    let genart = catalogue.article(&c.component)?.map(|a| a.genart);
                    all_exhaust &= genart.is_some_and(|g| exhaust.contains(&g));
                }
                if all_exhaust {
                    kits.push(pricing.kit_price(Some(&kit), &components)?);
                }
            }
            if kits.is_empty() {
                let mut parts = Vec::new();
                for &genart in exhaust {
                    let fitting =
                        caller.visible(catalogue.articles_by_genart_ktype(genart, ktype)?);
                    if let Some(cheapest) = pricing.cheapest(&fitting)? {
                        parts.push(model::KitComponent {
                            kit: cheapest.clone(),
                            ktype: ktype.to_owned(),
                            component: cheapest,
                            quantity: 1,
                        });
                    }
                }
                if !parts.is_empty() {
                    kits.push(pricing.kit_price(None, &parts)?);
                }
            }
            Ok(ExhaustKit {
                ktype: ktype.to_owned(),
                exhaust_genarts: exhaust.clone(),
                kits,
            })
        },
    )
}

/// Prices of one answer, with names looked up once.
struct Pricing<'a> {
    catalogue: &'a Catalogue,
    names: Names<'a>,
    today: Date,
}

impl<'a> Pricing<'a> {
    fn new(catalogue: &'a Catalogue) -> Self {
        Pricing {
            catalogue,
            names: Names::new(catalogue),
            today: Date::today(),
        }
    }

    fn article_ref(&mut self, a: &model::Article) -> Result<ArticleRef, Problem> {
        Ok(ArticleRef {
            brand_id: a.key.brand_id,
            brand_name: self.names.brand(a.key.brand_id)?,
            reference: a.reference.clone(),
            genart: a.genart,
            genart_name: self.names.genart(a.genart)?,
        })
    }

    fn article_prices(&mut self, keys: &[ArticleKey]) -> Result<Vec<ArticlePrices>, Problem> {
        let mut out = Vec::with_capacity(keys.len());
        for key in keys {
            let Some(article) = self.catalogue.article(key)? else {
                continue;
            };
            out.push(ArticlePrices {
                article: self.article_ref(&article)?,
                prices: self
                    .catalogue
                    .prices_of(key)?
                    .iter()
                    .map(Price::from)
                    .collect(),
            });
        }
        Ok(out)
    }

    fn current_list_price(&self, key: &ArticleKey) -> Result<Option<model::Price>, Problem> {
        Ok(model::current_list_price(
            self.catalogue.prices_of(key)?,
            self.today,
        ))
    }

    /// The article with the lowest current list price; the first where none has one.
    fn cheapest(&self, keys: &[ArticleKey]) -> Result<Option<ArticleKey>, Problem> {
        let mut best: Option<(Option<Amount>, &ArticleKey)> = None;
        for key in keys {
            let amount = self.current_list_price(key)?.map(|p| p.amount);
            let better = match &best {
                None => true,
                Some((None, _)) => amount.is_some(),
                Some((Some(b), _)) => amount.is_some_and(|a| a < *b),
            };
            if better {
                best = Some((amount, key));
            }
        }
        Ok(best.map(|(_, k)| k.clone()))
    }

    fn kit_prices(&mut self, kits: &[ArticleKey], ktype: &str) -> Result<Vec<KitPrice>, Problem> {
        let mut out = Vec::with_capacity(kits.len());
        for kit in kits {
            let components = self.catalogue.kit_components(kit, ktype)?;
            out.push(self.kit_price(Some(kit), &components)?);
        }
        Ok(out)
    }

    fn kit_price(
        &mut self,
        kit: Option<&ArticleKey>,
        components: &[model::KitComponent],
    ) -> Result<KitPrice, Problem> {
        let mut lines = Vec::with_capacity(components.len());
        let mut sum: Option<(String, Amount)> = Some((String::new(), Amount(0)));
        for c in components {
            let Some(article) = self.catalogue.article(&c.component)? else {
                continue;
            };
            let price = self.current_list_price(&c.component)?;
            sum = match (sum, &price) {
                (Some((currency, total)), Some(p))
                    if currency.is_empty() || currency == p.currency =>
                {
                    Some((p.currency.clone(), total + p.amount.times(c.quantity)))
                }
                _ => None,
            };
            lines.push(KitComponentPrice {
                article: self.article_ref(&article)?,
                quantity: c.quantity,
                unit_amount: price.as_ref().map(|p| p.amount.to_string()),
                currency: price.map(|p| p.currency),
            });
        }
        let own = match kit {
            Some(k) => self.current_list_price(k)?,
            None => None,
        };
        let kit_ref = match kit {
            Some(k) => match self.catalogue.article(k)? {
                Some(a) => Some(self.article_ref(&a)?),
                None => None,
            },
            None => None,
        };
        let (source, currency, amount) = match (own, sum) {
            (Some(p), _) => (KitPriceSource::Own, Some(p.currency), Some(p.amount)),
            (None, Some((currency, total))) if !lines.is_empty() => {
                (KitPriceSource::Components, Some(currency), Some(total))
            }
            _ => (KitPriceSource::Incomplete, None, None),
        };
        Ok(KitPrice {
            kit: kit_ref,
            source,
            currency,
            amount: amount.map(|a| a.to_string()),
            components: lines,
        })
    }
}
