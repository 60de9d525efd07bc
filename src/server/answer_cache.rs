//! Finished lookup answers, as the bytes that went out, with the tables they were read from.
//!
//! The catalogue changes only when an import commits, and every answer is a function of the
//! route, its key, its request's context (`service::Context`: the brands the caller may see
//! and the language), the tables it reads and (for kit prices) the day. Keeping the serialised
//! answer of recent keys turns a repeated lookup into a map probe: the lookup routes then cost
//! what `/health` costs plus authentication. Each answer keeps the stamp of what it read
//! (`store::reads`): it is answered again while those tables are at the same generation, so a
//! commit of prices leaves the cross-reference answers in place; an answer whose tables
//! changed is built afresh and replaces it. Old answers age out under the byte budget
//! (`answer_cache_mb`, 0 turns the cache off). Errors are never kept.

use std::sync::Arc;

use bytes::Bytes;
use prometheus_client::metrics::counter::Counter;
use quick_cache::Weighter;
use quick_cache::sync::Cache;
use serde::Serialize;

pub use super::json_body::JsonBytes;
use super::json_body::MaybeStreamed;
use super::problem::Problem;
use crate::service::Snapshot;
use crate::service::context::{Context, ContextKey};
use crate::service::language::Language;
use crate::service::snapshot::Stamp;
use poem::Response;

/// The lookup an answer belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LookupKind {
    Article,
    CrossReferences,
    KtypeArticles,
    KtypePrices,
    GenartPrices {
        genart: u32,
        is_kit: bool,
    },
    ExhaustKit,
    /// A SOAP/JSON operation, kept in the form its endpoint writes; the key is its
    /// request's fields.
    Operation(&'static str, Written),
}

/// The form an operation's answer goes out in, and so is kept in: its fields as JSON, as
/// partscat's SOAP elements, or as the elements of TecDoc's schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Written {
    Json,
    Soap,
    TecdocSoap,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct AnswerKey {
    /// Kit prices use the list prices valid today: an answer is good for one day.
    day: crate::catalogue::Date,
    lookup: LookupKind,
    /// The path parameter as the client wrote it (answers echo it).
    key: String,
    /// What of the request's context the answer depends on: a restricted provider's answers
    /// are its own, and each language's are its own.
    context: ContextKey,
}

/// An `AnswerKey` borrowed from the request, so that probing the cache allocates nothing. It
/// hashes as the owned key does: the same fields in the same order (a `ContextKey`'s are its
/// brands, its language, then its media addresses' prefix), and `str` and `[u32]` hash as
/// `String` and `Vec<u32>` do.
#[derive(Hash)]
struct Probe<'a> {
    day: crate::catalogue::Date,
    lookup: LookupKind,
    key: &'a str,
    brands: &'a [u32],
    language: &'a Language,
    links: &'a str,
}

impl<'a> Probe<'a> {
    fn of(lookup: LookupKind, key: &'a str, context: &'a Context) -> Probe<'a> {
        Probe {
            day: crate::catalogue::Date::today(),
            lookup,
            key,
            brands: context.caller().brands(),
            language: context.language(),
            links: context.links().prefix(),
        }
    }

    fn owned(&self) -> AnswerKey {
        AnswerKey {
            day: self.day,
            lookup: self.lookup,
            key: self.key.to_owned(),
            context: ContextKey {
                brands: self.brands.to_vec(),
                language: self.language.clone(),
                links: self.links.to_owned(),
            },
        }
    }
}

impl quick_cache::Equivalent<AnswerKey> for Probe<'_> {
    fn equivalent(&self, owned: &AnswerKey) -> bool {
        self.day == owned.day
            && self.lookup == owned.lookup
            && self.key == owned.key
            && self.brands == owned.context.brands
            && *self.language == owned.context.language
            && self.links == owned.context.links
    }
}

#[derive(Clone)]
struct ByBytes;

/// An answer and what it was read from.
struct Kept {
    stamp: Stamp,
    bytes: Bytes,
}

impl Weighter<AnswerKey, Arc<Kept>> for ByBytes {
    fn weight(&self, key: &AnswerKey, kept: &Arc<Kept>) -> u64 {
        (key.key.len()
            + key.context.brands.len() * 4
            + key.context.links.len()
            + kept.bytes.len()
            + kept.stamp.weight()
            + 96) as u64
    }
}

/// How lookups met the cache, counted for `/metrics`.
#[derive(Clone, Default)]
pub struct Outcomes {
    /// Answered from the cache.
    pub hit: Counter,
    /// Built: a commit since changed what the kept answer read.
    pub stale: Counter,
    /// Built: nothing kept under the key (never asked, or aged out).
    pub missing: Counter,
}

pub struct AnswerCache {
    answers: Option<Cache<AnswerKey, Arc<Kept>, ByBytes>>,
    outcomes: Outcomes,
}

impl AnswerCache {
    pub fn new(budget_mb: u64, outcomes: Outcomes) -> AnswerCache {
        let bytes = budget_mb * 1024 * 1024;
        let answers = (bytes > 0).then(|| {
            // quick_cache sizes its tables from an estimate of the entry count.
            let estimated = (bytes / 4096).max(64) as usize;
            Cache::with_weighter(estimated, bytes, ByBytes)
        });
        AnswerCache { answers, outcomes }
    }

    /// The answer for `key` in `context`: from the cache or from `build`.
    pub fn answer<T: Serialize>(
        &self,
        context: &Context,
        lookup: LookupKind,
        key: &str,
        build: impl FnOnce() -> Result<T, Problem>,
    ) -> Result<JsonBytes<T>, Problem> {
        self.answer_written(context, lookup, key, || serialised(&build()?))
    }

