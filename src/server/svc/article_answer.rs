//! The article lookup's answer (`getCrossRefsOrArticle?mainref`) written from the service's
//! details straight into JSON bytes. Through serde it was built twice: the details moved
//! into `Article`s (a price's amount and dates formatted into new strings), then every field
//! written through serde_json's writer, a call for each quote, colon and comma. Together they
//! took about 3 µs of a 24 µs request, more than reading the article's record
//! (`docs/performance.md`). The bytes are the ones serde_json writes for `ArticleAnswer`, the
//! schema the document shows: the same fields in the same order, a text escaped as serde_json
//! escapes it; a test holds the two to the same bytes.

use std::fmt::Display;
use std::io::Write as _;

use crate::catalogue::{CrossKind, normalise_reference};
use crate::server::answers::records::media_kind;
use crate::server::problem::Problem;
use crate::service::ServiceError;
use crate::service::article_view::ArticleView;

/// `{"name":`, opening an object at its first field: the punctuation and the name one
/// constant, copied in one move (the wire's field names need no escaping).
macro_rules! first {
    ($out:expr, $name:literal) => {
        $out.raw(concat!("{\"", $name, "\":").as_bytes())
    };
}

/// `,"name":`, before each other field's value.
macro_rules! field {
    ($out:expr, $name:literal) => {
        $out.raw(concat!(",\"", $name, "\":").as_bytes())
    };
}

/// `{"reference":…,"normalisedReference":…,"articles":[…]}` for `reference` and the articles
/// found, or 413 past the answer bound (`limits.answer_mb`), as any answer.
pub fn article_answer(reference: &str, articles: &[ArticleView]) -> Result<Vec<u8>, Problem> {
    let mut out = Json(Vec::with_capacity(1024 * articles.len().max(1)));
    first!(out, "reference").text(reference);
    field!(out, "normalisedReference").text(&normalise_reference(reference));
    field!(out, "articles").list(articles, Json::article);
    out.0.push(b'}');
    crate::limits::within_answer(out.0.len() as u64).map_err(ServiceError::Spent)?;
    Ok(out.0)
}

/// JSON written into a buffer: a value a method; `first!` and `field!` write the names before
/// the values of an object.
struct Json(Vec<u8>);

impl Json {
    fn raw(&mut self, bytes: &[u8]) -> &mut Json {
        self.0.extend_from_slice(bytes);
        self
    }

    /// A string; one with a quote, a backslash or a control character is escaped by
    /// serde_json itself, so both writers agree on every text.
    fn text(&mut self, text: &str) {
        if needs_escaping(text.as_bytes()) {
            // Writing into a Vec cannot fail.
            let _ = serde_json::to_writer(&mut self.0, text);
            return;
        }
        self.0.push(b'"');
        self.raw(text.as_bytes());
        self.0.push(b'"');
    }

    /// A value whose text needs no escaping (an amount, a date), as a string.
    fn shown(&mut self, value: impl Display) {
        self.0.push(b'"');
        let _ = write!(self.0, "{value}");
        self.0.push(b'"');
    }

    fn number(&mut self, n: u32) {
        self.raw(itoa::Buffer::new().format(n).as_bytes());
    }

