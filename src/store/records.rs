//! How each catalogue record is split into a key and a value. The key holds the identifying
//! fields (so they are not stored twice); the value holds the rest, as a tuple, through the
//! store's codec (version `VALUE_VERSION`). Enum codes are part of the format: never renumber
//! them.

use bincode::{Decode, Encode};

use super::codec;
use super::keys::{KeyBuf, KeyReader};
use super::layout::TreeName;
use crate::catalogue::*;

/// A record stored in one of the data trees.
pub trait Record: Sized + 'static {
    const TREE: TreeName;
    fn key(&self) -> Vec<u8>;
    fn value(&self) -> Vec<u8>;
    fn decode(key: &[u8], value: &[u8]) -> Option<Self>;
}

/// The version byte of every record value (format 3 and on).
pub const VALUE_VERSION: u8 = 1;

fn encode<T: Encode>(value: T) -> Vec<u8> {
    codec::encode(VALUE_VERSION, &value)
}

fn decode<T: Decode<()>>(bytes: &[u8]) -> Option<T> {
    codec::decode(VALUE_VERSION, bytes)
}

/// Stable one-byte codes of the catalogue's enums.
pub trait Code: Sized + Copy + 'static {
    const ALL: &'static [Self];
    fn code(self) -> u8;
    fn from_code(code: u8) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.code() == code)
    }
}

impl Code for ManufacturerKind {
    const ALL: &'static [Self] = &[ManufacturerKind::VehicleMaker, ManufacturerKind::PartsMaker];
    fn code(self) -> u8 {
        match self {
            ManufacturerKind::VehicleMaker => 1,
            ManufacturerKind::PartsMaker => 2,
        }
    }
}

impl Code for ArticleStatus {
    const ALL: &'static [Self] = &[
        ArticleStatus::Active,
        ArticleStatus::Announced,
        ArticleStatus::Discontinued,
    ];
    fn code(self) -> u8 {
        match self {
            ArticleStatus::Active => 1,
            ArticleStatus::Announced => 2,
            ArticleStatus::Discontinued => 3,
        }
    }
}

impl Code for CrossKind {
    const ALL: &'static [Self] = &[
        CrossKind::Oe,
        CrossKind::Competitor,
        CrossKind::Internal,
        CrossKind::Trade,
        CrossKind::Ean,
    ];
    fn code(self) -> u8 {
        match self {
            CrossKind::Oe => 1,
            CrossKind::Competitor => 2,
            CrossKind::Internal => 3,
            CrossKind::Trade => 4,
            CrossKind::Ean => 5,
        }
    }
}

impl Code for TargetType {
    const ALL: &'static [Self] = &TargetType::ALL;
    fn code(self) -> u8 {
        TargetType::code(self) as u8
    }
}

impl Code for MediaKind {
    const ALL: &'static [Self] = &[MediaKind::Image, MediaKind::Document, MediaKind::Spin360];
    fn code(self) -> u8 {
        match self {
            MediaKind::Image => 1,
            MediaKind::Document => 2,
            MediaKind::Spin360 => 3,
        }
    }
}

fn ym(v: YearMonth) -> (u16, u8) {
    (v.year, v.month)
}
fn ym_back((year, month): (u16, u8)) -> YearMonth {
    YearMonth { year, month }
}
fn date(d: Date) -> (u16, u8, u8) {
    (d.year, d.month, d.day)
}
fn date_back((year, month, day): (u16, u8, u8)) -> Date {
    Date { year, month, day }
}

impl Record for Manufacturer {
    const TREE: TreeName = TreeName::Manufacturers;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new().u32(self.id).done()
    }
    fn value(&self) -> Vec<u8> {
        encode((&self.name, self.kind.code()))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let (name, kind) = decode::<(String, u8)>(value)?;
        Some(Manufacturer {
            id: KeyReader::new(key).u32()?,
            name,
            kind: Code::from_code(kind)?,
        })
    }
}

impl Record for GenericArticle {
    const TREE: TreeName = TreeName::GenericArticles;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new().u32(self.id).done()
    }
    fn value(&self) -> Vec<u8> {
        encode((&self.name,))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let (name,) = decode::<(String,)>(value)?;
        Some(GenericArticle {
            id: KeyReader::new(key).u32()?,
            name,
        })
    }
}

/// An article's value; `views::ArticleRow` reads the same layout borrowed.
type ArticleValue = (String, u32, String, u8, Vec<String>, u32, Vec<String>);

impl Record for Article {
    const TREE: TreeName = TreeName::Articles;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new().last_article(&self.key).done()
    }
    fn value(&self) -> Vec<u8> {
        encode((
            &self.reference,
            self.genart,
            &self.description,
            self.status.code(),
            &self.eans,
            self.packaging_unit,
            &self.replaced_by,
        ))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        // Decoded owned at once, not through `ArticleRow`: its lists of borrowed texts would
        // be one allocation more an article for the lists that decode thousands.
        let (reference, genart, description, status, eans, packaging_unit, replaced_by) =
            decode::<ArticleValue>(value)?;
        Some(Article {
            key: KeyReader::new(key).last_article()?,
            reference,
            genart,
            description,
            status: Code::from_code(status)?,
            eans,
            packaging_unit,
            replaced_by,
        })
    }
}

