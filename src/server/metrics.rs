//! Prometheus metrics at `/metrics`: requests by route and status, their durations, and the
//! appliance's state at scrape time. Route labels come from a fixed set, so the number of
//! series stays bounded whatever paths clients try.
//!
//! `metrics` setting: `open` (default; counters only, no catalogue data), `admin` (the
//! provider credentials of an `admin` scope, checked like `/svc`), or `off` (404).

use std::sync::Arc;
use std::time::Instant;

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Request, Response, handler};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use super::AppState;
use super::problem::Problem;
use crate::config::MetricsAccess;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    route: &'static str,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OperationLabels {
    operation: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OutcomeLabels {
    outcome: &'static str,
}

type Durations = Family<RouteLabels, Histogram, fn() -> Histogram>;

pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    durations: Durations,
    ready: Gauge,
    data_version: Gauge,
    providers: Gauge,
    answer_lookups: Family<OutcomeLabels, Counter>,
    answers_in_flight: Gauge,
    calls_abandoned: Counter,
    ignored_fields: Family<OperationLabels, Counter>,
}

fn duration_buckets() -> Histogram {
    // 50 µs to about 13 s, by factors of 4: lookups sit at the low end, exports at the high.
    Histogram::new(exponential_buckets(0.000_05, 4.0, 10))
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("partscat");
        let requests = Family::<RequestLabels, Counter>::default();
        let durations: Durations = Family::new_with_constructor(duration_buckets);
        let (ready, data_version, providers) =
            (Gauge::default(), Gauge::default(), Gauge::default());
        registry.register(
            "http_requests",
            "HTTP requests answered, by route and status",
            requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time to the response's head, by route (streamed bodies continue after it)",
            durations.clone(),
        );
        registry.register("ready", "1 once the catalogue is loaded", ready.clone());
        registry.register(
            "catalogue_data_version",
            "The published catalogue's data version",
            data_version.clone(),
        );
        registry.register("providers", "Providers in the store", providers.clone());
        let answer_lookups = Family::<OutcomeLabels, Counter>::default();
        registry.register(
            "answer_cache_lookups",
            "Lookups asked of the answer cache, by outcome: hit, stale (a commit changed what \
             the kept answer read) or missing",
            answer_lookups.clone(),
        );
        let (answers_in_flight, calls_abandoned) = (Gauge::default(), Counter::default());
        registry.register(
            "answers_in_flight_bytes",
            "What the answers being built and sent hold together (limits.answers_in_flight_mb)",
            answers_in_flight.clone(),
        );
        registry.register(
            "calls_abandoned",
            "SOAP and JSON calls on the blocking pool whose work stopped short because their \
             client went away",
            calls_abandoned.clone(),
        );
        let ignored_fields = Family::<OperationLabels, Counter>::default();
        registry.register(
            "ignored_fields",
            "Fields TecDoc does not define that Pegasus calls gave and that were ignored, by \
             operation",
            ignored_fields.clone(),
        );
        Metrics {
            ignored_fields,
            registry,
            requests,
            durations,
            ready,
            data_version,
            providers,
            answer_lookups,
            answers_in_flight,
            calls_abandoned,
        }
    }
}

impl Metrics {
    /// A call's client went away and its work stopped short.
    pub fn call_abandoned(&self) {
        self.calls_abandoned.inc();
    }

    /// A call of `operation` gave `n` fields TecDoc does not define, which were ignored.
    pub fn ignored_fields(&self, operation: &'static str, n: usize) {
        self.ignored_fields
            .get_or_create(&OperationLabels { operation })
            .inc_by(n as u64);
    }

    /// The answer cache's counters, registered here.
    pub fn answer_outcomes(&self) -> super::answer_cache::Outcomes {
        let counter = |outcome| {
            self.answer_lookups
                .get_or_create(&OutcomeLabels { outcome })
                .clone()
        };
        super::answer_cache::Outcomes {
            hit: counter("hit"),
            stale: counter("stale"),
            missing: counter("missing"),
        }
    }
}

/// A fixed label for a path.
fn route_label(path: &str) -> &'static str {
    if let Some(name) = super::registry::route_name_of(path) {
        return name;
    }
    match path {
        "/health" => "health",
        "/ready" => "ready",
        "/metrics" => "metrics",
        "/openapi.json" | "/openapi.yaml" => "openapi",
        _ if path == "/docs" || path.starts_with("/docs/") => "docs",
        _ if path == "/admin" || path.starts_with("/admin/") => "admin",
        _ if path.starts_with("/svc/") => "svc_unknown",
        _ if path.ends_with(".soapEndpoint") => "soap",
        _ if path.ends_with(".jsonEndpoint") => "json",
        _ => "other",
    }
}

/// A request being counted and timed: begun when it comes in, counted with its answer.
pub struct Timing {
    route: &'static str,
    started: Instant,
}

impl Timing {
    pub fn begin(req: &Request) -> Timing {
        Timing {
            route: route_label(req.uri().path()),
            started: Instant::now(),
        }
    }

    pub fn end(self, m: &Metrics, response: &Response) {
        let route = self.route;
        m.requests
            .get_or_create(&RequestLabels {
                route,
                status: response.status().as_u16(),
            })
            .inc();
        m.durations
            .get_or_create(&RouteLabels { route })
            .observe(self.started.elapsed().as_secs_f64());
    }
}

#[handler]
pub async fn metrics(Data(state): Data<&Arc<AppState>>) -> Result<Response, Problem> {
    if state.settings.metrics == MetricsAccess::Off {
        return Err(Problem::not_found(
            "metrics are turned off on this server (setting `metrics`)",
        ));
    }
    let m = &state.metrics;
    m.ready.set(i64::from(state.is_ready()));
    m.data_version
        .set(i64::try_from(crate::service::status::data_version(&state.store)).unwrap_or(i64::MAX));
    let store = state.store.clone();
    let providers =
        tokio::task::spawn_blocking(move || crate::service::status::provider_count(&store))
            .await
            .map_err(Problem::internal)?
            .map_err(Problem::from)?;
    m.providers
        .set(i64::try_from(providers).unwrap_or(i64::MAX));
    m.answers_in_flight
        .set(i64::try_from(crate::limits::in_flight::used_bytes()).unwrap_or(i64::MAX));
    let mut text = String::new();
    encode(&mut text, &m.registry).map_err(Problem::internal)?;
    Ok(Response::builder()
        .status(StatusCode::OK)
        .content_type("application/openmetrics-text; version=1.0.0; charset=utf-8")
        .body(text))
}

#[cfg(test)]
mod tests {
    use super::route_label;

    #[test]
    fn labels_are_a_fixed_set() {
        assert_eq!(
            route_label("/svc/getArticlesByKtype/10219"),
            "getArticlesByKtype"
        );
        assert_eq!(route_label("/svc/e/k/1"), "e");
        assert_eq!(route_label("/svc/whatever/x"), "svc_unknown");
        assert_eq!(route_label("/admin/providers/x"), "admin");
        assert_eq!(route_label("/docs/"), "docs");
        assert_eq!(route_label("/anything/else"), "other");
    }
}
