//! The catalogue's texts in other languages, as a generation answers them: the texts of named
//! things (generic articles, nodes, model series, terms) read once per generation into maps,
//! as the names are, since nearly every answer holds some; an article's description read by
//! its key (the article, then the language), since there are as many as articles.

use foldhash::HashMap;
use std::sync::Arc;

use super::Catalogue;
use crate::catalogue::{ArticleKey, ArticleText, TextKind, Translation};
use crate::store::error::StoreError;
use crate::store::keys;
use crate::store::layout::TreeName;
use crate::store::reads;

/// Every language's text of each named thing, as (language, text) pairs. Looked up for
/// every term of every answer in another language: a fast hash, the keys are the catalogue's
/// own.
#[derive(Debug, Default)]
pub struct Translations {
    by_id: HashMap<(TextKind, u32), Vec<(String, String)>>,
    terms: HashMap<String, Vec<(String, String)>>,
}

fn in_language<'a>(texts: Option<&'a Vec<(String, String)>>, language: &str) -> Option<&'a str> {
    texts?
        .iter()
        .find(|(l, _)| l == language)
        .map(|(_, t)| t.as_str())
}

impl Translations {
    /// The text in `language` of the thing of `kind` with `id`.
    pub fn of_id(&self, kind: TextKind, id: u32, language: &str) -> Option<&str> {
        in_language(self.by_id.get(&(kind, id)), language)
    }

    /// The text in `language` of `term` (as the rows write it in the default language).
    pub fn of_term(&self, term: &str, language: &str) -> Option<&str> {
        in_language(self.terms.get(term), language)
    }

    /// Every text of things of `kind` keyed by id: (id, language, text).
    pub fn all_of(&self, kind: TextKind) -> impl Iterator<Item = (u32, &str, &str)> {
        self.by_id
            .iter()
            .filter(move |((k, _), _)| *k == kind)
            .flat_map(|((_, id), texts)| texts.iter().map(|(l, t)| (*id, l.as_str(), t.as_str())))
    }

    /// Whether there are no texts in other languages at all.
    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty() && self.terms.is_empty()
    }
}

impl Catalogue {
    /// The texts in other languages of every named thing of this generation.
    pub fn translations(&self) -> Result<&Translations, StoreError> {
        if let Some(texts) = self.translations.get() {
            let t = TreeName::Texts;
            reads::note_table(t, self.generations[t.index()]);
            return Ok(texts);
        }
        let mut texts = Translations::default();
        for t in self.scan::<Translation>(Vec::new()) {
            let t = t?;
            let pair = (t.language, t.text);
            match (t.kind, t.key.parse::<u32>()) {
                (TextKind::Term, _) => texts.terms.entry(t.key).or_default().push(pair),
                (kind, Ok(id)) => texts.by_id.entry((kind, id)).or_default().push(pair),
                // An import keys these by id; a key that is none names nothing.
                (_, Err(_)) => {}
            }
        }
        Ok(self.translations.get_or_init(|| Arc::new(texts)))
    }

    /// An article's description in the first of `languages` it has one in; none where it
    /// has one in none of them. Each language's row is read by its own key (a German answer
    /// reads one row, not every language's).
    pub fn article_description(
        &self,
        article: &ArticleKey,
        languages: &[String],
    ) -> Result<Option<String>, StoreError> {
        let t = TreeName::ArticleTexts;
        let mut key = keys::article_prefix(article);
        reads::note_prefix(t, self.generations[t.index()], &key);
        let prefix = key.len();
        for language in languages {
            key.truncate(prefix);
            key.extend_from_slice(language.as_bytes());
            if let Some(value) = self.trees[t.index()].get(&key)? {
                let description = ArticleText::description_of(&value)
                    .ok_or_else(|| StoreError::undecodable(t))?;
                return Ok(Some(description));
            }
        }
        Ok(None)
    }
}
