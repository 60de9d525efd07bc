//! One suite, run against every engine: what the store relies on.

use super::*;

fn engines() -> Vec<(&'static str, Db, Option<tempfile::TempDir>)> {
    let dir = tempfile::tempdir().unwrap();
    let sled = open_sled(dir.path(), 8 << 20).unwrap();
    vec![
        ("sled", sled, Some(dir)),
        ("memory", MemoryEngine::new_db(), None),
    ]
}

fn keys(range: Range) -> Vec<Vec<u8>> {
    range.map(|e| e.unwrap().0.to_vec()).collect()
}

fn filled(db: &Db, name: &str) -> Tree {
    let tree = db.open_tree(name).unwrap();
    let mut batch = Batch::default();
    for k in [b"a".as_slice(), b"ab", b"abc", b"b", b"c"] {
        batch.insert(k, [k, b"!"].concat());
    }
    tree.apply(batch).unwrap();
    tree
}

#[test]
fn gets_what_was_written_and_not_what_was_removed() {
    for (engine, db, _dir) in engines() {
        let tree = filled(&db, "t");
        assert_eq!(
            tree.get(b"ab").unwrap().as_deref(),
            Some(&b"ab!"[..]),
            "{engine}"
        );
        assert!(tree.get(b"zz").unwrap().is_none(), "{engine}");
        tree.remove(b"ab").unwrap();
        tree.insert(b"a", b"new").unwrap();
        assert!(tree.get(b"ab").unwrap().is_none(), "{engine}");
        assert_eq!(
            tree.get(b"a").unwrap().as_deref(),
            Some(&b"new"[..]),
            "{engine}"
        );
    }
}

#[test]
fn ranges_are_in_key_order_both_ways_and_honour_their_bounds() {
    for (engine, db, _dir) in engines() {
        let tree = filled(&db, "t");
        let all: Vec<Vec<u8>> = ["a", "ab", "abc", "b", "c"].map(|s| s.into()).to_vec();
        assert_eq!(keys(tree.iter()), all, "{engine}");
        let mut reversed = all.clone();
        reversed.reverse();
        assert_eq!(keys(Box::new(tree.iter().rev())), reversed, "{engine}");
        assert_eq!(keys(tree.range(b"ab".as_slice()..)), all[1..], "{engine}");
        assert_eq!(keys(tree.range(..b"b".as_slice())), all[..3], "{engine}");
        assert_eq!(
            keys(tree.range(b"ab".as_slice()..=b"b".as_slice())),
            all[1..4],
            "{engine}"
        );
        assert!(
            keys(tree.range(b"c".as_slice()..b"a".as_slice())).is_empty(),
            "{engine}"
        );
        let prefixed: Vec<Vec<u8>> = tree
            .scan_prefix(b"ab")
            .map(|e| e.unwrap().0.to_vec())
            .collect();
        assert_eq!(prefixed, all[1..3], "{engine}");
    }
}

#[test]
fn a_batch_applies_inserts_and_removals_in_order() {
    for (engine, db, _dir) in engines() {
        let tree = filled(&db, "t");
        let mut batch = Batch::default();
        batch.remove(b"a".to_vec());
        batch.insert(b"d".to_vec(), b"1".to_vec());
        batch.insert(b"d".to_vec(), b"2".to_vec());
        tree.apply(batch).unwrap();
        assert!(tree.get(b"a").unwrap().is_none(), "{engine}");
        assert_eq!(
            tree.get(b"d").unwrap().as_deref(),
            Some(&b"2"[..]),
            "{engine}"
        );
        tree.clear().unwrap();
        assert!(tree.is_empty(), "{engine}");
    }
}

#[test]
fn trees_are_separate_named_and_dropped() {
    for (engine, db, _dir) in engines() {
        filled(&db, "one");
        let two = db.open_tree("two").unwrap();
        assert!(two.is_empty(), "{engine}");
        let names = db.tree_names();
        assert!(
            names.iter().any(|n| n == "one") && names.iter().any(|n| n == "two"),
            "{engine}"
        );
        db.drop_tree("one").unwrap();
        assert!(!db.tree_names().iter().any(|n| n == "one"), "{engine}");
        assert!(db.open_tree("one").unwrap().is_empty(), "{engine}");
        db.flush().unwrap();
    }
}

