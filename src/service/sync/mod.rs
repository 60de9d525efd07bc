//! `syncTecdoc`: brings this catalogue up to its upstream's, either another partscat's change
//! feed (`/svc/changes`) or a directory of dated deliveries of import files. What comes in is
//! first kept whole in a scratch directory of the store (a feed that breaks off, a key that is
//! refused or a malformed file leaves the catalogue untouched), then imported as one change
//! that also records how far the upstream has been followed.

pub mod feed;
mod follow;
mod indexed;

pub use follow::follow;
pub use indexed::{Location, POLL_EVERY};

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::config::SyncSettings;
use crate::import::{
    self, ImportError, ImportFile, ImportMode, ImportReport, ImportType, Progress,
};
use crate::limits::Limits;
use crate::outside::tls::Trust;
use crate::outside::{self, http};
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

/// Where the catalogue comes from.
#[derive(Debug, Clone)]
pub enum Upstream {
    /// Another partscat's change feed.
    Feed {
        base: String,
        provider: String,
        key: String,
        trust: Trust,
    },
    /// A directory of deliveries: subdirectories whose names sort by date, each holding
    /// `<type>.csv` files. A name starting with `.` is a delivery still being written.
    Deliveries(PathBuf),
    /// An upstream's deliveries with their index (`deliveries_dir`), in a folder or served
    /// over HTTP(S).
    Indexed(Location),
}

impl Upstream {
    /// The configured upstream; its key file is read now, so a rotated key needs no restart.
    pub fn configured(settings: &SyncSettings) -> Result<Upstream, SyncError> {
        if let Some(dir) = &settings.source_dir {
            if dir.join(crate::service::deliveries::INDEX).exists() {
                return Ok(Upstream::Indexed(Location::Folder(dir.clone())));
            }
            return Ok(Upstream::Deliveries(dir.clone()));
        }
        if let Some(base) = &settings.source_url {
            return Ok(Upstream::Indexed(Location::web(
                base.clone(),
                settings.trust.clone(),
            )));
        }
        let base = settings.upstream.clone().ok_or(SyncError::NotConfigured)?;
        let provider = settings.provider.clone().ok_or(SyncError::NotConfigured)?;
        let key = match (&settings.api_key, &settings.api_key_file) {
            (Some(key), _) => key.clone(),
            (None, Some(file)) => std::fs::read_to_string(file)
                .map_err(|e| SyncError::KeyFile(file.display().to_string(), e.to_string()))?
                .lines()
                .next()
                .map(|l| l.trim().to_owned())
                .filter(|k| !k.is_empty())
                .ok_or_else(|| {
                    SyncError::KeyFile(file.display().to_string(), "it holds no key".into())
                })?,
            (None, None) => String::new(),
        };
        Ok(Upstream::Feed {
            base,
            provider,
            key,
            trust: settings.trust.clone(),
        })
    }

