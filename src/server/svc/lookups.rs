//! Lookups by reference and by vehicle: `getCrossRefsOrArticle` and `getArticlesByKtype`.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::{Enum, Object, OpenApi};
use serde::Serialize;

use super::{ApiTag, article_answer};
use crate::catalogue::normalise_reference;
use crate::server::AppState;
use crate::server::answer_cache::{Fresh, JsonBytes, LookupKind};
use crate::server::answers::records::{Article, ArticleSummary, CrossKind, Vehicle};
use crate::server::auth::Credentials;
use crate::server::json_body::MaybeStreamed;
use crate::server::problem::{ApiError, Lookup, Problem};
use crate::server::streaming::stream_json_list;
use crate::server::svc::reader_context::ReaderContext;
use crate::service::articles::lookups::{self, CrossLink, Direction};
use crate::service::context::Context;
use crate::service::field::Field;
use crate::service::names::NamedArticle;
use crate::service::vehicles::vehicle_articles::{
    Listed, Paging, Selection, batches, vehicle_articles,
};

type Answer<T> = Result<JsonBytes<T>, ApiError<Lookup>>;

/// The articles whose own reference is the one asked for (one per brand that has it).
#[derive(Debug, Object, Serialize)]
#[oai(rename = "ArticleAnswer", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ArticleAnswer {
    /// The reference as asked.
    pub reference: String,
    pub normalised_reference: String,
    pub articles: Vec<Article>,
}

/// Which side of a cross-reference the number asked for is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize)]
#[oai(rename = "CrossDirection", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum CrossDirection {
    /// The number asked for is the maker's article; `number` is one of its other numbers.
    FromArticle,
    /// The number asked for is an OE, competitor, trade or EAN number; the article carries it.
    ToArticle,
}

/// One link between one of the maker's articles and another number.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "CrossReference", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct CrossReference {
    pub direction: CrossDirection,
    pub brand_id: u32,
    pub brand_name: String,
    /// The maker's reference, as written.
    pub article_reference: String,
    pub genart: u32,
    pub genart_name: String,
    pub kind: CrossKind,
    /// The other number, as written.
    pub number: String,
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manufacturer_id: Option<u32>,
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manufacturer_name: Option<String>,
}

/// The cross-references of every article the number identifies, in both directions.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "CrossReferenceAnswer", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct CrossReferenceAnswer {
    pub reference: String,
    pub normalised_reference: String,
    pub cross_references: Vec<CrossReference>,
}

/// What `getCrossRefsOrArticle` answers: the article, or the cross-references.
#[derive(Debug, poem_openapi::Union, Serialize)]
#[oai(rename = "CrossRefsOrArticle")]
#[serde(untagged)]
pub enum CrossRefsOrArticle {
    // Written to this schema by `article_answer`, not through serde.
    Article(ArticleAnswer),
    CrossReferences(CrossReferenceAnswer),
}

/// A vehicle and the articles linked to it.
#[derive(Debug, Object, Serialize)]
#[oai(rename = "KtypeArticles", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct KtypeArticles {
    pub vehicle: Vehicle,
    pub articles: Vec<ArticleSummary>,
    /// The cursor of the next page (give it as `after`); absent on the last page and when the
    /// whole list was asked for.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

pub struct LookupApi;

