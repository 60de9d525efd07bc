//! The catalogue's texts in other languages. The data sets' own texts (a generic article's
//! name, an article's description, a criterion's name …) are in the catalogue's default
//! language, the first of `catalogue.languages`; these records add the same texts in others.
//! A text a language lacks falls back along the catalogue's order of languages.

use serde::Serialize;

use super::ArticleKey;

/// What a translated text names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TextKind {
    /// A generic article's name; the key is its id.
    GenericArticle,
    /// An assembly group's name; the key is its node id.
    AssemblyGroup,
    /// A model series' name; the key is its id.
    ModelSeries,
    /// A word or phrase the catalogue's rows repeat (a criterion's name, value or unit, a
    /// status, a body style, a fuel, a fitting position, a note); the key is the text as the
    /// rows write it in the default language.
    Term,
}

impl TextKind {
    pub const ALL: [TextKind; 4] = [
        TextKind::GenericArticle,
        TextKind::AssemblyGroup,
        TextKind::ModelSeries,
        TextKind::Term,
    ];

    /// The name in the `kind` column of `texts.csv`.
    pub fn name(self) -> &'static str {
        match self {
            TextKind::GenericArticle => "genart",
            TextKind::AssemblyGroup => "assembly_group",
            TextKind::ModelSeries => "model_series",
            TextKind::Term => "term",
        }
    }

    pub fn from_name(name: &str) -> Option<TextKind> {
        Self::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Whether the key is a numeric id (of a generic article, a node, a model series).
    pub fn keyed_by_id(self) -> bool {
        self != TextKind::Term
    }
}

/// A text in one language of something the catalogue names (`texts.csv`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Translation {
    pub kind: TextKind,
    /// The id (as decimal digits) or, for a term, the default language's text.
    pub key: String,
    /// A two-letter language code, lower case.
    pub language: String,
    pub text: String,
}

/// An article's description in one language (`article_texts.csv`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArticleText {
    pub article: ArticleKey,
    /// A two-letter language code, lower case.
    pub language: String,
    pub description: String,
}
