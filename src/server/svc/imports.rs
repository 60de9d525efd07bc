//! `importArticles` over the foundation's import, run as a job: the route waits a moment and
//! answers the finished report, or answers 202 with the job's status URL while it runs on.

use std::sync::Arc;
use std::time::Duration;

use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use serde::Serialize;

use super::ApiTag;
use super::data_set::{DataSet, DataSetOrAll};
use crate::import::{self, ImportMode, ImportReport, Verdict};
use crate::server::AppState;
use crate::server::auth::Credentials;
use crate::server::json_body::JsonBody;
use crate::server::problem::{ApiError, Import, JobLookup, Problem};
use crate::service::caller::Caller;
use crate::service::jobs::{self, ImportRequest, Job, JobRequest};

/// What an import does to the rows of its data set the file does not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize)]
#[oai(rename = "ImportMode", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// They stay: the file adds and changes rows.
    Merge,
    /// They are retired, within the brands the file's rows name where the data set is per
    /// brand (cross-references: OE, internal and trade numbers; competitor references:
    /// competitor numbers).
    Replace,
}

impl From<Mode> for ImportMode {
    fn from(m: Mode) -> ImportMode {
        match m {
            Mode::Merge => ImportMode::Merge,
            Mode::Replace => ImportMode::Replace,
        }
    }
}

impl From<ImportMode> for Mode {
    fn from(m: ImportMode) -> Mode {
        match m {
            ImportMode::Merge => Mode::Merge,
            // A sync's refresh replaces the whole data set.
            ImportMode::Replace | ImportMode::Refresh => Mode::Replace,
        }
    }
}

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize)]
#[oai(rename = "JobState", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    Running,
    /// Committed, nothing to change, or a dry run that found every row valid.
    Succeeded,
    /// The file holds invalid rows; nothing was written. The report lists them.
    Rejected,
    /// The import could not run (the file vanished, the store failed); nothing was written.
    Failed,
}

/// A rejected row.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ImportRowError")]
pub struct RowError {
    /// The line in the file (the header is line 1).
    pub line: u64,
    pub message: String,
}

/// What an import did, or would do in a dry run.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "ImportReport", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// `committed`, `nothing_changed`, `dry_run` or `rejected`.
    pub verdict: String,
    /// The catalogue's data version after a commit.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_version: Option<u64>,
    pub import_type: String,
    pub rows: u64,
    pub added: u64,
    pub changed: u64,
    pub unchanged: u64,
    /// Rows of the data set a replace retires (0 when merging).
    pub removed: u64,
    pub rejected: u64,
    /// The first rejected rows, with line numbers.
    pub errors: Vec<RowError>,
}

impl From<&ImportReport> for Report {
    /// An import of one file.
    fn from(r: &ImportReport) -> Report {
        Report::of_file(r, r.files.first())
    }
}

impl Report {
    /// Each file of an import (a sync's imports hold several).
    pub fn of_files(r: &ImportReport) -> Vec<Report> {
        r.files
            .iter()
            .map(|f| Report::of_file(r, Some(f)))
            .collect()
    }

    fn of_file(r: &ImportReport, file: Option<&import::FileReport>) -> Report {
        let (verdict, data_version) = match r.verdict {
            Verdict::Committed { data_version } => ("committed", Some(data_version)),
            Verdict::NothingChanged => ("nothing_changed", None),
            Verdict::DryRun => ("dry_run", None),
            Verdict::Rejected => ("rejected", None),
        };
        let count = |f: fn(&import::FileReport) -> u64| file.map(f).unwrap_or(0);
        Report {
            verdict: verdict.into(),
            data_version,
            import_type: file
                .map(|f| f.import_type.name().to_owned())
                .unwrap_or_default(),
            rows: count(|f| f.rows),
            added: count(|f| f.added),
            changed: count(|f| f.changed),
            unchanged: count(|f| f.unchanged),
            removed: count(|f| f.removed),
            rejected: count(|f| f.rejected),
            errors: file
                .map(|f| {
                    f.errors
                        .iter()
                        .map(|e| RowError {
                            line: e.line,
                            message: e.message.clone(),
                        })
                        .collect()
                })
                .unwrap_or_default(),
        }
    }
}

/// How far a running job is.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "JobProgress", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct JobProgress {
    /// An import's `reading` while rows are read and checked, then the commit's phases; a
    /// sync's `fetching`, then its imports'; an apiDMM job's `downloading media`, `building
    /// the package`, `publishing`.
    pub phase: String,
    /// Bytes read of the file being imported; bytes downloaded by an apiDMM job.
    pub bytes_read: u64,
    pub bytes_total: u64,
    /// An apiDMM job's files done of those of its current phase.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files_done: Option<u64>,
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files_total: Option<u64>,
}

/// What a job does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize)]
#[oai(rename = "JobKind", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum JobKind {
    /// `importArticles`.
    Import,
    /// `syncTecdoc`.
    Sync,
    /// `apiDMM`.
    Dmm,
}

/// A file an apiDMM job could not fetch.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "NotFetched")]
pub struct NotFetched {
    pub uri: String,
    pub reason: String,
}

/// What a finished apiDMM job did.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "DmmReport", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct DmmOutcome {
    /// Media entries the manifest lists.
    pub entries: u64,
    /// Distinct files in the package, and their bytes.
    pub files: u64,
    pub bytes: u64,
    /// Entries whose file the media store lacks.
    pub missing: u64,
    /// Files fetched by this job.
    pub downloaded: u64,
    /// The first files that could not be fetched, each with its reason.
    pub not_fetched: Vec<NotFetched>,
    pub not_fetched_count: u64,
    /// Where the package was published.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published_to: Option<String>,
}

