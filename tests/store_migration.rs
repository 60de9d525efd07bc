//! Stores written by earlier releases open with this one: format 1 (one engine entry per row),
//! format 2 (packed tables without version bytes), format 3 (articles without numeric ids) and
//! format 4 (no index of replacements), format 6 (pages in the engine's log, before format
//! 11 moved them into a file of their own) and format 13 (articles' records without their
//! descriptions in other languages) are migrated once, in place, with the same content, and
//! a kill at any moment of the migration leaves a format-1 store that migrates again at the
//! next open.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::*;

/// The demo catalogue as the first release stored it (format 1) and as the packed layout
/// before version bytes did (format 2), and what `check` said of both then.
const FORMAT1: &str = "tests/fixtures/format1-demo-store.tar.gz";
const FORMAT2: &str = "tests/fixtures/format2-demo-store.tar.gz";
const DEMO_CHECKSUM: &str = "65e41cfb3b349fd61598444ef89ae975483cfd00a297a348af1f533287a9dcba";
/// The same data sets of today's demo catalogue before articles had numeric ids (format 3).
const FORMAT3: &str = "tests/fixtures/format3-demo-store.tar.gz";
const FORMAT3_CHECKSUM: &str = "77fcc898f61f004a0c31723366ad1b38796fe6af0562a6c71888268d3e5f8bf8";
/// The same again, with numeric ids (format 4): 0 986 494 958 was article 462.
const FORMAT4: &str = "tests/fixtures/format4-demo-store.tar.gz";

/// Today's whole demo catalogue with its blocks compressed with LZ4 (format 6).
const FORMAT6: &str = "tests/fixtures/format6-demo-store.tar.gz";
const FORMAT6_CHECKSUM: &str = "1fb208c468e2a8bb3deb91f548bf8f9a29c80d5fd5dce6a0cdc5692cc10767da";

/// Today's whole demo catalogue, its texts in German and French included, as format 13 kept
/// it: each article's record without its descriptions in other languages.
const FORMAT13: &str = "tests/fixtures/format13-demo-store.tar.gz";
const FORMAT13_CHECKSUM: &str = "b829d8b2ff7c56774b5837c5eef7122598443e8d04a11c04cf4504f21e92da72";

fn unpack(fixture: &str, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture);
    let status = Command::new("tar")
        .args(["xzf", path(&fixture), "-C", path(to)])
        .status()
        .unwrap();
    assert!(status.success());
}

/// How many times the output logs the migration from format `from`.
fn migration_lines(o: &std::process::Output, from: u32) -> usize {
    let line = format!(
        "migrated the store from format {from} to format {}",
        from + 1
    );
    text(o).lines().filter(|l| l.contains(&line)).count()
}

#[test]
fn a_format_1_store_is_migrated_once_with_the_same_content() {
    migrated_once_with_the_same_content(FORMAT1, DEMO_CHECKSUM, &[1, 2, 6]);
}

#[test]
fn a_format_2_store_is_migrated_once_with_the_same_content() {
    migrated_once_with_the_same_content(FORMAT2, DEMO_CHECKSUM, &[2, 3, 4, 5, 6, 7, 11]);
}

#[test]
fn a_format_3_store_is_migrated_once_and_its_articles_get_numeric_ids() {
    let (_dir, data) =
        migrated_once_with_the_same_content(FORMAT3, FORMAT3_CHECKSUM, &[3, 4, 5, 6, 7, 11]);
    // The articles have ids, one each.
    let s = server::Served::start(&data, &["--demo", "--demo-key", server::DEMO_KEY]);
    let first = legacy_ids(&s, "0986494958");
    assert_eq!(first.len(), 1);
    assert!(first[0] > 0);
    assert_ne!(legacy_ids(&s, "0986478849"), first);
    assert_replacements_found(&s);
}

#[test]
fn a_format_4_store_is_migrated_once_keeps_its_ids_and_finds_replacements() {
    let (_dir, data) =
        migrated_once_with_the_same_content(FORMAT4, FORMAT3_CHECKSUM, &[4, 5, 6, 7, 11]);
    let s = server::Served::start(&data, &["--demo", "--demo-key", server::DEMO_KEY]);
    assert_eq!(legacy_ids(&s, "0986494958"), [462]);
    assert_replacements_found(&s);
}

