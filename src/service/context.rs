//! What every answer of one request depends on, built once where the request is admitted
//! (`server::gate`) and handed to the service calls that answer it: the catalogue snapshot
//! every read of the answer sees, the caller and its brand rights, the language its texts
//! are written in and the catalogue's terms (its countries, what an exhaust kit is made of), and where its media
//! addresses lead. An answer kept for reuse is kept under `Context::answer_key`, so nothing an
//! answer depends on can be left out of its cache key.

use std::sync::Arc;

use super::Snapshot;
use super::caller::Caller;
use super::language::Language;
use super::media_links::MediaLinks;
use super::names::Names;

/// One request's snapshot, caller, language, the catalogue's terms and media addresses.
#[derive(Clone)]
pub struct Context {
    snapshot: Snapshot,
    caller: Caller,
    language: Language,
    terms: Arc<CatalogueTerms>,
    links: Arc<MediaLinks>,
}

/// What the catalogue's settings say its answers are for and made of, the same for every
/// request of a running server.
#[derive(Debug, Default)]
pub struct CatalogueTerms {
    /// The languages the catalogue holds, the default first (`catalogue.languages`).
    pub languages: Vec<String>,
    /// The countries the catalogue is for (`catalogue.countries`); none: every country.
    pub countries: Vec<String>,
    /// The generic articles an exhaust kit is made of (`catalogue.exhaust_genarts`).
    pub exhaust_genarts: Vec<u32>,
}

/// The part of an answer's cache key that comes from its context: who may see what, and in
/// which language (the snapshot is checked apart, by the tables an answer read).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ContextKey {
    /// The brands the caller may see; empty: every brand.
    pub brands: Vec<u32>,
    /// The language asked for and its fallback order.
    pub language: Language,
    /// Where the answer's media addresses lead, and for whom.
    pub links: String,
}

impl Context {
    /// A request's context under the catalogue's terms (shared, so that admitting a request
    /// allocates nothing for them).
    pub fn new(
        snapshot: Snapshot,
        caller: Caller,
        language: Language,
        terms: Arc<CatalogueTerms>,
        links: Arc<MediaLinks>,
    ) -> Context {
        Context {
            snapshot,
            caller,
            language,
            terms,
            links,
        }
    }

    /// The addresses the answer gives for media files.
    pub fn links(&self) -> &MediaLinks {
        &self.links
    }

    /// The languages the catalogue holds, the default first.
    pub fn languages(&self) -> &[String] {
        &self.terms.languages
    }

    /// The countries the catalogue is for; none: every country.
    pub fn countries(&self) -> &[String] {
        &self.terms.countries
    }

    /// The generic articles an exhaust kit is made of.
    pub fn exhaust_genarts(&self) -> &[u32] {
        &self.terms.exhaust_genarts
    }

    /// The catalogue as it stood when the request was admitted.
    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    /// Who calls, and what it may see.
    pub fn caller(&self) -> &Caller {
        &self.caller
    }

    /// The language the answer's texts are written in.
    pub fn language(&self) -> &Language {
        &self.language
    }

    /// The texts of this request's answer, in its language.
    pub fn names(&self) -> Names<'_> {
        Names::new(&self.snapshot, &self.language)
    }

    /// What of this context an answer depends on, as a cache key.
    pub fn answer_key(&self) -> ContextKey {
        ContextKey {
            brands: self.caller.brands().to_vec(),
            language: self.language.clone(),
            links: self.links.prefix().to_owned(),
        }
    }
}
