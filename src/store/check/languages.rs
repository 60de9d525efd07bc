//! How far each language's texts cover what the catalogue names: the operator sees which
//! language lacks what before a reader meets the fallback.

use std::collections::BTreeMap;

use super::super::catalogue_view::Catalogue;
use super::super::layout::TreeName;
use crate::catalogue::{ArticleText, TextKind, Translation};

/// One language's texts beside what the catalogue names: (translated, in all) of each kind.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LanguageCover {
    pub language: String,
    pub generic_articles: (u64, u64),
    pub assembly_groups: (u64, u64),
    pub model_series: (u64, u64),
    pub descriptions: (u64, u64),
    /// Terms (criteria, positions, statuses …) it translates; the rows name no total.
    pub terms: u64,
}

impl LanguageCover {
    /// One line for the operator: what the language holds, and what it lacks.
    pub fn sentence(&self) -> String {
        let of = |(held, all): (u64, u64), what: &str| format!("{held} of {all} {what}");
        format!(
            "texts in {}: {}, {}, {}, {}, {} terms",
            self.language,
            of(self.generic_articles, "generic article names"),
            of(self.assembly_groups, "assembly group names"),
            of(self.model_series, "model series names"),
            of(self.descriptions, "article descriptions"),
            self.terms
        )
    }
}

/// Each language the texts hold, in code order. A table that cannot be read is counted as
/// far as it can be (its damage is a problem of its own).
pub fn covers(catalogue: &Catalogue) -> Vec<LanguageCover> {
    let count = |t: TreeName| catalogue.count(t).unwrap_or(0);
    let all = (
        count(TreeName::GenericArticles),
        count(TreeName::AssemblyGroups),
        count(TreeName::ModelSeries),
        count(TreeName::Articles),
    );
    let mut by_language: BTreeMap<String, LanguageCover> = BTreeMap::new();
    for t in catalogue.records::<Translation>().map_while(Result::ok) {
        let c = cover(&mut by_language, &t.language, all);
        match t.kind {
            TextKind::GenericArticle => c.generic_articles.0 += 1,
            TextKind::AssemblyGroup => c.assembly_groups.0 += 1,
            TextKind::ModelSeries => c.model_series.0 += 1,
            TextKind::Term => c.terms += 1,
        }
    }
    for t in catalogue.records::<ArticleText>().map_while(Result::ok) {
        cover(&mut by_language, &t.language, all).descriptions.0 += 1;
    }
    by_language.into_values().collect()
}

/// The language's cover, begun with nothing held of `all` (generic articles, assembly groups,
/// model series, articles).
fn cover<'m>(
    by_language: &'m mut BTreeMap<String, LanguageCover>,
    language: &str,
    all: (u64, u64, u64, u64),
) -> &'m mut LanguageCover {
    by_language
        .entry(language.to_owned())
        .or_insert_with(|| LanguageCover {
            language: language.to_owned(),
            generic_articles: (0, all.0),
            assembly_groups: (0, all.1),
            model_series: (0, all.2),
            descriptions: (0, all.3),
            terms: 0,
        })
}
