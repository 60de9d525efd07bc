//! One job: what it was asked to do, where it is, and what it reports as it goes.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::import::{self, ImportMode, ImportReport, ImportType};
use crate::service::dmm::{DmmReport, DmmRequest};
use crate::service::sync::{SyncReport, SyncRequest};

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobState {
    Running,
    /// Committed, nothing to change, or a dry run that found every row valid.
    Succeeded,
    /// The file holds invalid rows; nothing was written. The report lists them.
    Rejected,
    /// The import could not run (the file vanished, the store failed); nothing was written.
    Failed,
}

/// What an import job was asked to do.
#[derive(Debug, Clone)]
pub struct ImportRequest {
    pub file_id: String,
    pub import_type: ImportType,
    pub mode: ImportMode,
    pub dry_run: bool,
}

/// What an import of files sent over the admin socket was asked to do.
#[derive(Debug, Clone)]
pub struct UploadRequest {
    /// The files' names as sent (`prices.csv`).
    pub files: Vec<String>,
    pub mode: ImportMode,
    pub dry_run: bool,
}

/// What a job was asked to do.
#[derive(Debug, Clone)]
pub enum JobRequest {
    Import(ImportRequest),
    Upload(UploadRequest),
    Sync(SyncRequest),
    Dmm(DmmRequest),
}

impl JobRequest {
    /// What the job does, in a few words: for a refusal naming it.
    pub fn kind(&self) -> String {
        match self {
            JobRequest::Import(r) => format!("an import of the inbox's {}", r.file_id),
            JobRequest::Upload(r) => format!("an import of {}", r.files.join(", ")),
            JobRequest::Sync(_) => "a sync".into(),
            JobRequest::Dmm(r) => format!("brand {}'s package", r.brand_id),
        }
    }
}

/// A job as a caller sees it when polling.
#[derive(Debug, Clone)]
pub struct JobStatus {
    pub id: u64,
    pub state: JobState,
    pub request: JobRequest,
    /// The provider that started the job.
    pub started_by: String,
    /// Unix seconds.
    pub started_at: u64,
    pub finished_at: Option<u64>,
    /// `reading` while rows are read and checked, then the commit's phases, then `finished`.
    pub phase: String,
    pub bytes_read: u64,
    pub bytes_total: u64,
    /// Files done of the current step's, where a step handles files (DMM jobs).
    pub files_done: u64,
    pub files_total: u64,
    /// Once an import has finished (succeeded or rejected).
    pub report: Option<ImportReport>,
    /// Once a sync has succeeded.
    pub sync: Option<SyncReport>,
    /// Once a DMM package is built.
    pub dmm: Option<DmmReport>,
    /// Why a failed job failed.
    pub error: Option<String>,
}

pub struct Job {
    pub(super) status: Mutex<JobStatus>,
    pub(super) bytes_read: AtomicU64,
    pub(super) bytes_total: AtomicU64,
    pub(super) files_done: AtomicU64,
    pub(super) files_total: AtomicU64,
}

impl Job {
    pub fn snapshot(&self) -> JobStatus {
        let mut s = self
            .status
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        s.bytes_read = self.bytes_read.load(Ordering::Relaxed);
        s.bytes_total = self.bytes_total.load(Ordering::Relaxed);
        s.files_done = self.files_done.load(Ordering::Relaxed);
        s.files_total = self.files_total.load(Ordering::Relaxed);
        s
    }

    pub(super) fn update(&self, f: impl FnOnce(&mut JobStatus)) {
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
        self.update(|s| s.phase = text.to_owned());
    }
    fn files(&self, done: u64, total: u64) {
        self.files_total.store(total, Ordering::Relaxed);
        self.files_done.store(done, Ordering::Relaxed);
    }
}
