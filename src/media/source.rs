//! Where media files come from (`media_source`): an HTTP server, or a directory. A file is
//! fetched into the store's `tmp/` and admitted only once complete and checked: its size
//! within the limit, its content type one the media kind takes. Over HTTP, a download that
//! breaks off is resumed from where it stopped (`Range`, with `If-Range` naming the version
//! of the file begun) where the server allows it and restarted where not; failures worth retrying (time-outs, broken connections, 5xx, 429) are
//! retried with a doubling back-off, the others (404, a refused key, a wrong type) are not.

use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use super::store::{MediaStore, Stored};
use crate::catalogue::MediaKind;
use crate::limits::Limits;
use crate::outside::{files, http};

/// The source of media files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MediaSource {
    /// A base address; a media URI is a path under it (or an absolute `http://` URL).
    Http(String),
    /// A directory; a media URI is a relative path in it.
    Directory(PathBuf),
}

impl MediaSource {
    /// `http://…` or `https://…` is a server; anything else a directory.
    pub fn parse(text: &str) -> MediaSource {
        let text = text.trim();
        if text.starts_with("http://") || text.starts_with("https://") {
            MediaSource::Http(text.trim_end_matches('/').to_owned())
        } else {
            MediaSource::Directory(PathBuf::from(text))
        }
    }
}

/// How hard a fetch tries.
#[derive(Debug, Clone, Copy)]
pub struct FetchLimits {
    /// A file larger than this is refused.
    pub max_bytes: u64,
    /// Tries in all, the first included.
    pub attempts: u32,
    /// The wait before the second try; doubled before each later one.
    pub backoff: Duration,
    /// How long the server may stay silent (connecting, or mid-file).
    pub silence: Duration,
    /// Each download's deadline and minimum rate.
    pub transfer: Limits,
}

impl Default for FetchLimits {
    fn default() -> Self {
        FetchLimits {
            max_bytes: 50 << 20,
            attempts: 4,
            backoff: Duration::from_millis(500),
            silence: Duration::from_secs(30),
            transfer: Limits::default(),
        }
    }
}

/// Whether a content type fits the media kind: images and 360 frames are `image/*`,
/// documents PDF or an image.
pub fn accepts(kind: MediaKind, content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match kind {
        MediaKind::Image | MediaKind::Spin360 => essence.starts_with("image/"),
        MediaKind::Document => essence == "application/pdf" || essence.starts_with("image/"),
    }
}

/// The content type a file's extension says, for a directory source.
fn type_of_extension(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("png") => "image/png",
        Some("webp") => "image/webp",
        Some("gif") => "image/gif",
        Some("pdf") => "application/pdf",
        _ => "application/octet-stream",
    }
}

/// A URI as a relative path with no way out of its base (no `..`, no root).
fn relative_path(uri: &str) -> Option<PathBuf> {
    let path = Path::new(uri);
    path.components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| path.to_owned())
        .filter(|p| p.components().next().is_some())
}

/// Why a file could not be had, and whether trying again may help.
struct Failure {
    reason: String,
    retry: bool,
}

fn lasting(reason: impl Into<String>) -> Failure {
    Failure {
        reason: reason.into(),
        retry: false,
    }
}

fn passing(reason: impl Into<String>) -> Failure {
    Failure {
        reason: reason.into(),
        retry: true,
    }
}

