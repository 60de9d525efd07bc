//! A job as `/svc` answers it (`GET /svc/jobs/{id}`, and the import, sync and DMM routes that
//! start one): its kind, state, progress, report and what it was asked to do.

use poem_openapi::{Enum, Object};
use serde::Serialize;

use super::data_set::DataSetOrAll;
pub use super::import_mode::Mode;
use crate::import::{self, ImportReport, Verdict};
use crate::service::jobs::{self, Job, JobRequest};

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
    /// Texts in languages the catalogue does not serve (`catalogue.languages`), left out of
    /// the import: rows by language.
    #[oai(default, skip_serializing_if_is_empty)]
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub left_out: std::collections::BTreeMap<String, u64>,
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
            left_out: file.map(|f| f.left_out.clone()).unwrap_or_default(),
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
        state: JobState::of(s.state),
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
        dmm: s.dmm.map(DmmOutcome::of),
        error: s.error,
    };
    status.describe(s.request, files);
    status
}

impl JobState {
    fn of(state: jobs::JobState) -> JobState {
        match state {
            jobs::JobState::Running => JobState::Running,
            jobs::JobState::Succeeded => JobState::Succeeded,
            jobs::JobState::Rejected => JobState::Rejected,
            jobs::JobState::Failed => JobState::Failed,
        }
    }
}

impl DmmOutcome {
    fn of(r: crate::service::dmm::DmmReport) -> DmmOutcome {
        DmmOutcome {
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
        }
    }
}

impl JobStatus {
    /// What the job was asked to do: its kind and the request's fields.
    fn describe(&mut self, request: JobRequest, files: (u64, u64)) {
        let status = self;
        match request {
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
    }
}
