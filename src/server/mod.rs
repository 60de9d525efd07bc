//! The HTTP server: poem on tokio, listening on every configured address, stopping gracefully
//! on SIGTERM or Ctrl-C and flushing the store before it exits.

mod access_log;
pub mod addresses;
mod admin_api;
mod admin_import;
mod admin_request;
mod answer_cache;
mod answer_memory;
mod answers;
mod auth;
mod catalogue_page;
mod client_address;
mod compression;
pub(crate) mod connection;
pub(crate) mod connection_cap;
pub(crate) mod connection_gauge;
mod cross_origin;
mod document;
mod document_files;
mod gate;
mod health;
mod json_body;
mod media_answer;
mod metrics;
mod passage;
mod problem;
mod query;
mod rate_limit;
mod registry;
pub(crate) mod request_body;
pub mod self_signed;
pub mod signals;
pub mod soap;
mod state;
mod streaming;
mod svc;
pub mod tls;
pub mod tls_acceptor;

use std::sync::Arc;
use std::time::Duration;

use poem::{Endpoint, EndpointExt, Route, Server, get};
use poem_openapi::OpenApiService;

pub use state::AppState;

/// The OpenAPI service of the `/svc` routes; its document is generated from the code.
pub(crate) fn openapi(base_url: Option<&str>) -> OpenApiService<impl poem_openapi::OpenApi, ()> {
    use poem_openapi::{ContactObject, ServerObject};
    OpenApiService::new(svc::api(), "partscat", env!("CARGO_PKG_VERSION"))
        .description(include_str!("openapi_description.md"))
        .contact(ContactObject::new().name("partscat maintainers"))
        // `base_url` where set (a proxy's path, https://); else relative: the appliance that
        // serves the document, at whatever address it was reached.
        .server(ServerObject::new(base_url.unwrap_or("/")).description("this appliance"))
}

/// The routes, and what every request passes on its way to them and back (`passage`).
pub fn app(state: Arc<AppState>) -> impl Endpoint {
    let api = openapi(state.settings.base_url.as_deref());
    let document = document::Document::new(
        &api,
        &state.settings.route_prefix,
        state.settings.base_url.as_deref(),
        state.languages.codes(),
    );
    let soap_prefix = state.settings.soap_prefix.clone();
    let routes = Route::new()
        .at("/health", get(health::health))
        .at("/ready", get(health::ready))
        .at("/metrics", get(metrics::metrics))
        .at("/openapi.json", get(document.json()))
        .at("/openapi.yaml", get(document.yaml()))
        .at("/docs", get(document.ui()))
        .at("/docs/", get(document.ui()))
        .nest(
            "/admin",
            admin_api::routes().data(admin_request::AdminChannel::Loopback),
        )
        .nest(
            "/catalogue",
            catalogue_page::routes(&soap::json_endpoint_path(
                &soap_prefix,
                &state.settings.brand_name,
            )),
        )
        .nest(
            soap_prefix,
            soap::routes(&state.settings.brand_name)
                .at(document_files::ROUTE, get(document_files::document_file)),
        )
        .nest("/", api);
    passage::Passage::new(routes, state)
}

/// The certificate and key files, where HTTPS is configured: `tls_cert` and `tls_key`, else
/// the self-signed pair in the store's directory (`tls_self_signed`).
pub fn tls_files(settings: &crate::config::Settings) -> Option<tls::TlsFiles> {
    match (&settings.tls_cert, &settings.tls_key) {
        (Some(cert), Some(key)) => Some(tls::TlsFiles {
            cert: cert.clone(),
            key: key.clone(),
            client_ca: settings.client_ca.clone(),
        }),
        _ if settings.tls_self_signed => Some(self_signed::files(
            &settings.data_dir,
            settings.client_ca.as_deref(),
        )),
        _ => None,
    }
}

/// Binds every listen address: done first, so that a busy port stops `serve` before it has
/// written anything.
pub fn bind(addresses: &[std::net::SocketAddr]) -> std::io::Result<Vec<std::net::TcpListener>> {
    addresses
        .iter()
        .map(|address| {
            std::net::TcpListener::bind(address).map_err(|e| {
                std::io::Error::new(e.kind(), format!("cannot listen on {address}: {e}"))
            })
        })
        .collect()
}

/// The requests one HTTP/2 connection may have in flight at once, as its settings advertise
/// (hyper refuses a stream over it): many multiplexed requests are one client's.
const HTTP2_STREAMS: u32 = 100;

