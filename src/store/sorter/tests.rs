use super::*;

#[test]
fn items_held_in_memory_are_lent_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut sorter = Sorter::new(dir.path());
    // Keys that tie on their first eight bytes, and shorter keys under longer ones.
    let keys: [&[u8]; 5] = [b"ABCDEFGHZ", b"ABCDEFGHA", b"AB", b"AB\0", b"ABCDEFGH"];
    for (i, key) in keys.iter().enumerate() {
        sorter.push(key, b"v", 10 - i as u64).unwrap();
    }
    sorter.push(b"AB", b"w", 1).unwrap();
    let mut got = Vec::new();
    sorter
        .each(|key, value, origin| {
            got.push((key.to_vec(), value.to_vec(), origin));
            Ok(())
        })
        .unwrap();
    let expected: Vec<(Vec<u8>, Vec<u8>, u64)> = vec![
        (b"AB".to_vec(), b"w".to_vec(), 1),
        (b"AB".to_vec(), b"v".to_vec(), 8),
        (b"AB\0".to_vec(), b"v".to_vec(), 7),
        (b"ABCDEFGH".to_vec(), b"v".to_vec(), 6),
        (b"ABCDEFGHA".to_vec(), b"v".to_vec(), 9),
        (b"ABCDEFGHZ".to_vec(), b"v".to_vec(), 10),
    ];
    assert_eq!(got, expected);
    assert!(sorter.runs.is_empty());
}

#[test]
fn keys_that_tie_on_their_heads_sort_as_bytes() {
    // Keys of 0 to 23 bytes from three byte values, zeros among them: many share their
    // heads of sixteen bytes, and shorter keys are padded with zeros there.
    let dir = tempfile::tempdir().unwrap();
    let mut sorter = Sorter::new(dir.path());
    let mut expected = Vec::new();
    let mut state = 12345u64;
    for origin in 0..5000u64 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let len = (state >> 59) as usize % 24;
        let key: Vec<u8> = (0..len)
            .map(|i| [0u8, 1, b'A'][(state >> (i % 20 * 3)) as usize % 3 * (i % 5).min(1)])
            .collect();
        sorter.push(&key, b"", origin).unwrap();
        expected.push(Item {
            key,
            origin,
            value: Vec::new(),
        });
    }
    expected.sort();
    let got: Vec<Item> = sorter.sorted().unwrap().map(|i| i.unwrap()).collect();
    assert_eq!(got, expected);
}

#[test]
fn items_come_out_sorted_across_runs_and_twice() {
    let dir = tempfile::tempdir().unwrap();
    let mut sorter = Sorter::with_bound(dir.path(), 2000);
    let mut expected = Vec::new();
    for i in 0..3000u64 {
        let key = ((i * 7919) % 1000).to_be_bytes().to_vec();
        let value = vec![i as u8; (i % 9) as usize];
        expected.push(Item {
            key: key.clone(),
            origin: i,
            value: value.clone(),
        });
        sorter.push(&key, &value, i).unwrap();
    }
    expected.sort();
    assert!(sorter.runs.len() > 5, "spilled");
    for _ in 0..2 {
        let got: Vec<Item> = sorter.sorted().unwrap().map(|i| i.unwrap()).collect();
        assert_eq!(got, expected);
        let mut lent = Vec::new();
        sorter
            .each(|key, value, origin| {
                lent.push(Item {
                    key: key.to_vec(),
                    origin,
                    value: value.to_vec(),
                });
                Ok(())
            })
            .unwrap();
        assert_eq!(lent, expected);
    }
    let runs = sorter.runs.clone();
    drop(sorter);
    assert!(runs.iter().all(|r| !r.exists()));
}
