//! `syncTecdoc`: brings this catalogue up to its upstream's, either another partscat's change
//! feed (`/svc/changes`) or a directory of dated deliveries of import files. What comes in is
//! first kept whole in a scratch directory of the store (a feed that breaks off, a key that is
//! refused or a malformed file leaves the catalogue untouched), then imported as one change
//! that also records how far the upstream has been followed.

mod deliveries;
pub mod feed;
mod fetch;
mod follow;
mod indexed;
mod upstream;

use deliveries::sync_from_deliveries;
use fetch::{FeedAddress, Fetched, feed_files, fetch_feed};
pub use follow::{FOLLOWER, follow};
pub use indexed::{Location, POLL_EVERY};
pub use upstream::Upstream;

use std::path::PathBuf;
use std::time::Duration;

use crate::config::SyncSettings;
use crate::import::{self, ImportError, ImportReport, ImportType, Progress};
use crate::outside::tls::Trust;
use crate::store::{Store, SyncMark};

/// The response headers of the change feed.
pub const STORE_HEADER: &str = "x-partscat-store";
pub const VERSION_HEADER: &str = "x-data-version";

/// How long the upstream may stay silent, connecting or mid-stream, before the sync gives up.
const SILENCE: Duration = Duration::from_secs(60);
const CONNECT: Duration = Duration::from_secs(10);
/// The largest data version taken from an upstream: the largest whole number a JSON client
/// reads exactly.
const MAX_DATA_VERSION: u64 = (1 << 53) - 1;

/// What a sync is asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyncRequest {
    /// One data set, or `None` for all.
    pub data_set: Option<ImportType>,
    /// Reload in full rather than take what changed since the last sync.
    pub refresh: bool,
}

impl SyncRequest {
    /// Every data set: what changed since the last sync, or (`refresh`) in full.
    pub const fn everything(refresh: bool) -> SyncRequest {
        SyncRequest {
            data_set: None,
            refresh,
        }
    }

