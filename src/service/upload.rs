//! Import files an operator sends a running server (`partscat import` over the admin socket):
//! a tar of `<data set>.csv` files, unpacked into a directory of the store's that goes when
//! the import ends (or at the store's next open, after a kill). The files the operator names
//! may be ones the server's account cannot read, so they travel as bytes, not as paths.

use std::io::Read;

use super::ServiceError;
use crate::import::{ImportFile, ImportMode, ImportType, Source};
use crate::store::{Store, StoreError};

/// Files unpacked for an import, and the directory that holds them while it runs.
pub struct Uploaded {
    pub files: Vec<ImportFile>,
    /// Their names as sent (`prices.csv`), for the job's status.
    pub names: Vec<String>,
    _dir: tempfile::TempDir,
}

/// Bytes an upload may hold after its archive's end mark (tar pads to records of 10 KiB).
const TRAILING_BYTES: u64 = 64 * 1024;

fn refused(detail: String) -> ServiceError {
    ServiceError::bad_parameter("files", detail)
}

/// The disk ran out under the upload: named, with what it needs (the upload's `size` where
/// the sender gave it) and what is free.
fn no_space(store: &Store, size: Option<u64>) -> ServiceError {
    let free = store.free_bytes().unwrap_or(0);
    let needed = match size {
        Some(size) => format!("the upload needs {} MiB", size.div_ceil(1 << 20)),
        None => "the upload needs more".to_owned(),
    };
    ServiceError::NoSpace(format!(
        "the disk holding {} is full: {needed} of scratch space there for its files and {} MiB are free; free some space and send it again",
        store.path().display(),
        free >> 20
    ))
}

/// Unpacks `tar` (`size` bytes, where the sender said): each entry a regular file named
/// after a data set (`prices.csv`), each data set once; anything else refuses the whole
/// upload with nothing imported.
pub fn unpack(
    store: &Store,
    tar: impl Read,
    mode: ImportMode,
    size: Option<u64>,
) -> Result<Uploaded, ServiceError> {
    let dir = store.spill_dir().map_err(|e| match e {
        StoreError::DiskFull => no_space(store, size),
        e => e.into(),
    })?;
    let mut names: Vec<String> = Vec::new();
    let mut archive = tar::Archive::new(tar);
    let entries = archive
        .entries()
        .map_err(|e| refused(format!("the upload is not a tar of import files: {e}")))?;
    for entry in entries {
        let mut entry =
            entry.map_err(|e| refused(format!("the upload is not a tar of import files: {e}")))?;
        let path = entry
            .path()
            .map_err(|e| refused(format!("an entry's name cannot be read: {e}")))?
            .into_owned();
        let name = path.to_str().unwrap_or_default().to_owned();
        let data_set = name
            .strip_suffix(".csv")
            .filter(|stem| !stem.contains('/'))
            .and_then(ImportType::from_name)
            .ok_or_else(|| {
                refused(format!(
                    "'{}' is not a data set's file; the files are named after one of: {}",
                    path.display(),
                    ImportType::names()
                ))
            })?;
        if !entry.header().entry_type().is_file() {
            return Err(refused(format!("'{name}' is not a regular file")));
        }
        if names.contains(&name) {
            return Err(refused(format!("'{name}' is sent twice")));
        }
        let target = dir.path().join(format!("{}.csv", data_set.name()));
        let mut file =
            crate::outside::files::create_private(&target).map_err(|e| match e.kind() {
                std::io::ErrorKind::StorageFull => no_space(store, size),
                _ => ServiceError::from(StoreError::io("an upload", e)),
            })?;
        std::io::copy(&mut entry, &mut file).map_err(|e| match e.kind() {
            std::io::ErrorKind::StorageFull => no_space(store, size),
            _ => refused(format!("'{name}' could not be received whole: {e}")),
        })?;
        names.push(name);
    }
    if names.is_empty() {
        return Err(refused("the upload holds no import file".into()));
    }
    // The reader stops at the archive's end mark; what follows (the rest of the mark, a
    // writer's padding) is read to the end so that the sender is never cut off mid-request.
    let rest = std::io::copy(
        &mut archive.into_inner().take(TRAILING_BYTES + 1),
        &mut std::io::sink(),
    )
    .map_err(|e| refused(format!("the upload could not be received whole: {e}")))?;
    if rest > TRAILING_BYTES {
        return Err(refused("the upload goes on after its tar archive".into()));
    }
    let mut files = Vec::new();
    for name in &names {
        let file = crate::outside::files::open_regular_in(dir.path(), std::path::Path::new(name))
            .map_err(|e| refused(e.to_string()))?;
        files.push(ImportFile {
            import_type: ImportType::from_name(name.trim_end_matches(".csv"))
                .ok_or_else(|| refused(format!("'{name}' is not a data set's file")))?,
            source: Source::Opened {
                name: name.clone(),
                file: std::sync::Arc::new(file),
            },
            mode,
        });
    }
    Ok(Uploaded {
        files,
        names,
        _dir: dir,
    })
}