#[test]
fn ids_are_never_given_out_twice() {
    for (engine, db, _dir) in engines() {
        let ids: Vec<u64> = (0..100).map(|_| db.generate_id().unwrap()).collect();
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{engine}");
    }
}

#[test]
fn flushed_writes_survive_a_reopen_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    {
        let db = open_sled(dir.path(), 8 << 20).unwrap();
        filled(&db, "kept");
        db.flush().unwrap();
    }
    let db = open_sled(dir.path(), 8 << 20).unwrap();
    assert_eq!(keys(db.open_tree("kept").unwrap().iter()).len(), 5);
}

/// Runs `body` on a thread of its own and fails if it has not finished within `limit`: a
/// hang of the engine fails the test instead of stalling the run.
fn within<T: Send + 'static>(
    limit: std::time::Duration,
    body: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(body());
    });
    match finished.recv_timeout(limit) {
        Ok(value) => value,
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("not finished within {limit:?}: the storage engine hung")
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => panic!("the test's body failed"),
    }
}

#[test]
fn a_compaction_keeps_every_tree_and_the_writes_made_meanwhile_and_shrinks_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    within(std::time::Duration::from_secs(120), move || {
        compaction_keeps_everything(&path, "pages", "during")
    });
}

#[test]
fn a_compaction_writes_the_paged_trees_values_into_a_page_file_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_path_buf();
    within(std::time::Duration::from_secs(120), move || {
        compaction_keeps_everything(&path, "pages.pagefile", "during.pagefile")
    });
}

fn compaction_keeps_everything(path: &std::path::Path, pages_tree: &str, during_tree: &str) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let db = open_sled(path, 8 << 20).unwrap();
    let pages = db.open_tree(pages_tree).unwrap();
    let value = vec![7u8; 4000];
    for round in 0..4u32 {
        let mut batch = Batch::default();
        for i in 0..2_000u32 {
            batch.insert((round * 2_000 + i).to_be_bytes(), value.clone());
        }
        pages.apply(batch).unwrap();
        db.flush().unwrap();
    }
    let mut batch = Batch::default();
    for i in (0..8_000u32).filter(|i| i % 10 != 0) {
        batch.remove(i.to_be_bytes());
    }
    pages.apply(batch).unwrap();
    filled(&db, "small");
    db.flush().unwrap();
    let id_before = db.generate_id().unwrap();

    // A reader and a writer go on while it compacts: every read finds what is there, every
    // write is kept, whichever side of the copy it lands on.
    const WRITES: u32 = 2_000;
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let reader = {
        let (pages, stop, value) = (pages.clone(), stop.clone(), value.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Acquire) {
                assert_eq!(
                    pages.get(40u32.to_be_bytes()).unwrap().as_deref(),
                    Some(&value[..])
                );
            }
        })
    };
    let writer = {
        let during = db.open_tree(during_tree).unwrap();
        std::thread::spawn(move || {
            for i in 0..WRITES {
                during.insert(i.to_be_bytes(), b"w").unwrap();
            }
        })
    };
    let compaction = db.compact().unwrap();
    writer.join().unwrap();
    stop.store(true, Ordering::Release);
    reader.join().unwrap();
    assert!(
        compaction.bytes_after * 2 < compaction.bytes_before,
        "{compaction:?}"
    );
    // The size it reports is the files' size when it finished; the writer's last writes and
    // the engine's own flusher may have added some since: how much depends on how many of the
    // writes landed after the copy (a timing), so the files are only held to be still far
    // smaller than before.
    let now = db.bytes();
    assert!(
        now >= compaction.bytes_after && now * 2 < compaction.bytes_before,
        "{now} bytes now, {compaction:?}"
    );
    assert_eq!(keys(pages.iter()).len(), 800);
    assert_eq!(keys(db.open_tree("small").unwrap().iter()).len(), 5);
    let during = db.open_tree(during_tree).unwrap();
    assert_eq!(keys(during.iter()).len() as u32, WRITES);
    assert!(db.generate_id().unwrap() > id_before);
    assert!(!db.tree_names().iter().any(|n| n.starts_with("__partscat")));
    assert!(!path.join(super::engine_files::NEXT).exists());

    // What the compaction wrote is what a reopen finds.
    db.flush().unwrap();
    drop((pages, during, db));
    let db = open_sled(path, 8 << 20).unwrap();
    let pages = db.open_tree(pages_tree).unwrap();
    let value_of = |tree: &Tree, key: u32| tree.get(key.to_be_bytes()).unwrap();
    assert_eq!(keys(pages.iter()).len(), 800);
    assert_eq!(value_of(&pages, 40).as_deref(), Some(&value[..]));
    assert_eq!(
        keys(db.open_tree(during_tree).unwrap().iter()).len() as u32,
        WRITES
    );
    assert!(db.generate_id().unwrap() > id_before);

    // The close kept the new page file's free room where its files are now; the next writer
    // takes it, and what it writes lies beside what the compaction wrote.
    let engine = path.join(super::engine_files::ENGINE);
    assert!(engine.join("pages.room").exists());
    let more = vec![9u8; 4000];
    let mut batch = Batch::default();
    for i in 8_000..8_100u32 {
        batch.insert(i.to_be_bytes(), more.clone());
    }
    pages.apply(batch).unwrap();
    drop((pages, db));
    let db = open_sled(path, 8 << 20).unwrap();
    let pages = db.open_tree(pages_tree).unwrap();
    assert_eq!(keys(pages.iter()).len(), 900);
    assert_eq!(value_of(&pages, 40).as_deref(), Some(&value[..]));
    assert_eq!(value_of(&pages, 8_050).as_deref(), Some(&more[..]));
}

