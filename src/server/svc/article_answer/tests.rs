use super::*;
use crate::catalogue::{
    Amount, Article, ArticleKey, ArticleStatus as Status, CriterionType, CrossKind as Kind,
    CrossReference, Date, Media, MediaKind, Price,
};
use crate::server::answers::records::Article as WireArticle;
use crate::server::svc::lookups::ArticleAnswer;
use crate::service::articles::article_detail::{ArticleDetail, NamedNumber};
use crate::service::articles::article_view::{
    ArticleRow, CriterionRow, CrossNumber, MediaRow, NumberView, PriceRow,
};
use crate::service::articles::criteria::ShownCriterion;
use std::borrow::Cow;

/// Texts of every kind serde_json treats apart: quotes, backslashes, control characters,
/// DEL, a slash, non-ASCII, and the empty text.
struct Texts(u64);

impl Texts {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn text(&mut self) -> String {
        const PIECES: &[&str] = &[
            "a",
            "Z",
            "0",
            " ",
            "-",
            "/",
            "\"",
            "\\",
            "\n",
            "\t",
            "\u{1}",
            "\u{1f}",
            "\u{7f}",
            "é",
            "€",
            "𝄞",
            "Bremsscheibe",
            "0 986 494 048",
        ];
        let len = self.next() % 6;
        (0..len)
            .map(|_| PIECES[(self.next() % PIECES.len() as u64) as usize])
            .collect()
    }

    fn texts(&mut self) -> Vec<String> {
        (0..self.next() % 3).map(|_| self.text()).collect()
    }

    fn date(&mut self) -> Option<Date> {
        (!self.next().is_multiple_of(3)).then(|| Date {
            year: (1990 + self.next() % 60) as u16,
            month: (1 + self.next() % 12) as u8,
            day: (1 + self.next() % 28) as u8,
        })
    }

    fn detail(&mut self) -> ArticleDetail {
        let key = ArticleKey {
            brand_id: (self.next() % 5000) as u32,
            reference: self.text(),
        };
        let count = |t: &mut Texts| t.next() % 4;
        let article = Article {
            key: key.clone(),
            reference: self.text(),
            genart: self.next() as u32,
            description: self.text(),
            status: [Status::Active, Status::Announced, Status::Discontinued]
                [(self.next() % 3) as usize],
            eans: self.texts(),
            packaging_unit: self.next() as u32,
            replaced_by: self.texts(),
        };
        let kinds = [
            Kind::Oe,
            Kind::Competitor,
            Kind::Internal,
            Kind::Trade,
            Kind::Ean,
        ];
        ArticleDetail {
            brand_name: self.text(),
            genart_name: self.text(),
            status_name: self.text(),
            numbers: (0..count(self))
                .map(|_| NamedNumber {
                    number: CrossReference {
                        article: key.clone(),
                        kind: kinds[(self.next() % 5) as usize],
                        manufacturer_id: self.next().is_multiple_of(2).then(|| self.next() as u32),
                        number: self.text(),
                    },
                    manufacturer_name: self.next().is_multiple_of(2).then(|| self.text()),
                })
                .collect(),
            criteria: (0..count(self))
                .map(|_| ShownCriterion {
                    id: self.next() as u32,
                    name: self.text(),
                    short_name: self.text(),
                    kind: CriterionType::Text,
                    raw_value: self.text(),
                    value: self.text(),
                    unit: self.text(),
                    interval: false,
                    successor: None,
                })
                .collect(),
            prices: (0..count(self))
                .map(|_| Price {
                    article: key.clone(),
                    price_type: self.text(),
                    currency: self.text(),
                    valid_from: self.date(),
                    valid_to: self.date(),
                    amount: Amount(self.next() as i64 >> (self.next() % 60)),
                })
                .collect(),
            media: (0..count(self))
                .map(|_| Media {
                    article: key.clone(),
                    kind: [MediaKind::Image, MediaKind::Document, MediaKind::Spin360]
                        [(self.next() % 3) as usize],
                    set: self.text(),
                    position: self.next() as u32,
                    uri: self.text(),
                    description: self.text(),
                })
                .collect(),
            applications: Vec::new(),
            id: 0,
            replaced: Vec::new(),
            article,
        }
    }
}

/// `d` viewed as the service views an article's record.
fn viewed(d: &ArticleDetail) -> ArticleView<'_> {
    let a = &d.article;
    fn texts(t: &[String]) -> Vec<&str> {
        t.iter().map(String::as_str).collect()
    }
    ArticleView {
        row: ArticleRow {
            brand_id: a.key.brand_id,
            normalised_reference: &a.key.reference,
            reference: &a.reference,
            genart: a.genart,
            description: &a.description,
            status: a.status,
            eans: texts(&a.eans),
            packaging_unit: a.packaging_unit,
            replaced_by: texts(&a.replaced_by),
        },
        description: Cow::Borrowed(&a.description),
        brand_name: &d.brand_name,
        genart_name: &d.genart_name,
        numbers: d
            .numbers
            .iter()
            .map(|n| NumberView {
                number: CrossNumber {
                    kind: n.number.kind,
                    manufacturer_id: n.number.manufacturer_id,
                    number: &n.number.number,
                },
                manufacturer_name: n.manufacturer_name.as_deref(),
            })
            .collect(),
        criteria: d
            .criteria
            .iter()
            .map(|c| CriterionRow {
                name: &c.name,
                value: &c.value,
                unit: &c.unit,
            })
            .collect(),
        prices: d
            .prices
            .iter()
            .map(|p| PriceRow {
                price_type: &p.price_type,
                currency: &p.currency,
                valid_from: p.valid_from,
                valid_to: p.valid_to,
                amount: p.amount,
            })
            .collect(),
        media: d
            .media
            .iter()
            .map(|m| MediaRow {
                kind: m.kind,
                set: &m.set,
                position: m.position,
                uri: &m.uri,
                description: &m.description,
            })
            .collect(),
    }
}

#[test]
fn the_answer_is_the_bytes_serde_writes_for_its_schema() {
    let mut texts = Texts(0x2026_1129);
    for round in 0..2000 {
        let reference = texts.text();
        let seed = texts.0;
        let count = round % 4;
        let details: Vec<_> = (0..count).map(|_| texts.detail()).collect();
        // The same details again, for the serde writer to consume.
        let mut again = Texts(seed);
        let moved: Vec<_> = (0..count).map(|_| again.detail()).collect();
        let wire = ArticleAnswer {
            normalised_reference: normalise_reference(&reference),
            reference: reference.clone(),
            articles: moved.into_iter().map(WireArticle::from).collect(),
        };
        let expected = serde_json::to_vec(&wire).unwrap();
        let views: Vec<_> = details.iter().map(viewed).collect();
        let written = article_answer(&reference, &views).unwrap();
        assert_eq!(
            String::from_utf8_lossy(&written),
            String::from_utf8_lossy(&expected),
            "round {round}"
        );
    }
}

#[test]
fn a_text_needs_escaping_where_one_of_its_bytes_does() {
    let escaped = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
    // Every byte at every place of texts of up to 17 bytes, among bytes that need no
    // escaping, the ones next to those that do among them.
    for filler in [
        b'a', 0x20, b'!', b'#', b'[', b']', 0x7f, 0x80, 0xa2, 0xdc, 0xff,
    ] {
        assert!(!needs_escaping(&[filler; 17]));
        for len in 1..=17 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut text = vec![filler; len];
                    text[at] = b;
                    assert_eq!(needs_escaping(&text), escaped(b), "{b:#x} at {at} of {len}");
                }
            }
        }
    }
}