#[test]
fn a_format_6_store_keeps_its_lz4_blocks_readable_and_writes_new_ones_with_zstandard() {
    let (_dir, data) =
        migrated_once_with_the_same_content(FORMAT6, FORMAT6_CHECKSUM, &[6, 7, 10, 11]);
    // A change after the migration writes new blocks beside the old ones; both are read.
    let files = data.parent().unwrap().join("change");
    std::fs::create_dir_all(&files).unwrap();
    std::fs::write(
        files.join("prices.csv"),
        "brand_id,reference,price_type,currency,amount,valid_from,valid_to,change\n\
         1,0 986 494 958,list,EUR,99.99,2026-01-01,,upsert\n",
    )
    .unwrap();
    let (ok, report) = import(&data, &[path(&files)]);
    assert!(ok, "{report}");
    let (sound, checksum) = check(&data);
    assert!(sound);
    assert_ne!(checksum, FORMAT6_CHECKSUM);
    let s = server::Served::start(&data, &["--demo", "--demo-key", server::DEMO_KEY]);
    let prices = s.get("/svc/getCrossRefsOrArticle/0986494958?mainref");
    assert_eq!(prices.status, 200, "{}", prices.text());
    assert!(prices.text().contains("99.99"), "{}", prices.text());
}

fn get_articles(s: &server::Served, fields: serde_json::Value) -> serde_json::Value {
    let mut request = serde_json::json!({"provider": "demo", "includeGenericArticles": true});
    request
        .as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    s.fetch(
        server::client()
            .post(s.url("/ws/3.0/services/PartsToCatDLB.jsonEndpoint"))
            .json(&serde_json::json!({ "getArticles": request })),
    )
    .json()
}

fn legacy_ids(s: &server::Served, query: &str) -> Vec<i64> {
    get_articles(s, serde_json::json!({"searchQuery": query}))["articles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["genericArticles"][0]["legacyArticleId"].as_i64().unwrap())
        .collect()
}

/// The demo's C 59 676 is replaced by C 38 091: after the migration, C 38 091 replaces it
/// (`replacesArticles`) and `searchType` 5 finds it by the number replacing it.
fn assert_replacements_found(s: &server::Served) {
    let newer = get_articles(
        s,
        serde_json::json!({"searchQuery": "C38091", "searchType": 0, "includeReplacesArticles": true}),
    );
    let replaces = &newer["articles"][0]["replacesArticles"];
    assert!(
        replaces
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["articleNumber"] == "C 59 676"),
        "{newer}"
    );
    let older = get_articles(
        s,
        serde_json::json!({"searchQuery": "C 38 091", "searchType": 5}),
    );
    assert!(
        older["articles"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["articleNumber"] == "C 59 676"),
        "{older}"
    );
}

/// Migrates `fixture` and checks it; returns the migrated store, in its directory.
#[test]
fn a_format_13_store_gets_its_descriptions_in_other_languages_into_the_records() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    unpack(FORMAT13, &data);
    let first = partscat(&["check", "--data", path(&data)]);
    assert!(first.status.success(), "{}", text(&first));
    assert_eq!(migration_lines(&first, 13), 1, "{}", text(&first));
    assert_eq!(check(&data), (true, FORMAT13_CHECKSUM.to_owned()));
    let again = partscat(&["check", "--data", path(&data)]);
    assert_eq!(migration_lines(&again, 13), 0, "{}", text(&again));

    // Answers in German and French take each description from the record: one of its own,
    // one that is its generic article's name (held as a reference to that name).
    let s = server::Served::start(&data, &["--demo", "--demo-key", server::DEMO_KEY]);
    for (path, description) in [
        (
            "/svc/getCrossRefsOrArticle/0986494958?mainref&lang=de",
            "Bremsbelagsatz, Scheibenbremse, Vorderachse",
        ),
        (
            "/svc/getCrossRefsOrArticle/0986494958?mainref&lang=fr",
            "Jeu de plaquettes de frein, frein à disque, essieu avant",
        ),
        (
            "/svc/getCrossRefsOrArticle/0986494958?mainref&lang=en",
            "Brake Pad Set, disc brake, front axle",
        ),
        (
            "/svc/getCrossRefsOrArticle/WK138?mainref&lang=de",
            "Kraftstofffilter",
        ),
    ] {
        let answer = s.get(path);
        assert_eq!(answer.status, 200, "{}", answer.text());
        let articles = answer.json()["articles"].clone();
        assert_eq!(
            articles[0]["description"], description,
            "{path}: {articles}"
        );
    }
}

