//! Fetching an upstream partscat's change feed into the scratch directory: the request, the
//! upstream's refusals as errors, the feed's headers checked, its body kept whole within
//! `limits.feed_mb`, and a tar of every data set unpacked to one file each.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{CONNECT, MAX_DATA_VERSION, SILENCE, STORE_HEADER, SyncError, VERSION_HEADER};
use crate::import::{self, ImportFile, ImportMode, ImportType, Progress};
use crate::limits::Limits;
use crate::outside::tls::Trust;
use crate::outside::{self, http};

/// A feed kept whole in the scratch directory.
pub(super) struct Fetched {
    pub dir: PathBuf,
    pub store_id: String,
    pub data_version: u64,
}

/// Where a feed is fetched from, and as whom.
pub(super) struct FeedAddress<'a> {
    pub base: &'a str,
    pub provider: &'a str,
    pub key: &'a str,
    pub trust: &'a Trust,
}

/// What the feed's headers say about its body.
struct FeedHead {
    store_id: String,
    data_version: u64,
    is_tar: bool,
}

impl FeedAddress<'_> {
    fn url(
        &self,
        data_set: Option<ImportType>,
        since: Option<u64>,
        wait: Option<Duration>,
    ) -> String {
        let mut url = format!(
            "{}/svc/changes?importType={}&provider={}",
            self.base,
            data_set.map_or("all", |d| d.name()),
            form_urlencoded::byte_serialize(self.provider.as_bytes()).collect::<String>()
        );
        if let Some(since) = since {
            url.push_str(&format!("&since={since}"));
        }
        if let Some(wait) = wait {
            url.push_str(&format!("&wait={}", wait.as_secs()));
        }
        url
    }

    fn unreachable(&self, e: &dyn std::fmt::Display) -> SyncError {
        SyncError::Unreachable(self.base.to_owned(), e.to_string())
    }

    fn malformed(&self, detail: String) -> SyncError {
        SyncError::Malformed {
            url: self.base.to_owned(),
            detail,
        }
    }

    /// The error an answer other than 200 stands for, with the upstream's own words.
    fn refusal(&self, status: u16, text: &str) -> SyncError {
        let detail = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|v| v.get("detail")?.as_str().map(str::to_owned))
            .unwrap_or_else(|| text.chars().take(300).collect());
        let detail: String = detail.chars().take(1000).collect();
        let url = self.base.to_owned();
        match status {
            401 | 403 => SyncError::Refused {
                url,
                provider: self.provider.to_owned(),
                status,
                detail,
            },
            410 => SyncError::Gap { url, detail },
            _ => SyncError::Failed {
                url,
                status,
                detail,
            },
        }
    }

    /// The store and data version a feed answer names, checked against where this catalogue
    /// is (`since`) and the size bound.
    fn head(
        &self,
        response: &reqwest::Response,
        since: Option<u64>,
        limits: &Limits,
    ) -> Result<FeedHead, SyncError> {
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let store_id = header(STORE_HEADER)
            .filter(|id| !id.is_empty() && id.len() <= 128)
            .ok_or_else(|| self.malformed(format!("it lacks the {STORE_HEADER} header")))?;
        let data_version = header(VERSION_HEADER)
            .and_then(|v| v.parse::<u64>().ok())
            .filter(|&v| v <= MAX_DATA_VERSION)
            .ok_or_else(|| {
                self.malformed(format!(
                    "it lacks a {VERSION_HEADER} header of a whole number up to {MAX_DATA_VERSION}"
                ))
            })?;
        if let Some(since) = since.filter(|&since| data_version < since) {
            return Err(SyncError::Gap {
                url: self.base.to_owned(),
                detail: format!(
                    "its data version went back from {since}, reached already, to {data_version}"
                ),
            });
        }
        if let Some(length) = response
            .content_length()
            .filter(|&l| l > limits.feed_bytes())
        {
            return Err(self.malformed(feed_too_large(length, limits)));
        }
        Ok(FeedHead {
            store_id,
            data_version,
            is_tar: header("content-type").is_some_and(|t| t.starts_with("application/x-tar")),
        })
    }
}

