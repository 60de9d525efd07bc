//! The articles of a vehicle as the Ktype routes select and page them: optional `genart` and
//! `brand_id` filters, and a cursor, the last article of a page, that a client follows to the
//! end. Keys are in article order in the indexes, so a page is a slice after the cursor and
//! stays well defined while imports commit between pages. Without paging the whole list is
//! answered; a long one is streamed, so the server's memory does not grow with the answer.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::vehicle_path::articles_under;
use crate::catalogue::{ArticleKey, Vehicle};
use crate::service::ServiceError;
use crate::service::articles::lookups;
use crate::service::caller::Caller;
use crate::service::context::Context;
use crate::service::field::Field;
use crate::service::names::NamedArticle;
use crate::store::Catalogue;

/// A page's length when the client follows a cursor without giving one.
pub const DEFAULT_PAGE: usize = 1000;
/// An unpaged answer with more articles than this is streamed rather than built whole.
const WHOLE_ANSWER_ARTICLES: usize = 1000;
/// Articles written per step of a streamed answer.
const STREAM_BATCH: usize = 64;

/// What a listed answer says of each article of a batch of its keys.
pub type Describe<T> = fn(&Context, &[ArticleKey]) -> Result<Vec<T>, ServiceError>;

/// A vehicle's articles as a Ktype route lists them: a page (or the whole of a short list)
/// described, or the whole of a long list left to stream, each batch described as it is
/// written.
pub enum Listed<T> {
    Page {
        items: Vec<T>,
        /// The cursor of the next page; none after the last.
        next: Option<String>,
    },
    Streamed {
        keys: Vec<ArticleKey>,
        describe: Describe<T>,
    },
}

impl<T> Listed<T> {
    /// `keys` as `paging` asks for them.
    pub(in crate::service) fn of(
        context: &Context,
        keys: Vec<ArticleKey>,
        paging: &Paging,
        describe: Describe<T>,
    ) -> Result<Listed<T>, ServiceError> {
        if *paging == Paging::All && keys.len() > WHOLE_ANSWER_ARTICLES {
            return Ok(Listed::Streamed { keys, describe });
        }
        let (page, next) = paging.window(&keys);
        let items = describe(context, page)?;
        Ok(Listed::Page { items, next })
    }

    /// Every item at once, for a protocol that does not stream, and the next page's cursor.
    pub fn whole(self, context: &Context) -> Result<(Vec<T>, Option<String>), ServiceError> {
        match self {
            Listed::Page { items, next } => Ok((items, next)),
            Listed::Streamed { keys, describe } => Ok((describe(context, &keys)?, None)),
        }
    }
}

/// The keys in batches of `STREAM_BATCH`, for a streamed answer.
pub fn batches(keys: Vec<ArticleKey>) -> impl Iterator<Item = Vec<ArticleKey>> + Send {
    let mut keys = keys.into_iter();
    std::iter::from_fn(move || {
        let batch: Vec<ArticleKey> = keys.by_ref().take(STREAM_BATCH).collect();
        (!batch.is_empty()).then_some(batch)
    })
}

/// A vehicle type, its words in the reader's language, with its articles.
pub struct VehicleArticles {
    pub vehicle: Vehicle,
    pub articles: Listed<NamedArticle>,
}

/// The articles of the vehicle type `ktype` the caller may see, as `selection` and `paging`
/// ask for them; an unknown Ktype is not found.
pub fn vehicle_articles(
    context: &Context,
    ktype: &str,
    selection: &Selection,
    paging: &Paging,
) -> Result<VehicleArticles, ServiceError> {
    let vehicle = lookups::vehicle_for(context, ktype)?;
    let keys = selection.keys(context.snapshot(), context.caller(), ktype)?;
    let articles = Listed::of(context, keys, paging, lookups::described_articles)?;
    Ok(VehicleArticles { vehicle, articles })
}

/// The filters of a Ktype route.
#[derive(Default)]
pub struct Selection {
    pub genart: Option<u32>,
    pub brand_id: Option<u32>,
    /// Only articles whose generic article sits at or below this node of the vehicle's
    /// assembly-group tree.
    pub assembly_group: Option<Field<u32>>,
}

impl Selection {
    /// The articles of the vehicle the caller may see and the filters keep, in article order.
    pub(in crate::service) fn keys(
        &self,
        catalogue: &Catalogue,
        caller: &Caller,
        ktype: &str,
    ) -> Result<Vec<ArticleKey>, ServiceError> {
        let keys = match (self.assembly_group, self.genart) {
            (Some(node), _) => match catalogue.vehicle(ktype)? {
                Some(v) => articles_under(catalogue, caller, &v, &[node.value], node.name)?,
                None => Vec::new(),
            },
            (None, Some(genart)) => catalogue.articles_by_genart_ktype(genart, ktype)?,
            (None, None) => catalogue.articles_by_ktype(ktype)?,
        };
        let mut keys = caller.visible(keys);
        if let (Some(_), Some(genart)) = (self.assembly_group, self.genart) {
            keys = catalogue
                .articles_by_genart_ktype(genart, ktype)?
                .into_iter()
                .filter(|k| keys.binary_search(k).is_ok())
                .collect();
        }
        if let Some(brand) = self.brand_id {
            keys.retain(|k| k.brand_id == brand);
        }
        Ok(keys)
    }

