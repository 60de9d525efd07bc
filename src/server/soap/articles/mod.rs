//! Finding articles and what they fit: the search, the direct search over every number, and an article's links to vehicle types.

use serde_json::Value;

mod direct_search;
mod legacy;
mod linked_targets;
pub mod messages;
mod oe_by_vin;
mod part_list;
pub mod pegasus;
mod record;
mod search;

pub use direct_search::get_article_direct_search;
pub use legacy::{
    get_article_ids_with_state, get_auto_complete_suggestions, get_direct_articles_by_ids,
};
pub use linked_targets::{
    get_article_linked_targets, get_article_linked_targets3, get_fitment_makers,
    get_fitment_makers2, get_links_by_ids,
};
pub use oe_by_vin::get_oe_articles_by_vin;
pub use part_list::get_article_part_list;
pub use search::get_articles;

use crate::server::soap::call::{Call, Failure, answer};
use crate::server::soap::vehicles::records::linkages;
use crate::service::reference_lists;
use messages::*;

pub fn get_article_linkages(
    call: &Call<'_>,
    r: GetArticleLinkagesRequest,
) -> Result<Value, Failure> {
    let (article, links) =
        reference_lists::article_with_links(call.context, r.data_supplier_id, &r.article_number)?;
    answer(&ArticleLinkages {
        data_supplier_id: article.key.brand_id,
        article_number: article.reference,
        linkages: linkages(links),
    })
}
