//! Why a service call gives no answer, in terms a protocol adapter can word: the `/svc`
//! routes as problem+json, SOAP as a status in the answer.

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// A parameter's value is not one the service can use; names the parameter.
    #[error("{detail}")]
    BadParameter {
        parameter: &'static str,
        detail: String,
    },
    /// The caller may not see what it asked for (a brand outside its provider's).
    #[error("{0}")]
    Forbidden(String),
    /// What was asked for does not exist (a Ktype, a generic article, a file, a job).
    #[error("{0}")]
    NotFound(String),
    /// What was asked for is no longer kept (a change feed from before the changes kept).
    #[error("{0}")]
    Gone(String),
    /// Another call holds what this one needs (an import runs).
    #[error("{0}")]
    Conflict(String),
    /// The disk has no room for what the call must write; names the disk and the room.
    #[error("{0}")]
    NoSpace(String),
    /// The request spent its budget (the client went away, the work or the answer too big).
    #[error(transparent)]
    Spent(#[from] crate::budget::Spent),
    /// The store failed: ours, not the caller's.
    #[error(transparent)]
    Store(StoreError),
}

/// A store error the caller can act on is worded as its kind; the rest stay the store's.
impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> ServiceError {
        match e {
            StoreError::Spent(spent) => ServiceError::Spent(spent),
            e @ (StoreError::NotCompacted(_) | StoreError::NumberTaken { .. }) => {
                ServiceError::Conflict(e.to_string())
            }
            e => ServiceError::Store(e),
        }
    }
}

/// An answer that would not serialise is ours to fix, like a store that would not read.
impl From<serde_json::Error> for ServiceError {
    fn from(e: serde_json::Error) -> ServiceError {
        ServiceError::Store(StoreError::Json(e))
    }
}

impl ServiceError {
    pub fn bad_parameter(parameter: &'static str, detail: impl Into<String>) -> ServiceError {
        ServiceError::BadParameter {
            parameter,
            detail: detail.into(),
        }
    }
}
