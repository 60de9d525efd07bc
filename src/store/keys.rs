//! Byte layouts of keys. Numbers are big-endian so byte order is numeric order; a variable
//! text part that is followed by another part ends with `SEP` (0xFF never occurs in UTF-8).
//! `docs/store-layout.md` lists every tree with its key; keep the two in step.

use super::stored_text::text_of;
use crate::catalogue::ArticleKey;

pub const SEP: u8 = 0xFF;

/// Builds a composite key part by part.
#[derive(Default)]
pub struct KeyBuf(Vec<u8>);

impl KeyBuf {
    pub fn new() -> Self {
        KeyBuf(Vec::with_capacity(32))
    }
    pub fn u32(mut self, n: u32) -> Self {
        self.0.extend_from_slice(&n.to_be_bytes());
        self
    }
    pub fn u8(mut self, n: u8) -> Self {
        self.0.push(n);
        self
    }
    /// A text part that ends the key.
    pub fn last_text(mut self, s: &str) -> Self {
        self.0.extend_from_slice(s.as_bytes());
        self
    }
    /// A text part followed by more parts.
    pub fn text(mut self, s: &str) -> Self {
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(SEP);
        self
    }
    /// `brand_id` then the normalised reference, ending the key.
    pub fn last_article(self, a: &ArticleKey) -> Self {
        self.u32(a.brand_id).last_text(&a.reference)
    }
    /// `brand_id` then the normalised reference, followed by more parts.
    pub fn article(self, a: &ArticleKey) -> Self {
        self.u32(a.brand_id).text(&a.reference)
    }
    pub fn done(self) -> Vec<u8> {
        self.0
    }
}

/// Reads a key back part by part; every read fails softly on a malformed key.
pub struct KeyReader<'a>(&'a [u8]);

impl<'a> KeyReader<'a> {
    pub fn new(key: &'a [u8]) -> Self {
        KeyReader(key)
    }
    pub fn u32(&mut self) -> Option<u32> {
        let (head, rest) = self.0.split_first_chunk::<4>()?;
        self.0 = rest;
        Some(u32::from_be_bytes(*head))
    }
    pub fn u8(&mut self) -> Option<u8> {
        let (head, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(*head)
    }
    pub fn text(&mut self) -> Option<String> {
        self.str().map(str::to_owned)
    }
    pub fn last_text(&mut self) -> Option<String> {
        self.last_str().map(str::to_owned)
    }
    /// A text part followed by more parts, borrowed from the key.
    pub fn str(&mut self) -> Option<&'a str> {
        let end = self.0.iter().position(|&b| b == SEP)?;
        let s = text_of(&self.0[..end])?;
        self.0 = &self.0[end + 1..];
        Some(s)
    }
    /// The text part that ends the key, borrowed from it.
    pub fn last_str(&mut self) -> Option<&'a str> {
        let s = text_of(self.0)?;
        self.0 = &[];
        Some(s)
    }
    /// What is left of the key after the parts read.
    pub fn rest(&self) -> &'a [u8] {
        self.0
    }
    pub fn article(&mut self) -> Option<ArticleKey> {
        Some(ArticleKey {
            brand_id: self.u32()?,
            reference: self.text()?,
        })
    }
    pub fn last_article(&mut self) -> Option<ArticleKey> {
        Some(ArticleKey {
            brand_id: self.u32()?,
            reference: self.last_text()?,
        })
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The key of an article in `articlekey_article`; also the prefix of its dependent rows.
pub fn article_key(a: &ArticleKey) -> Vec<u8> {
    KeyBuf::new().last_article(a).done()
}

/// The prefix under which every row that belongs to an article is stored.
pub fn article_prefix(a: &ArticleKey) -> Vec<u8> {
    KeyBuf::new().article(a).done()
}

/// The prefix of a text part followed by more parts (a Ktype, a normalised number).
pub fn text_prefix(s: &str) -> Vec<u8> {
    KeyBuf::new().text(s).done()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn article_keys_round_trip_and_sort_by_brand() {
        let a = ArticleKey {
            brand_id: 2,
            reference: "GDB1330".into(),
        };
        let key = KeyBuf::new().article(&a).text("12345").u32(7).done();
        let mut r = KeyReader::new(&key);
        assert_eq!(r.article(), Some(a.clone()));
        assert_eq!(r.text().as_deref(), Some("12345"));
        assert_eq!(r.u32(), Some(7));
        assert!(r.rest().is_empty());
        let b = ArticleKey {
            brand_id: 10,
            reference: "A".into(),
        };
        assert!(article_key(&a) < article_key(&b));
    }

    #[test]
    fn malformed_keys_read_as_none() {
        assert_eq!(KeyReader::new(&[0, 1]).u32(), None);
        assert_eq!(KeyReader::new(b"abc").text(), None);
    }
}
