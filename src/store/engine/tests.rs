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

#[test]
fn a_compaction_keeps_every_tree_and_the_writes_made_meanwhile_and_shrinks_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let db = open_sled(dir.path(), 8 << 20).unwrap();
    let pages = db.open_tree("pages").unwrap();
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

    // Readers and a writer go on while it compacts: every read finds what is there, every
    // write is kept.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let done = std::thread::scope(|s| {
        let reader = s.spawn(|| {
            let mut reads = 0u64;
            while !stop.load(std::sync::atomic::Ordering::Acquire) {
                assert_eq!(
                    pages.get(40u32.to_be_bytes()).unwrap().as_deref(),
                    Some(&value[..])
                );
                reads += 1;
            }
            reads
        });
        let writer = s.spawn(|| {
            let during = db.open_tree("during").unwrap();
            let mut written = 0u32;
            while !stop.load(std::sync::atomic::Ordering::Acquire) {
                during.insert(written.to_be_bytes(), b"w").unwrap();
                written += 1;
            }
            written
        });
        let done = db.compact().unwrap();
        stop.store(true, std::sync::atomic::Ordering::Release);
        let written = writer.join().unwrap();
        assert!(reader.join().unwrap() > 0);
        (done, written)
    });
    let (compaction, written) = done;
    assert!(
        compaction.bytes_after * 2 < compaction.bytes_before,
        "{compaction:?}"
    );
    assert_eq!(db.bytes(), compaction.bytes_after);
    assert_eq!(keys(pages.iter()).len(), 800);
    assert_eq!(keys(db.open_tree("small").unwrap().iter()).len(), 5);
    let during = db.open_tree("during").unwrap();
    assert_eq!(keys(during.iter()).len() as u32, written);
    assert!(db.generate_id().unwrap() > id_before);
    assert!(!db.tree_names().iter().any(|n| n.starts_with("__partscat")));
    assert!(!dir.path().join(super::engine_files::NEXT).exists());

    // What the compaction wrote is what a reopen finds.
    db.flush().unwrap();
    drop((pages, during, db));
    let db = open_sled(dir.path(), 8 << 20).unwrap();
    assert_eq!(keys(db.open_tree("pages").unwrap().iter()).len(), 800);
    assert_eq!(
        keys(db.open_tree("during").unwrap().iter()).len() as u32,
        written
    );
    assert!(db.generate_id().unwrap() > id_before);
}

#[test]
fn an_engine_in_memory_has_nothing_to_compact() {
    let db = MemoryEngine::new_db();
    filled(&db, "t");
    let done = db.compact().unwrap();
    assert_eq!((done.bytes_before, done.bytes_after, db.bytes()), (0, 0, 0));
    assert_eq!(keys(db.open_tree("t").unwrap().iter()).len(), 5);
}
