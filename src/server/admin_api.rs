//! The admin API, which `partscat admin` talks to while the server runs (only one process can
//! open the store). It answers on a Unix socket, where the socket file's permissions (the
//! service's user and root) are the credential, and under `/admin` on the HTTP listeners for a
//! provider with the `admin` scope calling from loopback.
//!
//! - `GET /admin/providers`, `POST /admin/providers` (a `NewProvider`; 201 with the key, once)
//! - `GET|PATCH|DELETE /admin/providers/:id` (PATCH takes a `Change`)
//! - `GET /admin/audit?limit=N`
//! - `POST /admin/sync` (a `SyncOrder`; 202 with the job), `GET /admin/jobs/:id`
//! - `GET /admin/backup`: the store's backup, streamed
//! - `POST /admin/dmm` (a `DmmOrder`; 202 with the job)
//! - `POST /admin/import?dryRun=&mode=` (a tar of import files, streamed; 202 with the job);
//!   `GET /admin/import`: how large the files may be together (`limits.import_mb`)
//! - `POST /admin/compact`: compacts the store while it serves; 200 with the bytes before
//!   and after

use std::path::{Path, PathBuf};
use std::sync::Arc;

use poem::http::StatusCode;
use poem::listener::UnixAcceptor;
use poem::web::{Data, Path as PathParam, Query};
use poem::{Body, EndpointExt, Request, Response, Route, Server, get, handler};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::AppState;
use super::admin_request::{AdminChannel, job_started, json_answer, operator};
use super::problem::Problem;
use crate::service::admin::{self, AdminError};

pub fn routes() -> Route {
    Route::new()
        .at("/providers", get(list_providers).post(create_provider))
        .at(
            "/providers/:id",
            get(show_provider)
                .patch(change_provider)
                .delete(delete_provider),
        )
        .at("/audit", get(audit_trail))
        .at("/sync", poem::post(start_sync))
        .at("/jobs/:id", get(show_job))
        .at("/backup", get(backup))
        .at("/compact", poem::post(compact))
        .at("/dmm", poem::post(start_dmm))
        .at(
            "/import",
            get(super::admin_import::import_bound).post(super::admin_import::start_import),
        )
        .at("/media", get(media_inventory))
}

/// What `partscat media` asks: one brand or all, and how many missing entries to list.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InventoryQuery {
    pub brand: Option<u32>,
    #[serde(default)]
    pub list: usize,
}

#[handler]
async fn media_inventory(
    state: Data<&Arc<AppState>>,
    poem::web::Query(query): poem::web::Query<InventoryQuery>,
) -> Result<Response, Problem> {
    if let Some(brand) = query.brand {
        crate::service::exports::existing_brand(&state.store, brand).map_err(Problem::from)?;
    }
    let (store, dir) = (state.store.clone(), state.settings.media.dir.clone());
    let inventory = tokio::task::spawn_blocking(move || {
        let media = crate::media::MediaStore::reading(&dir);
        crate::service::media_inventory::inventory(&store, &media, query.brand, query.list)
            .map_err(Problem::from)
    })
    .await
    .map_err(Problem::internal)??;
    Ok(json_answer(StatusCode::OK, &inventory))
}

/// What `partscat dmm` asks of a running server.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DmmOrder {
    pub brand_id: u32,
    #[serde(default)]
    pub publish: bool,
    #[serde(default)]
    pub download360: bool,
}

#[handler]
async fn start_dmm(
    req: &Request,
    state: Data<&Arc<AppState>>,
    body: Body,
) -> Result<Response, Problem> {
    use crate::service::dmm::{DmmError, DmmRequest, MediaSetup};
    let order: DmmOrder = read_json(body, "DMM order").await?;
    crate::service::exports::existing_brand(&state.store, order.brand_id).map_err(Problem::from)?;
    let request = DmmRequest {
        brand_id: order.brand_id,
        publish: order.publish,
        download360: order.download360,
    };
    let setup = MediaSetup::configured(&state.settings.media, state.settings.limits, &request)
        .map_err(|e| match e {
            DmmError::Refused(e) => Problem::from(e),
            e => Problem::new(StatusCode::CONFLICT, e.to_string()),
        })?;
    let started_by = operator(req)?.0;
    let (job, _) = state
        .jobs
        .start_dmm(&state.store, setup, request, &started_by)
        .map_err(Problem::from)?;
    Ok(job_started(&state, &job))
}

