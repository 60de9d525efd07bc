//! An import that the store's disk cannot take is refused before anything is written, with a
//! message naming the bytes needed and free; the catalogue stays as it was.
//!
//! The store lives on a small tmpfs mounted for the test (root only, as CI runs).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

/// A tmpfs of `mib` MiB, unmounted when dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(at: &Path, mib: u32) -> Option<SmallDisk> {
        std::fs::create_dir_all(at).unwrap();
        let mounted = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={mib}m,mode=700"),
                "tmpfs",
                path(at),
            ])
            .status()
            .is_ok_and(|s| s.success());
        mounted.then(|| SmallDisk(at.into()))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn an_import_larger_than_the_free_disk_is_refused_before_it_writes() {
    let dir = tempfile::tempdir().unwrap();
    let Some(disk) = SmallDisk::mount(&dir.path().join("disk"), 110) else {
        assert_ne!(
            unsafe_uid(),
            0,
            "root can mount a tmpfs: this test must run where CI runs it"
        );
        eprintln!("skipped: mounting a tmpfs needs root");
        return;
    };
    let data = disk.0.join("data");
    let small = dir.path().join("small");
    generate(2_000, 1, &small);
    let (ok, report) = import(&data, &[path(&small)]);
    assert!(ok, "{report}");
    let before = check(&data);
    assert!(before.0);

    let large = dir.path().join("large");
    generate(60_000, 2, &large);
    let o = partscat(&["import", "--data", path(&data), path(&large)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let said = text(&o);
    assert!(
        said.contains("bytes")
            && said.contains("of free disk space in")
            && said.contains("are free"),
        "{said}"
    );
    assert_eq!(check(&data), before, "nothing was written");
    // The import still fits as a dry run, which writes only its sort runs.
    let (ok, report) = import(&data, &["--dry-run", path(&large)]);
    assert!(ok, "{report}");
}

fn unsafe_uid() -> u32 {
    let o = Command::new("id").arg("-u").output().unwrap();
    String::from_utf8_lossy(&o.stdout).trim().parse().unwrap()
}
