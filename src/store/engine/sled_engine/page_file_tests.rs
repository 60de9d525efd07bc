//! The page file under the sled engine's paged trees: where values go, when a deleted
//! value's room is used again, what a crash leaves.

use crate::store::engine::{Batch, Tree, open_sled};

/// Writes a value of 1,000 bytes under each of `keys`, every byte the key.
fn thousands(tree: &Tree, keys: std::ops::Range<u8>) {
    let mut batch = Batch::default();
    for k in keys {
        batch.insert([k], vec![k; 1000]);
    }
    tree.apply(batch).unwrap();
}

fn removed(tree: &Tree, keys: impl IntoIterator<Item = u8>) {
    let mut batch = Batch::default();
    for k in keys {
        batch.remove([k]);
    }
    tree.apply(batch).unwrap();
}

fn page_file_len(dir: &std::path::Path) -> u64 {
    std::fs::metadata(dir.join(super::files::ENGINE).join("pages"))
        .unwrap()
        .len()
}

#[test]
fn a_deleted_values_room_is_used_again_once_the_deletion_is_durable_and_a_free_end_is_cut() {
    let dir = tempfile::tempdir().unwrap();
    let db = open_sled(dir.path(), 8 << 20).unwrap();
    let tree = db.open_tree("t.pagefile").unwrap();
    thousands(&tree, 0..100);
    db.flush().unwrap();
    assert_eq!(page_file_len(dir.path()), 100_000);
    // Before the deletion is durable, its room is not handed out: a crash would bring the
    // deleted values' places back.
    removed(&tree, 0..10);
    thousands(&tree, 100..101);
    assert_eq!(page_file_len(dir.path()), 101_000);
    db.flush().unwrap();
    thousands(&tree, 101..102);
    assert_eq!(page_file_len(dir.path()), 101_000);
    // Deleted values at the end shorten the file.
    removed(&tree, 90..101);
    db.flush().unwrap();
    assert_eq!(page_file_len(dir.path()), 90_000);
    for k in (10..90).chain([101]) {
        assert_eq!(tree.get([k]).unwrap().as_deref(), Some(&vec![k; 1000][..]));
    }
    // After a reopen, what no key names is free: the stretch the deleted values left.
    drop((tree, db));
    let db = open_sled(dir.path(), 8 << 20).unwrap();
    let tree = db.open_tree("t.pagefile").unwrap();
    thousands(&tree, 110..119);
    assert_eq!(page_file_len(dir.path()), 90_000);
    for k in (10..90).chain(101..102).chain(110..119) {
        assert_eq!(tree.get([k]).unwrap().as_deref(), Some(&vec![k; 1000][..]));
    }
}

#[test]
fn bytes_a_crash_left_unnamed_past_the_last_value_are_cut_before_the_next_write() {
    let dir = tempfile::tempdir().unwrap();
    {
        let db = open_sled(dir.path(), 8 << 20).unwrap();
        thousands(&db.open_tree("t.pagefile").unwrap(), 0..3);
        db.flush().unwrap();
    }
    let file = dir.path().join(super::files::ENGINE).join("pages");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.extend_from_slice(&[9; 5000]);
    std::fs::write(&file, bytes).unwrap();
    let db = open_sled(dir.path(), 8 << 20).unwrap();
    let tree = db.open_tree("t.pagefile").unwrap();
    assert_eq!(tree.get([2]).unwrap().as_deref(), Some(&vec![2; 1000][..]));
    thousands(&tree, 3..4);
    assert_eq!(page_file_len(dir.path()), 4000);
    for k in 0..4 {
        assert_eq!(tree.get([k]).unwrap().as_deref(), Some(&vec![k; 1000][..]));
    }
}

#[test]
fn a_change_too_large_for_any_one_free_stretch_fills_several() {
    let dir = tempfile::tempdir().unwrap();
    let db = open_sled(dir.path(), 8 << 20).unwrap();
    let tree = db.open_tree("t.pagefile").unwrap();
    thousands(&tree, 0..10);
    removed(&tree, [2, 5, 8]);
    db.flush().unwrap();
    // Three values, three stretches of 1,000 bytes apart: each takes one.
    thousands(&tree, 20..23);
    assert_eq!(page_file_len(dir.path()), 10_000);
    for k in [0, 1, 3, 4, 6, 7, 9, 20, 21, 22] {
        assert_eq!(tree.get([k]).unwrap().as_deref(), Some(&vec![k; 1000][..]));
    }
    // No stretch left: the next goes at the end.
    thousands(&tree, 23..24);
    assert_eq!(page_file_len(dir.path()), 11_000);
}