// Each operation parameter is a function argument in poem-openapi.
#[allow(clippy::too_many_arguments)]
#[OpenApi(tag = "ApiTag::Lookups")]
impl LookupApi {
    /// An article, or the cross-references of a number.
    ///
    /// With `mainref` (any value): the articles whose own reference is `reference`.
    /// With `crossrefs` (any value): every cross-reference of the articles the number
    /// identifies, from the maker's reference to OE and competitor numbers and from an OE or
    /// competitor number to the maker's articles. Exactly one of the two must be given.
    /// References are compared normalised: `0 986 494 048`, `0986-494.048` and `0986494048`
    /// are one reference. A reference with `/` (`FN 717/5`) may be sent with the slash as is
    /// (`/svc/getCrossRefsOrArticle/FN%20717/5`) or encoded (`FN%20717%2F5`): everything
    /// after the route's name is the reference, so both forms are the same request.
    #[oai(
        path = "/svc/getCrossRefsOrArticle/:reference",
        method = "get",
        operation_id = "getCrossRefsOrArticle"
    )]
    async fn get_cross_refs_or_article(
        &self,
        state: Data<&Arc<AppState>>,
        /// The reference or number to look up.
        #[oai(
            example = "crate::server::svc::parameter_examples::reference",
            validator(min_length = 1)
        )]
        reference: Path<String>,
        /// Present, with any value: answer the article whose own reference this is. Give
        /// this or `crossrefs`, not both (in the UI: choose which to send).
        mainref: Query<Option<String>>,
        /// Present, with any value (`true`): answer the cross-references of the number.
        crossrefs: Query<Option<String>>,
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
    ) -> Answer<CrossRefsOrArticle> {
        let kind = lookup_kind(mainref.0.is_some(), crossrefs.0.is_some())?;
        cross_refs_or_article(&state, &context, &reference, kind)
    }

    /// The vehicle of a Ktype and the articles linked to it, in article order.
    ///
    /// An unknown Ktype is 404; a known one without articles answers an empty list.
    /// `genart`, `brand_id` and `assembly_group` (a category) narrow the list. With `limit` or `after` the answer is one page:
    /// give its `next` as `after` for the following page until `next` is absent. Without them
    /// the whole list is answered; a long one is streamed.
    #[oai(
        path = "/svc/getArticlesByKtype/:ktype",
        method = "get",
        operation_id = "getArticlesByKtype"
    )]
    async fn get_articles_by_ktype(
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
        /// Only articles whose generic article sits at or below this node of the vehicle's
        /// assembly-group tree (`getAssemblyGroups`); a node outside it is refused.
        #[oai(validator(minimum(value = "1"), maximum(value = "4294967295")))]
        assembly_group: Query<Option<u32>>,
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
    ) -> Result<MaybeStreamed<KtypeArticles>, ApiError<Lookup>> {
        let selection = Selection {
            genart: genart.0,
            brand_id: brand_id.0,
            assembly_group: assembly_group
                .0
                .map(|node| Field::new("assembly_group", node)),
        };
        let paging = Paging::from_query(limit.0, after.0.as_deref())?;
        let answer = state.answers.answer_or_stream(
            &context,
            LookupKind::KtypeArticles,
            &selection.cache_key(&ktype, &paging),
            || {
                let found = vehicle_articles(&context, &ktype, &selection, &paging)?;
                let vehicle = Vehicle::from(&found.vehicle);
                match found.articles {
                    Listed::Streamed { keys, describe } => {
                        let mut head = br#"{"vehicle":"#.to_vec();
                        serde_json::to_writer(&mut head, &vehicle).map_err(Problem::internal)?;
                        head.extend_from_slice(br#","articles":["#);
                        Ok(Fresh::Streamed(stream_json_list(
                            "getArticlesByKtype",
                            head,
                            b"]}",
                            (*context).clone(),
                            batches(keys),
                            move |context, batch, list| {
                                for article in describe(context, &batch)? {
                                    list.item(&ArticleSummary::from(article))?;
                                }
                                Ok(())
                            },
                        )))
                    }
                    Listed::Page { items, next } => Ok(Fresh::Whole(KtypeArticles {
                        vehicle,
                        articles: items.into_iter().map(ArticleSummary::from).collect(),
                        next,
                    })),
                }
            },
        )?;
        Ok(answer)
    }
}

/// Which lookup `getCrossRefsOrArticle` is asked for: exactly one of `mainref` and
/// `crossrefs` is given (also for the lookups answered before routing, `direct_lookups`).
pub(super) fn lookup_kind(mainref: bool, crossrefs: bool) -> Result<LookupKind, Problem> {
    match (mainref, crossrefs) {
        (true, false) => Ok(LookupKind::Article),
        (false, true) => Ok(LookupKind::CrossReferences),
        (true, true) => Err(Problem::bad_parameter(
            "mainref",
            "`mainref` and `crossrefs` exclude each other: give exactly one",
        )),
        (false, false) => Err(Problem::bad_parameter(
            "mainref",
            "give `mainref` (the article) or `crossrefs` (its cross-references)",
        )),
    }
}

/// The answer of `getCrossRefsOrArticle` for `reference`: the article (`LookupKind::Article`)
/// or the cross-references, kept in the answer cache. The route and the path before routing
/// (`direct_lookups`) both answer with it.
pub(super) fn cross_refs_or_article(
    state: &AppState,
    context: &Context,
    reference: &str,
    kind: LookupKind,
) -> Answer<CrossRefsOrArticle> {
    // Lookups take microseconds: they run on the request's task.
    let answers = &state.answers;
    let answer = match kind {
        LookupKind::Article => answers.answer_written(context, kind, reference, || {
            lookups::with_articles_viewed(context, reference, |articles| {
                article_answer::article_answer(reference, articles)
            })?
        })?,
        _ => answers.answer(context, kind, reference, || {
            let answer = cross_reference_answer(context, reference.to_owned())?;
            Ok(CrossRefsOrArticle::CrossReferences(answer))
        })?,
    };
    Ok(answer)
}

fn cross_reference_answer(
    context: &Context,
    reference: String,
) -> Result<CrossReferenceAnswer, Problem> {
    let cross_references = lookups::cross_references(context, &reference)?
        .into_iter()
        .map(cross_reference)
        .collect();
    Ok(CrossReferenceAnswer {
        normalised_reference: normalise_reference(&reference),
        reference,
        cross_references,
    })
}

fn cross_reference(link: CrossLink) -> CrossReference {
    let NamedArticle {
        article,
        brand_name,
        genart_name,
    } = link.article;
    CrossReference {
        direction: match link.direction {
            Direction::FromArticle => CrossDirection::FromArticle,
            Direction::ToArticle => CrossDirection::ToArticle,
        },
        brand_id: article.key.brand_id,
        brand_name,
        article_reference: article.reference,
        genart: article.genart,
        genart_name,
        kind: link.kind.into(),
        number: link.number,
        manufacturer_id: link.manufacturer_id,
        manufacturer_name: link.manufacturer_name,
    }
}
