//! What the running appliance tells its store: how long the change feed keeps changes, the
//! bounds on what comes from outside, the languages imports keep texts in.

use super::{ChangeRetention, Store};

impl Store {
    /// Sets how long the change feed keeps changes; applied at the next commit.
    pub fn set_change_retention(&self, retention: ChangeRetention) {
        *self
            .change_retention
            .write()
            .unwrap_or_else(|e| e.into_inner()) = retention;
    }

    pub(in crate::store) fn change_retention(&self) -> ChangeRetention {
        *self
            .change_retention
            .read()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the bounds on what imports, syncs and answers take from outside.
    pub fn set_limits(&self, limits: crate::limits::Limits) {
        *self.limits.write().unwrap_or_else(|e| e.into_inner()) = limits;
    }

    /// The languages imports and syncs keep texts in (`catalogue.languages`, where it is
    /// set); a text in another is left out and counted. None: every language.
    pub fn set_text_languages(&self, languages: Option<Vec<String>>) {
        *self
            .text_languages
            .write()
            .unwrap_or_else(|e| e.into_inner()) = languages;
    }

    /// Whether imports keep texts in `language`.
    pub fn keeps_text_language(&self, language: &str) -> bool {
        self.text_languages
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_none_or(|kept| kept.iter().any(|l| l == language))
    }

    /// The bounds on what comes from outside (`[limits]`).
    pub fn limits(&self) -> crate::limits::Limits {
        *self.limits.read().unwrap_or_else(|e| e.into_inner())
    }
}