/// Fetches the file `uri` names into the store, unless it is there already. The error is
/// the reason it could not be had.
pub async fn fetch(
    client: &reqwest::Client,
    source: &MediaSource,
    store: &MediaStore,
    uri: &str,
    kind: MediaKind,
    limits: FetchLimits,
) -> Result<Stored, String> {
    if let Some(stored) = store.lookup(uri) {
        return Ok(stored);
    }
    match source {
        MediaSource::Directory(dir) => copy_from_directory(dir, store, uri, kind, limits),
        MediaSource::Http(base) => {
            let url = if uri.starts_with("http://") || uri.starts_with("https://") {
                uri.to_owned()
            } else {
                let path = relative_path(uri)
                    .ok_or_else(|| format!("'{uri}' is not a path under the media source"))?;
                format!("{base}/{}", path.display())
            };
            let mut wait = limits.backoff;
            for attempt in 1..=limits.attempts {
                match download(client, &url, store, uri, kind, limits).await {
                    Ok(stored) => return Ok(stored),
                    Err(f) if f.retry && attempt < limits.attempts => {
                        tracing::debug!(uri, attempt, reason = %f.reason, "media fetch retried");
                        tokio::time::sleep(wait).await;
                        wait *= 2;
                    }
                    Err(f) if f.retry => {
                        return Err(format!("{} (after {attempt} tries)", f.reason));
                    }
                    Err(f) => return Err(f.reason),
                }
            }
            Err("no try was made".into())
        }
    }
}

/// Copies the file `uri` names from a directory source: a regular file inside it, reached
/// through no link.
fn copy_from_directory(
    dir: &Path,
    store: &MediaStore,
    uri: &str,
    kind: MediaKind,
    limits: FetchLimits,
) -> Result<Stored, String> {
    let path = relative_path(uri)
        .ok_or_else(|| format!("'{uri}' is not a path under the media source"))?;
    let mut file = files::open_regular_in(dir, &path).map_err(|e| match e {
        files::FolderError::Missing(_) => "not found at the source".to_owned(),
        e => format!("refused at the source: {e}"),
    })?;
    let size = file
        .metadata()
        .map_err(|e| format!("cannot be read: {e}"))?
        .len();
    if size > limits.max_bytes {
        return Err(format!(
            "{size} bytes, over the limit of {}",
            limits.max_bytes
        ));
    }
    let content_type = type_of_extension(&path);
    if !accepts(kind, content_type) {
        return Err(format!("a {content_type} file, not one a {kind:?} takes"));
    }
    let part = store.partial_path(uri);
    discard(&part);
    let mut out = files::create_private(&part).map_err(|e| format!("cannot be kept: {e}"))?;
    // No more than the size checked, should the file grow meanwhile.
    std::io::copy(&mut (&mut file).take(limits.max_bytes), &mut out)
        .map_err(|e| format!("cannot be copied: {e}"))?;
    drop(out);
    store
        .admit(uri, &part, content_type)
        .map_err(|e| format!("cannot be kept: {e}"))
}

/// What identifies the version of a file a `.part` holds: the source's strong `ETag`, else
/// its `Last-Modified`; kept beside the `.part` so that a resume asks for the rest of that
/// version only (`If-Range`).
fn validator_path(part: &Path) -> PathBuf {
    let mut name = part.as_os_str().to_owned();
    name.push(".validator");
    PathBuf::from(name)
}

fn validator_of(headers: &reqwest::header::HeaderMap) -> Option<String> {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    text(reqwest::header::ETAG)
        .filter(|tag| !tag.starts_with("W/"))
        .or_else(|| text(reqwest::header::LAST_MODIFIED))
        .map(str::to_owned)
}

/// Forgets a download in progress.
fn discard(part: &Path) {
    let _ = std::fs::remove_file(part);
    let _ = std::fs::remove_file(validator_path(part));
}

/// Whether the answer resumes the `.part` (`have` bytes kept), or starts the file afresh;
/// any other answer is a failure, lasting or passing as its status says.
fn resumed(status: u16, have: u64, part: &Path) -> Result<bool, Failure> {
    match status {
        200 => Ok(false),
        206 if have > 0 => Ok(true),
        416 => {
            // What was kept does not fit the file any more: start again.
            discard(part);
            Err(passing("the partial download no longer fits; restarting"))
        }
        404 | 410 => Err(lasting(format!("not found at the source ({status})"))),
        408 | 429 | 500..=599 => Err(passing(format!("the source answered {status}"))),
        _ => Err(lasting(format!("the source answered {status}"))),
    }
}

