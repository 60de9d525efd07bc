//! Following an upstream through its deliveries (`service::deliveries`): from a folder on
//! disk or the same served over HTTP(S) by a static web server. Each file is fetched into the
//! scratch directory, checked against the index's size and SHA-256, and each delivery
//! imported as one change that records the data version it brings the catalogue to.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use super::{
    CONNECT, SILENCE, SyncError, SyncReport, SyncRequest, feed_label, reached_by_all,
    refuse_rejected,
};
use crate::import::{self, ImportError, Progress};
use crate::limits::Limits;
use crate::outside::tls::Trust;
use crate::outside::{self, http};
use crate::service::deliveries::{self, DeliveredFile, Delivery, INDEX, Index, MAX_INDEX_BYTES};
use crate::service::dmm::on_runtime;
use crate::store::Store;

/// Where the deliveries are.
#[derive(Debug, Clone)]
pub enum Location {
    Folder(PathBuf),
    Web {
        base: String,
        trust: Trust,
        /// Made at the first request, then kept for the sync's others (its trust is read once).
        client: OnceLock<reqwest::Client>,
    },
}

impl Location {
    pub fn describe(&self) -> String {
        match self {
            Location::Folder(dir) => dir.display().to_string(),
            Location::Web { base, .. } => base.clone(),
        }
    }

    /// Served over HTTP(S), at `base`.
    pub fn web(base: String, trust: Trust) -> Location {
        Location::Web {
            base,
            trust,
            client: OnceLock::new(),
        }
    }

    fn failed(&self, detail: String) -> SyncError {
        SyncError::Source(self.describe(), detail)
    }

    /// The client for a location served over HTTP(S).
    fn client(
        &self,
        trust: &Trust,
        kept: &OnceLock<reqwest::Client>,
    ) -> Result<reqwest::Client, SyncError> {
        if let Some(client) = kept.get() {
            return Ok(client.clone());
        }
        let made = http::client(CONNECT, SILENCE, trust, "sync").map_err(|e| self.failed(e))?;
        Ok(kept.get_or_init(|| made).clone())
    }

    /// The index, as it is now.
    pub fn index(&self, limits: &Limits) -> Result<Index, SyncError> {
        match self {
            Location::Folder(dir) => deliveries::read_local_index(dir).map_err(|e| self.failed(e)),
            Location::Web {
                base,
                trust,
                client,
            } => {
                let url = format!("{base}/{INDEX}");
                let client = self.client(trust, client)?;
                let body = on_runtime(get(&client, &url, MAX_INDEX_BYTES, limits, None))
                    .map_err(|e| self.failed(e.to_string()))?
                    .map_err(|e| self.failed(e))?;
                deliveries::parse_index(body.as_slice()).map_err(|e| self.failed(e))
            }
        }
    }

    /// One file of a delivery into `to`, checked against the index.
    fn fetch(
        &self,
        delivery: &Delivery,
        listed: &DeliveredFile,
        to: &Path,
        limits: &Limits,
    ) -> Result<(), SyncError> {
        if listed.bytes > limits.feed_bytes() {
            return Err(self.failed(format!(
                "{}/{} is {} bytes, over the limit of {} MiB (limits.feed_mb)",
                delivery.name, listed.name, listed.bytes, limits.feed_mb
            )));
        }
        let relative = Path::new(&delivery.name).join(&listed.name);
        match self {
            Location::Folder(dir) => {
                let mut from = outside::files::open_regular_in(dir, &relative)
                    .map_err(|e| self.failed(e.to_string()))?;
                let mut out = outside::files::create_private(to)
                    .map_err(|e| SyncError::Scratch(e.to_string()))?;
                std::io::copy(
                    &mut std::io::Read::take(&mut from, listed.bytes + 1),
                    &mut out,
                )
                .map_err(|e| SyncError::Scratch(e.to_string()))?;
            }
            Location::Web {
                base,
                trust,
                client,
            } => {
                let url = format!("{base}/{}/{}", delivery.name, listed.name);
                let client = self.client(trust, client)?;
                on_runtime(get(&client, &url, listed.bytes, limits, Some(to)))
                    .map_err(|e| self.failed(e.to_string()))?
                    .map_err(|e| self.failed(e))?;
            }
        }
        deliveries::check_file(listed, to)
            .map_err(|e| self.failed(format!("delivery {}: {e}", delivery.name)))
    }
}

