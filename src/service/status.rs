//! What the catalogue is at this moment, for the readiness probe and the metrics: its data
//! version, when a commit last changed it, and how far a follower has come upstream.

use crate::import::ImportType;
use crate::service::ServiceError;
use crate::service::context::Context;
use crate::store::Store;

/// The published catalogue, as a probe reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueStatus {
    pub data_version: u64,
    /// Seconds since the epoch of the last commit (0: never imported into).
    pub updated_at: u64,
    /// Set on a follower once every data set has reached a position upstream.
    pub following: Option<Following>,
}

/// How far a follower has come: the lowest data version its data sets reached upstream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Following {
    pub upstream: String,
    pub data_version: u64,
}

/// The catalogue `store` publishes now.
pub fn of(store: &Store) -> CatalogueStatus {
    let catalogue = store.catalogue();
    let mark = catalogue.sync_mark();
    let reached = mark
        .reached
        .iter()
        .filter_map(|(_, position)| position.parse::<u64>().ok())
        .min();
    let following = reached
        .filter(|_| mark.reached.len() == ImportType::ALL.len())
        .map(|data_version| Following {
            upstream: mark.upstream.clone(),
            data_version,
        });
    CatalogueStatus {
        data_version: catalogue.data_version(),
        updated_at: catalogue.updated_at(),
        following,
    }
}

/// The catalogue a request's answer reads (its snapshot): its data version and when a
/// commit last changed it, in seconds since the epoch.
pub fn answered(context: &Context) -> (u64, u64) {
    let catalogue = context.snapshot();
    (catalogue.data_version(), catalogue.updated_at())
}

/// The data version `store` publishes now.
pub fn data_version(store: &Store) -> u64 {
    store.catalogue().data_version()
}

/// How many providers the store holds.
pub fn provider_count(store: &Store) -> Result<usize, ServiceError> {
    Ok(store.providers()?.len())
}
