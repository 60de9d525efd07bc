//! `importArticles` over the foundation's import, run as a job: the route waits a moment and
//! answers the finished report, or answers 202 with the job's status URL while it runs on.

use std::collections::BTreeMap;
use std::path::Path as FsPath;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use poem::http::StatusCode;
use poem::web::Data;
use poem_openapi::param::{Path, Query};
use poem_openapi::{ApiResponse, Enum, Object, OpenApi};
use serde::Serialize;

use super::ApiTag;
use crate::import::{self, ImportFile, ImportReport, ImportType, Source, Verdict};
use crate::server::AppState;
use crate::server::auth::Credentials;
use crate::server::json_body::JsonBody;
use crate::server::problem::{ApiError, Import, JobLookup, Problem};
use crate::service::caller::Caller;

/// Finished jobs kept for `GET /svc/jobs/:id`.
const JOBS_KEPT: usize = 100;

/// The data sets `importType` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize)]
#[oai(rename = "ImportType")]
pub enum ImportTypeName {
    #[oai(rename = "brands")]
    #[serde(rename = "brands")]
    Brands,
    #[oai(rename = "manufacturers")]
    #[serde(rename = "manufacturers")]
    Manufacturers,
    #[oai(rename = "genarts")]
    #[serde(rename = "genarts")]
    Genarts,
    #[oai(rename = "vehicles")]
    #[serde(rename = "vehicles")]
    Vehicles,
    #[oai(rename = "articles")]
    #[serde(rename = "articles")]
    Articles,
    #[oai(rename = "criteria")]
    #[serde(rename = "criteria")]
    Criteria,
    #[oai(rename = "crossrefs")]
    #[serde(rename = "crossrefs")]
    Crossrefs,
    #[oai(rename = "competitor_refs")]
    #[serde(rename = "competitor_refs")]
    CompetitorRefs,
    #[oai(rename = "links")]
    #[serde(rename = "links")]
    Links,
    #[oai(rename = "prices")]
    #[serde(rename = "prices")]
    Prices,
    #[oai(rename = "kits")]
    #[serde(rename = "kits")]
    Kits,
    #[oai(rename = "media")]
    #[serde(rename = "media")]
    Media,
}