impl Record for Criterion {
    const TREE: TreeName = TreeName::Criteria;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new()
            .article(&self.article)
            .last_text(&self.name)
            .done()
    }
    fn value(&self) -> Vec<u8> {
        encode((&self.value, &self.unit))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let mut k = KeyReader::new(key);
        let article = k.article()?;
        Some(CriterionRow::view(k.rest(), value)?.owned(article))
    }
}

impl Record for CrossReference {
    const TREE: TreeName = TreeName::CrossReferences;
    /// The normalised number is in the key: one article cannot hold the same number twice
    /// for one kind and maker, however it is written.
    fn key(&self) -> Vec<u8> {
        KeyBuf::new()
            .article(&self.article)
            .u8(self.kind.code())
            .u32(self.manufacturer_id.unwrap_or(0))
            .last_text(&normalise_reference(&self.number))
            .done()
    }
    fn value(&self) -> Vec<u8> {
        encode((&self.number,))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let mut k = KeyReader::new(key);
        let article = k.article()?;
        Some(CrossNumber::view(k.rest(), value)?.owned(article))
    }
}

impl Record for Link {
    const TREE: TreeName = TreeName::Links;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new()
            .article(&self.article)
            .last_text(&self.ktype)
            .done()
    }
    fn value(&self) -> Vec<u8> {
        encode((&self.position, self.quantity, &self.notes))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let mut k = KeyReader::new(key);
        let (position, quantity, notes) = decode::<(String, u32, String)>(value)?;
        Some(Link {
            article: k.article()?,
            ktype: k.last_text()?,
            position,
            quantity,
            notes,
        })
    }
}

impl Record for Price {
    const TREE: TreeName = TreeName::Prices;
    fn key(&self) -> Vec<u8> {
        // 0 sorts an open-start price before dated ones.
        let from = self.valid_from.map(date).map_or(0, |(y, m, d)| {
            u32::from(y) << 16 | u32::from(m) << 8 | u32::from(d)
        });
        KeyBuf::new()
            .article(&self.article)
            .text(&self.price_type)
            .text(&self.currency)
            .u32(from)
            .done()
    }
    fn value(&self) -> Vec<u8> {
        encode((self.valid_to.map(date), self.amount.0))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let mut k = KeyReader::new(key);
        let article = k.article()?;
        Some(PriceRow::view(k.rest(), value)?.owned(article))
    }
}

impl Record for KitComponent {
    const TREE: TreeName = TreeName::Kits;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new()
            .article(&self.kit)
            .text(&self.ktype)
            .last_article(&self.component)
            .done()
    }
    fn value(&self) -> Vec<u8> {
        encode((self.quantity,))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let mut k = KeyReader::new(key);
        let (quantity,) = decode::<(u32,)>(value)?;
        Some(KitComponent {
            kit: k.article()?,
            ktype: k.text()?,
            component: k.last_article()?,
            quantity,
        })
    }
}

impl Record for Media {
    const TREE: TreeName = TreeName::Media;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new()
            .article(&self.article)
            .u8(self.kind.code())
            .text(&self.set)
            .u32(self.position)
            .done()
    }
    fn value(&self) -> Vec<u8> {
        encode((&self.uri, &self.description))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let mut k = KeyReader::new(key);
        let article = k.article()?;
        Some(MediaRow::view(k.rest(), value)?.owned(article))
    }
}

impl Record for Plate {
    const TREE: TreeName = TreeName::Plates;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new()
            .text(&self.country)
            .text(&self.number)
            .last_text(&self.ktype)
            .done()
    }
    fn value(&self) -> Vec<u8> {
        encode((&self.written, self.key_system))
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let mut k = KeyReader::new(key);
        let (written, key_system) = decode::<(String, u32)>(value)?;
        Some(Plate {
            country: k.text()?,
            number: k.text()?,
            written,
            ktype: k.last_text()?,
            key_system,
        })
    }
}

impl Record for VinPattern {
    const TREE: TreeName = TreeName::Vins;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new()
            .text(self.wmi())
            .text(&self.pattern)
            .last_text(&self.ktype)
            .done()
    }
    fn value(&self) -> Vec<u8> {
        Vec::new()
    }
    fn decode(key: &[u8], _: &[u8]) -> Option<Self> {
        let mut k = KeyReader::new(key);
        let _wmi = k.text()?;
        Some(VinPattern {
            pattern: k.text()?,
            ktype: k.last_text()?,
        })
    }
}

mod brands;
mod criteria;
mod texts;
mod vehicles;
mod views;

pub use vehicles::vehicle_value_v1;
pub use views::{ArticleRow, CriterionRow, CrossNumber, MediaRow, PriceRow, RowView};

#[cfg(test)]
mod tests;