    fn data_sets(&self) -> Vec<ImportType> {
        match self.data_set {
            Some(one) => vec![one],
            None => ImportType::ALL.to_vec(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(
        "no upstream is configured: set [sync] upstream (another partscat, with provider and api_key) or source_dir (a directory of deliveries)"
    )]
    NotConfigured,
    #[error("the upstream key file {0}: {1}")]
    KeyFile(String, String),
    #[error("the upstream {0} cannot be reached: {1}")]
    Unreachable(String, String),
    #[error("the upstream {url} refused provider `{provider}` ({status}): {detail}")]
    Refused {
        url: String,
        provider: String,
        status: u16,
        detail: String,
    },
    #[error(
        "the upstream {url} no longer has the changes this catalogue needs ({detail}); syncTecdoc with refresh=true reloads in full"
    )]
    Gap { url: String, detail: String },
    #[error("the upstream {url} failed ({status}): {detail}")]
    Failed {
        url: String,
        status: u16,
        detail: String,
    },
    #[error("the upstream {url} sent a malformed feed: {detail}")]
    Malformed { url: String, detail: String },
    #[error("{0}")]
    NeedsRefresh(String),
    #[error("the source directory {0}: {1}")]
    Source(String, String),
    #[error("what the upstream sent cannot be kept in the store's directory: {0}")]
    Scratch(String),
    #[error("the upstream's rows were refused, nothing was written: {0}")]
    Rejected(String),
    #[error(transparent)]
    Import(#[from] ImportError),
}

/// What a sync did.
#[derive(Debug, Clone)]
pub struct SyncReport {
    /// Where it synchronised from.
    pub upstream: String,
    /// Where the data sets were before (the lowest of them), if they had been synchronised.
    pub from: Option<String>,
    /// Where they are now: the upstream's data version, or the last delivery's name.
    pub reached: String,
    /// Each import the sync made (one for a feed; one per delivery).
    pub imports: Vec<ImportReport>,
}

/// Synchronises `store` from `upstream`. Blocking; the feed is fetched on a runtime of its own.
pub fn sync(
    store: &Store,
    upstream: &Upstream,
    request: SyncRequest,
    progress: &dyn Progress,
) -> Result<SyncReport, SyncError> {
    match upstream {
        Upstream::Feed {
            base,
            provider,
            key,
            trust,
        } => sync_from_feed(
            store,
            FeedAddress {
                base,
                provider,
                key,
                trust,
            },
            request,
            progress,
        ),
        Upstream::Deliveries(dir) => sync_from_deliveries(store, dir, request, progress),
        Upstream::Indexed(location) => indexed::sync_from_index(store, location, request, progress),
    }
}

/// The label of a partscat upstream in the sync mark: its store, not its address.
fn feed_label(store_id: &str) -> String {
    format!("partscat store {store_id}")
}

/// The lowest position the data sets reached in the upstream the mark names, with that
/// upstream's label; `None` where one of them was never synchronised.
fn reached_by_all(mark: &SyncMark, data_sets: &[ImportType]) -> Option<u64> {
    data_sets
        .iter()
        .map(|d| mark.reached(&mark.upstream, d.name())?.parse::<u64>().ok())
        .collect::<Option<Vec<u64>>>()?
        .into_iter()
        .min()
}

fn sync_from_feed(
    store: &Store,
    address: FeedAddress,
    request: SyncRequest,
    progress: &dyn Progress,
) -> Result<SyncReport, SyncError> {
    let base = address.base;
    let data_sets = request.data_sets();
    let mark = store.catalogue().sync_mark().clone();
    let since = if request.refresh {
        None
    } else {
        let reached = mark
            .upstream
            .starts_with(&feed_label(""))
            .then(|| reached_by_all(&mark, &data_sets))
            .flatten();
        Some(reached.ok_or_else(|| {
            SyncError::NeedsRefresh(format!(
                "{} not been synchronised from {base} yet: syncTecdoc with refresh=true loads {} in full first",
                match request.data_set {
                    Some(d) => format!("data set {} has", d.name()),
                    None => "the data sets have".into(),
                },
                request.data_set.map_or("them", |_| "it")
            ))
        })?)
    };
    let scratch = store.spill_dir().map_err(ImportError::from)?;
    progress.phase("fetching from the upstream");
    let fetched = fetch_feed(
        address,
        request.data_set,
        since,
        None,
        scratch.path(),
        &store.limits(),
        progress,
    )?
    .ok_or_else(|| SyncError::Malformed {
        url: base.to_owned(),
        detail: "it answered without a feed".into(),
    })?;
    import_feed(store, base, &fetched, since, request, progress)
}

/// Imports a fetched feed as one change, if it is of the store this catalogue follows.
fn import_feed(
    store: &Store,
    base: &str,
    fetched: &Fetched,
    since: Option<u64>,
    request: SyncRequest,
    progress: &dyn Progress,
) -> Result<SyncReport, SyncError> {
    let data_sets = request.data_sets();
    let mark = store.catalogue().sync_mark().clone();
    let label = feed_label(&fetched.store_id);
    if since.is_some() && mark.upstream != label {
        return Err(SyncError::NeedsRefresh(format!(
            "the upstream {base} is another store ({label}) than the one this catalogue followed ({}); syncTecdoc with refresh=true reloads in full",
            mark.upstream
        )));
    }
    let files = feed_files(&fetched.dir, &data_sets, request.refresh).map_err(|detail| {
        SyncError::Malformed {
            url: base.to_owned(),
            detail,
        }
    })?;
    progress.phase("importing what the upstream sent");
    let names: Vec<&str> = data_sets.iter().map(|d| d.name()).collect();
    let reached = fetched.data_version.to_string();
    let next = mark.advanced(&label, &names, &reached);
    let report = import::import_synced(store, &files, next, progress)?;
    refuse_rejected(&report)?;
    Ok(SyncReport {
        upstream: base.to_owned(),
        from: since.map(|v| v.to_string()),
        reached,
        imports: vec![report],
    })
}

/// What a follower's wait on its upstream brought.
pub enum Followed {
    /// Nothing newer within the wait.
    Nothing,
    /// A feed of what changed, fetched while waiting, to import.
    Feed(Box<Waited>),
    /// Something newer, for a sync to take (deliveries).
    Newer,
}

/// A feed fetched by a follower and kept in the store's scratch directory.
pub struct Waited {
    _scratch: tempfile::TempDir,
    fetched: Fetched,
    since: u64,
    base: String,
}

/// Waits on `upstream` (up to `wait` on a partscat's feed; one look at a deliveries index)
/// for a data version newer than the one this catalogue reached. Blocking; takes no slot,
/// so imports and syncs go on meanwhile. A catalogue that never synchronised from it is
/// refreshed in full first (`SyncError::NeedsRefresh`).
pub fn wait_for_upstream(
    store: &Store,
    upstream: &Upstream,
    wait: Duration,
) -> Result<Followed, SyncError> {
    let everything = SyncRequest::everything(false);
    match upstream {
        Upstream::Feed {
            base,
            provider,
            key,
            trust,
        } => {
            let mark = store.catalogue().sync_mark().clone();
            let since = mark
                .upstream
                .starts_with(&feed_label(""))
                .then(|| reached_by_all(&mark, &everything.data_sets()))
                .flatten()
                .ok_or_else(|| {
                    SyncError::NeedsRefresh(format!("not synchronised from {base} yet"))
                })?;
            let scratch = store.spill_dir().map_err(ImportError::from)?;
            let address = FeedAddress {
                base,
                provider,
                key,
                trust,
            };
            let fetched = fetch_feed(
                address,
                None,
                Some(since),
                Some(wait),
                scratch.path(),
                &store.limits(),
                &import::Quiet,
            )?;
            Ok(match fetched {
                // A feed of nothing newer from the same store (an upstream, or a proxy, that
                // answered the wait at once with an empty feed): nothing to import.
                Some(fetched)
                    if fetched.data_version == since
                        && mark.upstream == feed_label(&fetched.store_id) =>
                {
                    Followed::Nothing
                }
                Some(fetched) => Followed::Feed(Box::new(Waited {
                    _scratch: scratch,
                    fetched,
                    since,
                    base: base.clone(),
                })),
                None => Followed::Nothing,
            })
        }
        Upstream::Indexed(location) => Ok(if indexed::has_newer(store, location)? {
            Followed::Newer
        } else {
            Followed::Nothing
        }),
        Upstream::Deliveries(dir) => Err(SyncError::Source(
            dir.display().to_string(),
            "a directory of dated deliveries is synchronised at an interval, not followed".into(),
        )),
    }
}

/// Imports what `wait_for_upstream` fetched, as `syncTecdoc` would have.
pub fn import_waited(
    store: &Store,
    waited: &Waited,
    progress: &dyn Progress,
) -> Result<SyncReport, SyncError> {
    let request = SyncRequest::everything(false);
    let mark = store.catalogue().sync_mark().clone();
    if reached_by_all(&mark, &request.data_sets()) != Some(waited.since) {
        return Err(SyncError::NeedsRefresh(format!(
            "the catalogue moved from data version {} of {} while the feed was fetched; the next round takes it from where it is",
            waited.since, waited.base
        )));
    }
    import_feed(
        store,
        &waited.base,
        &waited.fetched,
        Some(waited.since),
        request,
        progress,
    )
}

/// A sync whose rows were refused is an error naming the first of them.
fn refuse_rejected(report: &ImportReport) -> Result<(), SyncError> {
    if !report.is_rejected() {
        return Ok(());
    }
    let first: Vec<String> = report
        .files
        .iter()
        .filter(|f| f.rejected > 0)
        .flat_map(|f| {
            f.errors
                .iter()
                .take(3)
                .map(move |e| format!("{} line {}: {}", f.import_type.name(), e.line, e.message))
        })
        .collect();
    Err(SyncError::Rejected(first.join("; ")))
}