#[test]
fn an_engine_in_memory_has_nothing_to_compact() {
    let db = MemoryEngine::new_db();
    filled(&db, "t");
    let done = db.compact().unwrap();
    assert_eq!((done.bytes_before, done.bytes_after, db.bytes()), (0, 0, 0));
    assert_eq!(keys(db.open_tree("t").unwrap().iter()).len(), 5);
}

#[test]
fn a_paged_tree_reads_and_writes_like_any_other() {
    for (engine, db, _dir) in engines() {
        let tree = filled(&db, "t.pagefile");
        assert_eq!(
            tree.get(b"ab").unwrap().as_deref(),
            Some(&b"ab!"[..]),
            "{engine}"
        );
        let mut batch = Batch::default();
        batch.remove(b"ab");
        batch.insert(b"a", b"new");
        batch.insert(b"x", b"first");
        batch.insert(b"x", b"last");
        tree.apply_each(batch).unwrap();
        let entries: Vec<(Vec<u8>, Vec<u8>)> = (tree.range(b"a".as_slice()..b"c".as_slice()))
            .map(|e| e.map(|(k, v)| (k.to_vec(), v.to_vec())).unwrap())
            .collect();
        let expected = [("a", "new"), ("abc", "abc!"), ("b", "b!")]
            .map(|(k, v)| (k.as_bytes().to_vec(), v.as_bytes().to_vec()));
        assert_eq!(entries, expected, "{engine}");
        assert_eq!(
            tree.get(b"x").unwrap().as_deref(),
            Some(&b"last"[..]),
            "{engine}"
        );
        assert!(tree.get(b"ab").unwrap().is_none(), "{engine}");
        tree.clear().unwrap();
        assert!(tree.is_empty(), "{engine}");
        filled(&db, "t.pagefile");
        db.drop_tree("t.pagefile").unwrap();
        assert!(db.open_tree("t.pagefile").unwrap().is_empty(), "{engine}");
    }
}
