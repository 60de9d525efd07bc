//! Deliveries: the change feed written as files, for a static web server or a CDN to serve to
//! any number of followers without loading the upstream (`deliveries_dir`, `partscat
//! deliveries`), and read back by a follower from that folder or its HTTP(S) address
//! (`[sync] source_dir` holding an `index.json`, or `source_url`).
//!
//! The folder holds immutable deliveries, each a directory of one import file per data set
//! written whole before it is named (`full-V`: the whole data sets at version V;
//! `changes-F-T`: what changed from F to T, with the feed's `change` column), and
//! `index.json`, replaced at once, naming the newest full delivery and the changes after it
//! with each file's size and SHA-256. A follower takes the changes from its position on,
//! or the full delivery first where it has none or is behind them.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::Digest;

use crate::import::{self, ImportFile, ImportMode, ImportType, WriteError};
use crate::store::{Catalogue, Store};

/// The index's file name.
pub const INDEX: &str = "index.json";
/// Changes deliveries kept after the newest full one; past them, a new full one is written.
const MAX_CHANGES: usize = 100;
/// The largest index a follower reads.
pub const MAX_INDEX_BYTES: u64 = 1 << 20;

/// What the folder holds.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Index {
    /// The upstream store's identity: versions count within it.
    pub store: String,
    /// The newest data version delivered.
    pub version: u64,
    pub full: Delivery,
    /// Oldest first, each starting where the one before ended.
    pub changes: Vec<Delivery>,
}

/// One delivery: a directory of import files.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Delivery {
    pub name: String,
    /// The version its changes start from; none for a full delivery.
    pub from: Option<u64>,
    /// The version it brings its reader to.
    pub to: u64,
    pub files: Vec<DeliveredFile>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct DeliveredFile {
    /// `<data set>.csv`.
    pub name: String,
    pub bytes: u64,
    /// Hex.
    pub sha256: String,
}

