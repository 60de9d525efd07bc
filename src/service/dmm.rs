//! apiDMM: a brand's DMM package. With `download360`, the 360-degree frames the brand's
//! articles name (and, where `media_download_images` is set, their images and documents)
//! that the media store lacks are fetched from `media_source` first, a bounded number at a
//! time; a file that cannot be had is reported by URI and reason and the others still
//! arrive. Then the package is built from the media store; with `publish`, it is delivered
//! to `publish_target`. A failed publish leaves the previously published package in place.

use std::cell::Cell;
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

use futures_util::StreamExt;

use super::ServiceError;
use super::exports::known_brand;
use crate::catalogue::{Brand, Media, MediaKind};
use crate::config::MediaSettings;
use crate::import::Progress;
use crate::media::{self, FetchLimits, MediaSource, MediaStore, PublishTarget, package};
use crate::store::{Catalogue, Store, StoreError};

/// Media entries read before their downloads start, a batch at a time.
const BATCH: usize = 256;

/// What an apiDMM call asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DmmRequest {
    pub brand_id: u32,
    pub publish: bool,
    pub download360: bool,
}

/// A file that could not be had.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct NotFetched {
    pub uri: String,
    pub reason: String,
}

/// What an apiDMM job did.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DmmReport {
    pub entries: u64,
    /// Distinct files in the package, and their bytes.
    pub files: u64,
    pub bytes: u64,
    /// Entries whose file the media store lacks (not fetched, or not asked to be).
    pub missing: u64,
    /// Files fetched now.
    pub downloaded: u64,
    /// The first files that could not be fetched, and how many in all.
    pub not_fetched: Vec<NotFetched>,
    pub not_fetched_count: u64,
    /// Where the package went, when published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published_to: Option<String>,
}

/// Files not fetched that a report lists; the count covers all of them.
const LISTED: usize = 100;

