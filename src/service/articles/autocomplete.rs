//! Completions while a shop's search box is typed into (Pegasus's
//! `getAutoCompleteSuggestions`): the generic-article names with a word that starts with the
//! text (in the reader's language first, then in the catalogue's others), then the numbers (references and cross numbers) the caller may see that are or start
//! with it. Each is a text to put in the box; a search for it finds the parts.

use std::collections::HashSet;

use super::suggestions::suggestions;
use crate::catalogue::{GenericArticle, TextKind, normalise_reference};
use crate::service::ServiceError;
use crate::service::context::Context;
use crate::service::field::Field;

/// Completions answered at most.
pub const MAX_COMPLETIONS: usize = 20;
/// The longest text completed: beyond, nothing is being typed any more.
pub const MAX_TYPED: usize = 100;

/// Whether a word of `name` starts with `typed` (both lower case).
fn a_word_starts_with(name: &str, typed: &str) -> bool {
    name.starts_with(typed)
        || name
            .match_indices(|c: char| !c.is_alphanumeric())
            .any(|(i, sep)| name[i + sep.len()..].starts_with(typed))
}

/// The completions of `typed`: names first (those that start with it before those with a
/// later word that does, each by name), then numbers (exact before longer).
pub fn completions(
    context: &Context,
    typed: Field<Option<&str>>,
) -> Result<Vec<String>, ServiceError> {
    let field = typed.name;
    let typed = typed.required()?.value.trim();
    if typed.chars().count() > MAX_TYPED {
        return Err(ServiceError::bad_parameter(
            field,
            format!("must be at most {MAX_TYPED} characters"),
        ));
    }
    if !typed.chars().any(char::is_alphanumeric) {
        return Err(ServiceError::bad_parameter(
            field,
            "must hold at least one letter or digit",
        ));
    }
    let lower = typed.to_lowercase();
    // Every generic article's names, the reader's language first, then its other languages'.
    let (catalogue, reader) = (context.snapshot(), context.names());
    let mut named: Vec<(bool, String)> = Vec::new();
    for genart in catalogue.records::<GenericArticle>() {
        let genart = genart?;
        named.push((false, reader.genart(genart.id)?));
        named.push((true, genart.name));
    }
    for (_, _, name) in catalogue.translations()?.all_of(TextKind::GenericArticle) {
        named.push((true, name.to_owned()));
    }
    let mut names: Vec<(bool, bool, String)> = named
        .into_iter()
        .filter_map(|(other_language, name)| {
            let folded = name.to_lowercase();
            a_word_starts_with(&folded, &lower)
                .then(|| (other_language, !folded.starts_with(&lower), name))
        })
        .collect();
    names.sort();
    let mut seen = HashSet::new();
    let mut found: Vec<String> = names
        .into_iter()
        .map(|(_, _, name)| name)
        .filter(|name| seen.insert(name.to_lowercase()))
        .take(MAX_COMPLETIONS)
        .collect();
    let room = MAX_COMPLETIONS - found.len();
    if room > 0 && !normalise_reference(typed).is_empty() {
        for s in suggestions(context, typed, room)? {
            if seen.insert(normalise_reference(&s.number)) {
                found.push(s.number);
            }
        }
    }
    found.truncate(MAX_COMPLETIONS);
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::a_word_starts_with;

    #[test]
    fn a_completion_may_start_at_any_word() {
        assert!(a_word_starts_with("brake pad set, disc brake", "brake"));
        assert!(a_word_starts_with("brake pad set, disc brake", "disc"));
        assert!(a_word_starts_with("oil filter", "fil"));
        assert!(!a_word_starts_with("oil filter", "ilter"));
    }
}
