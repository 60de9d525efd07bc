//! The job runner: work that outlasts a request (imports, syncs, DMM packages) runs on a
//! blocking thread as a numbered job whose progress and outcome callers poll. One import or
//! sync at a time, one package per brand at a time; the last finished jobs stay readable.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

mod catalogue_slot;
mod job;

use catalogue_slot::Changing;
pub use catalogue_slot::UploadSlot;
pub use job::{ImportRequest, Job, JobRequest, JobState, JobStatus, UploadRequest};

use super::ServiceError;
use super::dmm::{self, DmmRequest, MediaSetup};
use super::sync::{self, SyncRequest, Upstream};
use super::upload::Uploaded;
use crate::clock::{Clock, SystemClock};
use crate::import::{self, ImportFile, ImportMode, Source};
use crate::store::Store;

/// An import job's work: the files imported as one change, the outcome kept on the job.
fn import_files(store: &Store, job: &Job, files: &[ImportFile], dry_run: bool) -> Ending {
    let outcome = import::import(store, files, dry_run, job);
    Box::new(|s| match outcome {
        Ok(report) => {
            s.state = if report.is_rejected() {
                JobState::Rejected
            } else {
                JobState::Succeeded
            };
            s.report = Some(report);
        }
        Err(e) => {
            tracing::error!(error = %e, "import job failed");
            s.state = JobState::Failed;
            s.error = Some(e.to_string());
        }
    })
}

/// What a job's work says of its end: applied to its status once its slot is free.
type Ending = Box<dyn FnOnce(&mut JobStatus) + Send>;

/// Finished jobs kept for polling.
const JOBS_KEPT: usize = 100;

/// The server's jobs.
#[derive(Default)]
pub struct Jobs {
    next_id: AtomicU64,
    /// What changes the catalogue now, if anything: one import or sync at a time.
    catalogue: Mutex<Option<Changing>>,
    /// Brands whose DMM package is being built.
    packaging: Mutex<std::collections::BTreeSet<u32>>,
    jobs: Mutex<BTreeMap<u64, Arc<Job>>>,
}

/// What a job holds while it runs, so that no other job does the same.
#[derive(Debug, Clone, Copy)]
enum Slot {
    /// Changes of the catalogue: imports and syncs.
    Catalogue,
    /// The same, taken already for the upload the job imports (`reserve_upload`).
    Uploaded,
    /// A brand's DMM package.
    Package(u32),
}

