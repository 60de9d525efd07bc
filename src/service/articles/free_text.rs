//! Free text (`searchType` 99): the articles whose description or generic article name holds
//! every word of a query, in any of the languages the catalogue serves (`catalogue.languages`:
//! a text a store keeps in another is not searched) and any script, case aside. The
//! matches in the reader's language come first: a German reader's "Stoßdämpfer" finds the
//! parts described so in German before those it matched through another language's texts.

use std::collections::{BTreeMap, BTreeSet};

use crate::budget::Budget;
use crate::catalogue::{ArticleKey, ArticleText, TextKind};
use crate::service::ServiceError;
use crate::service::language::Language;
use crate::store::Catalogue;

/// What a free-text query matched.
#[derive(Debug, Default)]
pub struct Described {
    /// Matched in the reader's language: its generic article name and description there
    /// (the data sets' own texts where it is the default) hold every word.
    pub in_language: BTreeSet<ArticleKey>,
    /// Matched only through the texts of the catalogue's other languages.
    pub elsewhere: BTreeSet<ArticleKey>,
}

/// Each generic article's names, lower case, with their language codes.
struct GenartNames(BTreeMap<u32, Vec<(String, String)>>);

impl GenartNames {
    fn of(catalogue: &Catalogue, served: &Language) -> Result<GenartNames, ServiceError> {
        let mut names: BTreeMap<u32, Vec<(String, String)>> = BTreeMap::new();
        for (id, name) in &catalogue.names()?.generic_articles {
            let own = (served.default_code().to_owned(), name.to_lowercase());
            names.entry(*id).or_default().push(own);
        }
        for (id, language, name) in catalogue.translations()?.all_of(TextKind::GenericArticle) {
            if !served.serves(language) {
                continue;
            }
            let text = (language.to_owned(), name.to_lowercase());
            names.entry(id).or_default().push(text);
        }
        Ok(GenartNames(names))
    }

    /// The names of `genart`, in `language` only or (none) in every language.
    fn of_genart<'a>(
        &'a self,
        genart: u32,
        language: Option<&'a str>,
    ) -> impl Iterator<Item = &'a str> {
        self.0
            .get(&genart)
            .into_iter()
            .flatten()
            .filter(move |(l, _)| language.is_none_or(|language| l == language))
            .map(|(_, name)| name.as_str())
    }
}

/// The articles `text` describes: a read of every article and of every description in another
/// language, bounded by the budget.
pub fn described(
    catalogue: &Catalogue,
    language: &Language,
    text: &str,
    budget: &Budget,
) -> Result<Described, ServiceError> {
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    let holds_all = |texts: &[&str]| {
        words
            .iter()
            .all(|w| texts.iter().any(|t| t.contains(w.as_str())))
    };
    let default = language.default_code();
    let asked = language.code();
    let genarts = GenartNames::of(catalogue, language)?;
    // Whether `description` (in `described_in`), with the generic article's names, holds
    // every word: in the asked language alone, or through any language.
    let matches = |genart: u32, description: &str, described_in: &str| -> (bool, bool) {
        let description = description.to_lowercase();
        let mut texts: Vec<&str> = genarts.of_genart(genart, Some(asked)).collect();
        if described_in == asked {
            texts.push(&description);
        }
        if holds_all(&texts) {
            return (true, true);
        }
        let mut texts: Vec<&str> = genarts.of_genart(genart, None).collect();
        texts.push(&description);
        (false, holds_all(&texts))
    };
    let mut found = Described::default();
    for (i, article) in catalogue.articles().enumerate() {
        budget.check_every(i)?;
        let a = article?;
        match matches(a.genart, &a.description, default) {
            (true, _) => found.in_language.insert(a.key),
            (false, true) => found.elsewhere.insert(a.key),
            _ => false,
        };
    }
    // A description in another language, with its generic article's names.
    for (i, described) in catalogue.records::<ArticleText>().enumerate() {
        budget.check_every(i)?;
        let t = described?;
        if found.in_language.contains(&t.article) || !language.serves(&t.language) {
            continue;
        }
        if found.elsewhere.contains(&t.article) && t.language != asked {
            continue;
        }
        let Some(article) = catalogue.article(&t.article)? else {
            continue;
        };
        match matches(article.genart, &t.description, &t.language) {
            (true, _) => {
                found.elsewhere.remove(&t.article);
                found.in_language.insert(t.article)
            }
            (false, true) => found.elsewhere.insert(t.article),
            _ => false,
        };
    }
    Ok(found)
}
