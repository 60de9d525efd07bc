//! A small change commits in milliseconds, too fast to kill at a guessed moment: the commit
//! is stopped (`abort`, as a `kill -9` would) at each of its steps by name instead. Each stop
//! leaves the catalogue as it was or as the change makes it, `check` sound, and no page that
//! no generation holds; the change then imports again.

mod common;

use std::path::Path;
use std::process::Command;

use common::server::{DEMO_KEY, Served};
use common::*;

/// `check --json` of a store: sound, checksum, pages no generation holds.
fn checked(store: &Path) -> (bool, String, u64) {
    let o = partscat(&["check", "--json", "--data", path(store)]);
    let report: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("a JSON report: {}", text(&o)));
    (
        report["sound"].as_bool().unwrap_or(false),
        report["checksum"].as_str().unwrap_or_default().to_owned(),
        report["unreclaimed_pages"]
            .as_u64()
            .expect("unreclaimed_pages"),
    )
}

/// A mixed change of a generated catalogue: `round` moves prices, adds articles and their
/// links.
fn write_change(files: &Path, out: &Path, round: usize) {
    std::fs::create_dir_all(out).unwrap();
    let read = |name: &str| std::fs::read_to_string(files.join(name)).unwrap();
    let prices = read("prices.csv");
    let mut lines = prices.lines();
    let mut changed = vec![lines.next().unwrap().to_owned()];
    for line in lines.skip(round * 37 % 500).take(60) {
        let mut cells: Vec<String> = line.split(',').map(str::to_owned).collect();
        cells[4] = format!("{}.{:02}", 10 + round, round % 100);
        changed.push(cells.join(","));
    }
    std::fs::write(out.join("prices.csv"), changed.join("\n") + "\n").unwrap();
    let articles = read("articles.csv");
    let mut lines = articles.lines();
    let mut new = vec![lines.next().unwrap().to_owned()];
    let mut keys = Vec::new();
    // Lines with quoted fields are left out: the cells are split at every comma.
    let plain = lines.filter(|l| !l.contains('"'));
    for line in plain.skip(round * 13 % 2000).take(10) {
        let mut cells: Vec<String> = line.split(',').map(str::to_owned).collect();
        cells[1] = format!("{} N{round}", cells[1]);
        cells[5] = String::new();
        keys.push((cells[0].clone(), cells[1].clone()));
        new.push(cells.join(","));
    }
    std::fs::write(out.join("articles.csv"), new.join("\n") + "\n").unwrap();
    let vehicles = read("vehicles.csv");
    let ktypes: Vec<&str> = vehicles
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').next())
        .collect();
    let mut links = vec!["brand_id,reference,ktype,position,quantity,notes".to_owned()];
    for (i, (brand, reference)) in keys.iter().enumerate() {
        for k in 0..3 {
            let ktype = ktypes[(round * 7 + i * 3 + k) % ktypes.len()];
            links.push(format!("{brand},{reference},{ktype},,1,"));
        }
    }
    std::fs::write(out.join("links.csv"), links.join("\n") + "\n").unwrap();
}

fn import_dir(store: &Path, dir: &Path) -> bool {
    let (ok, report) = import(store, &[path(dir)]);
    if !ok {
        eprintln!("{report:#}");
    }
    ok
}

#[test]
fn a_small_commit_stopped_at_any_step_leaves_the_old_or_the_new_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    generate(3_000, 1, &files);
    let change = dir.path().join("change");
    write_change(&files, &change, 1);

    let before = dir.path().join("before");
    assert!(import_dir(&before, &files));
    let (sound, old_checksum, unused) = checked(&before);
    assert!(sound && unused == 0);
    let reference = dir.path().join("reference");
    copy_dir(&before, &reference);
    assert!(import_dir(&reference, &change));
    let (sound, new_checksum, unused) = checked(&reference);
    assert!(sound && unused == 0);
    assert_ne!(old_checksum, new_checksum);

    // Before the switch the old catalogue stays; from it on, the new one.
    let steps = [
        ("commit:written", &old_checksum),
        ("commit:freed-listed", &old_checksum),
        ("commit:flushed", &old_checksum),
        ("commit:switched", &new_checksum),
        ("reclaim:pages-deleted", &new_checksum),
    ];
    for (step, expected) in steps {
        let store = dir.path().join(step.replace(':', "-"));
        copy_dir(&before, &store);
        let mut cmd = Command::new(bin());
        cmd.args(["import", "--data", path(&store), path(&change)])
            .env("PARTSCAT_CRASH_AT", step);
        let o = bounded(cmd);
        assert!(!o.status.success(), "{step}: the import was not stopped");
        let (sound, checksum, unused) = checked(&store);
        assert!(sound, "stopped at {step}: the store is not sound");
        assert_eq!(&checksum, expected, "stopped at {step}");
        assert_eq!(unused, 0, "stopped at {step}: pages no generation holds");
        // The change imports (again, or as unchanged) and the store ends where it should.
        assert!(
            import_dir(&store, &change),
            "{step}: the change does not import again"
        );
        assert_eq!(checked(&store), (true, new_checksum.clone(), 0), "{step}");
        std::fs::remove_dir_all(&store).unwrap();
    }
}

