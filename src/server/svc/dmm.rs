//! `apiDMM`: a brand's DMM package as a job.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::OpenApi;
use poem_openapi::param::Query;

use super::ApiTag;
use super::imports::{ImportAnswer, answer_when_done};
use crate::server::AppState;
use crate::server::auth::Credentials;
use crate::server::problem::{ApiError, Package};
use crate::service::ServiceError;
use crate::service::context::Context;
use crate::service::dmm::{DmmError, DmmRequest, MediaSetup};
use crate::service::exports::existing_brand;

pub struct DmmApi;

// Each operation parameter is a function argument in poem-openapi.
#[allow(clippy::too_many_arguments)]
#[OpenApi(tag = "ApiTag::Synchronisation")]
impl DmmApi {
    /// Builds a brand's DMM package, optionally publishing it and fetching 360-degree frames.
    ///
    /// The package (a manifest of the brand's media with each file's SHA-256 and size, and
    /// the files, each once) is built from the local media store (setting `media_dir`).
    /// `download360=true` first fetches the 360-degree frames the store lacks from
    /// `media_source` (and images and documents where `media_download_images` is set); a
    /// file that cannot be had is reported by URI and reason, the others still arrive.
    /// `publish=true` delivers the package to `publish_target` (a directory, swapped in one
    /// step, or an HTTP endpoint, the manifest last); a failed publish leaves the previous
    /// package in place. Runs as a job and answers like `importArticles`; 409 while the same
    /// brand's package is being built, or where `media_source` or `publish_target` is needed
    /// and not set.
    #[oai(path = "/svc/apiDMM", method = "get", operation_id = "apiDMM")]
    async fn api_dmm(
        &self,
        state: Data<&Arc<AppState>>,
        /// The brand.
        #[oai(
            name = "brand_id",
            example = "crate::server::svc::parameter_examples::brand_id",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        brand_id: Query<u32>,
        /// `true`: deliver the package to the configured publish target.
        #[oai(name = "publish", default)]
        publish: Query<bool>,
        /// `true`: fetch the 360-degree frames into the local media store first.
        #[oai(name = "download360", default)]
        download360: Query<bool>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        context: Data<&Context>,
    ) -> Result<ImportAnswer, ApiError<Package>> {
        // The gate has checked `brand_id` against the caller's brands, as for every route.
        existing_brand(&state.store, brand_id.0)?;
        let request = DmmRequest {
            brand_id: brand_id.0,
            publish: publish.0,
            download360: download360.0,
        };
        let setup = MediaSetup::configured(&state.settings.media, state.settings.limits, &request)
            .map_err(|e| match e {
                DmmError::Refused(e) => e,
                e => ServiceError::Conflict(e.to_string()),
            })?;
        let (job, task) =
            state
                .jobs
                .start_dmm(&state.store, setup, request, &context.caller().provider.id)?;
        Ok(answer_when_done(&state, &job, task).await)
    }
}
