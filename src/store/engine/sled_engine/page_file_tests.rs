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

#[test]
fn a_clean_close_keeps_the_free_room_and_the_next_writer_removes_it_before_writing() {
    use super::kept_room::{self, Kept};
    let dir = tempfile::tempdir().unwrap();
    let engine = dir.path().join(super::files::ENGINE);
    let kept = engine.join(kept_room::FILE);
    {
        let db = open_sled(dir.path(), 8 << 20).unwrap();
        let tree = db.open_tree("t.pagefile").unwrap();
        thousands(&tree, 0..10);
        removed(&tree, [2, 5]);
        db.flush().unwrap();
    }
    // The close kept what a reading of every place would find.
    let room = kept_room::read(&engine, 10_000).unwrap().unwrap();
    assert_eq!(
        (room.end, room.free),
        (10_000, vec![(2000, 1000), (5000, 1000)])
    );
    // A kept room is believed: one that says nothing is free puts new values at the end,
    // where a reading of the places would have filled the two stretches.
    kept_room::keep(
        &engine,
        &Kept {
            end: 10_000,
            free: Vec::new(),
        },
    )
    .unwrap();
    {
        // A process that only reads leaves it, though it read the room ahead of writes that
        // did not come.
        let db = open_sled(dir.path(), 8 << 20).unwrap();
        db.writes_coming();
        let tree = db.open_tree("t.pagefile").unwrap();
        assert_eq!(tree.get([9]).unwrap().as_deref(), Some(&vec![9; 1000][..]));
    }
    assert!(kept.exists());
    let db = open_sled(dir.path(), 8 << 20).unwrap();
    let tree = db.open_tree("t.pagefile").unwrap();
    thousands(&tree, 20..22);
    assert!(!kept.exists(), "removed before the first write");
    assert_eq!(page_file_len(dir.path()), 12_000);
    for k in [0, 1, 3, 4, 6, 7, 8, 9, 20, 21] {
        assert_eq!(tree.get([k]).unwrap().as_deref(), Some(&vec![k; 1000][..]));
    }
    drop((tree, db));
    let room = kept_room::read(&engine, 12_000).unwrap().unwrap();
    assert_eq!((room.end, room.free), (12_000, Vec::new()));
}
