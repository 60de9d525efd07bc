//! Prices by vehicle: `getPricesByKtype`, `price/:genart/:is_kit/:ktype` and the exhaust kit
//! `e/k/:ktype`. `crate::service::prices` computes them; `answers::prices` words them.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::{Path, Query};
use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{ParseError, ParseFromParameter, ParseResult, Type};
use std::borrow::Cow;

use super::ApiTag;
use crate::server::AppState;
use crate::server::answer_cache::JsonBytes;
use crate::server::answers::prices::{
    ExhaustKit, GenartPrices, KtypePrices, exhaust_kit, genart_prices, ktype_prices,
};
use crate::server::auth::Credentials;
use crate::server::json_body::MaybeStreamed;
use crate::server::problem::{ApiError, Lookup};
use crate::server::svc::reader_context::ReaderContext;
use crate::service::vehicles::vehicle_articles::{Paging, Selection};

type Answer<T> = Result<JsonBytes<T>, ApiError<Lookup>>;

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
            example = "crate::server::svc::parameter_examples::ktype",
            validator(min_length = 1)
        )]
        ktype: Path<String>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
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
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Result<MaybeStreamed<KtypePrices>, ApiError<Lookup>> {
        let selection = Selection {
            genart: genart.0,
            brand_id: brand_id.0,
            assembly_group: None,
        };
        let paging = Paging::from_query(limit.0, after.0.as_deref())?;
        Ok(ktype_prices(&state, &context, &ktype, &selection, &paging)?)
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
            example = "crate::server::svc::parameter_examples::genart",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        genart: Path<u32>,
        /// 1: kit prices; 0: single articles.
        is_kit: Path<IsKit>,
        /// The vehicle type (Ktype).
        #[oai(
            example = "crate::server::svc::parameter_examples::ktype",
            validator(min_length = 1)
        )]
        ktype: Path<String>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Answer<GenartPrices> {
        Ok(genart_prices(
            &state, &context, genart.0, is_kit.0.0, &ktype,
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
            example = "crate::server::svc::parameter_examples::ktype",
            validator(min_length = 1)
        )]
        ktype: Path<String>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Answer<ExhaustKit> {
        Ok(exhaust_kit(&state, &context, &ktype)?)
    }
}
