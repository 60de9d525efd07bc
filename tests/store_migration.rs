//! A store written by the first release (format 1: one engine entry per row) opens with this
//! one: it is migrated once, in place, with the same content, and a kill at any moment of the
//! migration leaves a format-1 store that migrates again at the next open.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::*;

/// The demo catalogue as the first release stored it, and what `check` said of it then.
const FIXTURE: &str = "tests/fixtures/format1-demo-store.tar.gz";
const FORMAT1_CHECKSUM: &str = "65e41cfb3b349fd61598444ef89ae975483cfd00a297a348af1f533287a9dcba";

fn unpack(to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    let status = Command::new("tar")
        .args(["xzf", path(&fixture), "-C", path(to)])
        .status()
        .unwrap();
    assert!(status.success());
}

fn migration_lines(o: &std::process::Output) -> usize {
    text(o)
        .lines()
        .filter(|l| l.contains("migrated the store from format 1 to format 2"))
        .count()
}

#[test]
fn a_format_1_store_is_migrated_once_with_the_same_content() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    unpack(&data);

    let first = partscat(&["check", "--data", path(&data)]);
    assert!(first.status.success(), "{}", text(&first));
    assert_eq!(migration_lines(&first), 1, "{}", text(&first));
    assert_eq!(check(&data), (true, FORMAT1_CHECKSUM.to_owned()));
    let again = partscat(&["check", "--data", path(&data)]);
    assert_eq!(
        migration_lines(&again),
        0,
        "migrated once: {}",
        text(&again)
    );

    // The demo files, imported again, find every row as it was.
    let files = dir.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    for name in [
        "brands",
        "manufacturers",
        "genarts",
        "vehicles",
        "articles",
        "links",
    ] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/demo/{name}.csv"));
        std::fs::copy(from, files.join(format!("{name}.csv"))).unwrap();
    }
    let (ok, report) = import(&data, &[path(&files)]);
    assert!(ok, "{report}");
    assert_eq!(report["verdict"], "nothing_changed", "{report}");
    assert_eq!(totals(&report, "added") + totals(&report, "changed"), 0);

    // The migrated store serves the demo's articles, by reference and by a number's end.
    let s = server::Served::start(&data, &["--demo", "--demo-key", server::DEMO_KEY]);
    let article = s.get("/svc/getCrossRefsOrArticle/0986494958?mainref");
    assert_eq!(article.status, 200, "{}", article.text());
}

#[test]
fn a_killed_migration_leaves_format_1_and_runs_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut migrated_before_the_kill = 0;
    for millis in [0, 5, 10, 20, 40, 60, 80, 100, 130, 160, 200, 300] {
        let data = dir.path().join(format!("killed-{millis}"));
        unpack(&data);
        let mut child = Command::new(bin())
            .args(["check", "--data", path(&data)])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(millis));
        let _ = child.kill(); // SIGKILL
        child.wait().unwrap();

        let o = partscat(&["check", "--data", path(&data)]);
        assert!(o.status.success(), "killed at {millis} ms: {}", text(&o));
        if migration_lines(&o) == 0 {
            migrated_before_the_kill += 1;
        }
        assert_eq!(
            check(&data),
            (true, FORMAT1_CHECKSUM.to_owned()),
            "killed at {millis} ms"
        );
        std::fs::remove_dir_all(&data).unwrap();
    }
    assert!(
        migrated_before_the_kill < 12,
        "some kill must land before the migration's switch"
    );
}