/// Writes the body to `file` after the `start` bytes it holds, within the bounds; the bytes
/// the `.part` holds at the end.
async fn receive(
    response: &mut reqwest::Response,
    pace: &mut http::Pace,
    mut file: std::fs::File,
    part: &Path,
    start: u64,
    limits: &FetchLimits,
) -> Result<u64, Failure> {
    let mut written = start;
    loop {
        let chunk = match tokio::time::timeout(limits.silence, pace.chunk(response)).await {
            Err(_) => return Err(passing("the source went silent")),
            Ok(Err(e @ http::TransferError::Broken(_))) => {
                return Err(passing(format!("the download broke off: {e}")));
            }
            // Past the deadline or too slow: trying again would take as long.
            Ok(Err(e)) => {
                drop(file);
                discard(part);
                return Err(lasting(format!("the download was given up: {e}")));
            }
            Ok(Ok(chunk)) => chunk,
        };
        let Some(chunk) = chunk else {
            return Ok(written);
        };
        written += chunk.len() as u64;
        if written > limits.max_bytes {
            drop(file);
            discard(part);
            return Err(lasting(format!(
                "over the limit of {} bytes",
                limits.max_bytes
            )));
        }
        file.write_all(&chunk)
            .map_err(|e| lasting(format!("cannot be kept: {e}")))?;
    }
}

/// One try: resumes a `.part` where the server honours `Range` for the same version of the
/// file (`If-Range`); a `.part` whose version is unknown is started again.
async fn download(
    client: &reqwest::Client,
    url: &str,
    store: &MediaStore,
    uri: &str,
    kind: MediaKind,
    limits: FetchLimits,
) -> Result<Stored, Failure> {
    let part = store.partial_path(uri);
    let validator = std::fs::read_to_string(validator_path(&part)).ok();
    let have = match &validator {
        Some(_) => std::fs::metadata(&part).map(|m| m.len()).unwrap_or(0),
        None => 0,
    };
    let mut pace = http::Pace::start(&limits.transfer);
    let mut request = client.get(url);
    if let (true, Some(validator)) = (have > 0, &validator) {
        request = request
            .header("Range", format!("bytes={have}-"))
            .header("If-Range", validator.trim());
    }
    let mut response = pace.send(request).await.map_err(|e| match e {
        http::TransferError::Refused(why) => lasting(format!("the source: {why}")),
        e => passing(format!("the source did not answer: {e}")),
    })?;
    if let Some(why) = http::unfollowed_redirect(&response) {
        return Err(lasting(format!("the source refused: {why}")));
    }
    let resumed = resumed(response.status().as_u16(), have, &part)?;
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    if !accepts(kind, &content_type) {
        discard(&part);
        return Err(lasting(format!(
            "the source sent '{content_type}', not a type a {kind:?} takes"
        )));
    }
    let start = if resumed { have } else { 0 };
    if !resumed {
        // A new download: what it is a download of, for a resume after a break.
        match validator_of(response.headers()) {
            Some(v) => std::fs::write(validator_path(&part), v),
            None => std::fs::remove_file(validator_path(&part)).or(Ok(())),
        }
        .map_err(|e| lasting(format!("cannot be kept: {e}")))?;
    }
    let total = response.content_length().map(|rest| start + rest);
    if let Some(total) = total.filter(|&t| t > limits.max_bytes) {
        return Err(lasting(format!(
            "{total} bytes, over the limit of {}",
            limits.max_bytes
        )));
    }
    // A resumed download appends to its own `.part` (no link put in its place); a new one
    // is created afresh, exclusively.
    let opened = if resumed {
        files::open_own_for_append(&part)
    } else {
        let _ = std::fs::remove_file(&part);
        files::create_private(&part)
    };
    let file = opened.map_err(|e| lasting(format!("cannot be kept: {e}")))?;
    let written = receive(&mut response, &mut pace, file, &part, start, &limits).await?;
    if let Some(total) = total.filter(|&t| t != written) {
        return Err(passing(format!("{written} of {total} bytes arrived")));
    }
    let stored = store
        .admit(uri, &part, &content_type)
        .map_err(|e| lasting(format!("cannot be kept: {e}")))?;
    let _ = std::fs::remove_file(validator_path(&part));
    Ok(stored)
}