impl Index {
    /// The deliveries that bring a reader at `position` (of this store; `None`: none yet) to
    /// the newest version, in order: the changes from there on, or the full delivery and
    /// the changes after it. Replaying changes from a version at or before the position is
    /// safe: each row is its state as of the delivery's end.
    pub fn route_from(&self, position: Option<u64>) -> Vec<&Delivery> {
        if let Some(at) = position {
            if at >= self.version {
                return Vec::new();
            }
            if let Some(first) = self
                .changes
                .iter()
                .position(|d| d.from.is_some_and(|from| from <= at) && at < d.to)
            {
                return self.changes[first..].iter().collect();
            }
        }
        std::iter::once(&self.full)
            .chain(self.changes.iter().filter(|d| d.to > self.full.to))
            .collect()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DeliveryError {
    #[error("the deliveries directory {0}: {1}")]
    Folder(String, String),
    #[error("writing a delivery: {0}")]
    Write(#[from] WriteError),
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
}

/// What `write_missing` wrote.
#[derive(Debug, Clone, PartialEq)]
pub enum Written {
    Nothing,
    Full(u64),
    Changes { from: u64, to: u64 },
}

/// Brings the folder up to the store's data version: a changes delivery from the last one
/// delivered, or a full one where there is none yet, the feed no longer reaches back, the
/// store is another, or the changes since the last full one are many.
pub fn write_missing(store: &Store, dir: &Path) -> Result<Written, DeliveryError> {
    let folder =
        |e: &dyn std::fmt::Display| DeliveryError::Folder(dir.display().to_string(), e.to_string());
    if !dir.exists() {
        // Made here: open to the web server's account whatever the service's umask.
        std::fs::create_dir_all(dir).map_err(|e| folder(&e))?;
        readable_by_web_server(dir).map_err(|e| folder(&e))?;
    }
    let catalogue = store.catalogue();
    let now = catalogue.data_version();
    let existing = read_local_index(dir)
        .ok()
        .filter(|i| i.store == store.id() && i.version <= now);
    let (index, written) = match existing {
        Some(index) if index.version == now => return Ok(Written::Nothing),
        Some(mut index)
            if catalogue.changes_complete_since() <= index.version
                && index.changes.len() < MAX_CHANGES =>
        {
            let from = index.version;
            let name = format!("changes-{from:020}-{now:020}");
            let files = write_delivery(&catalogue, dir, &name, Some(from))?;
            index.changes.push(Delivery {
                name,
                from: Some(from),
                to: now,
                files,
            });
            index.version = now;
            (index, Written::Changes { from, to: now })
        }
        _ => {
            let name = format!("full-{now:020}");
            let files = write_delivery(&catalogue, dir, &name, None)?;
            let index = Index {
                store: store.id().to_owned(),
                version: now,
                full: Delivery {
                    name,
                    from: None,
                    to: now,
                    files,
                },
                changes: Vec::new(),
            };
            (index, Written::Full(now))
        }
    };
    let text = serde_json::to_vec_pretty(&index).map_err(|e| folder(&e))?;
    let partial = dir.join(format!(".{INDEX}.partial"));
    let _ = std::fs::remove_file(&partial);
    let mut file = crate::outside::files::create_private(&partial).map_err(|e| folder(&e))?;
    file.write_all(&text)
        .and_then(|()| file.sync_all())
        .map_err(|e| folder(&e))?;
    readable_by_web_server(&partial).map_err(|e| folder(&e))?;
    std::fs::rename(&partial, dir.join(INDEX)).map_err(|e| folder(&e))?;
    remove_unlisted(dir, &index);
    Ok(written)
}

/// Writes one delivery's files into `.partial-<name>`, then names it `<name>`.
fn write_delivery(
    catalogue: &Catalogue,
    dir: &Path,
    name: &str,
    since: Option<u64>,
) -> Result<Vec<DeliveredFile>, DeliveryError> {
    let io = |e: std::io::Error| DeliveryError::Folder(dir.display().to_string(), e.to_string());
    let partial = dir.join(format!(".partial-{name}"));
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir(&partial).map_err(io)?;
    let mut files = Vec::new();
    for set in ImportType::ALL {
        let file_name = format!("{}.csv", set.name());
        let path = partial.join(&file_name);
        let file = std::fs::File::create(&path).map_err(io)?;
        let mut out = Hashed::new(std::io::BufWriter::new(file));
        match since {
            Some(since) => import::write_changes(catalogue, set, since, &mut out)?,
            None => import::write_data_set(catalogue, set, &mut out)?,
        };
        let (bytes, sha256, writer) = out.finish();
        writer
            .into_inner()
            .map_err(|e| io(e.into_error()))?
            .sync_all()
            .map_err(io)?;
        files.push(DeliveredFile {
            name: file_name,
            bytes,
            sha256,
        });
    }
    readable_by_web_server(&partial).map_err(io)?;
    let _ = std::fs::remove_dir_all(dir.join(name));
    std::fs::rename(&partial, dir.join(name)).map_err(io)?;
    Ok(files)
}

/// The folder is for a web server to serve: its files readable by all (they hold the
/// catalogue, which the followers get anyway; no keys).
fn readable_by_web_server(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = if path.is_dir() { 0o755 } else { 0o644 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
    if path.is_dir() {
        for entry in std::fs::read_dir(path)? {
            std::fs::set_permissions(entry?.path(), std::fs::Permissions::from_mode(0o644))?;
        }
    }
    Ok(())
}

/// Removes the deliveries the index no longer names (a follower reading an older index
/// meanwhile finds its files gone, and reads the index again at its next round).
fn remove_unlisted(dir: &Path, index: &Index) {
    let listed: Vec<&str> = std::iter::once(&index.full)
        .chain(&index.changes)
        .map(|d| d.name.as_str())
        .collect();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = name.starts_with("full-") || name.starts_with("changes-");
        if ours && !listed.contains(&name.as_str()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A writer that counts and hashes what passes.
struct Hashed<W> {
    inner: W,
    bytes: u64,
    digest: sha2::Sha256,
}

impl<W: Write> Hashed<W> {
    fn new(inner: W) -> Self {
        Hashed {
            inner,
            bytes: 0,
            digest: sha2::Sha256::new(),
        }
    }

    fn finish(mut self) -> (u64, String, W) {
        let _ = self.inner.flush();
        (self.bytes, hex::encode(self.digest.finalize()), self.inner)
    }
}

impl<W: Write> Write for Hashed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        self.digest.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The index of a local folder, if it has one that parses.
pub fn read_local_index(dir: &Path) -> Result<Index, String> {
    let file =
        crate::outside::files::open_regular_in(dir, Path::new(INDEX)).map_err(|e| e.to_string())?;
    parse_index(file.take(MAX_INDEX_BYTES + 1))
}

/// An index read from `reader`, no larger than `MAX_INDEX_BYTES`, its names checked.
pub fn parse_index(mut reader: impl Read) -> Result<Index, String> {
    let mut text = Vec::new();
    reader
        .read_to_end(&mut text)
        .map_err(|e| format!("its {INDEX} cannot be read: {e}"))?;
    if text.len() as u64 > MAX_INDEX_BYTES {
        return Err(format!("its {INDEX} is over {} KiB", MAX_INDEX_BYTES >> 10));
    }
    let index: Index = serde_json::from_slice(&text)
        .map_err(|e| format!("its {INDEX} is not a deliveries index: {e}"))?;
    let plain = |name: &str| {
        !name.is_empty()
            && name.len() <= 100
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
            && !name.starts_with('.')
    };
    for delivery in std::iter::once(&index.full).chain(&index.changes) {
        if !plain(&delivery.name) {
            return Err(format!(
                "its {INDEX} names a delivery '{}', not a plain directory name",
                delivery.name.chars().take(100).collect::<String>()
            ));
        }
        for file in &delivery.files {
            let data_set = file
                .name
                .strip_suffix(".csv")
                .and_then(ImportType::from_name);
            if data_set.is_none() {
                return Err(format!(
                    "its {INDEX} names a file '{}', not a data set's",
                    file.name.chars().take(100).collect::<String>()
                ));
            }
        }
    }
    Ok(index)
}

/// One delivery's files of the data sets asked for, already fetched into `dir` and checked
/// against the index, as the import takes them.
pub fn delivery_files(
    delivery: &Delivery,
    dir: &Path,
    data_sets: &[ImportType],
) -> Result<Vec<ImportFile>, String> {
    let mode = if delivery.from.is_some() {
        ImportMode::Merge
    } else {
        ImportMode::Refresh
    };
    let mut files = Vec::new();
    for listed in &delivery.files {
        let Some(set) = listed
            .name
            .strip_suffix(".csv")
            .and_then(ImportType::from_name)
            .filter(|s| data_sets.contains(s))
        else {
            continue;
        };
        let path: PathBuf = dir.join(&listed.name);
        let file = std::fs::File::open(&path).map_err(|e| e.to_string())?;
        files.push(ImportFile {
            import_type: set,
            source: import::Source::Opened {
                name: format!("delivery {} {}", delivery.name, listed.name),
                file: std::sync::Arc::new(file),
            },
            mode,
        });
    }
    Ok(files)
}

/// Checks a fetched file against what the index says of it.
pub fn check_file(listed: &DeliveredFile, path: &Path) -> Result<(), String> {
    let mut file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut digest = sha2::Sha256::new();
    let mut bytes = 0u64;
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buffer).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        digest.update(&buffer[..n]);
    }
    let sha256 = hex::encode(digest.finalize());
    if bytes != listed.bytes || sha256 != listed.sha256 {
        return Err(format!(
            "{} is {bytes} bytes with SHA-256 {sha256}, not the {} bytes with SHA-256 {} its index names",
            listed.name, listed.bytes, listed.sha256
        ));
    }
    Ok(())
}

/// Runs `write_missing` after every commit, until the process ends.
pub async fn deliver_each_commit(store: std::sync::Arc<Store>, dir: PathBuf) {
    loop {
        let store_now = store.clone();
        let dir_now = dir.clone();
        match tokio::task::spawn_blocking(move || write_missing(&store_now, &dir_now)).await {
            Ok(Ok(Written::Nothing)) => {}
            Ok(Ok(written)) => tracing::info!(?written, dir = %dir.display(), "delivery written"),
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "the delivery could not be written; tried again at the next commit")
            }
            Err(e) => tracing::warn!(error = %e, "the delivery writer stopped"),
        }
        let since = store.catalogue().data_version();
        store
            .newer_than(since, std::time::Duration::from_secs(3600))
            .await;
    }
}

/// For progress lines while a follower reads.
pub fn describe(delivery: &Delivery) -> String {
    match delivery.from {
        Some(from) => format!("changes from data version {from} to {}", delivery.to),
        None => format!("the whole data sets at data version {}", delivery.to),
    }
}

#[cfg(test)]
mod tests;
