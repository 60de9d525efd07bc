//! Each committed import keeps what it changed under its data version; a feed from a data
//! version gives each changed row once, as it is now or as it was when it was retired; the
//! feed keeps what its retention says and refuses a version from before that.

use std::path::Path;

use partscat::catalogue::{Link, Price};
use partscat::import::{self, ImportFile, ImportMode, ImportType, Quiet, Source};
use partscat::store::{Change, ChangeRetention, Store, StoreError};

fn import_text(store: &Store, dir: &Path, data_set: ImportType, text: &str, mode: ImportMode) {
    let path = dir.join(format!("{}.csv", data_set.name()));
    std::fs::write(&path, text).unwrap();
    let file = ImportFile {
        import_type: data_set,
        source: Source::Path(path),
        mode,
    };
    let report = import::import(store, &[file], false, &Quiet).unwrap();
    assert!(!report.is_rejected(), "{report}");
}

#[test]
fn the_feed_gives_what_changed_since_a_version_and_refuses_what_it_no_longer_keeps() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("data")).unwrap();
    partscat::demo::load_demo_catalogue(&store, &Quiet)
        .unwrap()
        .unwrap();
    let loaded = store.catalogue().data_version();
    // A load into empty tables keeps no changes: the feed starts after it.
    assert_eq!(store.catalogue().changes_complete_since(), loaded);
    assert!(matches!(
        store.catalogue().changes_since::<Price>(loaded - 1),
        Err(StoreError::ChangesGone { complete_since, .. }) if complete_since == loaded
    ));
    assert!(
        store
            .catalogue()
            .changes_since::<Price>(loaded)
            .unwrap()
            .is_empty()
    );

    // A price changes, then brand 4's links of one article are withdrawn.
    import_text(
        &store,
        dir.path(),
        ImportType::Prices,
        "brand_id,reference,price_type,currency,amount,valid_from\n1,0 986 A45 240,list,EUR,99.90,2026-01-01\n",
        ImportMode::Merge,
    );
    let priced = store.catalogue().data_version();
    let changes = store.catalogue().changes_since::<Price>(loaded).unwrap();
    assert_eq!(changes.len(), 1, "{changes:?}");
    assert!(matches!(&changes[0], Change::Upsert(p) if p.amount.to_string() == "99.90"));
    assert!(
        store
            .catalogue()
            .changes_since::<Link>(loaded)
            .unwrap()
            .is_empty()
    );

    let links = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/links.csv"
    ))
    .unwrap();
    let brand_4: Vec<&str> = links.lines().filter(|l| l.starts_with("4,")).collect();
    let kept: Vec<&str> = std::iter::once(links.lines().next().unwrap())
        .chain(brand_4.iter().skip(1).copied())
        .collect();
    import_text(
        &store,
        dir.path(),
        ImportType::Links,
        &(kept.join("\n") + "\n"),
        ImportMode::Replace,
    );
    let since_prices = store.catalogue().changes_since::<Link>(priced).unwrap();
    assert_eq!(since_prices.len(), 1, "{since_prices:?}");
    assert!(matches!(&since_prices[0], Change::Removed(l) if l.article.brand_id == 4));
    // From before both: both changes; the price as it is now.
    assert_eq!(
        store
            .catalogue()
            .changes_since::<Price>(loaded)
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        store
            .catalogue()
            .changes_since::<Link>(loaded)
            .unwrap()
            .len(),
        1
    );

    // Keeping one version's changes: the feed now starts at the last but one.
    store.set_change_retention(ChangeRetention {
        versions: 1,
        days: 30,
    });
    import_text(
        &store,
        dir.path(),
        ImportType::Prices,
        "brand_id,reference,price_type,currency,amount,valid_from\n1,0 986 A45 240,list,EUR,98.00,2026-01-01\n",
        ImportMode::Merge,
    );
    let now = store.catalogue().data_version();
    assert_eq!(store.catalogue().changes_complete_since(), now - 1);
    assert!(matches!(
        store.catalogue().changes_since::<Price>(priced),
        Err(StoreError::ChangesGone { .. })
    ));
    assert_eq!(
        store
            .catalogue()
            .changes_since::<Price>(now - 1)
            .unwrap()
            .len(),
        1
    );

    // What the feed keeps outlives a restart.
    drop(store);
    let store = Store::open(&dir.path().join("data")).unwrap();
    assert_eq!(store.catalogue().changes_complete_since(), now - 1);
    assert_eq!(
        store
            .catalogue()
            .changes_since::<Price>(now - 1)
            .unwrap()
            .len(),
        1
    );
}
