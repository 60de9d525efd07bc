//! Where the engine's files live in a store's directory: in `engine/`, so a compaction can
//! write a whole new set beside them (`engine.next/`) and swap the two directories in one
//! step, inside the store's own directory (the service user may not write its parent).

use std::ffi::CString;
use std::path::{Path, PathBuf};

/// The engine's directory inside a store's directory.
pub const ENGINE: &str = "engine";
/// A compaction's new files until they take `engine/`'s place; after the swap, the old ones
/// until they are removed. Either way a leftover is never needed.
pub const NEXT: &str = "engine.next";
/// The engine's files of the first layout (directly in the store's directory) on their way
/// into `engine/`.
const MOVING: &str = "engine.moving";

/// Whether a file of the store's directory is one of the engine's own in the first layout.
fn engine_file(name: &str) -> bool {
    matches!(name, "conf" | "db" | "blobs") || name.starts_with("snap.")
}

/// Whether `dir` holds the engine's files, in either layout.
pub fn present(dir: &Path) -> bool {
    dir.join(ENGINE).join("db").exists()
        || dir.join(MOVING).exists()
        || (dir.join("conf").exists() && dir.join("db").exists())
}

/// The engine's directory of the store at `dir`, after finishing what a run before left
/// undone: a compaction's leftover is removed, and the files of the first layout are moved
/// into `engine/` (file by file, then the directory renamed: a process ended half way
/// resumes here).
pub fn settle(dir: &Path) -> std::io::Result<PathBuf> {
    let engine = dir.join(ENGINE);
    let next = dir.join(NEXT);
    if next.exists() {
        std::fs::remove_dir_all(&next)?;
    }
    let moving = dir.join(MOVING);
    let flat = dir.join("db").exists();
    if !engine.exists() && (flat || moving.exists()) {
        std::fs::create_dir_all(&moving)?;
        for entry in std::fs::read_dir(dir)?.flatten() {
            let name = entry.file_name();
            if engine_file(&name.to_string_lossy()) {
                std::fs::rename(entry.path(), moving.join(&name))?;
            }
        }
        sync_dir(&moving)?;
        std::fs::rename(&moving, &engine)?;
        sync_dir(dir)?;
        tracing::info!(dir = %engine.display(), "moved the engine's files into their directory");
    }
    Ok(engine)
}

/// Makes the entries of `dir` (renames, new files) durable.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Makes every file under `dir` and the directories themselves durable.
pub fn sync_tree(dir: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)?.flatten() {
        let kind = entry.file_type()?;
        if kind.is_dir() {
            sync_tree(&entry.path())?;
        } else if kind.is_file() {
            std::fs::File::open(entry.path())?.sync_all()?;
        }
    }
    sync_dir(dir)
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

/// Swaps two directories in one step (both exist before and after).
pub fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_layout_moves_into_its_directory_and_a_half_move_resumes() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["conf", "db", "snap.0000001", "reserve", "partscat-store"] {
            std::fs::write(dir.path().join(name), name).unwrap();
        }
        std::fs::create_dir(dir.path().join("blobs")).unwrap();
        // A run that stopped after moving `conf`.
        std::fs::create_dir(dir.path().join(MOVING)).unwrap();
        std::fs::rename(
            dir.path().join("conf"),
            dir.path().join(MOVING).join("conf"),
        )
        .unwrap();
        assert!(present(dir.path()));
        let engine = settle(dir.path()).unwrap();
        let mut moved: Vec<String> = std::fs::read_dir(&engine)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        moved.sort();
        assert_eq!(moved, ["blobs", "conf", "db", "snap.0000001"]);
        assert_eq!(std::fs::read(engine.join("db")).unwrap(), b"db");
        for kept in ["reserve", "partscat-store"] {
            assert!(dir.path().join(kept).exists(), "{kept}");
        }
        assert!(!dir.path().join(MOVING).exists());
        assert!(present(dir.path()));
    }

    #[test]
    fn a_compactions_leftover_is_removed_and_a_settled_store_stays_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(ENGINE)).unwrap();
        std::fs::write(dir.path().join(ENGINE).join("db"), b"live").unwrap();
        std::fs::create_dir_all(dir.path().join(NEXT)).unwrap();
        std::fs::write(dir.path().join(NEXT).join("db"), b"old").unwrap();
        let engine = settle(dir.path()).unwrap();
        assert_eq!(std::fs::read(engine.join("db")).unwrap(), b"live");
        assert!(!dir.path().join(NEXT).exists());
    }

    #[test]
    fn an_exchange_swaps_two_directories() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        for (d, text) in [(&a, "a"), (&b, "b")] {
            std::fs::create_dir(d).unwrap();
            std::fs::write(d.join("f"), text).unwrap();
        }
        exchange(&a, &b).unwrap();
        assert_eq!(std::fs::read(a.join("f")).unwrap(), b"b");
        assert_eq!(std::fs::read(b.join("f")).unwrap(), b"a");
    }
}