#[test]
fn many_small_commits_leave_no_page_that_no_generation_holds() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    generate(3_000, 1, &files);
    let store = dir.path().join("store");
    assert!(import_dir(&store, &files));
    let changes = dir.path().join("changes");
    for round in 0..30 {
        let change = changes.join(round.to_string());
        write_change(&files, &change, round);
        assert!(import_dir(&store, &change), "round {round}");
    }
    let (sound, checksum, unused) = checked(&store);
    assert!(sound);
    assert_eq!(unused, 0, "pages no generation holds");
    // Compacted, the store holds the same catalogue in less space, in its own place.
    let before = dir_bytes(&store);
    let o = partscat(&["compact", "--data", path(&store)]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains(&checksum), "{}", text(&o));
    assert_eq!(checked(&store), (true, checksum, 0));
    let after = dir_bytes(&store);
    assert!(
        after < before,
        "{after} bytes after compacting, {before} before"
    );
    assert!(!store.join("engine.next").exists());
}

/// A store of 3,000 articles that took `commits` small changes; its files and checksum.
fn changed_store(dir: &Path, commits: usize) -> (std::path::PathBuf, std::path::PathBuf, String) {
    let files = dir.join("files");
    generate(3_000, 1, &files);
    let store = dir.join("store");
    assert!(import_dir(&store, &files));
    for round in 0..commits {
        let change = dir.join("changes").join(round.to_string());
        write_change(&files, &change, round);
        assert!(import_dir(&store, &change), "round {round}");
    }
    let (sound, checksum, unused) = checked(&store);
    assert!(sound && unused == 0);
    (store, files, checksum)
}

#[test]
fn a_compaction_stopped_at_any_step_leaves_the_catalogue_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _, checksum) = changed_store(dir.path(), 8);
    for step in ["compact:copied", "compact:exchanged", "compact:old-removed"] {
        let stopped = dir.path().join(step.replace(':', "-"));
        copy_dir(&store, &stopped);
        let mut cmd = Command::new(bin());
        cmd.args(["compact", "--data", path(&stopped)])
            .env("PARTSCAT_CRASH_AT", step);
        let o = bounded(cmd);
        assert!(
            !o.status.success(),
            "{step}: the compaction was not stopped"
        );
        assert_eq!(checked(&stopped), (true, checksum.clone(), 0), "{step}");
        assert!(!stopped.join("engine.next").exists(), "{step}");
        // It compacts again, to the same catalogue.
        let o = partscat(&["compact", "--data", path(&stopped)]);
        assert!(o.status.success(), "{step}: {}", text(&o));
        assert_eq!(checked(&stopped), (true, checksum.clone(), 0), "{step}");
        std::fs::remove_dir_all(&stopped).unwrap();
    }
}

#[test]
fn a_running_server_compacts_while_it_answers_and_writes() {
    let dir = tempfile::tempdir().unwrap();
    let (store, files, checksum) = changed_store(dir.path(), 8);
    let vehicles = std::fs::read_to_string(files.join("vehicles.csv")).unwrap();
    let ktype = vehicles.lines().nth(1).unwrap().split(',').next().unwrap();
    let route = format!("/svc/getArticlesByKtype/{ktype}");
    let s = Served::start(&store, &["--demo", "--demo-key", DEMO_KEY]);
    let answer = s.get(&route);
    assert_eq!(answer.status, 200, "{}", answer.text());
    let expected = answer.text();

    let stop = std::sync::atomic::AtomicBool::new(false);
    let (o, lookups) = std::thread::scope(|scope| {
        let lookups = scope.spawn(|| {
            let mut answered = 0;
            while !stop.load(std::sync::atomic::Ordering::Acquire) {
                let reply = s.get(&route);
                assert_eq!(reply.status, 200, "{}", reply.text());
                assert_eq!(reply.text(), expected);
                answered += 1;
            }
            answered
        });
        let o = partscat(&["compact", "--data", path(&store)]);
        stop.store(true, std::sync::atomic::Ordering::Release);
        (o, lookups.join().unwrap())
    });
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("in the running server"), "{}", text(&o));
    assert!(lookups > 0);
    assert_eq!(s.get(&route).text(), expected);
    // The store takes writes after the swap: a provider made now is kept.
    let o = partscat(&[
        "admin",
        "--data",
        path(&store),
        "provider",
        "create",
        "late",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    drop(s);
    assert_eq!(checked(&store), (true, checksum, 0));
    let o = partscat(&["admin", "--data", path(&store), "provider", "list"]);
    assert!(text(&o).contains("late"), "{}", text(&o));
}

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| match e.file_type().unwrap().is_dir() {
            true => dir_bytes(&e.path()),
            false => e.metadata().unwrap().len(),
        })
        .sum()
}
