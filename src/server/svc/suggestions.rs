//! `suggestNumbers`: what to suggest while a number is typed (the catalogue browser's search
//! box, and any integrator's). The rules are `service::articles::suggestions`'.

use poem_openapi::param::{Path, Query};
use poem_openapi::{Enum, Object, OpenApi};
use serde::Serialize;

use super::ApiTag;
use crate::catalogue::normalise_reference;
use crate::server::auth::Credentials;
use crate::server::json_body::JsonBody;
use crate::server::problem::{ApiError, Lookup};
use crate::server::svc::reader_context::ReaderContext;
use crate::service::articles::article_search::NumberKind;
use crate::service::articles::suggestions::{Suggestion, suggestions};

/// The kind of number that matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize)]
#[oai(rename = "SuggestedNumberKind", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum SuggestedKind {
    /// The maker's own reference.
    Reference,
    Oe,
    Trade,
    /// A competitor's or an internal number.
    Comparable,
    Ean,
}

/// An article a typed number leads to.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "NumberSuggestion", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct NumberSuggestion {
    /// The number is the one typed (compared normalised); otherwise it starts with it.
    pub exact: bool,
    pub kind: SuggestedKind,
    /// The number that matched, as written in the catalogue.
    pub number: String,
    /// The article's numeric id (`legacyArticleId` of the SOAP and JSON operations).
    pub article_id: u32,
    pub brand_id: u32,
    pub brand_name: String,
    /// The article's reference, as written.
    pub reference: String,
    pub genart: u32,
    pub genart_name: String,
}

/// Suggestions for a typed number: exact matches first, then numbers that start with it.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "NumberSuggestions", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct NumberSuggestions {
    /// The number as typed.
    pub number: String,
    pub normalised_number: String,
    pub suggestions: Vec<NumberSuggestion>,
}

pub struct SuggestionApi;

#[OpenApi(tag = "ApiTag::Lookups")]
impl SuggestionApi {
    /// Suggestions while a number is typed.
    ///
    /// The articles whose reference, OE, competitor, trade or EAN number is `number` (written
    /// any way: compared normalised), then those whose number starts with it, each in the
    /// catalogue's order, among the brands the caller sees. Reads at most a screenful of each
    /// number index, however many numbers share the start: answers in milliseconds on any
    /// catalogue.
    #[oai(
        path = "/svc/suggestNumbers/:number",
        method = "get",
        operation_id = "suggestNumbers"
    )]
    async fn suggest_numbers(
        &self,
        /// The number typed so far.
        #[oai(
            example = "crate::server::svc::parameter_examples::typed_number",
            validator(min_length = 1, max_length = 100)
        )]
        number: Path<String>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        /// At most this many suggestions (default 20).
        #[oai(validator(minimum(value = "1"), maximum(value = "50")))]
        limit: Query<Option<u32>>,
        _credentials: Credentials,
        /// The answer's language, in any case: one the catalogue holds (`getLanguages`), else its
        /// first (named by `Content-Language`); without it, `Accept-Language`'s, else its first.
        #[oai(name = "lang")]
        context: ReaderContext,
    ) -> Result<JsonBody<NumberSuggestions>, ApiError<Lookup>> {
        let limit = limit.0.unwrap_or(20) as usize;
        let found = suggestions(&context, &number, limit)?;
        Ok(JsonBody(NumberSuggestions {
            normalised_number: normalise_reference(&number),
            number: number.0,
            suggestions: found.into_iter().map(suggestion).collect(),
        }))
    }
}

fn suggestion(s: Suggestion) -> NumberSuggestion {
    NumberSuggestion {
        exact: s.exact,
        kind: match s.kind {
            NumberKind::Oe => SuggestedKind::Oe,
            NumberKind::Trade => SuggestedKind::Trade,
            NumberKind::Comparable => SuggestedKind::Comparable,
            NumberKind::Ean => SuggestedKind::Ean,
            _ => SuggestedKind::Reference,
        },
        number: s.number,
        article_id: s.article_id,
        brand_id: s.article.key.brand_id,
        brand_name: s.brand_name,
        reference: s.article.reference,
        genart: s.article.genart,
        genart_name: s.genart_name,
    }
}
