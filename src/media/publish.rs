//! Delivering a built package to `publish_target`.
//!
//! - A directory: the package is copied to `.dmm-<brand>-<stamp>` beside the published one and
//!   `dmm-<brand>` (a symbolic link) is switched to it in one rename, so a reader sees the old
//!   package or the new one, never half of one; the old copy is removed after.
//! - An HTTP endpoint: each file is PUT to `<target>/dmm-<brand>/files/…`, the manifest last
//!   (`<target>/dmm-<brand>/manifest.csv`), so the receiver can tell a complete package: until
//!   the new manifest arrives, the previous one stands.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::package::{FILES, MANIFEST, link_or_copy};
use crate::limits::Limits;
use crate::outside::http;
use crate::outside::tls::Trust;

/// Where packages are published.
#[derive(Debug, Clone, PartialEq)]
pub enum PublishTarget {
    Directory(PathBuf),
    Http {
        base: String,
        /// HTTP Basic credentials, where the endpoint wants them.
        credentials: Option<(String, String)>,
        /// Whom HTTPS to it trusts.
        trust: Trust,
    },
}

impl PublishTarget {
    pub fn describe(&self) -> String {
        match self {
            PublishTarget::Directory(dir) => dir.display().to_string(),
            PublishTarget::Http { base, .. } => base.clone(),
        }
    }
}

/// Publishes the package at `package` to a directory as brand `brand_id`'s; the path of the
/// published package.
pub fn to_directory(
    package: &Path,
    brand_id: u32,
    dir: &Path,
    progress: &dyn Fn(u64),
) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let name = format!("dmm-{brand_id}");
    let published = dir.join(&name);
    if std::fs::symlink_metadata(&published).is_ok_and(|m| m.is_dir()) {
        return Err(std::io::Error::other(format!(
            "{} is a directory, not a package this publisher linked; move it away to publish here",
            published.display()
        )));
    }
    // What a publish that was cut off (a kill) left behind: only real directories of the
    // publisher's own naming, never a link's target.
    for entry in std::fs::read_dir(dir)?.flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if is_own_version(&file_name, &name, ".partial") && entry.file_type()?.is_dir() {
            std::fs::remove_dir_all(entry.path())?;
        }
    }
    let version = format!(".{name}-{stamp}");
    let partial = dir.join(format!("{version}.partial"));
    // Exclusively: a name taken already (whatever it is) is not written through.
    std::fs::create_dir(&partial)?;
    std::fs::create_dir(partial.join(FILES))?;
    let mut done = 0;
    for entry in std::fs::read_dir(package.join(FILES))? {
        let entry = entry?;
        let to = partial.join(FILES).join(entry.file_name());
        link_or_copy(&entry.path(), &to)?;
        std::fs::File::open(&to)?.sync_all()?;
        done += 1;
        progress(done);
    }
    std::fs::copy(package.join(MANIFEST), partial.join(MANIFEST))?;
    std::fs::File::open(partial.join(MANIFEST))?.sync_all()?;
    std::fs::rename(&partial, dir.join(&version))?;
    // The package published before, if `dmm-<brand>` is a link this publisher made: one to
    // a plain name of its own naming, beside it. Anything else under that name (a directory,
    // a link elsewhere) is replaced by the new link but not followed or removed.
    let previous = std::fs::read_link(&published)
        .ok()
        .and_then(|target| target.to_str().map(str::to_owned))
        .filter(|target| is_own_version(target, &name, ""));
    let link = dir.join(format!(".{name}.link"));
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&version, &link)?;
    std::fs::rename(&link, &published)?;
    std::fs::File::open(dir)?.sync_all()?;
    if let Some(previous) = previous.filter(|p| *p != version) {
        let old = dir.join(previous);
        if std::fs::symlink_metadata(&old).is_ok_and(|m| m.is_dir()) {
            let _ = std::fs::remove_dir_all(old);
        }
    }
    Ok(published)
}

/// Whether `file_name` is one the publisher gives brand package `name`'s copies:
/// `.<name>-<digits><suffix>`, a plain name with no path.
fn is_own_version(file_name: &str, name: &str, suffix: &str) -> bool {
    file_name
        .strip_prefix('.')
        .and_then(|n| n.strip_prefix(name))
        .and_then(|n| n.strip_prefix('-'))
        .and_then(|n| n.strip_suffix(suffix))
        .is_some_and(|stamp| !stamp.is_empty() && stamp.bytes().all(|b| b.is_ascii_digit()))
}

/// Files up to this size are sent from memory, larger ones streamed from disk.
const WHOLE_BODY_MAX: u64 = 8 << 20;

/// A file as a request body, and its length. A body sent whole reaches the target with the
/// headers, so a target that answers before reading it (a refused password) is heard; a
/// stream can be cut off by the target closing the connection and its answer lost, but keeps
/// memory flat whatever a file's size.
async fn file_body(path: &Path) -> std::io::Result<(reqwest::Body, u64)> {
    let file = tokio::fs::File::open(path).await?;
    let size = file.metadata().await?.len();
    if size <= WHOLE_BODY_MAX {
        let mut bytes = Vec::with_capacity(size as usize);
        tokio::io::AsyncReadExt::read_to_end(&mut tokio::io::BufReader::new(file), &mut bytes)
            .await?;
        let size = bytes.len() as u64;
        return Ok((bytes.into(), size));
    }
    let stream = tokio_util::io::ReaderStream::new(file);
    Ok((reqwest::Body::wrap_stream(stream), size))
}

/// Publishes the package at `package` over HTTP as brand `brand_id`'s; the manifest's URL.
pub async fn to_http(
    package: &Path,
    brand_id: u32,
    base: &str,
    credentials: Option<&(String, String)>,
    trust: &Trust,
    limits: &Limits,
    progress: &dyn Fn(u64),
) -> Result<String, String> {
    let client = http::client(
        Duration::from_secs(10),
        Duration::from_secs(60),
        trust,
        "publish",
    )?;
    let root = format!("{}/dmm-{brand_id}", base.trim_end_matches('/'));
    let mut files: Vec<PathBuf> = std::fs::read_dir(package.join(FILES))
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let put = |path: PathBuf, url: String| {
        let client = client.clone();
        async move {
            let (body, size) = file_body(&path)
                .await
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let mut request = client
                .put(&url)
                .header(reqwest::header::CONTENT_LENGTH, size)
                .body(body);
            if let Some((user, password)) = credentials {
                request = request.basic_auth(user, Some(password));
            }
            let response = http::Pace::start(limits)
                .send(request)
                .await
                .map_err(|e| format!("PUT {url}: {e}"))?;
            if let Some(why) = http::unfollowed_redirect(&response) {
                return Err(format!("PUT {url}: {why}"));
            }
            if !response.status().is_success() {
                return Err(format!(
                    "PUT {url}: the target answered {}",
                    response.status()
                ));
            }
            Ok(())
        }
    };
    let mut done = 0;
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        put(path, format!("{root}/{FILES}/{name}")).await?;
        done += 1;
        progress(done);
    }
    let manifest = format!("{root}/{MANIFEST}");
    put(package.join(MANIFEST), manifest.clone()).await?;
    Ok(manifest)
}
