//! The store holds key hashes, grants and the audit trail: its directory is the owner's
//! alone (`0700`) and its files are created `0600` (the process's file-creation mask).
//! A store made wider by hand is warned about, not changed.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
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

/// Why this process may not use the store at `path` where that is a matter of accounts: the
/// directory, or a file or directory in it, that this process's account may not read and
/// write (a store made by the service's account, opened by another). `None` where it may,
/// or where nothing is there yet.
pub fn permission_problem(path: &Path) -> Option<(PathBuf, u32)> {
    let denied = |p: &Path, mode: libc::c_int| {
        let Ok(name) = CString::new(p.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: a NUL-terminated path; faccessat only reads it. AT_EACCESS: the effective
        // ids, the ones that open the files.
        let refused =
            unsafe { libc::faccessat(libc::AT_FDCWD, name.as_ptr(), mode, libc::AT_EACCESS) } != 0;
        refused && std::io::Error::last_os_error().kind() == std::io::ErrorKind::PermissionDenied
    };
    let everything =
        |directory: bool| libc::R_OK | libc::W_OK | if directory { libc::X_OK } else { 0 };
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        // A directory on the way may not be entered: the first such one is named.
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            return path.ancestors().skip(1).find_map(|dir| {
                let meta = std::fs::metadata(dir).ok()?;
                denied(dir, libc::X_OK).then(|| (dir.to_path_buf(), meta.uid()))
            });
        }
        Err(_) => return None,
    };
    if denied(path, everything(meta.is_dir())) {
        return Some((path.to_path_buf(), meta.uid()));
    }
    for entry in std::fs::read_dir(path).ok()?.flatten() {
        let Ok(inner) = entry.metadata() else {
            continue;
        };
        if denied(&entry.path(), everything(inner.is_dir())) {
            return Some((entry.path(), inner.uid()));
        }
    }
    None
}

/// The name of the account with `uid`, as `/etc/passwd` gives it.
pub fn account_name(uid: u32) -> String {
    std::fs::read_to_string("/etc/passwd")
        .ok()
        .and_then(|passwd| {
            passwd.lines().find_map(|line| {
                let mut fields = line.split(':');
                let name = fields.next()?;
                (fields.nth(1)?.parse::<u32>().ok()? == uid).then(|| name.to_owned())
            })
        })
        .unwrap_or_else(|| format!("uid {uid}"))
}

/// This process's effective account.
pub fn running_as() -> u32 {
    // SAFETY: geteuid has no failure and reads nothing.
    unsafe { libc::geteuid() }
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
