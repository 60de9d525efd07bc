//! The change feed a downstream appliance follows (`/svc/changes`, scope `sync`), and
//! `syncTecdoc`, which follows the configured upstream as a job.

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::Data;
use poem::{IntoResponse, Response};
use poem_openapi::param::Query;
use poem_openapi::registry::{
    MetaHeader, MetaMediaType, MetaResponse, MetaResponses, MetaSchema, MetaSchemaRef, Registry,
};
use poem_openapi::{ApiResponse, OpenApi};

use super::ApiTag;
use super::data_set::DataSetOrAll;
use super::imports::{ImportAnswer, answer_when_done};
use crate::import::ImportType;
use crate::server::AppState;
use crate::server::auth::Credentials;
use crate::server::problem::{ApiError, Feed, Import, Problem};
use crate::server::streaming::{Streamed, written_body};
use crate::service::ServiceError;
use crate::service::context::Context;
use crate::service::sync::feed::{self, FeedAnswer};
use crate::service::sync::{STORE_HEADER, SyncRequest, Upstream, VERSION_HEADER};

pub struct SyncApi;

// An operation's parameters are its query's: one argument each.
#[allow(clippy::too_many_arguments)]
#[OpenApi(tag = "ApiTag::Synchronisation")]
impl SyncApi {
    /// The change feed: what changed since a data version, as import files.
    ///
    /// For one data set, its import file (`text/csv`) with one more column, `change`:
    /// `upsert` rows are as the catalogue holds them now, `remove` rows as they were when
    /// retired. `partscat import` and `importArticles` read it as they read any import file,
    /// so replaying it brings a store that was at `since` to this one's data version (the
    /// `X-Data-Version` header). `importType=all` answers a tar of every data set's file.
    /// Without `since`, the whole data sets (without the `change` column), for a full
    /// refresh. The feed keeps the changes of the last data versions (settings
    /// `change_feed_versions`, `change_feed_days`); a `since` before them answers 410.
    /// With `wait`, a `since` that is this store's data version waits up to that many
    /// seconds for the next commit and is answered as soon as it comes: a follower learns of
    /// a change within the moment it is committed instead of polling. Nothing committed by
    /// then: 204, with the same headers. Waiting requests may hold at most half the
    /// server's connections (`max_connections`), so that lookups always get in; past that a
    /// wait is answered 503 with `Retry-After`. Needs the `sync` scope and a provider that
    /// sees every brand.
    #[oai(path = "/svc/changes", method = "get", operation_id = "getChanges")]
    async fn changes(
        &self,
        state: Data<&Arc<AppState>>,
        /// The data set, or `all`.
        #[oai(
            name = "importType",
            example = "crate::server::svc::parameter_examples::import_type_or_all"
        )]
        import_type: Query<DataSetOrAll>,
        /// The data version the caller has reached; absent: the whole data sets.
        #[oai(name = "since")]
        since: Query<Option<u64>>,
        /// Seconds to wait for a data version newer than `since` (at most 300).
        #[oai(name = "wait", validator(maximum(value = "300")))]
        wait: Query<Option<u32>>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        context: Data<&Context>,
    ) -> Result<FeedResponse, ApiError<Feed>> {
        let wait = wait.0.map(|w| std::time::Duration::from_secs(w.into()));
        let _held = match wait {
            Some(w) if !w.is_zero() => Some(state.connections.hold().ok_or_else(|| {
                Problem::new(
                    poem::http::StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "{} requests wait for changes already, the most this server holds (half of max_connections); retry shortly",
                        state.connections.most_held()
                    ),
                )
            })?),
            _ => None,
        };
        let answer = feed::feed(&state.store, context.caller(), since.0, wait).await?;
        Ok(FeedResponse::new(answer, import_type.0.get()))
    }

    /// Brings this catalogue up to the configured upstream's, as a job.
    ///
    /// The upstream is another partscat's change feed (settings `[sync] upstream`,
    /// `provider`, `api_key`) or a directory of deliveries (`[sync] source_dir`).
    /// `refresh=false` takes what changed since the last sync; `refresh=true` reloads the
    /// data set in full, retiring what the upstream no longer holds. All or nothing, like an
    /// import: a failed sync (unreachable upstream, refused key, a feed the upstream no longer
    /// keeps, a malformed feed) leaves the catalogue as it was and says why in the job.
    /// Answers like `importArticles`: the finished job, or 202 with the job to poll; 409 while
    /// an import or sync runs, or where no upstream is configured.
    #[oai(path = "/svc/syncTecdoc", method = "get", operation_id = "syncTecdoc")]
    async fn sync_tecdoc(
        &self,
        state: Data<&Arc<AppState>>,
        /// The data set to synchronise, or `all`.
        #[oai(
            name = "importType",
            example = "crate::server::svc::parameter_examples::import_type_or_all"
        )]
        import_type: Query<DataSetOrAll>,
        /// `true`: reload in full instead of what changed since the last sync.
        #[oai(
            name = "refresh",
            example = "crate::server::svc::parameter_examples::refresh"
        )]
        refresh: Query<bool>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        context: Data<&Context>,
    ) -> Result<ImportAnswer, ApiError<Import>> {
        let upstream = Upstream::configured(&state.settings.sync)
            .map_err(|e| ServiceError::Conflict(e.to_string()))?;
        let request = SyncRequest {
            data_set: import_type.0.get(),
            refresh: refresh.0,
        };
        let (job, task) = state.jobs.start_sync(
            &state.store,
            upstream,
            request,
            &context.caller().provider.id,
        )?;
        Ok(answer_when_done(&state, &job, task).await)
    }
}