#[handler]
async fn backup(state: Data<&Arc<AppState>>) -> Response {
    let store = state.store.clone();
    let body = super::streaming::written_body(move |out| {
        let summary = store.backup(out).map_err(|e| e.to_string())?;
        tracing::info!(
            data_version = summary.data_version,
            entries = summary.entries,
            bytes = summary.bytes,
            "backup written"
        );
        Ok(())
    });
    let mut response = Response::builder()
        .status(StatusCode::OK)
        .content_type("application/octet-stream")
        .header(poem::http::header::CACHE_CONTROL, "no-store")
        .body(body);
    response.extensions_mut().insert(super::streaming::Streamed);
    response
}

#[handler]
async fn compact(state: Data<&Arc<AppState>>) -> Result<Response, Problem> {
    let done = crate::service::compaction::compact(&state.store).await?;
    Ok(json_answer(StatusCode::OK, &done))
}

/// What `partscat sync` asks of a running server.
#[derive(Debug, Deserialize, serde::Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SyncOrder {
    /// A data set's name, or `all`.
    pub import_type: String,
    #[serde(default)]
    pub refresh: bool,
}

#[handler]
async fn start_sync(
    req: &Request,
    state: Data<&Arc<AppState>>,
    body: Body,
) -> Result<Response, Problem> {
    let order: SyncOrder = read_json(body, "sync order").await?;
    let data_set = match order.import_type.as_str() {
        "all" => None,
        name => Some(crate::import::ImportType::from_name(name).ok_or_else(|| {
            Problem::bad_parameter(
                "importType",
                format!(
                    "`{name}` is not a data set; one of {} or all",
                    crate::import::ImportType::names()
                ),
            )
        })?),
    };
    let upstream = crate::service::sync::Upstream::configured(&state.settings.sync)
        .map_err(|e| Problem::new(StatusCode::CONFLICT, e.to_string()))?;
    let request = crate::service::sync::SyncRequest {
        data_set,
        refresh: order.refresh,
    };
    let started_by = operator(req)?.0;
    let (job, _) = state
        .jobs
        .start_sync(&state.store, upstream, request, &started_by)
        .map_err(Problem::from)?;
    Ok(job_started(&state, &job))
}

#[handler]
async fn show_job(
    state: Data<&Arc<AppState>>,
    PathParam(id): PathParam<u64>,
) -> Result<Response, Problem> {
    let job = state
        .jobs
        .get(id)
        .ok_or_else(|| Problem::not_found(format!("there is no job {id}")))?;
    Ok(json_answer(
        StatusCode::OK,
        &super::svc::job_status(&job, &state.settings.route_prefix),
    ))
}

impl From<AdminError> for Problem {
    fn from(e: AdminError) -> Problem {
        match e {
            AdminError::UnknownProvider(_)
            | AdminError::UnknownKey { .. }
            | AdminError::NotListed { .. } => Problem::not_found(e.to_string()),
            AdminError::Exists(_) | AdminError::NumberTaken { .. } => {
                Problem::new(StatusCode::CONFLICT, e.to_string())
            }
            AdminError::Invalid(_) => Problem::new(StatusCode::BAD_REQUEST, e.to_string()),
            AdminError::Store(e) => Problem::from(crate::service::ServiceError::from(e)),
        }
    }
}

/// Runs an admin call off the async threads (it flushes the store).
async fn blocking<T: Send + 'static>(
    call: impl FnOnce() -> Result<T, AdminError> + Send + 'static,
) -> Result<T, Problem> {
    tokio::task::spawn_blocking(call)
        .await
        .map_err(Problem::internal)?
        .map_err(Problem::from)
}

async fn read_json<T: DeserializeOwned>(body: Body, what: &str) -> Result<T, Problem> {
    let bytes = body.into_bytes().await.map_err(|e| {
        let status = match &e {
            poem::error::ReadBodyError::Io(io) => super::request_body::body_error_status(io),
            _ => StatusCode::BAD_REQUEST,
        };
        Problem::new(status, format!("the body cannot be read: {e}"))
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        Problem::new(
            StatusCode::BAD_REQUEST,
            format!("the body is not a valid {what}: {e}"),
        )
    })
}

#[handler]
async fn list_providers(state: Data<&Arc<AppState>>) -> Result<Response, Problem> {
    let state = Arc::clone(state.0);
    let providers = blocking(move || admin::list(&state.store)).await?;
    Ok(json_answer(StatusCode::OK, &providers))
}

