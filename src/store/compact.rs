//! Giving the engine's space back to the file system. The storage engine reuses the space of
//! deleted pages but never shrinks its files, and gives a stretch of its log back only once
//! most of it is dead: a store that took many small commits holds more than its catalogue
//! needs. `compact` writes the store afresh, as a restore of its own backup would, and puts
//! the new directory in the old one's place in one step.

use std::ffi::CString;
use std::path::{Path, PathBuf};

use super::{RestoreError, Store};

/// What a compaction did.
pub struct Compacted {
    pub bytes_before: u64,
    pub bytes_after: u64,
    pub checksum: String,
}

/// `<dir><suffix>` beside `dir`.
fn beside(dir: &Path, suffix: &str) -> PathBuf {
    let mut name = dir.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Bytes of the files under `dir`.
pub fn bytes_of(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => bytes_of(&e.path()),
            Ok(t) if t.is_file() => e.metadata().map(|m| m.len()).unwrap_or(0),
            _ => 0,
        })
        .sum()
}

/// Files of the data directory that are not the store's (the self-signed certificate and
/// its key): they go with it.
fn foreign_files(dir: &Path) -> Vec<PathBuf> {
    let ours = |name: &str| {
        matches!(name, "conf" | "db" | "blobs" | "partscat-store" | "reserve")
            || name.starts_with("snap.")
            || name.starts_with(super::SPILL_PREFIX)
    };
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| !ours(&e.file_name().to_string_lossy()))
        .map(|e| e.path())
        .collect()
}

/// Swaps two directories in one step (both exist before and after).
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    let c = |p: &Path| {
        CString::new(p.as_os_str().as_encoded_bytes())
            .map_err(|_| std::io::Error::other("a path holds a NUL byte"))
    };
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: two valid C strings; the call reads them and nothing else.
    let done = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    match done {
        0 => Ok(()),
        _ => Err(std::io::Error::last_os_error()),
    }
}

/// Writes the store at `dir` afresh and puts it in place. The store must not be open
/// elsewhere (the engine's lock refuses it). Until the swap the store is untouched; a process
/// ended before it leaves `<dir>.compacting` and `<dir>.compact-backup`, which the next
/// compaction removes.
pub fn compact(dir: &Path) -> Result<Compacted, RestoreError> {
    let io = |p: &Path, e: std::io::Error| RestoreError::Io(p.display().to_string(), e.to_string());
    let (fresh, backup) = (beside(dir, ".compacting"), beside(dir, ".compact-backup"));
    for leftover in [&fresh, &backup] {
        let _ = std::fs::remove_dir_all(leftover);
        let _ = std::fs::remove_file(leftover);
    }
    let bytes_before;
    {
        // Opening applies what the last run left to free; the backup holds what is live.
        let store = Store::open(dir)?;
        bytes_before = bytes_of(dir);
        let file = crate::outside::files::create_private(&backup).map_err(|e| io(&backup, e))?;
        store.backup(file)?;
    }
    let restored = super::restore(&fresh, &backup);
    let _ = std::fs::remove_file(&backup);
    let (_, report) = restored?;
    for file in foreign_files(dir) {
        let Some(name) = file.file_name() else {
            continue;
        };
        let to = fresh.join(name);
        std::fs::copy(&file, &to).map_err(|e| io(&file, e))?;
    }
    exchange(dir, &fresh).map_err(|e| io(dir, e))?;
    std::fs::remove_dir_all(&fresh).map_err(|e| io(&fresh, e))?;
    Ok(Compacted {
        bytes_before,
        bytes_after: bytes_of(dir),
        checksum: report.checksum,
    })
}
