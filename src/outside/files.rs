//! Files in folders partscat was given (deliveries, a directory media source, the inbox) and
//! files it creates beside others (partial backups, downloads). A folder's own path is the
//! operator's choice and is taken as given; below it, every step is opened relative to the
//! one before with `O_NOFOLLOW`, so no link leads out of the folder, and a file must be a
//! regular one: a FIFO or a device is refused without blocking on it.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path};

/// Why a file in a folder was not opened.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    #[error("'{0}' is not there")]
    Missing(String),
    #[error("'{0}' is a link; only what is inside the folder itself is read")]
    Link(String),
    #[error("'{0}' is not a regular file (a directory, FIFO, socket or device)")]
    NotRegular(String),
    #[error("'{0}' is not a relative path inside the folder")]
    NotInside(String),
    #[error("'{0}': {1}")]
    Io(String, io::Error),
}

fn openat(dir: RawFd, name: &OsStr, flags: libc::c_int) -> io::Result<OwnedFd> {
    let name = CString::new(name.as_bytes()).map_err(io::Error::other)?;
    // SAFETY: `name` is a NUL-terminated string that outlives the call; the descriptor
    // returned, if any, is owned by nobody else.
    let fd = unsafe { libc::openat(dir, name.as_ptr(), flags | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just opened and is not owned elsewhere.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// What an `openat` error means for the path it was asked for.
fn refusal(shown: &str, e: io::Error) -> FolderError {
    match e.raw_os_error() {
        Some(libc::ENOENT) => FolderError::Missing(shown.to_owned()),
        // ELOOP: the last step is a link (O_NOFOLLOW); ENOTDIR: a step on the way is a link
        // or a file (O_DIRECTORY).
        Some(libc::ELOOP) | Some(libc::EMLINK) | Some(libc::ENOTDIR) => {
            FolderError::Link(shown.to_owned())
        }
        Some(libc::ENXIO) => FolderError::NotRegular(shown.to_owned()),
        _ => FolderError::Io(shown.to_owned(), e),
    }
}

/// Opens `relative` inside `folder` for reading: a regular file reached through real
/// directories only.
pub fn open_regular_in(folder: &Path, relative: &Path) -> Result<File, FolderError> {
    let shown = relative.display().to_string();
    let steps: Vec<&OsStr> = relative
        .components()
        .map(|c| match c {
            Component::Normal(name) => Ok(name),
            _ => Err(FolderError::NotInside(shown.clone())),
        })
        .collect::<Result<_, _>>()?;
    let Some((last, on_the_way)) = steps.split_last() else {
        return Err(FolderError::NotInside(shown));
    };
    let mut dir: OwnedFd = File::open(folder)
        .map_err(|e| FolderError::Io(folder.display().to_string(), e))?
        .into();
    for step in on_the_way {
        dir = openat(
            dir.as_raw_fd(),
            step,
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW,
        )
        .map_err(|e| refusal(&shown, e))?;
    }
    // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
    let fd = openat(
        dir.as_raw_fd(),
        last,
        libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY,
    )
    .map_err(|e| refusal(&shown, e))?;
    let file = File::from(fd);
    let meta = file
        .metadata()
        .map_err(|e| FolderError::Io(shown.clone(), e))?;
    if !meta.is_file() {
        return Err(FolderError::NotRegular(shown));
    }
    // SAFETY: plain flag calls on a descriptor this function owns.
    unsafe {
        let flags = libc::fcntl(file.as_raw_fd(), libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK);
        }
    }
    Ok(file)
}

/// The largest file an operator names in a setting (a certificate chain, a key, a secret):
/// far above any real one, so a growing log or a device named by mistake stops at once.
pub const SETTING_FILE_MAX_BYTES: u64 = 1024 * 1024;

/// Reads a file an operator named in a setting (`tls_cert`, `api_key_file`, …), whole: the
/// path is followed as given (a certificate manager's links are normal), but what it leads
/// to must be a regular file of at most `SETTING_FILE_MAX_BYTES`. A FIFO, a socket or a
/// device is refused without blocking on it. Blocking: call it off the async threads.
pub fn read_setting_file(path: &Path) -> io::Result<Vec<u8>> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a directory, FIFO, socket or device)",
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(SETTING_FILE_MAX_BYTES) as usize);
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, SETTING_FILE_MAX_BYTES + 1),
        &mut bytes,
    )?;
    if bytes.len() as u64 > SETTING_FILE_MAX_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "larger than {} KiB: not a setting's file",
                SETTING_FILE_MAX_BYTES / 1024
            ),
        ));
    }
    Ok(bytes)
}

/// `read_setting_file` as text.
pub fn read_setting_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_setting_file(path)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// Whether the entry `name` of a folder is a real directory (not a link to one).
pub fn is_real_dir(folder: &Path, name: &OsStr) -> bool {
    std::fs::symlink_metadata(folder.join(name)).is_ok_and(|m| m.is_dir())
}

/// Creates `path` for writing, only if nothing (not even a dangling link) has that name, and
/// readable by its owner alone.
pub fn create_private(path: &Path) -> io::Result<File> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// Opens an existing file of partscat's own for appending, refusing a link put in its place.
pub fn open_own_for_append(path: &Path) -> io::Result<File> {
    std::fs::OpenOptions::new()
        .append(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_inside_the_folder_are_opened() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.csv"), "x").unwrap();
        let folder = tempfile::tempdir().unwrap();
        let f = folder.path();
        std::fs::create_dir(f.join("d")).unwrap();
        std::fs::write(f.join("d/brands.csv"), "id,name\n").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.csv"), f.join("link.csv")).unwrap();
        std::os::unix::fs::symlink(outside.path(), f.join("out")).unwrap();
        let fifo = CString::new(f.join("fifo.csv").as_os_str().as_bytes()).unwrap();
        // SAFETY: a plain libc call with a valid path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);

        assert!(open_regular_in(f, Path::new("d/brands.csv")).is_ok());
        for (path, want) in [
            ("link.csv", "is a link"),
            ("out/secret.csv", "is a link"),
            ("fifo.csv", "not a regular file"),
            ("d", "not a regular file"),
            ("../x.csv", "not a relative path"),
            ("/etc/passwd", "not a relative path"),
            ("none.csv", "not there"),
        ] {
            let e = open_regular_in(f, Path::new(path)).unwrap_err().to_string();
            assert!(e.contains(want), "{path}: {e}");
        }
    }

    #[test]
    fn a_setting_file_is_a_regular_file_of_bounded_size() {
        let dir = tempfile::tempdir().unwrap();
        let pem = dir.path().join("cert.pem");
        std::fs::write(&pem, "pem").unwrap();
        let link = dir.path().join("live.pem");
        std::os::unix::fs::symlink(&pem, &link).unwrap();
        assert_eq!(read_setting_file(&link).unwrap(), b"pem");
        let fifo = dir.path().join("fifo");
        let name = CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let refused = read_setting_file(&fifo).unwrap_err();
        assert!(
            refused.to_string().contains("not a regular file"),
            "{refused}"
        );
        assert!(read_setting_file(Path::new("/dev/zero")).is_err());
        assert!(read_setting_file(dir.path()).is_err());
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'a'; SETTING_FILE_MAX_BYTES as usize + 1]).unwrap();
        assert!(
            read_setting_file(&big)
                .unwrap_err()
                .to_string()
                .contains("larger than")
        );
    }

    #[test]
    fn a_private_file_is_never_created_through_an_existing_name() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let link = dir.path().join("out.partial");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        assert!(create_private(&link).is_err());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        let fresh = dir.path().join("fresh");
        create_private(&fresh).unwrap();
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&fresh).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