impl Jobs {
    pub fn get(&self, id: u64) -> Option<Arc<Job>> {
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

    /// Starts importing a file of the inbox as a job, or refuses: a file that is not a plain
    /// regular file of the inbox, or a second import or sync while one runs. The returned
    /// handle ends when the job has.
    pub fn start_import(
        self: &Arc<Self>,
        store: &Arc<Store>,
        inbox: &Path,
        request: ImportRequest,
        started_by: &str,
    ) -> Result<(Arc<Job>, tokio::task::JoinHandle<()>), ServiceError> {
        let opened = inbox_file(inbox, &request.file_id)?;
        let file = ImportFile {
            import_type: request.import_type,
            source: Source::Opened {
                name: request.file_id.clone(),
                file: Arc::new(opened),
            },
            mode: request.mode,
        };
        let dry_run = request.dry_run;
        self.start(
            store,
            JobRequest::Import(request),
            Slot::Catalogue,
            started_by,
            move |store, job| import_files(store, job, &[file], dry_run),
        )
    }

    /// Starts importing files sent over the admin socket (`partscat import` while the server
    /// runs), or refuses a second import or sync while one runs. The files' directory goes
    /// when the job ends.
    pub fn start_upload(
        self: &Arc<Self>,
        store: &Arc<Store>,
        mut slot: UploadSlot,
        uploaded: Uploaded,
        dry_run: bool,
        started_by: &str,
    ) -> Result<(Arc<Job>, tokio::task::JoinHandle<()>), ServiceError> {
        let request = UploadRequest {
            files: uploaded.names.clone(),
            mode: uploaded.files.first().map_or(ImportMode::Merge, |f| f.mode),
            dry_run,
        };
        // The slot passes to the job, which gives it back when it ends.
        slot.taken = false;
        self.start(
            store,
            JobRequest::Upload(request),
            Slot::Uploaded,
            started_by,
            move |store, job| import_files(store, job, &uploaded.files, dry_run),
        )
    }

    /// Starts synchronising from `upstream` as a job, or refuses a second import or sync
    /// while one runs.
    pub fn start_sync(
        self: &Arc<Self>,
        store: &Arc<Store>,
        upstream: Upstream,
        request: SyncRequest,
        started_by: &str,
    ) -> Result<(Arc<Job>, tokio::task::JoinHandle<()>), ServiceError> {
        // The follower logs its failures once for each change of state (`sync::follow`).
        let followed = started_by == sync::FOLLOWER;
        self.start(
            store,
            JobRequest::Sync(request),
            Slot::Catalogue,
            started_by,
            move |store, job| {
                let outcome = sync::sync(store, &upstream, request, job);
                Box::new(move |s: &mut JobStatus| match outcome {
                Ok(report) => {
                    s.state = JobState::Succeeded;
                    s.sync = Some(report);
                }
                Err(e) => {
                    if followed {
                        tracing::debug!(error = %e, upstream = %upstream.describe(), "sync job failed");
                    } else {
                        tracing::error!(error = %e, upstream = %upstream.describe(), "sync job failed");
                    }
                    s.state = JobState::Failed;
                    s.error = Some(e.to_string());
                }
            })
            },
        )
    }

    /// Imports what a follower's wait on its upstream fetched, as a sync job.
    pub fn start_followed(
        self: &Arc<Self>,
        store: &Arc<Store>,
        waited: sync::Waited,
    ) -> Result<(Arc<Job>, tokio::task::JoinHandle<()>), ServiceError> {
        self.start(
            store,
            JobRequest::Sync(SyncRequest::everything(false)),
            Slot::Catalogue,
            sync::FOLLOWER,
            move |store, job| {
                let outcome = sync::import_waited(store, &waited, job);
                Box::new(move |s: &mut JobStatus| match outcome {
                    Ok(report) => {
                        s.state = JobState::Succeeded;
                        s.sync = Some(report);
                    }
                    Err(e) => {
                        // Logged by the follower, once for each change of state.
                        tracing::debug!(error = %e, "following the upstream: the change was not imported");
                        s.state = JobState::Failed;
                        s.error = Some(e.to_string());
                    }
                })
            },
        )
    }

    /// Starts building a brand's DMM package as a job, or refuses while one of the same
    /// brand is being built.
    pub fn start_dmm(
        self: &Arc<Self>,
        store: &Arc<Store>,
        setup: MediaSetup,
        request: DmmRequest,
        started_by: &str,
    ) -> Result<(Arc<Job>, tokio::task::JoinHandle<()>), ServiceError> {
        let slot = Slot::Package(request.brand_id);
        self.start(
            store,
            JobRequest::Dmm(request),
            slot,
            started_by,
            move |store, job| {
                let outcome = dmm::build(store, &setup, request, job);
                Box::new(move |s: &mut JobStatus| match outcome {
                    Ok(report) => {
                        s.state = JobState::Succeeded;
                        s.dmm = Some(report);
                    }
                    Err(e) => {
                        tracing::error!(error = %e, brand = request.brand_id, "DMM job failed");
                        s.state = JobState::Failed;
                        s.error = Some(e.to_string());
                    }
                })
            },
        )
    }

    /// Takes the job's slot (or refuses) and runs `work` as a job.
    fn start(
        self: &Arc<Self>,
        store: &Arc<Store>,
        request: JobRequest,
        slot: Slot,
        started_by: &str,
        work: impl FnOnce(&Store, &Job) -> Ending + Send + 'static,
    ) -> Result<(Arc<Job>, tokio::task::JoinHandle<()>), ServiceError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        self.take(slot, id)?;
        let phase = match request {
            JobRequest::Import(_) | JobRequest::Upload(_) => "reading",
            JobRequest::Sync(_) | JobRequest::Dmm(_) => "starting",
        };
        let job = Arc::new(Job {
            status: Mutex::new(JobStatus {
                id,
                state: JobState::Running,
                request,
                started_by: started_by.to_owned(),
                started_at: now(),
                finished_at: None,
                phase: phase.into(),
                bytes_read: 0,
                bytes_total: 0,
                files_done: 0,
                files_total: 0,
                report: None,
                sync: None,
                dmm: None,
                error: None,
            }),
            bytes_read: AtomicU64::new(0),
            bytes_total: AtomicU64::new(0),
            files_done: AtomicU64::new(0),
            files_total: AtomicU64::new(0),
        });
        self.add(job.clone(), id);
        let (runner, jobs, store) = (job.clone(), self.clone(), store.clone());
        let task = tokio::task::spawn_blocking(move || {
            // On a thread of its own, below the lookups' priority: a commit takes the cores
            // the answers leave (the pool's threads keep theirs).
            let ending = std::thread::scope(|scope| {
                scope
                    .spawn(|| {
                        crate::priority::yield_to_answers();
                        work(&store, &runner)
                    })
                    .join()
            });
            // The slot is free before the job says it has ended: whoever sees it ended may
            // start the next one at once.
            jobs.release(slot);
            runner.update(|s| {
                match ending {
                    Ok(ending) => ending(s),
                    // It panicked: failed, instead of running for ever.
                    Err(_) => {
                        s.state = JobState::Failed;
                        s.error = Some(
                            "the job stopped unexpectedly; the cause is in the server log".into(),
                        );
                    }
                }
                s.finished_at = Some(now());
                s.phase = "finished".into();
            });
        });
        Ok((job, task))
    }
}