/// Fetches the feed into `scratch`; with `wait`, the upstream holds the request until a newer
/// version is committed, and `None` is its answer that none was.
pub(super) fn fetch_feed(
    address: FeedAddress,
    data_set: Option<ImportType>,
    since: Option<u64>,
    wait: Option<Duration>,
    scratch: &Path,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<Option<Fetched>, SyncError> {
    let body = scratch.join("feed");
    let fetch = receive(&address, data_set, since, wait, &body, limits, progress);
    // On the server's runtime where there is one (a job's blocking thread), else on one of
    // its own (the command line).
    let Some(head) =
        crate::service::dmm::on_runtime(fetch).map_err(|e| address.unreachable(&e))??
    else {
        return Ok(None);
    };
    let dir = scratch.join("files");
    std::fs::create_dir(&dir).map_err(|e| SyncError::Scratch(e.to_string()))?;
    if head.is_tar {
        unpack_feed(&body, &dir, limits.feed_bytes()).map_err(|e| address.malformed(e))?;
    } else {
        let name = data_set
            .ok_or_else(|| address.malformed("a feed of all data sets that is not a tar".into()))?;
        std::fs::rename(&body, dir.join(format!("{}.csv", name.name())))
            .map_err(|e| SyncError::Scratch(e.to_string()))?;
    }
    Ok(Some(Fetched {
        dir,
        store_id: head.store_id,
        data_version: head.data_version,
    }))
}

/// Asks for the feed and keeps its body whole in `body`; `None`: the upstream waited and had
/// nothing newer.
async fn receive(
    address: &FeedAddress<'_>,
    data_set: Option<ImportType>,
    since: Option<u64>,
    wait: Option<Duration>,
    body: &Path,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<Option<FeedHead>, SyncError> {
    // The upstream is silent while it waits: the read time-out is longer than the wait.
    let silence = SILENCE + wait.unwrap_or_default();
    let client = http::client(CONNECT, silence, address.trust, "sync")
        .map_err(|e| address.unreachable(&e))?;
    let mut pace = http::Pace::start(limits);
    let request = client
        .get(address.url(data_set, since, wait))
        .header("X-Api-Key", address.key);
    let mut response = pace
        .send(request)
        .await
        .map_err(|e| address.unreachable(&e))?;
    let status = response.status().as_u16();
    if status == 204 && wait.is_some() {
        return Ok(None);
    }
    if let Some(why) = http::unfollowed_redirect(&response) {
        return Err(SyncError::Failed {
            url: address.base.to_owned(),
            status,
            detail: why,
        });
    }
    if status != 200 {
        return Err(address.refusal(status, &http::error_text(response).await));
    }
    let head = address.head(&response, since, limits)?;
    let mut out =
        outside::files::create_private(body).map_err(|e| SyncError::Scratch(e.to_string()))?;
    let mut received = 0u64;
    // A body that breaks off (the upstream stopped, the network failed) is an error here: its
    // chunked framing is incomplete.
    while let Some(chunk) = pace.chunk(&mut response).await.map_err(|e| {
        SyncError::Unreachable(address.base.to_owned(), format!("the feed broke off: {e}"))
    })? {
        received += chunk.len() as u64;
        if received > limits.feed_bytes() {
            return Err(address.malformed(feed_too_large(received, limits)));
        }
        std::io::Write::write_all(&mut out, &chunk)
            .map_err(|e| SyncError::Scratch(e.to_string()))?;
        progress.advanced(received);
    }
    out.sync_all()
        .map_err(|e| SyncError::Scratch(e.to_string()))?;
    Ok(Some(head))
}

/// Why a feed is refused for its size.
fn feed_too_large(bytes: u64, limits: &Limits) -> String {
    format!(
        "it is {bytes} bytes or more, over the limit of {} MiB (limits.feed_mb)",
        limits.feed_mb
    )
}

/// The `<type>.csv` files of a feed of all data sets, together no larger than `max_bytes`;
/// anything else in it is refused.
pub fn unpack_feed(tar_file: &Path, dir: &Path, max_bytes: u64) -> Result<(), String> {
    let file = std::fs::File::open(tar_file).map_err(|e| e.to_string())?;
    let mut archive = tar::Archive::new(file);
    let mut seen = std::collections::BTreeSet::new();
    let mut unpacked = 0u64;
    for entry in archive.entries().map_err(|e| format!("not a tar: {e}"))? {
        let mut entry = entry.map_err(|e| format!("a damaged tar: {e}"))?;
        let path = entry.path().map_err(|e| e.to_string())?.into_owned();
        let name = path.to_string_lossy().into_owned();
        let data_set = name
            .strip_suffix(".csv")
            .and_then(ImportType::from_name)
            .filter(|_| entry.header().entry_type().is_file())
            .ok_or_else(|| format!("it holds '{name}', which is not a data set's file"))?;
        if !seen.insert(data_set) {
            return Err(format!("it holds '{name}' twice"));
        }
        let mut out =
            outside::files::create_private(&dir.join(&name)).map_err(|e| e.to_string())?;
        let left = max_bytes.saturating_sub(unpacked);
        unpacked += std::io::copy(&mut (&mut entry).take(left + 1), &mut out)
            .map_err(|e| format!("a damaged tar: {e}"))?;
        if unpacked > max_bytes {
            return Err(format!(
                "its files are over the limit of {} MiB (limits.feed_mb)",
                max_bytes >> 20
            ));
        }
    }
    Ok(())
}

/// The feed's files of the data sets asked for, each there, in the mode the sync imports them.
pub(super) fn feed_files(
    dir: &Path,
    data_sets: &[ImportType],
    refresh: bool,
) -> Result<Vec<ImportFile>, String> {
    let mode = if refresh {
        ImportMode::Refresh
    } else {
        ImportMode::Merge
    };
    data_sets
        .iter()
        .map(|d| {
            let path = dir.join(format!("{}.csv", d.name()));
            if !path.is_file() {
                return Err(format!("it lacks the file of data set {}", d.name()));
            }
            let file = std::fs::File::open(&path).map_err(|e| e.to_string())?;
            Ok(ImportFile {
                import_type: *d,
                source: import::Source::Opened {
                    name: format!("the feed's {}.csv", d.name()),
                    file: std::sync::Arc::new(file),
                },
                mode,
            })
        })
        .collect()
}
