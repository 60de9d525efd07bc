//! A `kill -9` at any moment of an import leaves the catalogue as it was before the import or
//! as it is after it: `partscat check` passes with one of the two checksums, never another.

mod common;

use std::process::{Command, Stdio};
use std::time::Instant;

use common::*;

#[test]
fn a_killed_import_leaves_the_old_or_the_new_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    let (old_files, new_files) = (dir.path().join("old"), dir.path().join("new"));
    generate(3_000, 1, &old_files);
    // A different seed: new articles, and changed rows for the references both share.
    generate(30_000, 2, &new_files);

    let before = dir.path().join("before");
    assert!(import(&before, &[path(&old_files)]).0);
    let (sound, old_checksum) = check(&before);
    assert!(sound);

    let reference = dir.path().join("reference");
    copy_dir(&before, &reference);
    let started = Instant::now();
    assert!(import(&reference, &[path(&new_files)]).0);
    let full = started.elapsed();
    let (sound, new_checksum) = check(&reference);
    assert!(sound);
    assert_ne!(old_checksum, new_checksum);

    let mut outcomes = (0, 0);
    for percent in [2, 10, 25, 40, 55, 70, 80, 90, 95, 98, 100, 103] {
        let store = dir.path().join(format!("killed-{percent}"));
        copy_dir(&before, &store);
        let mut child = Command::new(bin())
            .args(["import", "--data", path(&store), path(&new_files)])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(full * percent / 100);
        let _ = child.kill(); // SIGKILL
        child.wait().unwrap();

        let (sound, checksum) = check(&store);
        assert!(sound, "killed at {percent}%: the store is not sound");
        if checksum == old_checksum {
            outcomes.0 += 1;
        } else if checksum == new_checksum {
            outcomes.1 += 1;
        } else {
            panic!("killed at {percent}%: the checksum is neither the old nor the new one");
        }
        if percent == 40 {
            // What the killed import left behind is gone; the store takes the import again.
            assert!(import(&store, &[path(&new_files)]).0);
            assert_eq!(check(&store), (true, new_checksum.clone()));
        }
        std::fs::remove_dir_all(&store).unwrap();
    }
    eprintln!(
        "kills that left the old catalogue: {}, the new one: {}; import took {:?}",
        outcomes.0, outcomes.1, full
    );
    assert!(outcomes.0 > 0, "some kill must land before the switch");
}