    /// Like `answer`, for an answer `write` writes as JSON itself.
    pub fn answer_written<T>(
        &self,
        context: &Context,
        lookup: LookupKind,
        key: &str,
        write: impl FnOnce() -> Result<Vec<u8>, Problem>,
    ) -> Result<JsonBytes<T>, Problem> {
        let key = self.key(lookup, key, context);
        if let Some(bytes) = self.kept(&key, context.snapshot()) {
            return Ok(JsonBytes::new(bytes));
        }
        let (bytes, stamp) = self.built(write);
        Ok(self.keep(key, stamp, bytes?.into()))
    }

    /// Like `answer`, for a lookup whose whole answer may be too long to build: `build`
    /// gives either the answer (kept) or a streamed response (never kept). The cache is
    /// asked before anything is read.
    pub fn answer_or_stream<T: Serialize>(
        &self,
        context: &Context,
        lookup: LookupKind,
        key: &str,
        build: impl FnOnce() -> Result<Fresh<T>, Problem>,
    ) -> Result<MaybeStreamed<T>, Problem> {
        let key = self.key(lookup, key, context);
        if let Some(bytes) = self.kept(&key, context.snapshot()) {
            return Ok(MaybeStreamed::Whole(JsonBytes::new(bytes)));
        }
        let (answer, stamp) = self.built(build);
        match answer? {
            Fresh::Whole(answer) => {
                let bytes = serialised(&answer)?.into();
                Ok(MaybeStreamed::Whole(self.keep(key, stamp, bytes)))
            }
            Fresh::Streamed(response) => Ok(MaybeStreamed::Streamed(response)),
        }
    }

    /// What `build` gives, with what it read (not recorded when the cache is off: nothing
    /// would keep it).
    fn built<T>(&self, build: impl FnOnce() -> T) -> (T, Option<Stamp>) {
        match self.answers {
            Some(_) => Snapshot::recorded(build),
            None => (build(), None),
        }
    }

    /// The cache's key, or none when the cache is off.
    fn key<'a>(&self, lookup: LookupKind, key: &'a str, context: &'a Context) -> Option<Probe<'a>> {
        self.answers
            .as_ref()
            .map(|_| Probe::of(lookup, key, context))
    }

    /// The kept answer of `key`, if the tables it was read from are as `snapshot` holds them.
    fn kept(&self, key: &Option<Probe>, snapshot: &Snapshot) -> Option<Bytes> {
        let (answers, key) = (self.answers.as_ref()?, key.as_ref()?);
        let Some(kept) = answers.get(key) else {
            self.outcomes.missing.inc();
            return None;
        };
        if !snapshot.keeps(&kept.stamp) {
            self.outcomes.stale.inc();
            return None;
        }
        // Kept across commits of other keys: stamped again at today's generations, so that
        // the next lookup of it does not walk those commits' changed keys again.
        if let Some(stamp) = snapshot.restamped(&kept.stamp) {
            let bytes = kept.bytes.clone();
            answers.insert(key.owned(), Arc::new(Kept { stamp, bytes }));
        }
        self.outcomes.hit.inc();
        Some(kept.bytes.clone())
    }

    /// Keeps an answer's bytes under `key` with what it was read from (not kept without a
    /// stamp: it read two generations of one table).
    fn keep<T>(&self, key: Option<Probe>, stamp: Option<Stamp>, bytes: Bytes) -> JsonBytes<T> {
        if let (Some(answers), Some(key), Some(stamp)) = (&self.answers, key, stamp) {
            let bytes = bytes.clone();
            answers.insert(key.owned(), Arc::new(Kept { stamp, bytes }));
        }
        JsonBytes::new(bytes)
    }
}

/// An answer just built: whole, or a streamed response for a long list.
pub enum Fresh<T> {
    Whole(T),
    Streamed(Response),
}

fn serialised<T: Serialize>(value: &T) -> Result<Vec<u8>, Problem> {
    super::json_body::bounded_json(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_borrowed_probe_finds_what_its_owned_key_keeps_and_nothing_else() {
        use crate::service::language::Languages;
        let held = Languages::new(vec!["en".into(), "de".into()]);
        let (en, de) = (
            held.default_language(),
            held.choose("lang", Some("de")).unwrap(),
        );
        let cache: Cache<AnswerKey, u32> = Cache::new(16);
        let probe = |key: &'static str, brands: &'static [u32], language| Probe {
            day: crate::catalogue::Date::today(),
            lookup: LookupKind::Article,
            key,
            brands,
            language,
            links: "http://a/ws/3.0/documents/demo",
        };
        cache.insert(probe("0 986 494 048", &[2, 7], &en).owned(), 1);
        cache.insert(probe("0 986 494 048", &[], &en).owned(), 2);
        cache.insert(probe("0 986 494 048", &[], &de).owned(), 3);
        assert_eq!(cache.get(&probe("0 986 494 048", &[2, 7], &en)), Some(1));
        assert_eq!(cache.get(&probe("0 986 494 048", &[], &en)), Some(2));
        assert_eq!(cache.get(&probe("0 986 494 048", &[], &de)), Some(3));
        assert_eq!(cache.get(&probe("0 986 494 048", &[2, 7], &de)), None);
        assert_eq!(cache.get(&probe("0 986 494 048", &[2], &en)), None);
        assert_eq!(cache.get(&probe("0986494048", &[], &en)), None);
        let other = Probe {
            lookup: LookupKind::CrossReferences,
            ..probe("0 986 494 048", &[], &en)
        };
        assert_eq!(cache.get(&other), None);
        // Media addresses of another host or provider are another answer.
        let elsewhere = Probe {
            links: "http://b/ws/3.0/documents/demo",
            ..probe("0 986 494 048", &[], &en)
        };
        assert_eq!(cache.get(&elsewhere), None);
    }
}
