//! Finished lookup answers, as the bytes that went out, for one catalogue generation.
//!
//! The catalogue changes only when an import commits, and every answer is a function of the
//! route, its key, the data version and (for kit prices) the day. Keeping the serialised answer of recent keys turns a
//! repeated lookup into a map probe: the lookup routes then cost what `/health` costs plus
//! authentication. The key carries the data version, so an import makes every older answer
//! unreachable at once; they age out under the byte budget (`answer_cache_mb`, 0 turns the
//! cache off). Errors are never kept.

use bytes::Bytes;
use quick_cache::Weighter;
use quick_cache::sync::Cache;
use serde::Serialize;

pub use super::json_body::JsonBytes;
use super::json_body::MaybeStreamed;
use super::problem::Problem;
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
    /// A SOAP/JSON operation; the key is its request's fields.
    Operation(&'static str),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct AnswerKey {
    data_version: u64,
    /// Kit prices use the list prices valid today: an answer is good for one day.
    day: crate::catalogue::Date,
    lookup: LookupKind,
    /// The path parameter as the client wrote it (answers echo it).
    key: String,
    /// The brands the caller may see (empty: all): a restricted provider's answers are its own.
    brands: Vec<u32>,
}

#[derive(Clone)]
struct ByBytes;

impl Weighter<AnswerKey, Bytes> for ByBytes {
    fn weight(&self, key: &AnswerKey, answer: &Bytes) -> u64 {
        (key.key.len() + key.brands.len() * 4 + answer.len() + 64) as u64
    }
}

pub struct AnswerCache {
    answers: Option<Cache<AnswerKey, Bytes, ByBytes>>,
}

impl AnswerCache {
    pub fn new(budget_mb: u64) -> AnswerCache {
        let bytes = budget_mb * 1024 * 1024;
        let answers = (bytes > 0).then(|| {
            // quick_cache sizes its tables from an estimate of the entry count.
            let estimated = (bytes / 4096).max(64) as usize;
            Cache::with_weighter(estimated, bytes, ByBytes)
        });
        AnswerCache { answers }
    }

    /// The answer for `key`, from the cache or from `build`.
    pub fn answer<T: Serialize>(
        &self,
        data_version: u64,
        lookup: LookupKind,
        key: &str,
        brands: &[u32],
        build: impl FnOnce() -> Result<T, Problem>,
    ) -> Result<JsonBytes<T>, Problem> {
        let key = self.key(data_version, lookup, key, brands);
        if let Some(bytes) = self.kept(&key) {
            return Ok(JsonBytes::new(bytes));
        }
        self.keep(key, &build()?)
    }

    /// Like `answer`, for a lookup whose whole answer may be too long to build: `build`
    /// gives either the answer (kept) or a streamed response (never kept). The cache is
    /// asked before anything is read.
    pub fn answer_or_stream<T: Serialize>(
        &self,
        data_version: u64,
        lookup: LookupKind,
        key: &str,
        brands: &[u32],
        build: impl FnOnce() -> Result<Fresh<T>, Problem>,
    ) -> Result<MaybeStreamed<T>, Problem> {
        let key = self.key(data_version, lookup, key, brands);
        if let Some(bytes) = self.kept(&key) {
            return Ok(MaybeStreamed::Whole(JsonBytes::new(bytes)));
        }
        match build()? {
            Fresh::Whole(answer) => self.keep(key, &answer).map(MaybeStreamed::Whole),
            Fresh::Streamed(response) => Ok(MaybeStreamed::Streamed(response)),
        }
    }

    /// The cache's key, or none when the cache is off.
    fn key(
        &self,
        data_version: u64,
        lookup: LookupKind,
        key: &str,
        brands: &[u32],
    ) -> Option<AnswerKey> {
        self.answers.as_ref().map(|_| AnswerKey {
            data_version,
            day: crate::catalogue::Date::today(),
            lookup,
            key: key.to_owned(),
            brands: brands.to_vec(),
        })
    }

    fn kept(&self, key: &Option<AnswerKey>) -> Option<Bytes> {
        self.answers.as_ref()?.get(key.as_ref()?)
    }

    /// Serialises an answer, keeping its bytes under `key`.
    fn keep<T: Serialize>(
        &self,
        key: Option<AnswerKey>,
        answer: &T,
    ) -> Result<JsonBytes<T>, Problem> {
        let bytes = serialised(answer)?;
        if let (Some(answers), Some(key)) = (&self.answers, key) {
            answers.insert(key, bytes.clone());
        }
        Ok(JsonBytes::new(bytes))
    }
}

/// An answer just built: whole, or a streamed response for a long list.
pub enum Fresh<T> {
    Whole(T),
    Streamed(Response),
}

fn serialised<T: Serialize>(value: &T) -> Result<Bytes, Problem> {
    super::json_body::bounded_json(value).map(Bytes::from)
}