    /// What distinguishes one selection's answers from another's in the answer cache.
    pub fn cache_key(&self, ktype: &str, paging: &Paging) -> String {
        let assembly_group = self.assembly_group.map(|node| node.value);
        format!(
            "{ktype}\u{1f}{:?}\u{1f}{:?}\u{1f}{:?}\u{1f}{paging:?}",
            self.genart, self.brand_id, assembly_group
        )
    }
}

/// Whether the client pages, and from where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Paging {
    /// The whole list.
    All,
    /// At most `limit` articles after `after` (from the start without one).
    Page {
        after: Option<ArticleKey>,
        limit: usize,
    },
}

impl Paging {
    /// From the `limit` and `after` query parameters: either one asks for a page.
    pub fn from_query(limit: Option<u32>, after: Option<&str>) -> Result<Paging, ServiceError> {
        if limit.is_none() && after.is_none() {
            return Ok(Paging::All);
        }
        let after = after.map(decode_cursor).transpose()?;
        Ok(Paging::Page {
            after,
            limit: limit.map_or(DEFAULT_PAGE, |l| l as usize),
        })
    }

    /// The articles of this page and the cursor of the next one (none after the last).
    pub fn window<'k>(&self, keys: &'k [ArticleKey]) -> (&'k [ArticleKey], Option<String>) {
        match self {
            Paging::All => (keys, None),
            Paging::Page { after, limit } => {
                let start = after
                    .as_ref()
                    .map_or(0, |after| keys.partition_point(|k| k <= after));
                let end = start.saturating_add(*limit).min(keys.len());
                let page = &keys[start..end];
                let next = (end < keys.len())
                    .then(|| page.last().map(cursor))
                    .flatten();
                (page, next)
            }
        }
    }
}

/// The cursor after `key`: opaque to clients, stable across data versions.
pub fn cursor(key: &ArticleKey) -> String {
    URL_SAFE_NO_PAD.encode(format!("{}:{}", key.brand_id, key.reference))
}

fn decode_cursor(text: &str) -> Result<ArticleKey, ServiceError> {
    let bad = || {
        ServiceError::bad_parameter(
            "after",
            format!("'{text}' is not a cursor: give the `next` value of the previous page"),
        )
    };
    let bytes = URL_SAFE_NO_PAD.decode(text).map_err(|_| bad())?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let (brand, reference) = text.split_once(':').ok_or_else(bad)?;
    Ok(ArticleKey {
        brand_id: brand.parse().map_err(|_| bad())?,
        reference: reference.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(brand_id: u32, reference: &str) -> ArticleKey {
        ArticleKey {
            brand_id,
            reference: reference.into(),
        }
    }

    #[test]
    fn pages_followed_by_their_cursors_give_every_article_once() {
        let keys: Vec<ArticleKey> = (0..25).map(|i| key(i % 3, &format!("R{i:03}"))).collect();
        let mut keys = keys;
        keys.sort();
        let mut seen = Vec::new();
        let mut after = None;
        loop {
            let paging = Paging::from_query(Some(7), after.as_deref()).unwrap();
            let (page, next) = paging.window(&keys);
            seen.extend_from_slice(page);
            match next {
                Some(next) => after = Some(next),
                None => break,
            }
        }
        assert_eq!(seen, keys);
        assert_eq!(
            Paging::from_query(None, None)
                .unwrap()
                .window(&keys)
                .0
                .len(),
            25
        );
        let (last, next) = Paging::from_query(Some(25), None).unwrap().window(&keys);
        assert_eq!((last.len(), next), (25, None));
    }

    #[test]
    fn a_cursor_of_a_removed_article_still_leads_to_the_next_one() {
        let keys = vec![key(1, "A"), key(1, "C"), key(2, "A")];
        let paging = Paging::from_query(Some(1), Some(&cursor(&key(1, "B")))).unwrap();
        assert_eq!(paging.window(&keys).0, [key(1, "C")]);
    }

    #[test]
    fn a_cursor_the_server_did_not_give_is_refused() {
        for bad in ["%%%", "bm9jb2xvbg", "eDpZ"] {
            let e = Paging::from_query(None, Some(bad)).unwrap_err();
            assert!(
                matches!(
                    e,
                    ServiceError::BadParameter {
                        parameter: "after",
                        ..
                    }
                ),
                "{bad}"
            );
        }
    }
}
