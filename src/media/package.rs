//! A brand's DMM package: a directory tree, `dmm-<brand id>/`, holding
//! - `files/<sha256>.<extension>`: each file the brand's media name, once (a frame two
//!   articles share is one file), linked from the media store where the file system allows;
//! - `manifest.csv`: one row per media entry of the brand's articles (the DMM export's article
//!   columns, then the entry's kind, set, position, URI and description, then the file's
//!   `sha256`, `size`, `content_type` and `file`, its path in the package; a file the store
//!   lacks has its `status` `missing` and no file).
//!
//! A directory rather than an archive: a publish to a directory is a rename away, a publish
//! over HTTP is one PUT per file with the manifest last, and a receiver checks each file
//! against the manifest's hash without unpacking anything.
//!
//! The package is built under `packages/.dmm-<brand>.building` and renamed when complete.
//! Building streams: articles are read one at a time and files are linked as they come; which
//! files are already in the package is asked of the file system, not kept in memory.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::store::{MediaStore, Stored};
use crate::catalogue::{Brand, Media, MediaKind};
use crate::store::{Catalogue, StoreError};

pub const MANIFEST: &str = "manifest.csv";
pub const FILES: &str = "files";

const COLUMNS: [&str; 15] = [
    "brand_id",
    "brand_name",
    "reference",
    "genart",
    "genart_name",
    "kind",
    "set",
    "position",
    "uri",
    "description",
    "status",
    "sha256",
    "size",
    "content_type",
    "file",
];

/// What a package holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Package {
    pub dir: PathBuf,
    /// Media entries listed.
    pub entries: u64,
    /// Distinct files in the package, and their bytes.
    pub files: u64,
    pub bytes: u64,
    /// Entries whose file the store lacks.
    pub missing: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the package cannot be written: {0}")]
    Io(#[from] io::Error),
    #[error("the package cannot be written: {0}")]
    Csv(#[from] csv::Error),
}

/// Where a brand's package lives in the media store.
pub fn package_dir(media: &MediaStore, brand_id: u32) -> PathBuf {
    media.dir().join("packages").join(format!("dmm-{brand_id}"))
}

fn extension(uri: &str, content_type: &str) -> String {
    let from_uri = Path::new(uri)
        .extension()
        .and_then(|e| e.to_str())
        .filter(|e| e.len() <= 5 && e.chars().all(|c| c.is_ascii_alphanumeric()));
    match from_uri {
        Some(e) => e.to_ascii_lowercase(),
        None => match content_type {
            "image/jpeg" => "jpg".into(),
            "image/png" => "png".into(),
            "application/pdf" => "pdf".into(),
            _ => "bin".into(),
        },
    }
}

/// The kind as the media import file names it.
pub fn kind_name(kind: MediaKind) -> &'static str {
    match kind {
        MediaKind::Image => "image",
        MediaKind::Document => "document",
        MediaKind::Spin360 => "360",
    }
}

/// Builds the brand's package from the catalogue and the media store; `each` hears of every
/// entry written (for progress).
pub fn build(
    catalogue: &Catalogue,
    media: &MediaStore,
    brand: &Brand,
    each: &mut dyn FnMut(&Media, Option<&Stored>),
) -> Result<Package, PackageError> {
    let target = package_dir(media, brand.id);
    let parent = target.parent().unwrap_or(media.dir()).to_owned();
    let building = parent.join(format!(".dmm-{}.building", brand.id));
    // A leftover of a build cut off goes (a link, not what it points to); the new one is
    // made afresh, never through a name that is there.
    if std::fs::symlink_metadata(&building).is_ok() {
        std::fs::remove_dir_all(&building).or_else(|_| std::fs::remove_file(&building))?;
    }
    std::fs::create_dir_all(&parent)?;
    std::fs::create_dir(&building)?;
    std::fs::create_dir(building.join(FILES))?;
    let mut package = Package::default();
    let mut manifest = csv::Writer::from_writer(io::BufWriter::new(
        crate::outside::files::create_private(&building.join(MANIFEST))?,
    ));
    manifest.write_record(COLUMNS)?;
    let names = catalogue.names()?;
    for article in catalogue.articles_of_brand(brand.id) {
        let article = article?;
        let genart_name = names
            .generic_articles
            .get(&article.genart)
            .cloned()
            .unwrap_or_default();
        for m in catalogue.media_of(&article.key)? {
            package.entries += 1;
            let stored = media.lookup(&m.uri);
            let (status, hash, size, content_type, file) = match &stored {
                Some(s) => {
                    let file = add_file(&mut package, media, s, &m.uri, &building)?;
                    let size = s.size.to_string();
                    (
                        "present",
                        s.hash.clone(),
                        size,
                        s.content_type.clone(),
                        file,
                    )
                }
                None => {
                    package.missing += 1;
                    let none = String::new;
                    ("missing", none(), none(), none(), none())
                }
            };
            manifest.write_record([
                brand.id.to_string().as_str(),
                &brand.name,
                &article.reference,
                &article.genart.to_string(),
                &genart_name,
                kind_name(m.kind),
                &m.set,
                &m.position.to_string(),
                &m.uri,
                &m.description,
                status,
                &hash,
                &size,
                &content_type,
                &file,
            ])?;
            each(&m, stored.as_ref());
        }
    }
    let mut out = manifest
        .into_inner()
        .map_err(|e| io::Error::other(e.to_string()))?;
    out.flush()?;
    out.get_ref().sync_all()?;
    replace_package(&building, &target, &parent, brand.id)?;
    package.dir = target;
    Ok(package)
}

/// The stored file in the package being built (once, however many entries name it); its
/// path in the package.
fn add_file(
    package: &mut Package,
    media: &MediaStore,
    stored: &Stored,
    uri: &str,
    building: &Path,
) -> io::Result<String> {
    let file = format!(
        "{FILES}/{}.{}",
        stored.hash,
        extension(uri, &stored.content_type)
    );
    let path = building.join(&file);
    if !path.exists() {
        link_or_copy(&media.object_path(&stored.hash), &path)?;
        package.files += 1;
        package.bytes += stored.size;
    }
    Ok(file)
}

/// The complete package replaces the previous one.
fn replace_package(building: &Path, target: &Path, parent: &Path, brand_id: u32) -> io::Result<()> {
    if target.exists() {
        let old = parent.join(format!(".dmm-{brand_id}.old"));
        if old.exists() {
            std::fs::remove_dir_all(&old)?;
        }
        std::fs::rename(target, &old)?;
        std::fs::rename(building, target)?;
        std::fs::remove_dir_all(&old)
    } else {
        std::fs::rename(building, target)
    }
}

/// A hard link where the package and the store share a file system; a copy where not.
pub fn link_or_copy(from: &Path, to: &Path) -> io::Result<()> {
    if std::fs::hard_link(from, to).is_err() {
        std::fs::copy(from, to)?;
    }
    Ok(())
}
