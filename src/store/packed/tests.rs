use super::*;

fn space() -> Arc<Space> {
    Space::new(engine::MemoryEngine::new_db(), 1, BlockCache::new(1 << 20))
}

fn table_of(entries: &[(Vec<u8>, Vec<u8>)]) -> PackedTable {
    let mut w = space().writer("t", "t@1").unwrap();
    for (k, v) in entries {
        w.push(k, v).unwrap();
    }
    w.finish().unwrap().0
}

#[test]
fn lookups_and_scans_cross_block_boundaries() {
    let entries: Vec<(Vec<u8>, Vec<u8>)> = (0..5000u32)
        .map(|i| {
            (
                format!("{:03}/{i:06}", i % 7).into_bytes(),
                i.to_string().repeat(i as usize % 5).into_bytes(),
            )
        })
        .collect();
    let mut sorted = entries.clone();
    sorted.sort();
    let table = table_of(&sorted);
    assert!(table.page_ids().unwrap().len() > 10, "several blocks");
    assert_eq!(table.len().unwrap(), 5000);
    for (k, v) in sorted.iter().step_by(37) {
        assert_eq!(table.get(k).unwrap().as_ref(), Some(v));
    }
    assert_eq!(table.get(b"003/").unwrap(), None);
    assert_eq!(table.get(b"zzz").unwrap(), None);
    let scanned: Vec<Entry> = table
        .scan_prefix(b"003/".to_vec())
        .map(|e| e.unwrap())
        .collect();
    let expected: Vec<Entry> = sorted
        .iter()
        .filter(|(k, _)| k.starts_with(b"003/"))
        .cloned()
        .collect();
    assert_eq!(scanned, expected);
    let all: Vec<Entry> = table.iter().map(|e| e.unwrap()).collect();
    assert_eq!(all, sorted);
}

#[test]
fn a_finder_answers_as_lookups_do_in_order_and_out_of_order() {
    // Even keys held, odd ones absent (between entries, between blocks, after the last);
    // keys of unequal lengths, so that one key's end is not the next one's.
    let key = |i: u32| match i % 3 {
        0 => format!("{i:08}").into_bytes(),
        _ => format!("{i:08}-{}", "x".repeat(i as usize % 40)).into_bytes(),
    };
    let mut entries: Vec<(Vec<u8>, Vec<u8>)> =
        (0..6000u32).step_by(2).map(|i| (key(i), vec![1])).collect();
    entries.sort();
    let table = table_of(&entries);
    assert!(table.page_ids().unwrap().len() > 10, "several blocks");
    let mut asked: Vec<Vec<u8>> = (0..6001u32).map(key).collect();
    asked.sort();
    // In key order, each key asked twice in a row (an article's rows), then in a shuffled
    // order with repeats (the vehicles of links).
    let mut finder = table.finder();
    for k in asked.iter().flat_map(|k| [k, k]) {
        assert_eq!(finder.contains(k).unwrap(), table.get(k).unwrap().is_some());
    }
    let mut seed = 7;
    for _ in 0..20_000 {
        let k = &asked[(lcg(&mut seed) % asked.len() as u64) as usize];
        assert_eq!(finder.contains(k).unwrap(), table.get(k).unwrap().is_some());
    }
    assert!(!finder.contains(b"").unwrap());
    assert!(!finder.contains(b"zzzz").unwrap());
}

#[test]
fn an_empty_table_finds_nothing() {
    let table = table_of(&[]);
    assert!(table.is_empty());
    assert_eq!(table.get(b"a").unwrap(), None);
    assert_eq!(table.iter().count(), 0);
}

/// Deterministic pseudo-random numbers for the patch tests.
fn lcg(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *seed >> 33
}

