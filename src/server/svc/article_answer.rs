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
use crate::service::articles::article_view::ArticleView;

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
mod tests;
