use super::*;

#[test]
fn a_newer_format_is_refused_and_an_older_marker_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    {
        let store = Store::open(dir.path()).unwrap();
        store
            .meta
            .insert(KEY_FORMAT, (FORMAT_VERSION + 1).to_be_bytes())
            .unwrap();
        store.flush().unwrap();
    }
    match Store::open(dir.path()) {
        Err(StoreError::NewerFormat { found, .. }) => assert_eq!(found, FORMAT_VERSION + 1),
        other => panic!("expected a refusal, got {:?}", other.err()),
    }
}

#[test]
fn a_store_behind_its_marker_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    drop(Store::open(dir.path()).unwrap());
    marker::write(dir.path(), 7).unwrap();
    let e = Store::open(dir.path()).err().expect("refused");
    assert!(e.to_string().contains("vouches for data version 7"), "{e}");
}

#[test]
fn a_sled_database_of_another_program_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    {
        let db = sled::open(dir.path()).unwrap();
        db.open_tree("users").unwrap().insert("a", "b").unwrap();
        db.flush().unwrap();
    }
    assert!(matches!(
        Store::open(dir.path()),
        Err(StoreError::NotOurs(..))
    ));
}