/// GETs `url`, no more than `max_bytes`: into `to` where given, else into memory.
async fn get(
    client: &reqwest::Client,
    url: &str,
    max_bytes: u64,
    limits: &Limits,
    to: Option<&Path>,
) -> Result<Vec<u8>, String> {
    let mut pace = http::Pace::start(limits);
    let mut response = pace
        .send(client.get(url))
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    if let Some(why) = http::unfollowed_redirect(&response) {
        return Err(format!("{url}: {why}"));
    }
    if !response.status().is_success() {
        return Err(format!("{url} answered {}", response.status().as_u16()));
    }
    let mut out = match to {
        Some(path) => Some(outside::files::create_private(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let mut body = Vec::new();
    let mut received = 0u64;
    while let Some(chunk) = pace
        .chunk(&mut response)
        .await
        .map_err(|e| format!("{url} broke off: {e}"))?
    {
        received += chunk.len() as u64;
        if received > max_bytes {
            return Err(format!(
                "{url} is larger than the {max_bytes} bytes expected"
            ));
        }
        match &mut out {
            Some(file) => std::io::Write::write_all(file, &chunk).map_err(|e| e.to_string())?,
            None => body.extend_from_slice(&chunk),
        }
    }
    if let Some(file) = out {
        file.sync_all().map_err(|e| e.to_string())?;
    }
    Ok(body)
}

/// Brings `store` up to the deliveries at `location`.
pub fn sync_from_index(
    store: &Store,
    location: &Location,
    request: SyncRequest,
    progress: &dyn Progress,
) -> Result<SyncReport, SyncError> {
    let limits = store.limits();
    let data_sets = request.data_sets();
    let names: Vec<&str> = data_sets.iter().map(|d| d.name()).collect();
    progress.phase("reading the deliveries' index");
    let index = location.index(&limits)?;
    let label = feed_label(&index.store);
    let mut mark = store.catalogue().sync_mark().clone();
    let position = (!request.refresh && mark.upstream == label)
        .then(|| reached_by_all(&mark, &data_sets))
        .flatten();
    if let Some(at) = position.filter(|&at| at > index.version) {
        return Err(SyncError::Gap {
            url: location.describe(),
            detail: format!(
                "its deliveries went back from data version {at}, reached already, to {}",
                index.version
            ),
        });
    }
    let scratch = store.spill_dir().map_err(ImportError::from)?;
    let mut imports = Vec::new();
    for delivery in index.route_from(position) {
        progress.phase(&format!(
            "delivery {}: {}",
            delivery.name,
            deliveries::describe(delivery)
        ));
        let dir = scratch.path().join(&delivery.name);
        std::fs::create_dir(&dir).map_err(|e| SyncError::Scratch(e.to_string()))?;
        for listed in delivery.files.iter().filter(|f| {
            names
                .iter()
                .any(|n| f.name.strip_suffix(".csv") == Some(*n))
        }) {
            location.fetch(delivery, listed, &dir.join(&listed.name), &limits)?;
        }
        let files = deliveries::delivery_files(delivery, &dir, &data_sets)
            .map_err(|e| SyncError::Scratch(e.to_string()))?;
        let next = mark.advanced(&label, &names, &delivery.to.to_string());
        let report = import::import_synced(store, &files, next.clone(), progress)?;
        refuse_rejected(&report)?;
        imports.push(report);
        mark = next;
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(SyncReport {
        upstream: location.describe(),
        from: position.map(|p| p.to_string()),
        reached: index.version.to_string(),
        imports,
    })
}

/// Whether the deliveries hold a version newer than the one `store` reached from them.
pub fn has_newer(store: &Store, location: &Location) -> Result<bool, SyncError> {
    let index = location.index(&store.limits())?;
    let mark = store.catalogue().sync_mark().clone();
    let reached = (mark.upstream == feed_label(&index.store))
        .then(|| reached_by_all(&mark, &crate::import::ImportType::ALL))
        .flatten();
    Ok(reached.is_none_or(|r| r < index.version))
}

/// How often a follower of deliveries looks at their index: a static server cannot hold a
/// request until the next commit, and its index is a small file.
pub const POLL_EVERY: Duration = Duration::from_secs(1);