impl From<ImportTypeName> for ImportType {
    fn from(t: ImportTypeName) -> ImportType {
        use ImportTypeName as N;
        match t {
            N::Brands => ImportType::Brands,
            N::Manufacturers => ImportType::Manufacturers,
            N::Genarts => ImportType::GenericArticles,
            N::Vehicles => ImportType::Vehicles,
            N::Articles => ImportType::Articles,
            N::Criteria => ImportType::Criteria,
            N::Crossrefs => ImportType::CrossReferences,
            N::CompetitorRefs => ImportType::CompetitorReferences,
            N::Links => ImportType::Links,
            N::Prices => ImportType::Prices,
            N::Kits => ImportType::Kits,
            N::Media => ImportType::Media,
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
    pub rejected: u64,
    /// The first rejected rows, with line numbers.
    pub errors: Vec<RowError>,
}

impl From<&ImportReport> for Report {
    fn from(r: &ImportReport) -> Report {
        let (verdict, data_version) = match r.verdict {
            Verdict::Committed { data_version } => ("committed", Some(data_version)),
            Verdict::NothingChanged => ("nothing_changed", None),
            Verdict::DryRun => ("dry_run", None),
            Verdict::Rejected => ("rejected", None),
        };
        let file = r.files.first();
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

/// How far a running import is.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "JobProgress", rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct JobProgress {
    /// `reading` while rows are read and checked, then the commit's phases.
    pub phase: String,
    pub bytes_read: u64,
    pub bytes_total: u64,
}

/// An import job.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "Job", rename_all = "camelCase", example)]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    pub id: u64,
    pub state: JobState,
    pub file_id: String,
    pub import_type: ImportTypeName,
    pub dry_run: bool,
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
    /// Once the job has finished (succeeded or rejected).
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<Report>,
    /// Why a failed job failed.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(ApiResponse)]
pub enum ImportAnswer {
    /// The import finished within moments; the job carries its report.
    #[oai(status = 200)]
    Finished(JsonBody<JobStatus>),
    /// The import runs on; poll the URL in `Location` (and `statusUrl`).
    #[oai(status = 202)]
    Accepted(JsonBody<JobStatus>, #[oai(header = "Location")] String),
}

struct Job {
    status: Mutex<JobStatus>,
    bytes_read: AtomicU64,
    bytes_total: AtomicU64,
}

impl Job {
    fn snapshot(&self) -> JobStatus {
        let mut s = self
            .status
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        s.progress.bytes_read = self.bytes_read.load(Ordering::Relaxed);
        s.progress.bytes_total = self.bytes_total.load(Ordering::Relaxed);
        s
    }

    fn update(&self, f: impl FnOnce(&mut JobStatus)) {
        f(&mut self.status.lock().unwrap_or_else(|e| e.into_inner()));
    }
}

impl import::Progress for Job {
    fn file_started(&self, _: ImportType, bytes: u64) {
        self.bytes_total.store(bytes, Ordering::Relaxed);
    }
    fn advanced(&self, bytes_read: u64) {
        self.bytes_read.store(bytes_read, Ordering::Relaxed);
    }
    fn phase(&self, text: &str) {
        self.update(|s| s.progress.phase = text.to_owned());
    }
}

/// The server's jobs: one import at a time, the last finished ones kept for polling.
#[derive(Default)]
pub struct Jobs {
    next_id: AtomicU64,
    importing: AtomicBool,
    jobs: Mutex<BTreeMap<u64, Arc<Job>>>,
}

impl Jobs {
    fn get(&self, id: u64) -> Option<Arc<Job>> {
        self.jobs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&id)
            .cloned()
    }

    fn add(&self, job: Arc<Job>, id: u64) {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jobs.insert(id, job);
        while jobs.len() > JOBS_KEPT {
            jobs.pop_first();
        }
    }
}

/// Ends a job however its thread ends: a job still `running` then (the import panicked) is
/// marked failed instead of running for ever, and the one import slot is freed.
struct JobEnd<'a> {
    job: &'a Job,
    slot: &'a AtomicBool,
}

impl Drop for JobEnd<'_> {
    fn drop(&mut self) {
        self.job.update(|s| {
            if s.state == JobState::Running {
                s.state = JobState::Failed;
                s.finished_at = Some(now());
                s.error =
                    Some("the import stopped unexpectedly; the cause is in the server log".into());
            }
        });
        self.slot.store(false, Ordering::Release);
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// A plain file name in the inbox (no directories, no parent steps, no hidden files), opened
/// once, without following a link, and checked to be a regular file: what is checked is
/// what is read, whatever is swapped in afterwards. Errors name the file id; a missing file
/// also names the inbox, so the catalogue team sees where it was looked for.
fn inbox_file(inbox: &FsPath, file_id: &str) -> Result<std::fs::File, Problem> {
    use std::os::unix::fs::OpenOptionsExt;
    let plain = !file_id.is_empty()
        && file_id.len() <= 255
        && !file_id.starts_with('.')
        && !file_id.contains(['/', '\\', '\0', ':']);
    if !plain {
        return Err(Problem::bad_parameter(
            "fileId",
            format!(
                "'{file_id}' is not a plain file name in the import inbox (no paths, no hidden files)"
            ),
        ));
    }
    let not_regular = || {
        Problem::bad_parameter(
            "fileId",
            format!("'{file_id}' in the import inbox is not a regular file"),
        )
    };
    // O_NONBLOCK: a FIFO must not hold the request until a writer comes.
    let opened = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(inbox.join(file_id));
    let file = match opened {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Problem::not_found(format!(
                "the import inbox {} has no file '{file_id}'",
                inbox.display()
            )));
        }
        // ELOOP: the name is a symbolic link.
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(not_regular()),
        Err(_) => {
            return Err(Problem::bad_parameter(
                "fileId",
                format!("'{file_id}' in the import inbox cannot be opened"),
            ));
        }
    };
    match file.metadata() {
        Ok(m) if m.is_file() => Ok(file),
        _ => Err(not_regular()),
    }
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
        import_type: Query<ImportTypeName>,
        /// `true`: validate and report only; nothing is written.
        #[oai(name = "dryRun", example = "crate::server::svc::examples::dry_run")]
        dry_run: Query<bool>,
        /// The ProviderId the call is made for.
        #[oai(name = "provider", example = "crate::server::svc::examples::provider")]
        _provider: Query<String>,
        _credentials: Credentials,
        caller: Data<&Caller>,
    ) -> Result<ImportAnswer, ApiError<Import>> {
        let opened = inbox_file(&state.settings.inbox, &file_id)?;
        let jobs = &state.jobs;
        if jobs.importing.swap(true, Ordering::AcqRel) {
            return Err(Problem::new(
                StatusCode::CONFLICT,
                "an import is already running; poll its job and try again when it has finished",
            )
            .into());
        }
        let id = jobs.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let job = Arc::new(Job {
            status: Mutex::new(JobStatus {
                id,
                state: JobState::Running,
                file_id: file_id.0.clone(),
                import_type: import_type.0,
                dry_run: dry_run.0,
                started_by: caller.provider.id.clone(),
                status_url: format!("/svc/jobs/{id}"),
                started_at: now(),
                finished_at: None,
                progress: JobProgress {
                    phase: "reading".into(),
                    bytes_read: 0,
                    bytes_total: 0,
                },
                report: None,
                error: None,
            }),
            bytes_read: AtomicU64::new(0),
            bytes_total: AtomicU64::new(0),
        });
        jobs.add(job.clone(), id);
        let runner = job.clone();
        let app = state.0.clone();
        let file = ImportFile {
            import_type: import_type.0.into(),
            source: Source::Opened {
                name: file_id.0.clone(),
                file: Arc::new(opened),
            },
        };
        let dry = dry_run.0;
        let task = tokio::task::spawn_blocking(move || {
            let _end = JobEnd {
                job: runner.as_ref(),
                slot: &app.jobs.importing,
            };
            let outcome = import::import(&app.store, &[file], dry, runner.as_ref());
            runner.update(|s| {
                s.finished_at = Some(now());
                s.progress.phase = "finished".into();
                match &outcome {
                    Ok(report) => {
                        s.state = if report.is_rejected() {
                            JobState::Rejected
                        } else {
                            JobState::Succeeded
                        };
                        s.report = Some(Report::from(report));
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "import job failed");
                        s.state = JobState::Failed;
                        s.error = Some(e.to_string());
                    }
                }
            });
        });
        let wait = Duration::from_millis(state.settings.import_wait_ms);
        match tokio::time::timeout(wait, task).await {
            Ok(_) => Ok(ImportAnswer::Finished(JsonBody(job.snapshot()))),
            Err(_) => {
                let status = job.snapshot();
                let location = status.status_url.clone();
                Ok(ImportAnswer::Accepted(JsonBody(status), location))
            }
        }
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
            Some(job) => Ok(JsonBody(job.snapshot())),
            None => Err(Problem::not_found(format!("there is no job {}", id.0)).into()),
        }
    }
}