#[handler]
async fn create_provider(
    req: &Request,
    state: Data<&Arc<AppState>>,
    body: Body,
) -> Result<Response, Problem> {
    let operator = operator(req)?;
    let new: admin::NewProvider = read_json(body, "provider (id, scopes, …)").await?;
    let state = Arc::clone(state.0);
    let outcome =
        blocking(move || admin::create(&state.store, state.clock.as_ref(), &operator, new)).await?;
    let mut response = json_answer(StatusCode::CREATED, &outcome);
    if let Ok(location) = format!("/admin/providers/{}", outcome.provider.id).parse() {
        response
            .headers_mut()
            .insert(poem::http::header::LOCATION, location);
    }
    Ok(response)
}

#[handler]
async fn show_provider(
    state: Data<&Arc<AppState>>,
    PathParam(id): PathParam<String>,
) -> Result<Response, Problem> {
    let state = Arc::clone(state.0);
    let provider = blocking(move || admin::show(&state.store, &id)).await?;
    Ok(json_answer(StatusCode::OK, &provider))
}

#[handler]
async fn change_provider(
    req: &Request,
    state: Data<&Arc<AppState>>,
    PathParam(id): PathParam<String>,
    body: Body,
) -> Result<Response, Problem> {
    let operator = operator(req)?;
    let change: admin::Change = read_json(body, "change (an object with an `action`)").await?;
    let state = Arc::clone(state.0);
    let outcome =
        blocking(move || admin::change(&state.store, state.clock.as_ref(), &operator, &id, change))
            .await?;
    Ok(json_answer(StatusCode::OK, &outcome))
}

#[handler]
async fn delete_provider(
    req: &Request,
    state: Data<&Arc<AppState>>,
    PathParam(id): PathParam<String>,
) -> Result<Response, Problem> {
    let operator = operator(req)?;
    let state = Arc::clone(state.0);
    let gone = id.clone();
    blocking(move || {
        admin::delete(&state.store, state.clock.as_ref(), &operator, &id)?;
        state.rate_limits.forget(&id);
        Ok(())
    })
    .await?;
    Ok(json_answer(
        StatusCode::OK,
        &serde_json::json!({ "deleted": gone }),
    ))
}

#[derive(Deserialize)]
struct AuditQuery {
    limit: Option<String>,
}

/// The most audit entries one call returns.
const MAX_AUDIT_ENTRIES: usize = 10_000;

#[handler]
async fn audit_trail(
    state: Data<&Arc<AppState>>,
    Query(query): Query<AuditQuery>,
) -> Result<Response, Problem> {
    let limit = match query.limit.as_deref() {
        None => 100,
        Some(text) => text
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_AUDIT_ENTRIES).contains(n))
            .ok_or_else(|| {
                Problem::bad_parameter(
                    "limit",
                    format!("`limit` must be a number from 1 to {MAX_AUDIT_ENTRIES}"),
                )
            })?,
    };
    let state = Arc::clone(state.0);
    let entries = blocking(move || admin::audit_trail(&state.store, limit)).await?;
    Ok(json_answer(StatusCode::OK, &entries))
}

/// Binds the admin socket: a stale socket file of an earlier run is replaced, anything else
/// at the path is refused. Only the owner (the service's user) and root may connect.
pub fn bind_socket(path: &Path) -> std::io::Result<UnixAcceptor> {
    use std::os::unix::fs::{FileTypeExt, PermissionsExt};
    let failed = |e: std::io::Error| {
        std::io::Error::new(
            e.kind(),
            format!("cannot open the admin socket {}: {e}", path.display()),
        )
    };
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_socket() => std::fs::remove_file(path).map_err(failed)?,
        Ok(_) => {
            return Err(failed(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                "something other than a socket is there",
            )));
        }
        Err(_) => {}
    }
    let listener = std::os::unix::net::UnixListener::bind(path).map_err(failed)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).map_err(failed)?;
    listener.set_nonblocking(true).map_err(failed)?;
    UnixAcceptor::from_std(listener).map_err(failed)
}

/// Serves the admin API on its socket until `stop` resolves, then removes the socket file.
pub async fn serve_socket(
    state: Arc<AppState>,
    acceptor: UnixAcceptor,
    path: PathBuf,
    stop: impl std::future::Future<Output = ()> + Send,
) -> std::io::Result<()> {
    tracing::info!(socket = %path.display(), "admin API listening");
    let app = Route::new()
        .nest("/admin", routes())
        .around(super::request_body::bound_body)
        .around(super::problem::render_errors)
        .data(AdminChannel::Socket)
        .data(state);
    let served = Server::new_with_acceptor(acceptor)
        .run_with_graceful_shutdown(app, stop, Some(std::time::Duration::from_secs(5)))
        .await;
    let _ = std::fs::remove_file(&path);
    served
}
