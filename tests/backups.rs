//! `partscat backup` of a running appliance under load, restored into a third store with the
//! same content checksum; damaged, foreign and misplaced restores refused with nothing written.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use common::server::{DEMO_KEY, Served, client};
use common::{check, partscat, path, text};

#[test]
fn a_backup_under_load_restores_to_the_same_checksum_and_a_bad_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut served = Served::start(&data, &["--demo", "--demo-key", DEMO_KEY]);
    let loading = Arc::new(AtomicBool::new(true));
    let readers: Vec<_> = (0..2)
        .map(|_| {
            let (loading, url) = (loading.clone(), served.url("/svc/getArticlesByKtype/10219"));
            std::thread::spawn(move || {
                let c = client();
                let mut answered = 0;
                while loading.load(Ordering::Relaxed) {
                    assert_eq!(c.get(&url).send().unwrap().status().as_u16(), 200);
                    answered += 1;
                }
                answered
            })
        })
        .collect();
    let backup = dir.path().join("store.backup");
    let o = partscat(&["backup", "--data", path(&data), "--out", path(&backup)]);
    loading.store(false, Ordering::Relaxed);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("from the running server"), "{}", text(&o));
    for reader in readers {
        assert!(reader.join().unwrap() > 0);
    }
    assert!(!dir.path().join("store.backup.partial").exists());
    served.terminate();
    let (_, original) = check(&data);

    let restored = dir.path().join("restored");
    let o = partscat(&["restore", "--data", path(&restored), path(&backup)]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains(&original), "{}", text(&o));
    assert_eq!(check(&restored), (true, original.clone()));
    // The restored store serves, with its providers.
    let again = Served::start(&restored, &[]);
    assert_eq!(again.get("/svc/getArticlesByKtype/10219").status, 200);
    drop(again);

    // Into a directory that holds something: refused.
    let o = partscat(&["restore", "--data", path(&restored), path(&backup)]);
    assert!(!o.status.success());
    assert!(text(&o).contains("not an empty directory"), "{}", text(&o));

    // A damaged file (one byte changed, or cut short) and a foreign one: refused, nothing written.
    let mut bytes = std::fs::read(&backup).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xFF;
    let damaged = dir.path().join("damaged.backup");
    std::fs::write(&damaged, &bytes).unwrap();
    let short = dir.path().join("short.backup");
    std::fs::write(&short, &std::fs::read(&backup).unwrap()[..middle]).unwrap();
    for (file, said) in [
        (&damaged, "is damaged"),
        (&short, "is damaged"),
        (
            &dir.path().join("data/engine/conf"),
            "not a partscat backup",
        ),
    ] {
        let target = dir.path().join("third");
        let o = partscat(&["restore", "--data", path(&target), path(file)]);
        assert!(!o.status.success());
        assert!(text(&o).contains(said), "{}", text(&o));
        assert!(!target.exists() || std::fs::read_dir(&target).unwrap().next().is_none());
    }

    // A stopped store is backed up directly, to the same content.
    let direct = dir.path().join("direct.backup");
    let o = partscat(&["backup", "--data", path(&data), "--out", path(&direct)]);
    assert!(o.status.success(), "{}", text(&o));
    let third = dir.path().join("third");
    let o = partscat(&["restore", "--data", path(&third), path(&direct)]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(check(&third).1, original);
}
