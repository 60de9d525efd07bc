//! What every handler can reach: the store, the settings, and the server's own state
//! (readiness, jobs, the answer cache, rate limits, metrics, the connection gauge).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use poem::http::HeaderValue;

use super::{answer_cache, connection_cap, connection_gauge, metrics, rate_limit, tls_acceptor};
use crate::config::Settings;
use crate::service::context::CatalogueTerms;
use crate::service::language::{Language, Languages};
use crate::store::Store;

/// What every handler can reach.
pub struct AppState {
    pub store: Arc<Store>,
    pub settings: Settings,
    /// The languages the catalogue's texts are held in (`catalogue.languages`).
    pub languages: Languages,
    /// The catalogue's terms from the settings, as every request's context carries them.
    pub terms: Arc<CatalogueTerms>,
    /// Each language's `Content-Language`, made once: naming an answer's language shares it.
    content_languages: Vec<(String, HeaderValue)>,
    pub(super) ready: AtomicBool,
    /// What the server does before it is ready, for `/ready` to say.
    pub(super) loading: std::sync::Mutex<&'static str>,
    pub(super) jobs: Arc<crate::service::jobs::Jobs>,
    pub(super) answers: answer_cache::AnswerCache,
    pub(super) rate_limits: rate_limit::RateLimits,
    pub(super) metrics: metrics::Metrics,
    /// The fields TecDoc does not define the log has named, per provider and operation.
    pub(super) ignored_fields: super::soap::ignored::Logged,
    /// Client connections against their cap.
    pub(super) connections: Arc<connection_gauge::ConnectionGauge>,
    /// The clock grants expire by.
    pub clock: Arc<dyn crate::clock::Clock>,
    /// The HTTPS connections that presented a certificate the `client_ca` signed.
    pub(crate) client_certificates: Arc<tls_acceptor::ClientCertificates>,
}

impl AppState {
    pub fn new(store: Arc<Store>, settings: Settings) -> Arc<AppState> {
        let metrics = metrics::Metrics::default();
        Arc::new(AppState {
            store,
            answers: answer_cache::AnswerCache::new(
                settings.answer_cache_mb,
                metrics.answer_outcomes(),
            ),
            rate_limits: rate_limit::RateLimits::new(settings.rate_limit_per_second),
            metrics,
            ignored_fields: Default::default(),
            connections: connection_gauge::ConnectionGauge::new(connection_cap::default_cap(
                u64::MAX,
            )),
            clock: Arc::new(crate::clock::SystemClock),
            languages: Languages::new(settings.catalogue_languages.clone()),
            content_languages: settings
                .catalogue_languages
                .iter()
                .filter_map(|code| {
                    let value = HeaderValue::from_maybe_shared(bytes::Bytes::from(code.clone()));
                    Some((code.clone(), value.ok()?))
                })
                .collect(),
            terms: Arc::new(CatalogueTerms {
                languages: settings.catalogue_languages.clone(),
                countries: settings.catalogue_countries.clone(),
                exhaust_genarts: settings.exhaust_genarts.clone(),
            }),
            settings,
            ready: AtomicBool::new(false),
            loading: std::sync::Mutex::new("opening the catalogue"),
            jobs: Arc::default(),
            client_certificates: Arc::default(),
        })
    }

    /// The `Content-Language` of an answer in `language`: the language served.
    pub fn content_language(&self, language: &Language) -> Option<HeaderValue> {
        let code = language.code();
        self.content_languages
            .iter()
            .find(|(c, _)| c == code)
            .map(|(_, value)| value.clone())
    }

    pub fn is_ready(&self) -> bool {
        self.ready.load(Ordering::Acquire)
    }

    pub fn set_ready(&self) {
        self.ready.store(true, Ordering::Release);
    }

    /// Says what the server does before it is ready.
    pub fn set_loading(&self, what: &'static str) {
        *self.loading.lock().unwrap_or_else(|e| e.into_inner()) = what;
    }

    /// What the server does before it is ready.
    pub fn loading(&self) -> &'static str {
        *self.loading.lock().unwrap_or_else(|e| e.into_inner())
    }
}