/// Serves on the bound listeners until SIGTERM or Ctrl-C, then lets running requests finish
/// (up to 10 s); each SIGHUP in `hangups` reloads the TLS files.
pub async fn run(
    state: Arc<AppState>,
    bound: Vec<std::net::TcpListener>,
    hangups: signals::Hangups,
) -> std::io::Result<()> {
    let addresses = state.settings.listen.clone();
    let open_files = connection_cap::raise_open_file_limit()?;
    let cap = match state.settings.max_connections {
        0 => connection_cap::default_cap(open_files),
        n => n as usize,
    };
    state.connections.set_cap(cap);
    tracing::info!(open_files, max_connections = cap, "connection limits");
    let tls = tls_layer(&state, hangups)?;
    let acceptor = connection_cap::CappedAcceptor::new(bound, state.connections.clone(), tls)?;
    let scheme = if state.settings.https() {
        "https"
    } else {
        "http"
    };
    let admin_socket = match state.settings.admin_socket_path() {
        Some(path) => Some((admin_api::bind_socket(&path)?, path)),
        None => None,
    };
    for address in &addresses {
        tracing::info!(%address, scheme, "listening");
    }
    start_background_tasks(&state);
    let (stop, stopping) = tokio::sync::watch::channel(false);
    tokio::spawn(async move {
        signals::stop_requested().await;
        let _ = stop.send(true);
    });
    let stopped = |mut stopping: tokio::sync::watch::Receiver<bool>| async move {
        let _ = stopping.wait_for(|s| *s).await;
    };
    let admin = {
        let (state, stopping) = (state.clone(), stopping.clone());
        async move {
            match admin_socket {
                Some((acceptor, path)) => {
                    admin_api::serve_socket(state, acceptor, path, stopped(stopping)).await
                }
                None => Ok(()),
            }
        }
    };
    let main = Server::new_with_acceptor(acceptor)
        .http2_max_concurrent_streams(HTTP2_STREAMS)
        .run_with_graceful_shutdown(app(state), stopped(stopping), Some(Duration::from_secs(10)));
    tokio::try_join!(main, admin).map(|_| ())
}

/// The TLS layer of the listeners where HTTPS is configured; a warning where plain HTTP
/// listens beyond loopback.
fn tls_layer(
    state: &AppState,
    hangups: signals::Hangups,
) -> std::io::Result<Option<tls_acceptor::TlsLayer>> {
    Ok(match tls_files(&state.settings) {
        Some(files) => {
            let first = files.load().map_err(std::io::Error::other)?;
            Some(tls_acceptor::TlsLayer::new(
                first,
                files.renewals(hangups),
                state.client_certificates.clone(),
            ))
        }
        None => {
            if let Some(open) = state.settings.listen.iter().find(|a| !a.ip().is_loopback()) {
                tracing::warn!(
                    address = %open,
                    "plain HTTP on an address other than loopback: API keys and passwords cross the network in clear; set tls_cert and tls_key, or tls_self_signed = true"
                );
            }
            None
        }
    })
}

/// The work a running server does besides answering: sweeping expired grants, compaction,
/// unattended syncs, following an upstream, writing deliveries.
fn start_background_tasks(state: &Arc<AppState>) {
    tokio::spawn(sweep_expired(state.clone()));
    tokio::spawn(crate::service::compaction::compact_when_due(
        state.store.clone(),
    ));
    if let Some(interval) = state.settings.sync.interval {
        tokio::spawn(sync_every(state.clone(), interval));
    }
    if state.settings.sync.follow {
        let ready = state.clone();
        tokio::spawn(crate::service::sync::follow(
            state.jobs.clone(),
            state.store.clone(),
            state.settings.sync.clone(),
            async move {
                while !ready.is_ready() {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
        ));
    }
    if let Some(dir) = state.settings.deliveries_dir.clone() {
        tokio::spawn(crate::service::deliveries::deliver_each_commit(
            state.store.clone(),
            dir,
        ));
    }
}

/// How often expired grants and audit entries past retention are removed (grants stop
/// working at their expiry second whether swept or not).
const SWEEP_EVERY: Duration = Duration::from_secs(60);

async fn sweep_expired(state: Arc<AppState>) {
    let mut every = tokio::time::interval(SWEEP_EVERY);
    loop {
        every.tick().await;
        let state = state.clone();
        let swept = tokio::task::spawn_blocking(move || {
            crate::service::access::sweep_expired(
                &state.store,
                state.clock.as_ref(),
                state.settings.audit_retention_days,
            )
        })
        .await;
        match swept {
            Ok(Ok((0, 0))) => {}
            Ok(Ok((grants, audit))) => {
                tracing::info!(grants, audit_entries = audit, "expired entries removed")
            }
            Ok(Err(e)) => tracing::warn!(error = %e, "expired entries could not be removed"),
            Err(e) => tracing::warn!(error = %e, "the sweeper failed"),
        }
    }
}

/// Unattended syncs of every data set (`[sync] interval`); one that finds an import or sync
/// running waits for the next turn.
async fn sync_every(state: Arc<AppState>, interval: Duration) {
    use crate::service::sync::{SyncRequest, Upstream};
    let mut every = tokio::time::interval(interval);
    // The first tick is at once: the first sync waits a whole interval, as configured.
    every.tick().await;
    loop {
        every.tick().await;
        let upstream = match Upstream::configured(&state.settings.sync) {
            Ok(upstream) => upstream,
            Err(e) => {
                tracing::warn!(error = %e, "the unattended sync cannot start");
                continue;
            }
        };
        let request = SyncRequest {
            data_set: None,
            refresh: false,
        };
        match state
            .jobs
            .start_sync(&state.store, upstream, request, "sync interval")
        {
            Ok((job, task)) => {
                let _ = task.await;
                let status = job.snapshot();
                tracing::info!(job = status.id, state = ?status.state, "unattended sync finished");
            }
            Err(e) => tracing::info!(reason = %e, "unattended sync skipped"),
        }
    }
}
