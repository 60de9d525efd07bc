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
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ServiceError {
    pub fn bad_parameter(parameter: &'static str, detail: impl Into<String>) -> ServiceError {
        ServiceError::BadParameter {
            parameter,
            detail: detail.into(),
        }
    }
}
