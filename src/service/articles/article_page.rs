//! One page of an article search, as `getArticles` pages: the matches put in the asked order,
//! then a page of them by number, up to a window into the result, or the page after a
//! cursor's article, at any depth (the catalogue's order only).

use crate::catalogue::{Article, ArticleKey};
use crate::service::error::ServiceError;
use crate::service::field::Field;
use crate::service::names::Names;
use crate::store::Catalogue;

/// Articles on one page at most.
pub const MAX_PER_PAGE: u32 = 1000;
/// The page number times the page's size may reach this far into a result; the cursor goes
/// further.
const PAGE_WINDOW: u32 = 10_000;

/// The order of a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Brand id, then normalised number: the catalogue's order, which the cursor follows.
    Score,
    BrandName {
        descending: bool,
    },
    Number {
        descending: bool,
    },
}

/// Which page to answer, each part named by the request's field.
pub struct Paging {
    pub per_page: Field<u32>,
    /// From 1; not read after a cursor.
    pub page: Field<u32>,
    /// The last article of the previous page, from a cursor.
    pub after: Field<Option<Cursor>>,
    pub order: Field<Order>,
}

/// Where a page ended: its last article, and whether that was among the matches that come
/// later (free text's matches through another language only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    pub later: bool,
    pub key: ArticleKey,
}

impl Paging {
    /// The paging asked for, refused where it cannot be followed.
    pub fn checked(self) -> Result<Paging, ServiceError> {
        if self.per_page.value > MAX_PER_PAGE {
            return Err(ServiceError::bad_parameter(
                self.per_page.name,
                format!("must be >= 0 and <= {MAX_PER_PAGE}"),
            ));
        }
        if self.page.value == 0 {
            return Err(ServiceError::bad_parameter(self.page.name, "must be >= 1"));
        }
        if self.after.value.is_some() && self.order.value != Order::Score {
            return Err(ServiceError::bad_parameter(
                self.after.name,
                format!(
                    "pages in the default order (score); leave '{}' out, or page with '{}'",
                    self.order.name, self.page.name
                ),
            ));
        }
        Ok(self)
    }
}

/// A page of a result.
pub struct Page {
    /// Articles in the whole result.
    pub total: u32,
    /// The last page `page` may name (0 when `per_page` is 0).
    pub max_allowed_page: u32,
    /// The page's articles.
    pub shown: Vec<Article>,
    /// Where a cursor to the next page starts after; none on the last page.
    pub next_after: Option<Cursor>,
}

/// The page `paging` asks for of `matches`: the first `asked_first` of them, then the rest,
/// each part in the catalogue's order.
pub fn page(
    catalogue: &Catalogue,
    names: &Names<'_>,
    matches: Vec<ArticleKey>,
    asked_first: usize,
    paging: &Paging,
) -> Result<Page, ServiceError> {
    let matches = sorted(matches, paging.order.value, names)?;
    let total = matches.len() as u32;
    let (per_page, page) = (paging.per_page.value, paging.page.value);
    let max_allowed_page = if per_page == 0 {
        0
    } else {
        total.div_ceil(per_page).min(PAGE_WINDOW / per_page).max(1)
    };
    let start = match &paging.after.value {
        // Each part is in the catalogue's order: a cursor whose article has gone since
        // still starts at the next one.
        Some(Cursor { later: false, key }) => matches[..asked_first].partition_point(|k| k <= key),
        Some(Cursor { later: true, key }) => {
            asked_first + matches[asked_first..].partition_point(|k| k <= key)
        }
        None => {
            if per_page > 0 && page > max_allowed_page {
                return Err(ServiceError::bad_parameter(
                    paging.page.name,
                    format!(
                        "must be <= {max_allowed_page}, the last page a number reaches; page further with '{}'",
                        paging.after.name
                    ),
                ));
            }
            ((page - 1) * per_page) as usize
        }
    };
    let end = (start + per_page as usize).min(matches.len());
    let keys = matches.get(start..end).unwrap_or_default();
    let next_after = match keys.last() {
        Some(last) if end < matches.len() => Some(Cursor {
            later: end > asked_first,
            key: last.clone(),
        }),
        _ => None,
    };
    let mut shown = Vec::with_capacity(keys.len());
    for key in keys {
        shown.extend(catalogue.article(key)?);
    }
    Ok(Page {
        total,
        max_allowed_page,
        shown,
        next_after,
    })
}

/// The matches in `order` (they come in the catalogue's).
fn sorted(
    mut matches: Vec<ArticleKey>,
    order: Order,
    names: &Names<'_>,
) -> Result<Vec<ArticleKey>, ServiceError> {
    match order {
        Order::Score => {}
        Order::Number { descending } => {
            matches.sort_by(|a, b| {
                a.reference
                    .cmp(&b.reference)
                    .then(a.brand_id.cmp(&b.brand_id))
            });
            if descending {
                matches.reverse();
            }
        }
        Order::BrandName { descending } => {
            let mut named = Vec::with_capacity(matches.len());
            for key in matches {
                named.push((names.brand_name(key.brand_id)?.to_lowercase(), key));
            }
            // Stable: within a brand, the catalogue's order.
            named.sort_by(|a, b| a.0.cmp(&b.0));
            if descending {
                named.reverse();
            }
            matches = named.into_iter().map(|(_, key)| key).collect();
        }
    }
    Ok(matches)
}
