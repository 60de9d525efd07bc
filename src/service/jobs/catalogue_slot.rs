//! The catalogue's slot: one import or sync at a time. An upload takes it from its headers,
//! before a byte of its body is read, and hands it to the job that imports it; a second
//! change meanwhile is refused naming the one under way.

use std::sync::Arc;

use super::{Jobs, Slot};
use crate::service::ServiceError;

/// What holds the catalogue's slot: files being received for an import, or a job.
#[derive(Debug, Clone)]
pub(super) enum Changing {
    Receiving { by: String },
    Job(u64),
}

/// The catalogue's slot, taken for an upload before its first byte is read: a second
/// upload is refused from its headers. Given back when dropped, unless its job took it.
pub struct UploadSlot {
    jobs: Arc<Jobs>,
    pub(super) taken: bool,
}

impl Drop for UploadSlot {
    fn drop(&mut self) {
        if self.taken {
            self.jobs.release(Slot::Catalogue);
        }
    }
}

impl Jobs {
    /// Takes the catalogue's slot for an upload about to be received, or refuses (409)
    /// naming what holds it: a second upload is refused before a byte of it is read.
    pub fn reserve_upload(self: &Arc<Self>, by: &str) -> Result<UploadSlot, ServiceError> {
        let mut catalogue = self.lock_catalogue();
        if let Some(changing) = &*catalogue {
            return Err(self.conflict(changing));
        }
        *catalogue = Some(Changing::Receiving { by: by.to_owned() });
        Ok(UploadSlot {
            jobs: self.clone(),
            taken: true,
        })
    }

    /// Why a change of the catalogue would be refused now, if it would: for a sender to
    /// learn before it sends.
    pub fn catalogue_busy(&self) -> Option<String> {
        let changing = self.lock_catalogue().clone()?;
        Some(self.conflict(&changing).to_string())
    }

    pub(super) fn lock_catalogue(&self) -> std::sync::MutexGuard<'_, Option<Changing>> {
        self.catalogue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The refusal of a second change of the catalogue, naming the one under way.
    pub(super) fn conflict(&self, changing: &Changing) -> ServiceError {
        let what = match changing {
            Changing::Receiving { by } => {
                format!("files from {by} are being received for an import")
            }
            Changing::Job(id) => match self.get(*id) {
                Some(job) => {
                    let status = job.snapshot();
                    format!(
                        "job {id} ({}, started by {}) is running",
                        status.request.kind(),
                        status.started_by
                    )
                }
                None => format!("job {id} is running"),
            },
        };
        ServiceError::Conflict(format!(
            "an import or sync is already running: {what}; poll its job and try again when it has finished"
        ))
    }
}