#[test]
fn patches_agree_with_a_map_and_share_the_pages_they_keep() {
    let space = space();
    let mut expected = std::collections::BTreeMap::new();
    let mut w = space.writer("t", "t@0").unwrap();
    for i in 0..20_000u32 {
        let (k, v) = (
            format!("k{:07}", i * 10).into_bytes(),
            vec![b'v'; (i % 40) as usize],
        );
        w.push(&k, &v).unwrap();
        expected.insert(k, v);
    }
    let mut table = w.finish().unwrap().0;
    let mut seed = 7u64;
    for round in 1..=60u32 {
        let mut changes = std::collections::BTreeMap::new();
        // Mostly near one place (a brand's articles), some anywhere, some past the end.
        let around = lcg(&mut seed) % 200_000;
        for _ in 0..(lcg(&mut seed) % 300) {
            let at = match lcg(&mut seed) % 4 {
                0 => lcg(&mut seed) % 260_000,
                _ => around + lcg(&mut seed) % 2_000,
            };
            let key = format!("k{at:07}").into_bytes();
            let value = match lcg(&mut seed) % 3 {
                0 => None,
                _ => Some(vec![b'w'; (lcg(&mut seed) % 120) as usize]),
            };
            changes.insert(key, value);
        }
        let changes: Vec<Change> = changes
            .into_iter()
            .map(|(key, value)| Change { key, value })
            .collect();
        for c in &changes {
            match &c.value {
                Some(v) => expected.insert(c.key.clone(), v.clone()),
                None => expected.remove(&c.key),
            };
        }
        let before: std::collections::BTreeSet<u64> =
            table.page_ids().unwrap().into_iter().collect();
        let writer = space.writer("t", &format!("t@{round}")).unwrap();
        let patched = table.patch(writer, &changes).unwrap();
        let after: std::collections::BTreeSet<u64> =
            patched.table.page_ids().unwrap().into_iter().collect();
        let freed: std::collections::BTreeSet<u64> = patched.freed.iter().copied().collect();
        assert_eq!(freed.len(), patched.freed.len(), "a page freed twice");
        assert!(
            freed.is_subset(&before),
            "round {round}: freed a page it never had"
        );
        assert!(
            freed.is_disjoint(&after),
            "round {round}: freed a page still used"
        );
        let kept: std::collections::BTreeSet<u64> = before.difference(&freed).copied().collect();
        assert!(
            kept.is_subset(&after),
            "round {round}: lost a page without freeing it"
        );
        assert!(
            after.len() - kept.len() <= 4 * changes.len() + 8,
            "round {round}: wrote more pages than the change touches"
        );
        table = patched.table;
        // A fresh read of the root sees what the writer's root in memory saw.
        let reread = space.table("t", &format!("t@{round}")).unwrap();
        for t in [&table, &reread] {
            let all: Vec<Entry> = t.iter().map(|e| e.unwrap()).collect();
            let want: Vec<Entry> = expected.clone().into_iter().collect();
            assert_eq!(all.len(), want.len(), "round {round}");
            assert!(all == want, "round {round}: contents differ");
        }
        for c in changes.iter().step_by(7) {
            assert_eq!(table.get(&c.key).unwrap(), expected.get(&c.key).cloned());
        }
    }
    // After many small patches the blocks are still mostly full.
    let fresh = table_of(&expected.clone().into_iter().collect::<Vec<_>>());
    let (pages, fresh_pages) = (
        table.page_ids().unwrap().len(),
        fresh.page_ids().unwrap().len(),
    );
    let (bytes, fresh_bytes) = (table.stored_bytes().unwrap(), fresh.stored_bytes().unwrap());
    eprintln!(
        "{pages} pages, {bytes} bytes after patches; {fresh_pages}, {fresh_bytes} written fresh"
    );
    assert!(
        pages * 10 <= fresh_pages * 15,
        "{pages} pages, {fresh_pages} fresh"
    );
    assert!(
        bytes * 100 <= fresh_bytes * 115,
        "{bytes} bytes, {fresh_bytes} fresh"
    );
}

#[test]
fn a_patch_can_empty_a_table_and_fill_an_empty_one() {
    let space = space();
    let keys: Vec<Vec<u8>> = (0..3000u32).map(|i| i.to_be_bytes().to_vec()).collect();
    let empty = space.writer("t", "t@0").unwrap().finish().unwrap().0;
    let filled = empty
        .patch(
            space.writer("t", "t@1").unwrap(),
            &keys
                .iter()
                .map(|k| Change {
                    key: k.clone(),
                    value: Some(k.clone()),
                })
                .collect::<Vec<_>>(),
        )
        .unwrap();
    assert_eq!(filled.table.len().unwrap(), 3000);
    let emptied = filled
        .table
        .patch(
            space.writer("t", "t@2").unwrap(),
            &keys
                .iter()
                .map(|k| Change {
                    key: k.clone(),
                    value: None,
                })
                .collect::<Vec<_>>(),
        )
        .unwrap();
    assert!(emptied.table.is_empty());
    assert_eq!(emptied.freed.len(), filled.table.page_ids().unwrap().len());
}
