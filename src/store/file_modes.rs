//! The store holds key hashes, grants and the audit trail: its directory is the owner's
//! alone (`0700`) and its files are created `0600` (the process's file-creation mask).
//! A store made wider by hand is warned about, not changed.

use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// New files and directories of this process: the owner's only. Called before the store
/// opens, since the storage engine creates its files with the mask's defaults.
pub fn keep_new_files_private() {
    // SAFETY: umask only sets the process's creation mask; it cannot fail.
    unsafe {
        libc::umask(0o077);
    }
}

/// Creates the store's directory (and missing parents) as `0700`.
pub(super) fn create_private_dir(path: &Path) -> std::io::Result<()> {
    if path.exists() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(path)
}

/// The store's directory and files that others than the owner may read, write or enter.
pub fn wider_than_owner(path: &Path) -> Vec<PathBuf> {
    let wide =
        |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| m.permissions().mode() & 0o077 != 0);
    let mut found: Vec<PathBuf> = Vec::new();
    if wide(path) {
        found.push(path.to_path_buf());
    }
    let mut pending = vec![path.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let p = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                pending.push(p.clone());
            }
            // The admin socket is 0600 by its own hand; sockets carry no data at rest.
            if !entry.file_type().is_ok_and(|t| {
                use std::os::unix::fs::FileTypeExt;
                t.is_socket()
            }) && wide(&p)
            {
                found.push(p);
            }
        }
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_store_is_the_owners_alone() {
        keep_new_files_private();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested").join("data");
        let store = crate::store::Store::open(&path).unwrap();
        store.flush().unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o700);
        assert!(
            wider_than_owner(&path).is_empty(),
            "{:?}",
            wider_than_owner(&path)
        );
        for entry in std::fs::read_dir(&path).unwrap() {
            let p = entry.unwrap().path();
            if p.is_file() {
                assert_eq!(mode(&p), 0o600, "{}", p.display());
            }
        }
        let conf = path.join("engine").join("conf");
        std::fs::set_permissions(&conf, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(wider_than_owner(&path), vec![conf]);
    }
}