    /// Where it is, for messages.
    pub fn describe(&self) -> String {
        match self {
            Upstream::Feed { base, .. } => base.clone(),
            Upstream::Deliveries(dir) => dir.display().to_string(),
            Upstream::Indexed(location) => location.describe(),
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

/// A feed kept whole in the scratch directory.
struct Fetched {
    dir: PathBuf,
    store_id: String,
    data_version: u64,
}

/// Where a feed is fetched from, and as whom.
struct FeedAddress<'a> {
    base: &'a str,
    provider: &'a str,
    key: &'a str,
    trust: &'a Trust,
}

/// Fetches the feed into `scratch`; with `wait`, the upstream holds the request until a newer
/// version is committed, and `None` is its answer that none was.
fn fetch_feed(
    address: FeedAddress,
    data_set: Option<ImportType>,
    since: Option<u64>,
    wait: Option<Duration>,
    scratch: &Path,
    limits: &Limits,
    progress: &dyn Progress,
) -> Result<Option<Fetched>, SyncError> {
    let FeedAddress {
        base,
        provider,
        key,
        trust,
    } = address;
    let mut url = format!(
        "{base}/svc/changes?importType={}&provider={}",
        data_set.map_or("all", |d| d.name()),
        form_urlencoded::byte_serialize(provider.as_bytes()).collect::<String>()
    );
    if let Some(since) = since {
        url.push_str(&format!("&since={since}"));
    }
    if let Some(wait) = wait {
        url.push_str(&format!("&wait={}", wait.as_secs()));
    }
    // The upstream is silent while it waits: the read time-out is longer than the wait.
    let silence = SILENCE + wait.unwrap_or_default();
    let unreachable =
        |e: &dyn std::fmt::Display| SyncError::Unreachable(base.to_owned(), e.to_string());
    let malformed = |detail: String| SyncError::Malformed {
        url: base.to_owned(),
        detail,
    };
    let body = scratch.join("feed");
    let max_bytes = limits.feed_bytes();
    let fetch = async {
        let client = http::client(CONNECT, silence, trust, "sync").map_err(|e| unreachable(&e))?;
        let mut pace = http::Pace::start(limits);
        let request = client.get(&url).header("X-Api-Key", key);
        let mut response = pace.send(request).await.map_err(|e| unreachable(&e))?;
        let status = response.status().as_u16();
        if status == 204 && wait.is_some() {
            return Ok(None);
        }
        if let Some(why) = http::unfollowed_redirect(&response) {
            return Err(SyncError::Failed {
                url: base.to_owned(),
                status,
                detail: why,
            });
        }
        if status != 200 {
            let text = http::error_text(response).await;
            let detail = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| v.get("detail")?.as_str().map(str::to_owned))
                .unwrap_or_else(|| text.chars().take(300).collect());
            let detail: String = detail.chars().take(1000).collect();
            let url = base.to_owned();
            return Err(match status {
                401 | 403 => SyncError::Refused {
                    url,
                    provider: provider.to_owned(),
                    status,
                    detail,
                },
                410 => SyncError::Gap { url, detail },
                _ => SyncError::Failed {
                    url,
                    status,
                    detail,
                },
            });
        }
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        let store_id = header(STORE_HEADER)
            .filter(|id| !id.is_empty() && id.len() <= 128)
            .ok_or_else(|| malformed(format!("it lacks the {STORE_HEADER} header")))?;
        let data_version = header(VERSION_HEADER)
            .and_then(|v| v.parse::<u64>().ok())
            .filter(|&v| v <= MAX_DATA_VERSION)
            .ok_or_else(|| {
                malformed(format!(
                    "it lacks a {VERSION_HEADER} header of a whole number up to {MAX_DATA_VERSION}"
                ))
            })?;
        if let Some(since) = since.filter(|&since| data_version < since) {
            return Err(SyncError::Gap {
                url: base.to_owned(),
                detail: format!(
                    "its data version went back from {since}, reached already, to {data_version}"
                ),
            });
        }
        if let Some(length) = response.content_length().filter(|&l| l > max_bytes) {
            return Err(malformed(feed_too_large(length, limits)));
        }
        let is_tar = header("content-type").is_some_and(|t| t.starts_with("application/x-tar"));
        let mut out =
            outside::files::create_private(&body).map_err(|e| SyncError::Scratch(e.to_string()))?;
        let mut received = 0u64;
        // A body that breaks off (the upstream stopped, the network failed) is an error here:
        // its chunked framing is incomplete.
        while let Some(chunk) = pace.chunk(&mut response).await.map_err(|e| {
            SyncError::Unreachable(base.to_owned(), format!("the feed broke off: {e}"))
        })? {
            received += chunk.len() as u64;
            if received > max_bytes {
                return Err(malformed(feed_too_large(received, limits)));
            }
            std::io::Write::write_all(&mut out, &chunk)
                .map_err(|e| SyncError::Scratch(e.to_string()))?;
            progress.advanced(received);
        }
        out.sync_all()
            .map_err(|e| SyncError::Scratch(e.to_string()))?;
        Ok(Some((store_id, data_version, is_tar)))
    };
    // On the server's runtime where there is one (a job's blocking thread), else on one of
    // its own (the command line).
    let Some((store_id, data_version, is_tar)) =
        crate::service::dmm::on_runtime(fetch).map_err(|e| unreachable(&e))??
    else {
        return Ok(None);
    };
    let dir = scratch.join("files");
    std::fs::create_dir(&dir).map_err(|e| SyncError::Scratch(e.to_string()))?;
    if is_tar {
        unpack_feed(&body, &dir, limits.feed_bytes()).map_err(malformed)?;
    } else {
        let name = data_set
            .ok_or_else(|| malformed("a feed of all data sets that is not a tar".into()))?;
        std::fs::rename(&body, dir.join(format!("{}.csv", name.name())))
            .map_err(|e| SyncError::Scratch(e.to_string()))?;
    }
    Ok(Some(Fetched {
        dir,
        store_id,
        data_version,
    }))
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
fn feed_files(
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

/// The label of a source directory in the sync mark.
fn directory_label(dir: &Path) -> String {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
    format!("directory {}", dir.display())
}

/// The deliveries of a source directory, oldest first: its subdirectories, except those
/// still being written (named with a leading `.`); a link among them is refused.
fn deliveries(dir: &Path) -> Result<Vec<String>, SyncError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| SyncError::Source(dir.display().to_string(), e.to_string()))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry =
            entry.map_err(|e| SyncError::Source(dir.display().to_string(), e.to_string()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry
            .file_type()
            .map_err(|e| SyncError::Source(dir.display().to_string(), e.to_string()))?;
        if name.starts_with('.') {
            continue;
        }
        if kind.is_symlink() {
            return Err(SyncError::Source(
                dir.display().to_string(),
                format!("'{name}' is a link; a delivery is a directory inside it"),
            ));
        }
        if kind.is_dir() {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// The files of one delivery for the data sets asked for (those it holds).
fn delivery_files(
    dir: &Path,
    data_sets: &[ImportType],
    mode: ImportMode,
) -> Result<Vec<ImportFile>, SyncError> {
    let files = import::files_in_directory(dir)
        .map_err(|e| SyncError::Source(dir.display().to_string(), e.to_string()))?;
    Ok(files
        .into_iter()
        .filter(|f| data_sets.contains(&f.import_type))
        .map(|f| ImportFile { mode, ..f })
        .collect())
}

fn sync_from_deliveries(
    store: &Store,
    dir: &Path,
    request: SyncRequest,
    progress: &dyn Progress,
) -> Result<SyncReport, SyncError> {
    let data_sets = request.data_sets();
    let names: Vec<&str> = data_sets.iter().map(|d| d.name()).collect();
    let label = directory_label(dir);
    let all = deliveries(dir)?;
    let Some(newest) = all.last().cloned() else {
        return Err(SyncError::Source(
            dir.display().to_string(),
            "it holds no delivery".into(),
        ));
    };
    let mark = store.catalogue().sync_mark().clone();
    let from = data_sets
        .iter()
        .map(|d| mark.reached(&label, d.name()).map(str::to_owned))
        .collect::<Option<Vec<String>>>()
        .and_then(|v| v.into_iter().min());
    let upstream = dir.display().to_string();
    if request.refresh {
        // Each data set from the newest delivery that holds it, replacing it whole.
        let mut files: Vec<ImportFile> = Vec::new();
        for name in all.iter().rev() {
            for file in delivery_files(&dir.join(name), &data_sets, ImportMode::Refresh)? {
                if !files.iter().any(|f| f.import_type == file.import_type) {
                    files.push(file);
                }
            }
        }
        if files.is_empty() {
            return Err(SyncError::Source(
                dir.display().to_string(),
                format!("no delivery holds a file of {}", names.join(", ")),
            ));
        }
        let report = import::import_synced(
            store,
            &files,
            mark.advanced(&label, &names, &newest),
            progress,
        )?;
        refuse_rejected(&report)?;
        return Ok(SyncReport {
            upstream,
            from,
            reached: newest,
            imports: vec![report],
        });
    }
    // Every delivery after the oldest position reached, in order, each its own change; one
    // that is refused stops the sync there, the earlier ones kept.
    let mut imports = Vec::new();
    let mut mark = mark;
    for name in all.iter().filter(|n| from.as_ref().is_none_or(|f| *n > f)) {
        let files: Vec<ImportFile> =
            delivery_files(&dir.join(name), &data_sets, ImportMode::Merge)?
                .into_iter()
                // A data set already past this delivery takes nothing from it.
                .filter(|f| {
                    mark.reached(&label, f.import_type.name())
                        .is_none_or(|r| r < name.as_str())
                })
                .collect();
        let next = mark.advanced(&label, &names, name);
        progress.phase(&format!("delivery {name}"));
        let report = import::import_synced(store, &files, next.clone(), progress)?;
        refuse_rejected(&report)?;
        imports.push(report);
        mark = next;
    }
    Ok(SyncReport {
        upstream,
        from,
        reached: newest,
        imports,
    })
}
