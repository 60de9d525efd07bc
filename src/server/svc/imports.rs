//! `importArticles` over the foundation's import, run as a job: the route waits a moment and
//! answers the finished report, or answers 202 with the job's status URL while it runs on.

use std::sync::Arc;
use std::time::Duration;

use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::{ApiResponse, OpenApi};

use super::ApiTag;
use super::data_set::DataSet;
pub use super::job_status::*;
use crate::server::AppState;
use crate::server::auth::Credentials;
use crate::server::json_body::JsonBody;
use crate::server::problem::{ApiError, Import, JobLookup, Problem};
use crate::service::context::Context;
use crate::service::jobs::{ImportRequest, Job};

#[derive(ApiResponse)]
pub enum ImportAnswer {
    /// The job finished within moments; it carries its report.
    #[oai(status = 200)]
    Finished(JsonBody<JobStatus>),
    /// The job runs on; poll the URL in `Location` (and `statusUrl`).
    #[oai(status = 202)]
    Accepted(JsonBody<JobStatus>, #[oai(header = "Location")] String),
}

pub struct ImportApi;

// Each operation parameter is a function argument in poem-openapi.
#[allow(clippy::too_many_arguments)]
#[OpenApi(tag = "ApiTag::Imports")]
impl ImportApi {
    /// Imports a CSV file from the import inbox as one data set.
    ///
    /// All or nothing: an invalid row rejects the whole file and the report lists the first
    /// errors with line numbers. `dryRun=true` validates and reports what would change,
    /// writing nothing. An import that takes longer than a moment answers 202 with a job
    /// to poll; a second import while one runs is 409.
    #[oai(
        path = "/svc/importArticles",
        method = "get",
        operation_id = "importArticles"
    )]
    async fn import_articles(
        &self,
        state: Data<&Arc<AppState>>,
        /// A file name in the import inbox.
        #[oai(
            name = "fileId",
            example = "crate::server::svc::parameter_examples::file_id",
            validator(
                min_length = 1,
                max_length = 255,
                pattern = r"^[^./\\:\x00][^/\\:\x00]*$"
            )
        )]
        file_id: Query<String>,
        /// The data set the file holds.
        #[oai(
            name = "importType",
            example = "crate::server::svc::parameter_examples::import_type"
        )]
        import_type: Query<DataSet>,
        /// `replace`: rows of the data set the file does not hold are retired (within the
        /// brands the file's rows name, where the data set is per brand); `merge` (the
        /// default): they stay.
        #[oai(name = "mode", default = "default_mode")]
        mode: Query<Mode>,
        /// `true`: validate and report only; nothing is written. `false` (the default):
        /// import.
        #[oai(
            name = "dryRun",
            default,
            example = "crate::server::svc::parameter_examples::dry_run"
        )]
        dry_run: Query<bool>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
        context: Data<&Context>,
    ) -> Result<ImportAnswer, ApiError<Import>> {
        let request = ImportRequest {
            file_id: file_id.0,
            import_type: import_type.0.get(),
            mode: mode.0.into(),
            dry_run: dry_run.0,
        };
        let (job, task) = state.jobs.start_import(
            &state.store,
            &state.settings.inbox,
            request,
            &context.caller().provider.id,
        )?;
        Ok(answer_when_done(&state, &job, task).await)
    }

    /// The status of a job: progress while it runs, the report once it has finished.
    ///
    /// Jobs are numbered from 1 since the server started; `importArticles` answers with its
    /// job's id, and a job stays readable after it has finished.
    #[oai(path = "/svc/jobs/:id", method = "get", operation_id = "getJob")]
    async fn job(
        &self,
        state: Data<&Arc<AppState>>,
        /// The job's id, from `importArticles`.
        #[oai(
            example = "crate::server::svc::parameter_examples::job_id",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        id: Path<u32>,
        /// The ProviderId the call is made for.
        #[oai(
            name = "provider",
            example = "crate::server::svc::parameter_examples::provider"
        )]
        _provider: Query<String>,
        _credentials: Credentials,
    ) -> Result<JsonBody<JobStatus>, ApiError<JobLookup>> {
        match state.jobs.get(u64::from(id.0)) {
            Some(job) => Ok(JsonBody(job_status(&job, &state.settings.route_prefix))),
            None => Err(Problem::not_found(format!("there is no job {}", id.0)).into()),
        }
    }
}

/// The finished job, if it finishes within `import_wait_ms`; else 202 with the job to poll.
pub async fn answer_when_done(
    state: &AppState,
    job: &Job,
    task: tokio::task::JoinHandle<()>,
) -> ImportAnswer {
    let wait = Duration::from_millis(state.settings.import_wait_ms);
    match tokio::time::timeout(wait, task).await {
        Ok(_) => ImportAnswer::Finished(JsonBody(job_status(job, &state.settings.route_prefix))),
        Err(_) => {
            let status = job_status(job, &state.settings.route_prefix);
            let location = status.status_url.clone();
            ImportAnswer::Accepted(JsonBody(status), location)
        }
    }
}

fn default_mode() -> Mode {
    Mode::Merge
}
