//! The store's reserve: a file of `BYTES` allocated in the store's directory while the disk has
//! room. When the disk fills anyway (another process, or an import past its estimate), the
//! engine cannot even open, since it writes as it opens. Releasing the reserve gives it room
//! to open, drop what a failed import left and serve the catalogue again, without anyone
//! freeing space by hand. It is taken again once there is room.

use std::path::Path;

pub const FILE: &str = "reserve";
const BYTES: u64 = 32 << 20;

/// Allocates the reserve if it is missing and the disk has room for it and as much again
/// (taking the last free bytes would only move the failure). Otherwise warns.
pub fn keep(dir: &Path) {
    let path = dir.join(FILE);
    if std::fs::metadata(&path).is_ok_and(|m| m.len() == BYTES) {
        return;
    }
    if super::free_bytes(dir).is_ok_and(|free| free < 2 * BYTES) {
        tracing::warn!(
            path = %dir.display(),
            "the disk holding the store is nearly full: its {} MiB reserve is not set aside; free some disk space",
            BYTES >> 20
        );
        return;
    }
    let allocated = std::fs::File::create(&path).and_then(|file| {
        use std::os::fd::AsRawFd;
        // SAFETY: a valid open descriptor; the range is within i64.
        match unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, BYTES as libc::off_t) } {
            0 => file.sync_all(),
            code => Err(std::io::Error::from_raw_os_error(code)),
        }
    });
    if let Err(e) = allocated {
        let _ = std::fs::remove_file(&path);
        tracing::warn!(
            path = %path.display(),
            error = %e,
            "cannot set aside the store's {} MiB reserve; free some disk space",
            BYTES >> 20
        );
    }
}

/// Gives the reserve's space back to the file system; `false` if there was none.
pub fn release(dir: &Path) -> bool {
    let released = std::fs::remove_file(dir.join(FILE)).is_ok();
    if released {
        tracing::warn!(
            path = %dir.display(),
            "the disk holding the store is full: released the store's {} MiB reserve to go on; free some disk space",
            BYTES >> 20
        );
    }
    released
}