/// What a finished sync did.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "SyncReport", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct SyncOutcome {
    /// Where it synchronised from.
    pub upstream: String,
    /// Where the data sets were in the upstream before (its data version, or a delivery's
    /// name); absent on the first sync.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Where they are now.
    pub reached: String,
    /// What each data set's file did, import by import.
    pub files: Vec<Report>,
}

/// An import or sync job.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "Job", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    pub id: u64,
    pub kind: JobKind,
    pub state: JobState,
    /// The data set of an import or sync (a sync's may be `all`).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub import_type: Option<DataSetOrAll>,
    /// An apiDMM job's brand, and whether it publishes and fetches frames.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brand_id: Option<u32>,
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub publish: Option<bool>,
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub download360: Option<bool>,
    /// An import's file.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_id: Option<String>,
    /// An import's mode.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    /// Whether an import only validates.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dry_run: Option<bool>,
    /// Whether a sync reloads in full.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh: Option<bool>,
    /// The provider that started the job.
    pub started_by: String,
    /// Where to poll this job.
    pub status_url: String,
    /// Unix seconds.
    pub started_at: u64,
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<u64>,
    pub progress: JobProgress,
    /// Once an import has finished (succeeded or rejected).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<Report>,
    /// Once an import of several files has finished: each file's report (`report` is the
    /// first's).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<Report>>,
    /// Once a sync has succeeded.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sync: Option<SyncOutcome>,
    /// Once an apiDMM job has succeeded.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dmm: Option<DmmOutcome>,
    /// Why a failed job failed.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

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
            example = "crate::server::svc::examples::file_id",
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
            example = "crate::server::svc::examples::import_type"
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
            example = "crate::server::svc::examples::dry_run"
        )]
        dry_run: Query<bool>,
        /// The ProviderId the call is made for.
        #[oai(name = "provider", example = "crate::server::svc::examples::provider")]
        _provider: Query<String>,
        _credentials: Credentials,
        caller: Data<&Caller>,
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
            &caller.provider.id,
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
            example = "crate::server::svc::examples::job_id",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        id: Path<u32>,
        /// The ProviderId the call is made for.
        #[oai(name = "provider", example = "crate::server::svc::examples::provider")]
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

/// A job as answered; it is polled under the routes' prefix (`route_prefix`).
pub fn job_status(job: &Job, route_prefix: &str) -> JobStatus {
    let s = job.snapshot();
    let files = (s.files_done, s.files_total);
    let mut status = JobStatus {
        id: s.id,
        kind: JobKind::Import,
        import_type: None,
        brand_id: None,
        publish: None,
        download360: None,
        file_id: None,
        mode: None,
        dry_run: None,
        refresh: None,
        state: match s.state {
            jobs::JobState::Running => JobState::Running,
            jobs::JobState::Succeeded => JobState::Succeeded,
            jobs::JobState::Rejected => JobState::Rejected,
            jobs::JobState::Failed => JobState::Failed,
        },
        started_by: s.started_by,
        status_url: format!("/{route_prefix}/jobs/{}", s.id),
        started_at: s.started_at,
        finished_at: s.finished_at,
        progress: JobProgress {
            phase: s.phase,
            bytes_read: s.bytes_read,
            bytes_total: s.bytes_total,
            files_done: None,
            files_total: None,
        },
        report: s.report.as_ref().map(Report::from),
        files: s
            .report
            .as_ref()
            .filter(|r| r.files.len() > 1)
            .map(Report::of_files),
        sync: s.sync.map(|r| SyncOutcome {
            upstream: r.upstream,
            from: r.from,
            reached: r.reached,
            files: r.imports.iter().flat_map(Report::of_files).collect(),
        }),
        dmm: s.dmm.map(|r| DmmOutcome {
            entries: r.entries,
            files: r.files,
            bytes: r.bytes,
            missing: r.missing,
            downloaded: r.downloaded,
            not_fetched: r
                .not_fetched
                .into_iter()
                .map(|n| NotFetched {
                    uri: n.uri,
                    reason: n.reason,
                })
                .collect(),
            not_fetched_count: r.not_fetched_count,
            published_to: r.published_to,
        }),
        error: s.error,
    };
    match s.request {
        JobRequest::Import(r) => {
            status.import_type = Some(DataSetOrAll::of(Some(r.import_type)));
            status.file_id = Some(r.file_id);
            status.mode = Some(r.mode.into());
            status.dry_run = Some(r.dry_run);
        }
        // Files sent over the admin socket: named as sent, of one data set or several.
        JobRequest::Upload(r) => {
            let data_set = match r.files.as_slice() {
                [one] => crate::import::ImportType::from_name(one.trim_end_matches(".csv")),
                _ => None,
            };
            status.import_type = Some(DataSetOrAll::of(data_set));
            status.file_id = Some(r.files.join(", "));
            status.mode = Some(r.mode.into());
            status.dry_run = Some(r.dry_run);
        }
        JobRequest::Sync(r) => {
            status.kind = JobKind::Sync;
            status.import_type = Some(DataSetOrAll::of(r.data_set));
            status.refresh = Some(r.refresh);
        }
        JobRequest::Dmm(r) => {
            status.kind = JobKind::Dmm;
            status.brand_id = Some(r.brand_id);
            status.publish = Some(r.publish);
            status.download360 = Some(r.download360);
            status.progress.files_done = Some(files.0);
            status.progress.files_total = Some(files.1);
        }
    }
    status
}

fn default_mode() -> Mode {
    Mode::Merge
}