#[derive(Debug, thiserror::Error)]
pub enum DmmError {
    #[error(transparent)]
    Refused(#[from] ServiceError),
    #[error("download360 needs media_source: set where the frames are fetched from")]
    NoSource,
    #[error("publish needs publish_target: set a directory or an http(s):// endpoint")]
    NoTarget,
    #[error("the media store {0}: {1}")]
    MediaStore(String, String),
    #[error("the publish password file {0}: {1}")]
    PasswordFile(String, String),
    #[error(transparent)]
    Package(#[from] media::PackageError),
    #[error("publishing failed, the previous package stays published: {0}")]
    Publish(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What is configured, checked before a job starts: a request that cannot be done is refused
/// at once rather than failing later.
pub struct MediaSetup {
    pub store: MediaStore,
    pub source: Option<MediaSource>,
    /// Whom HTTPS to the media source trusts.
    pub source_trust: crate::outside::tls::Trust,
    pub target: Option<PublishTarget>,
    pub limits: FetchLimits,
    pub concurrency: usize,
    pub images_too: bool,
}

impl MediaSetup {
    pub fn configured(
        settings: &MediaSettings,
        transfer: crate::limits::Limits,
        request: &DmmRequest,
    ) -> Result<MediaSetup, DmmError> {
        let source = settings.source.as_deref().map(MediaSource::parse);
        if request.download360 && source.is_none() {
            return Err(DmmError::NoSource);
        }
        let target = match settings.publish_target.as_deref() {
            Some(t) if t.starts_with("http://") || t.starts_with("https://") => {
                let credentials = match (&settings.publish_user, &settings.publish_password_file) {
                    (Some(user), Some(file)) => {
                        let password = crate::outside::files::read_setting_text(file)
                            .map_err(|e| {
                                DmmError::PasswordFile(file.display().to_string(), e.to_string())
                            })?
                            .lines()
                            .next()
                            .unwrap_or("")
                            .to_owned();
                        Some((user.clone(), password))
                    }
                    (Some(user), None) => Some((user.clone(), String::new())),
                    _ => None,
                };
                Some(PublishTarget::Http {
                    base: t.trim_end_matches('/').to_owned(),
                    credentials,
                    trust: settings.publish_trust.clone(),
                })
            }
            Some(t) => Some(PublishTarget::Directory(PathBuf::from(t))),
            None => None,
        };
        if request.publish && target.is_none() {
            return Err(DmmError::NoTarget);
        }
        let store = MediaStore::open(&settings.dir)
            .map_err(|e| DmmError::MediaStore(settings.dir.display().to_string(), e.to_string()))?;
        Ok(MediaSetup {
            store,
            source,
            source_trust: settings.source_trust.clone(),
            target,
            limits: FetchLimits {
                max_bytes: settings.max_file_mb << 20,
                transfer,
                ..FetchLimits::default()
            },
            concurrency: settings.concurrency.max(1) as usize,
            images_too: settings.download_images,
        })
    }
}

/// Runs `future` on the runtime of the calling thread where there is one (a job's blocking
/// thread), else on one of its own (the command line).
pub fn on_runtime<F: std::future::Future>(future: F) -> std::io::Result<F::Output> {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) => Ok(handle.block_on(future)),
        Err(_) => Ok(tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(future)),
    }
}

/// Builds (and fetches, and publishes) the brand's package. Blocking.
pub fn build(
    store: &Store,
    setup: &MediaSetup,
    request: DmmRequest,
    progress: &dyn Progress,
) -> Result<DmmReport, DmmError> {
    let catalogue = store.catalogue();
    let brand = known_brand(&catalogue, request.brand_id)?;
    let mut report = DmmReport::default();
    if request.download360
        && let Some(source) = &setup.source
    {
        download(&catalogue, &brand, setup, source, progress, &mut report)?;
    }
    progress.phase("building the package");
    let entries = count_media(&catalogue, &brand, |_| true)?;
    let mut done = 0;
    let package = package::build(&catalogue, &setup.store, &brand, &mut |_, _| {
        done += 1;
        progress.files(done, entries);
    })?;
    report.entries = package.entries;
    report.files = package.files;
    report.bytes = package.bytes;
    report.missing = package.missing;
    if request.publish
        && let Some(target) = &setup.target
    {
        progress.phase("publishing");
        progress.files(0, package.files);
        let done = |files: u64| progress.files(files, package.files);
        let published = match target {
            PublishTarget::Directory(dir) => {
                media::publish::to_directory(&package.dir, brand.id, dir, &done)
                    .map(|p| p.display().to_string())
                    .map_err(|e| e.to_string())
            }
            PublishTarget::Http {
                base,
                credentials,
                trust,
            } => on_runtime(media::publish::to_http(
                &package.dir,
                brand.id,
                base,
                credentials.as_ref(),
                trust,
                &setup.limits.transfer,
                &done,
            ))
            .map_err(|e| e.to_string())
            .and_then(|r| r),
        };
        report.published_to = Some(published.map_err(DmmError::Publish)?);
    }
    Ok(report)
}

/// The brand's media entries that `keep` keeps, counted (a pass over its articles, so that
/// progress has a total without holding the entries).
fn count_media(
    catalogue: &Catalogue,
    brand: &Brand,
    keep: impl Fn(&Media) -> bool,
) -> Result<u64, StoreError> {
    let mut count = 0;
    for article in catalogue.articles_of_brand(brand.id) {
        count += catalogue
            .media_of(&article?.key)?
            .iter()
            .filter(|m| keep(m))
            .count() as u64;
    }
    Ok(count)
}

/// Fetches the files of the brand's 360 frames (and images and documents, where set up so)
/// that the media store lacks, `BATCH` entries read at a time and `concurrency` files
/// fetched at a time. A URI two entries name is fetched once; one that failed is not tried
/// again in the same job.
fn download(
    catalogue: &Catalogue,
    brand: &Brand,
    setup: &MediaSetup,
    source: &MediaSource,
    progress: &dyn Progress,
    report: &mut DmmReport,
) -> Result<(), DmmError> {
    progress.phase("downloading media");
    let wanted = |m: &Media| m.kind == MediaKind::Spin360 || setup.images_too;
    let mut downloads = Downloads {
        client: crate::outside::http::client(
            Duration::from_secs(10),
            setup.limits.silence,
            &setup.source_trust,
            "media",
        )
        .map_err(|e| DmmError::MediaStore(String::new(), e))?,
        source,
        setup,
        progress,
        total: count_media(catalogue, brand, wanted)?,
        done: Cell::new(0),
        bytes: Cell::new(0),
        failed: HashSet::new(),
    };
    let mut batch: Vec<Media> = Vec::with_capacity(BATCH);
    let mut in_batch: HashSet<String> = HashSet::with_capacity(BATCH);
    for article in catalogue.articles_of_brand(brand.id) {
        let article = article?;
        for m in catalogue.media_of(&article.key)? {
            if !wanted(&m) {
                continue;
            }
            if downloads.failed.contains(&m.uri)
                || in_batch.contains(&m.uri)
                || setup.store.lookup(&m.uri).is_some()
            {
                downloads.handled();
                continue;
            }
            in_batch.insert(m.uri.clone());
            batch.push(m);
            if batch.len() == BATCH {
                downloads.fetch(&mut batch, report)?;
                in_batch.clear();
            }
        }
    }
    downloads.fetch(&mut batch, report)
}

/// The downloads of one job: where from, how far along, and the URIs that failed.
struct Downloads<'a> {
    client: reqwest::Client,
    source: &'a MediaSource,
    setup: &'a MediaSetup,
    progress: &'a dyn Progress,
    total: u64,
    done: Cell<u64>,
    bytes: Cell<u64>,
    failed: HashSet<String>,
}

impl Downloads<'_> {
    /// One more file dealt with, fetched or not.
    fn handled(&self) {
        self.done.set(self.done.get() + 1);
        self.progress.files(self.done.get(), self.total);
    }

    /// Fetches a batch, `concurrency` files at a time; the report counts what came and
    /// lists what did not.
    fn fetch(&mut self, batch: &mut Vec<Media>, report: &mut DmmReport) -> Result<(), DmmError> {
        let this = &*self;
        let outcomes = on_runtime(
            futures_util::stream::iter(batch.drain(..))
                .map(|m| async move {
                    let outcome = media::source::fetch(
                        &this.client,
                        this.source,
                        &this.setup.store,
                        &m.uri,
                        m.kind,
                        this.setup.limits,
                    )
                    .await;
                    if let Ok(stored) = &outcome {
                        this.bytes.set(this.bytes.get() + stored.size);
                        this.progress.advanced(this.bytes.get());
                    }
                    this.handled();
                    (m.uri, outcome)
                })
                .buffer_unordered(self.setup.concurrency)
                .collect::<Vec<_>>(),
        )
        .map_err(|e| DmmError::MediaStore(String::new(), e.to_string()))?;
        for (uri, outcome) in outcomes {
            match outcome {
                Ok(_) => report.downloaded += 1,
                Err(reason) => {
                    report.not_fetched_count += 1;
                    if report.not_fetched.len() < LISTED {
                        report.not_fetched.push(NotFetched {
                            uri: uri.clone(),
                            reason,
                        });
                    }
                    self.failed.insert(uri);
                }
            }
        }
        Ok(())
    }
}