fn migrated_once_with_the_same_content(
    fixture: &str,
    checksum: &str,
    steps: &[u32],
) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    unpack(fixture, &data);

    let first = partscat(&["check", "--data", path(&data)]);
    assert!(first.status.success(), "{}", text(&first));
    for from in (1..=7).chain([10, 11]) {
        let expected = usize::from(steps.contains(&from));
        assert_eq!(migration_lines(&first, from), expected, "{}", text(&first));
    }
    // Every table's pages are in the page file, out of the engine's log.
    let page_file = std::fs::metadata(data.join("engine/pages")).unwrap().len();
    assert!(page_file > 100_000, "{page_file} bytes in the page file");
    assert_eq!(check(&data), (true, checksum.to_owned()));
    let again = partscat(&["check", "--data", path(&data)]);
    assert_eq!(
        (1..=7)
            .chain([10, 11])
            .map(|from| migration_lines(&again, from))
            .sum::<usize>(),
        0,
        "migrated once: {}",
        text(&again)
    );

    // The demo files, imported again, find every row as it was.
    let files = dir.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    for name in ["brands", "manufacturers", "genarts", "articles", "links"] {
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/demo/{name}.csv"));
        std::fs::copy(from, files.join(format!("{name}.csv"))).unwrap();
    }
    write_vehicles_as_format_8_held_them(&files.join("vehicles.csv"));
    write_brands_as_format_14_held_them(&files.join("brands.csv"));
    let (ok, report) = import(&data, &[path(&files)]);
    assert!(ok, "{report}");
    assert_eq!(report["verdict"], "nothing_changed", "{report}");
    assert_eq!(totals(&report, "added") + totals(&report, "changed"), 0);

    // The migrated store serves the demo's articles, by reference and by a number's end.
    let s = server::Served::start(&data, &["--demo", "--demo-key", server::DEMO_KEY]);
    let article = s.get("/svc/getCrossRefsOrArticle/0986494958?mainref");
    assert_eq!(article.status, 200, "{}", article.text());
    drop(s);
    (dir, data)
}

/// The demo's brands as the stores before format 15 held them: their names, no addresses.
fn write_brands_as_format_14_held_them(file: &Path) {
    let text = std::fs::read_to_string(file).unwrap();
    let names: Vec<String> = text
        .lines()
        .map(|line| line.splitn(3, ',').take(2).collect::<Vec<_>>().join(","))
        .collect();
    std::fs::write(file, names.join("\n") + "\n").unwrap();
}

/// The demo's vehicles with the columns stores before format 9 held: one engine code, no
/// model series, body or engine kind.
fn write_vehicles_as_format_8_held_them(to: &Path) {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo/vehicles.csv");
    let mut rows = csv::Reader::from_path(demo).unwrap();
    let mut out = csv::Writer::from_path(to).unwrap();
    let header: Vec<String> = rows.headers().unwrap().iter().map(str::to_owned).collect();
    let kept = header.iter().position(|c| c == "year_to").unwrap() + 1;
    let engine = header.iter().position(|c| c == "engine").unwrap();
    out.write_record(&header[..kept]).unwrap();
    for row in rows.records() {
        let mut row: Vec<String> = row.unwrap().iter().map(str::to_owned).collect();
        row.truncate(kept);
        row[engine] = row[engine].split('|').next().unwrap_or("").to_owned();
        out.write_record(&row).unwrap();
    }
    out.flush().unwrap();
}

#[test]
fn a_killed_migration_leaves_format_1_and_runs_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut migrated_before_the_kill = 0;
    for millis in [0, 5, 10, 20, 40, 60, 80, 100, 130, 160, 200, 300] {
        let data = dir.path().join(format!("killed-{millis}"));
        unpack(FORMAT1, &data);
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
        if migration_lines(&o, 1) == 0 {
            migrated_before_the_kill += 1;
        }
        assert_eq!(
            check(&data),
            (true, DEMO_CHECKSUM.to_owned()),
            "killed at {millis} ms"
        );
        std::fs::remove_dir_all(&data).unwrap();
    }
    assert!(
        migrated_before_the_kill < 12,
        "some kill must land before the migration's switch"
    );
}
