//! The records of the catalogue's texts in other languages: a named thing's text, keyed by
//! what it names and then the language (every language of one thing is one prefix), and an
//! article's description, keyed by the article and then the language (read with its article's
//! prefix).

use super::{Code, Record, decode, encode};
use crate::catalogue::*;
use crate::store::keys::{KeyBuf, KeyReader};
use crate::store::layout::TreeName;

impl Code for TextKind {
    const ALL: &'static [Self] = &TextKind::ALL;
    fn code(self) -> u8 {
        match self {
            TextKind::GenericArticle => 1,
            TextKind::AssemblyGroup => 2,
            TextKind::ModelSeries => 3,
            TextKind::Term => 4,
        }
    }
}

impl Record for Translation {
    const TREE: TreeName = TreeName::Texts;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new()
            .u8(self.kind.code())
            .text(&self.key)
            .last_text(&self.language)
            .done()
    }
    fn value(&self) -> Vec<u8> {
        encode(&self.text)
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let mut key = KeyReader::new(key);
        Some(Translation {
            kind: TextKind::from_code(key.u8()?)?,
            key: key.text()?,
            language: key.last_text()?,
            text: decode(value)?,
        })
    }
}

impl ArticleText {
    /// The description of a stored row, from its value alone (the key is the one asked).
    pub(in crate::store) fn description_of(value: &[u8]) -> Option<String> {
        decode(value)
    }
}

impl Record for ArticleText {
    const TREE: TreeName = TreeName::ArticleTexts;
    fn key(&self) -> Vec<u8> {
        KeyBuf::new()
            .article(&self.article)
            .last_text(&self.language)
            .done()
    }
    fn value(&self) -> Vec<u8> {
        encode(&self.description)
    }
    fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        let mut key = KeyReader::new(key);
        Some(ArticleText {
            article: key.article()?,
            language: key.last_text()?,
            description: decode(value)?,
        })
    }
}