impl Jobs {
    /// Takes `slot` for job `id`.
    fn take(&self, slot: Slot, id: u64) -> Result<(), ServiceError> {
        match slot {
            Slot::Catalogue | Slot::Uploaded => {
                let mut catalogue = self.lock_catalogue();
                match &*catalogue {
                    Some(changing) if matches!(slot, Slot::Catalogue) => {
                        Err(self.conflict(changing))
                    }
                    _ => {
                        *catalogue = Some(Changing::Job(id));
                        Ok(())
                    }
                }
            }
            Slot::Package(brand)
                if !self
                    .packaging
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(brand) =>
            {
                Err(ServiceError::Conflict(format!(
                    "brand {brand}'s package is already being built; poll its job and try again when it has finished"
                )))
            }
            _ => Ok(()),
        }
    }

    fn release(&self, slot: Slot) {
        match slot {
            Slot::Catalogue | Slot::Uploaded => *self.lock_catalogue() = None,
            Slot::Package(brand) => {
                self.packaging
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&brand);
            }
        }
    }
}

fn now() -> u64 {
    SystemClock.now()
}

/// A plain file name in the inbox (no directories, no parent steps, no hidden files), opened
/// once, without following a link, and checked to be a regular file: what is checked is
/// what is read, whatever is swapped in afterwards. Errors name the file id; a missing file
/// also names the inbox, so the catalogue team sees where it was looked for.
fn inbox_file(inbox: &Path, file_id: &str) -> Result<std::fs::File, ServiceError> {
    let plain = !file_id.is_empty()
        && file_id.len() <= 255
        && !file_id.starts_with('.')
        && !file_id.contains(['/', '\\', '\0', ':']);
    if !plain {
        return Err(ServiceError::bad_parameter(
            "fileId",
            format!(
                "'{file_id}' is not a plain file name in the import inbox (no paths, no hidden files)"
            ),
        ));
    }
    use crate::outside::files::{FolderError, open_regular_in};
    match open_regular_in(inbox, Path::new(file_id)) {
        Ok(file) => Ok(file),
        Err(FolderError::Missing(_)) => Err(ServiceError::NotFound(format!(
            "the import inbox {} has no file '{file_id}'",
            inbox.display()
        ))),
        Err(FolderError::Link(_) | FolderError::NotRegular(_)) => Err(ServiceError::bad_parameter(
            "fileId",
            format!("'{file_id}' in the import inbox is not a regular file"),
        )),
        Err(_) => Err(ServiceError::bad_parameter(
            "fileId",
            format!("'{file_id}' in the import inbox cannot be opened"),
        )),
    }
}
