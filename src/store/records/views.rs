//! Rows read borrowed from the bytes that hold them: an article's own row, its cross numbers,
//! criteria, prices and media, their texts views of the stored key and value. The article
//! lookup writes its answer from them without a string copied per field (owned, a cross
//! number cost three strings, a price three, a criterion four and a medium four, each freed
//! again). `CrossReference`, `Criterion`, `Price` and `Media` are decoded through them, so
//! their layouts are read in one place; `Article` is decoded owned at once
//! (its lists of texts would cost an allocation more), and a test holds the two readers to
//! one layout.

use super::{Code, VALUE_VERSION, date_back};
use crate::catalogue::{
    Amount, ArticleKey, ArticleStatus, Criterion, CrossKind, CrossReference, Date, Media,
    MediaKind, Price,
};
use crate::store::codec;
use crate::store::keys::KeyReader;
use crate::store::layout::TreeName;
use crate::store::stored_text::Text;

/// The texts of a list as `&str`s (in place: a `Text` is laid out as its `&str`).
fn texts(list: Vec<Text<'_>>) -> Vec<&str> {
    list.into_iter().map(|t| t.0).collect()
}

fn view_value<'b, T: bincode::de::BorrowDecode<'b, ()>>(bytes: &'b [u8]) -> Option<T> {
    codec::decode_borrowed(VALUE_VERSION, bytes)
}

/// A row of an article's record read borrowed: from its key after the article's prefix and
/// its value.
pub trait RowView<'r>: Sized {
    const TREE: TreeName;
    fn view(suffix: &'r [u8], value: &'r [u8]) -> Option<Self>;
}

/// An article's own row.
pub struct ArticleRow<'r> {
    pub brand_id: u32,
    pub normalised_reference: &'r str,
    pub reference: &'r str,
    pub genart: u32,
    pub description: &'r str,
    pub status: ArticleStatus,
    pub eans: Vec<&'r str>,
    pub packaging_unit: u32,
    pub replaced_by: Vec<&'r str>,
}

type ArticleValue<'r> = (
    Text<'r>,
    u32,
    Text<'r>,
    u8,
    Vec<Text<'r>>,
    u32,
    Vec<Text<'r>>,
);

impl<'r> ArticleRow<'r> {
    /// The row from its key (the brand, then the normalised reference) and value.
    pub fn view(key: &'r [u8], value: &'r [u8]) -> Option<ArticleRow<'r>> {
        let (reference, genart, description, status, eans, packaging_unit, replaced_by) =
            view_value::<ArticleValue>(value)?;
        let mut k = KeyReader::new(key);
        Some(ArticleRow {
            brand_id: k.u32()?,
            normalised_reference: k.last_str()?,
            reference: reference.0,
            genart,
            description: description.0,
            status: Code::from_code(status)?,
            eans: texts(eans),
            packaging_unit,
            replaced_by: texts(replaced_by),
        })
    }
}

/// A cross number of an article.
pub struct CrossNumber<'r> {
    pub kind: CrossKind,
    pub manufacturer_id: Option<u32>,
    /// As written.
    pub number: &'r str,
}

impl<'r> RowView<'r> for CrossNumber<'r> {
    const TREE: TreeName = TreeName::CrossReferences;
    fn view(suffix: &'r [u8], value: &'r [u8]) -> Option<Self> {
        // The normalised number after the maker is the key's; the value holds it as written.
        let mut k = KeyReader::new(suffix);
        let (Text(number),) = view_value::<(Text,)>(value)?;
        Some(CrossNumber {
            kind: Code::from_code(k.u8()?)?,
            manufacturer_id: Some(k.u32()?).filter(|&m| m != 0),
            number,
        })
    }
}

impl CrossNumber<'_> {
    pub fn owned(&self, article: ArticleKey) -> CrossReference {
        CrossReference {
            article,
            kind: self.kind,
            manufacturer_id: self.manufacturer_id,
            number: self.number.to_owned(),
        }
    }
}

/// A price of an article.
pub struct PriceRow<'r> {
    pub price_type: &'r str,
    pub currency: &'r str,
    pub valid_from: Option<Date>,
    pub valid_to: Option<Date>,
    pub amount: Amount,
}

impl<'r> RowView<'r> for PriceRow<'r> {
    const TREE: TreeName = TreeName::Prices;
    fn view(suffix: &'r [u8], value: &'r [u8]) -> Option<Self> {
        let mut k = KeyReader::new(suffix);
        let (valid_to, amount) = view_value::<(Option<(u16, u8, u8)>, i64)>(value)?;
        let price_type = k.str()?;
        let currency = k.str()?;
        let from = k.u32()?;
        Some(PriceRow {
            price_type,
            currency,
            // 0 is an open start (`Price::key`).
            valid_from: Some(from)
                .filter(|&f| f != 0)
                .map(|f| date_back(((f >> 16) as u16, (f >> 8) as u8, f as u8))),
            valid_to: valid_to.map(date_back),
            amount: Amount(amount),
        })
    }
}

impl PriceRow<'_> {
    pub fn owned(&self, article: ArticleKey) -> Price {
        Price {
            article,
            price_type: self.price_type.to_owned(),
            currency: self.currency.to_owned(),
            valid_from: self.valid_from,
            valid_to: self.valid_to,
            amount: self.amount,
        }
    }
}

/// A criterion of an article.
pub struct CriterionRow<'r> {
    pub name: &'r str,
    pub value: &'r str,
    pub unit: &'r str,
}

impl<'r> RowView<'r> for CriterionRow<'r> {
    const TREE: TreeName = TreeName::Criteria;
    fn view(suffix: &'r [u8], value: &'r [u8]) -> Option<Self> {
        let (Text(value), Text(unit)) = view_value::<(Text, Text)>(value)?;
        Some(CriterionRow {
            name: KeyReader::new(suffix).last_str()?,
            value,
            unit,
        })
    }
}

impl CriterionRow<'_> {
    pub fn owned(&self, article: ArticleKey) -> Criterion {
        Criterion {
            article,
            name: self.name.to_owned(),
            value: self.value.to_owned(),
            unit: self.unit.to_owned(),
        }
    }
}

/// A medium of an article.
pub struct MediaRow<'r> {
    pub kind: MediaKind,
    pub set: &'r str,
    pub position: u32,
    pub uri: &'r str,
    pub description: &'r str,
}

impl<'r> RowView<'r> for MediaRow<'r> {
    const TREE: TreeName = TreeName::Media;
    fn view(suffix: &'r [u8], value: &'r [u8]) -> Option<Self> {
        let mut k = KeyReader::new(suffix);
        let (Text(uri), Text(description)) = view_value::<(Text, Text)>(value)?;
        Some(MediaRow {
            kind: Code::from_code(k.u8()?)?,
            set: k.str()?,
            position: k.u32()?,
            uri,
            description,
        })
    }
}

impl MediaRow<'_> {
    pub fn owned(&self, article: ArticleKey) -> Media {
        Media {
            article,
            kind: self.kind,
            set: self.set.to_owned(),
            position: self.position,
            uri: self.uri.to_owned(),
            description: self.description.to_owned(),
        }
    }
}
