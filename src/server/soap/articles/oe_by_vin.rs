//! `getOEArticlesByVIN` over `service::articles::oe_articles`: the request read, the OE parts
//! answered in Pegasus's `OEArticleRecord`s with the facets asked for.

use serde_json::Value;

use super::messages::*;
use super::pegasus;
use super::search::{brand_facets, descending, genart_facets, group_facet_ask, group_facets};
use crate::server::soap::call::{Call, Failure, answer};
use crate::service::articles::oe_articles::{self, OeArticle, OeAsked, OeOrder};
use crate::service::asked::Asked;
use crate::service::field::Field;

const DEFAULT_PER_PAGE: u32 = 10;

pub fn get_oe_articles_by_vin(
    call: &Call<'_>,
    r: GetOeArticlesByVinRequest,
) -> Result<Value, Failure> {
    let (order, descending) = order(&r.sort)?;
    let asked = Asked::new().country("articleCountry", r.article_country.as_deref());
    let question = OeAsked {
        vin: Field::new("vin", r.vin.as_deref().unwrap_or("")),
        brands: &r.aftermarket_data_supplier_ids,
        genarts: &r.generic_article_ids,
        node_ids: Field::new("assemblyGroupNodeIds", &r.assembly_group_node_ids),
        per_page: Field::new("perPage", r.per_page.unwrap_or(DEFAULT_PER_PAGE)),
        page: Field::new("page", r.page.unwrap_or(1)),
        order,
        descending,
        aftermarket: r.include_aftermarket_matches.unwrap_or(false),
        brand_facets: r.include_aftermarket_data_supplier_facets.unwrap_or(false),
        genart_facets: r.include_generic_article_facets.unwrap_or(false),
        group_facets: group_facet_ask(r.assembly_group_facet_options.as_ref())?,
    };
    let found = oe_articles::oe_articles_of_vin(call.context, &asked, &question, call.budget)?;
    answer(&OeArticlesByVin {
        total_matching_oe_articles: found.total as i64,
        oe_articles: found.articles.into_iter().map(record).collect(),
        aftermarket_data_supplier_facets: found.brand_facets.map(brand_facets),
        generic_article_facets: found.genart_facets.map(genart_facets),
        assembly_group_facets: found.group_facets.map(group_facets),
    })
}

/// The order `sort` asks for (its first entry decides; default the maker's name, ascending).
fn order(sort: &[Sort]) -> Result<(OeOrder, bool), Failure> {
    let Some(first) = sort.first() else {
        return Ok((OeOrder::MakerName, false));
    };
    let order = match first.field.trim() {
        "mfrName" => OeOrder::MakerName,
        "articleNumber" => OeOrder::Number,
        "genericArticleName" => OeOrder::GenartName,
        other => {
            return Err(Failure::bad(format!(
                "Field 'field' must be one of mfrName, articleNumber, genericArticleName, not '{other}'"
            )));
        }
    };
    Ok((order, descending(first)?))
}

fn record(oe: OeArticle) -> OeArticleRecord {
    let (mfr_id, mfr_name) = oe.maker.unwrap_or_default();
    OeArticleRecord {
        article_number: oe.number,
        mfr_id,
        mfr_name,
        generic_article_id: oe.genart_id,
        generic_article_description: oe.genart_name,
        replaced_by_articles: Vec::new(),
        tec_doc_criteria: Vec::new(),
        oe_attributes: Vec::new(),
        matching_aftermarket_articles: (oe.aftermarket.into_iter())
            .map(|a| pegasus::ArticleRef {
                article_number: a.reference,
                data_supplier_id: Some(a.brand_id),
                mfr_id: a.brand_id,
                mfr_name: a.brand_name,
            })
            .collect(),
    }
}