    fn list<T>(&mut self, items: &[T], mut each: impl FnMut(&mut Json, &T)) {
        self.0.push(b'[');
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.0.push(b',');
            }
            each(self, item);
        }
        self.0.push(b']');
    }

    fn texts(&mut self, texts: &[&str]) {
        self.list(texts, |out, t| out.text(t));
    }

    /// An `Article` record (`answers::records::Article`).
    fn article(&mut self, v: &ArticleView) {
        let a = &v.row;
        first!(self, "brandId").number(a.brand_id);
        field!(self, "brandName").text(v.brand_name);
        field!(self, "reference").text(a.reference);
        field!(self, "normalisedReference").text(a.normalised_reference);
        field!(self, "genart").number(a.genart);
        field!(self, "genartName").text(v.genart_name);
        field!(self, "description").text(&v.description);
        // Its own name is the wire's (`records::ArticleStatus`; the test holds them to one).
        field!(self, "status").text(a.status.name());
        field!(self, "eans").texts(&a.eans);
        field!(self, "packagingUnit").number(a.packaging_unit);
        field!(self, "replacedBy").texts(&a.replaced_by);
        field!(self, "criteria").list(&v.criteria, |out, c| {
            first!(out, "name").text(c.name);
            field!(out, "value").text(c.value);
            field!(out, "unit").text(c.unit);
            out.0.push(b'}');
        });
        field!(self, "numbers").list(&v.numbers, |out, n| {
            first!(out, "kind").text(kind_name(n.number.kind));
            field!(out, "number").text(n.number.number);
            if let Some(id) = n.number.manufacturer_id {
                field!(out, "manufacturerId").number(id);
            }
            if let Some(name) = n.manufacturer_name {
                field!(out, "manufacturerName").text(name);
            }
            out.0.push(b'}');
        });
        field!(self, "prices").list(&v.prices, |out, p| {
            first!(out, "priceType").text(p.price_type);
            field!(out, "currency").text(p.currency);
            field!(out, "amount").shown(p.amount);
            if let Some(from) = p.valid_from {
                field!(out, "validFrom").shown(from);
            }
            if let Some(to) = p.valid_to {
                field!(out, "validTo").shown(to);
            }
            out.0.push(b'}');
        });
        field!(self, "media").list(&v.media, |out, m| {
            first!(out, "kind").text(media_kind(m.kind));
            field!(out, "set").text(m.set);
            field!(out, "position").number(m.position);
            field!(out, "uri").text(m.uri);
            field!(out, "description").text(m.description);
            out.0.push(b'}');
        });
        self.0.push(b'}');
    }
}

/// A cross number's kind as the wire names it (`records::CrossKind`: serde's snake case; the
/// test below holds the two to one name).
fn kind_name(kind: CrossKind) -> &'static str {
    match kind {
        CrossKind::Oe => "oe",
        CrossKind::Competitor => "competitor",
        CrossKind::Internal => "internal",
        CrossKind::Trade => "trade",
        CrossKind::Ean => "ean",
    }
}

/// Whether `text` holds a byte JSON escapes (a control character, a quote, a backslash),
/// tested eight bytes at a time: an answer writes some thirty texts, and byte by byte the
/// test cost more than copying them.
fn needs_escaping(text: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = ONES << 7;
    // Whether a byte of `word` is below `n` (exact for n ≤ 128: a borrow only crosses into
    // the next byte from a byte that was below `n` itself).
    let any_below = |word: u64, n: u8| word.wrapping_sub(ONES * n as u64) & !word & HIGHS != 0;
    let (words, rest) = text.as_chunks::<8>();
    words.iter().any(|w| {
        let word = u64::from_ne_bytes(*w);
        any_below(word, 0x20)
            || any_below(word ^ (ONES * b'"' as u64), 1)
            || any_below(word ^ (ONES * b'\\' as u64), 1)
    }) || rest.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::{
        Amount, Article, ArticleKey, ArticleStatus as Status, Criterion, CrossKind as Kind,
        CrossReference, Date, Media, MediaKind, Price,
    };
    use crate::server::answers::records::Article as WireArticle;
    use crate::server::svc::lookups::ArticleAnswer;
    use crate::service::article_detail::{ArticleDetail, NamedNumber};
    use crate::service::article_view::{
        ArticleRow, CriterionRow, CrossNumber, MediaRow, NumberView, PriceRow,
    };
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
                            manufacturer_id: self
                                .next()
                                .is_multiple_of(2)
                                .then(|| self.next() as u32),
                            number: self.text(),
                        },
                        manufacturer_name: self.next().is_multiple_of(2).then(|| self.text()),
                    })
                    .collect(),
                criteria: (0..count(self))
                    .map(|_| Criterion {
                        article: key.clone(),
                        name: self.text(),
                        value: self.text(),
                        unit: self.text(),
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
}