/// The feed, streamed as the client reads it.
pub struct FeedResponse(Response);

impl FeedResponse {
    fn new(answer: FeedAnswer, data_set: Option<ImportType>) -> FeedResponse {
        let FeedAnswer {
            store_id,
            version,
            changes,
        } = answer;
        let Some(changes) = changes else {
            // Nothing newer than the caller's version was committed while it waited.
            return FeedResponse(
                Response::builder()
                    .status(StatusCode::NO_CONTENT)
                    .header(VERSION_HEADER, version.to_string())
                    .header(STORE_HEADER, store_id)
                    .finish(),
            );
        };
        let (content_type, file) = match data_set {
            Some(d) => (
                "text/csv; charset=utf-8; header=present",
                format!("{}.csv", d.name()),
            ),
            None => ("application/x-tar", "changes.tar".to_owned()),
        };
        let body = written_body(move |out| changes.write(data_set, out).map_err(|e| e.to_string()));
        let mut response = Response::builder()
            .status(StatusCode::OK)
            .content_type(content_type)
            .header(VERSION_HEADER, version.to_string())
            .header(STORE_HEADER, store_id)
            .header(
                poem::http::header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            )
            .body(body);
        response.extensions_mut().insert(Streamed);
        FeedResponse(response)
    }
}

impl IntoResponse for FeedResponse {
    fn into_response(self) -> Response {
        self.0
    }
}

impl ApiResponse for FeedResponse {
    fn meta() -> MetaResponses {
        let text = || MetaSchemaRef::Inline(Box::new(MetaSchema::new("string")));
        let header = |name: &str, description: &'static str, schema: MetaSchemaRef| MetaHeader {
            name: name.into(),
            description: Some(description.into()),
            required: true,
            deprecated: false,
            schema,
        };
        let headers = || {
            vec![
                header(
                    VERSION_HEADER,
                    "The data version the feed brings its reader to: the next request's `since`.",
                    MetaSchemaRef::Inline(Box::new(MetaSchema::new_with_format(
                        "integer", "int64",
                    ))),
                ),
                header(
                    STORE_HEADER,
                    "This store's identity: data versions count within one store's history.",
                    text(),
                ),
            ]
        };
        MetaResponses {
            responses: vec![
                MetaResponse {
                    description: "The feed, streamed: one data set's import file with the `change` column, or a tar of every data set's.",
                    status: Some(200),
                    status_range: None,
                    content: vec![
                        MetaMediaType {
                            content_type: "text/csv",
                            schema: text(),
                        },
                        MetaMediaType {
                            content_type: "application/x-tar",
                            schema: MetaSchemaRef::Inline(Box::new(MetaSchema {
                                format: Some("binary"),
                                ..MetaSchema::new("string")
                            })),
                        },
                    ],
                    headers: headers(),
                },
                MetaResponse {
                    description: "Nothing newer than `since` was committed within `wait` seconds.",
                    status: Some(204),
                    status_range: None,
                    content: vec![],
                    headers: headers(),
                },
            ],
        }
    }

    fn register(_: &mut Registry) {}
}
