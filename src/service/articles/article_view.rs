//! An article with its cross numbers, criteria, prices and media viewed in its record: what
//! the lookup of an article by reference answers, the request a busy counter sends most.
//! Its texts are borrowed from the record and the catalogue's names and texts, and the rows
//! viewed as the record is walked; only a description in another language is built (from
//! its generic article's name); `ArticleDetail` owns the same texts, copied from
//! the record a string a field (in the profile, reading the article and its details took
//! 12.4 % of the server's time, the view and its names 9.4 %; `docs/performance.md`).

use std::borrow::Cow;

use super::criteria::displayed;
use crate::service::ServiceError;
use crate::service::names::Names;
use crate::store::{ArticleRecord, Criteria};
/// The rows as the store reads them borrowed; an adapter names them from here.
pub use crate::store::{ArticleRow, CriterionRow, CrossNumber, MediaRow, PriceRow};

/// An article and its rows, its texts in the names' language.
pub struct ArticleView<'r> {
    pub row: ArticleRow<'r>,
    pub description: Cow<'r, str>,
    pub brand_name: &'r str,
    pub genart_name: &'r str,
    pub numbers: Vec<NumberView<'r>>,
    /// Their words in the names' language (a key-table criterion's key's text).
    pub criteria: Vec<CriterionRow<'r>>,
    pub prices: Vec<PriceRow<'r>>,
    /// Their captions in the names' language.
    pub media: Vec<MediaRow<'r>>,
}

/// A cross number with its maker's name (none for a number without a maker).
pub struct NumberView<'r> {
    pub number: CrossNumber<'r>,
    pub manufacturer_name: Option<&'r str>,
}

/// The article of `record` viewed with its rows.
pub fn view<'r>(
    names: &Names<'r>,
    criteria: &'r Criteria,
    record: &'r ArticleRecord,
) -> Result<ArticleView<'r>, ServiceError> {
    let row = record.article_row()?;
    let description = match names.are_own() {
        true => Cow::Borrowed(row.description),
        false => Cow::Owned(names.description_in(row.genart, row.description, record)?),
    };
    let numbers = record
        .views::<CrossNumber>()?
        .map(|number| {
            let number = number?;
            let manufacturer_name = match number.manufacturer_id {
                Some(m) => Some(names.manufacturer_name(m)?),
                None => None,
            };
            Ok(NumberView {
                number,
                manufacturer_name,
            })
        })
        .collect::<Result<_, ServiceError>>()?;
    Ok(ArticleView {
        description,
        brand_name: names.brand_name(row.brand_id)?,
        genart_name: names.genart_name(row.genart)?,
        numbers,
        criteria: record
            .views::<CriterionRow>()?
            .map(|c| {
                let c = c?;
                let (value, unit) = displayed(criteria, c.name, c.value, c.unit);
                Ok(CriterionRow {
                    name: names.term_of(c.name)?,
                    value: names.term_of(value)?,
                    unit: names.term_of(unit)?,
                })
            })
            .collect::<Result<_, ServiceError>>()?,
        prices: record.views::<PriceRow>()?.collect::<Result<_, _>>()?,
        media: record
            .views::<MediaRow>()?
            .map(|m| {
                let m = m?;
                Ok(MediaRow {
                    description: names.term_of(m.description)?,
                    ..m
                })
            })
            .collect::<Result<_, ServiceError>>()?,
        row,
    })
}
