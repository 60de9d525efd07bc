//! The articles: searches (`getArticles`, by number, by free text), an article's detail and
//! its parts, its vehicle types, kits, articles by id, the lookups by reference and the
//! search box's completions.

pub mod article_detail;
pub mod article_links;
pub mod article_page;
pub mod article_query;
pub mod article_search;
pub mod article_view;
pub mod articles_by_ids;
pub mod autocomplete;
pub mod criteria;
pub mod criteria_filters;
pub mod direct_search;
pub mod free_text;
pub mod kit_parts;
pub mod lookups;
pub mod oe_articles;
pub mod suggestions;
