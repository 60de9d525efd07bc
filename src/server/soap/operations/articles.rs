//! Finding articles and what they fit: the search, the direct search over every number, and an article's links to vehicle types.

use serde_json::Value;

use super::{Operation, operation};
use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::messages::*;
use crate::server::soap::vehicles::linkages;
use crate::service::reference_lists;

pub(super) fn operations() -> Vec<Operation> {
    vec![
        operation::<GetArticlesRequest, ArticleSearch>(
            "getArticles",
            "Articles by any of their numbers (searchType, searchMatchType on normalised numbers), narrowed by brand, generic article and vehicle, with include flags, facets, sorting, page paging and a cursor; requests and answers in the shapes of Pegasus 3.0's articlesRequest and articlesResponse.",
            crate::server::soap::article_search::get_articles,
        ).cached(),
        operation::<GetArticleDirectSearchRequest, ArticleDirectSearchList>(
            "getArticleDirectSearchAllNumbersWithState",
            "Articles by any of their numbers (articleNumber, numberType as getArticles' searchType, searchExact or numbers that start or end with it), one record per number that matched, with the article's id, number, brand, generic article and state: Pegasus's getArticleDirectSearchAllNumbersWithState.",
            crate::server::soap::direct_search::get_article_direct_search,
        ).cached(),
        operation::<GetArticleLinkagesRequest, ArticleLinkages>(
            "getArticleLinkages",
            "Every vehicle an article fits, with position, quantity and notes, in one call.",
            get_article_linkages,
        ).cached(),
        operation::<GetArticleLinkedAllLinkingTargetRequest, ArticleLinkedTargetsList>(
            "getArticleLinkedAllLinkingTarget4",
            "The vehicle types an article fits, by its numeric id (legacyArticleId of getArticles), optionally of one maker or one Ktype, and with withMainArticles those of the kits holding it: Pegasus's getArticleLinkedAllLinkingTarget4.",
            crate::server::soap::linked_targets::get_article_linked_targets,
        ).cached(),
        operation::<GetArticleLinkedAllLinkingTargetsByIdsRequest, LinkDetailsList>(
            "getArticleLinkedAllLinkingTargetsByIds3",
            "How an article (articleId) fits the vehicle types of the links asked (linkedArticlePairs, as getArticleLinkedAllLinkingTarget4 answered them): each vehicle type's details and, with immediateAttributs, the position, quantity and notes: Pegasus's getArticleLinkedAllLinkingTargetsByIds3.",
            crate::server::soap::linked_targets::get_links_by_ids,
        ).cached(),
    ]
}

fn get_article_linkages(call: &Call<'_>, r: GetArticleLinkagesRequest) -> Result<Value, Failure> {
    let (article, links) =
        reference_lists::article_with_links(call.context, r.data_supplier_id, &r.article_number)?;
    answer(&ArticleLinkages {
        data_supplier_id: article.key.brand_id,
        article_number: article.reference,
        linkages: linkages(links),
    })
}
