//! `partscat gen` makes catalogues of other shapes than its own, each flag changing the
//! files as it says, the same files for the same flags; a value out of range is refused
//! naming its flag. The shaped catalogue imports and checks sound.

mod common;

use std::collections::{HashMap, HashSet};
use std::path::Path;

const SHAPE: [&str; 22] = [
    "--brands",
    "20",
    "--genarts",
    "299",
    "--vehicles",
    "500",
    "--links-per-article",
    "4",
    "--link-details",
    "true",
    "--crossrefs-per-article",
    "3.5",
    "--prices-per-article",
    "1.15",
    "--criteria-per-article",
    "2",
    "--media-per-article",
    "1.5",
    "--kits",
    "false",
    "--seed",
    "7",
];

fn generate(out: &Path, articles: &str, flags: &[&str]) -> std::process::Output {
    let mut args = vec!["gen", "--articles", articles, "--out", common::path(out)];
    args.extend_from_slice(flags);
    common::partscat(&args)
}

/// The rows of a generated file, without its header.
fn rows(dir: &Path, name: &str) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_path(dir.join(format!("{name}.csv"))).unwrap();
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_owned).collect())
        .collect()
}

/// Rows per article of a file keyed by brand and reference in its first two columns.
fn per_article(dir: &Path, name: &str) -> HashMap<(String, String), usize> {
    let mut counts = HashMap::new();
    for row in rows(dir, name) {
        *counts.entry((row[0].clone(), row[1].clone())).or_default() += 1;
    }
    counts
}

#[test]
fn gen_makes_the_shape_its_flags_ask_for() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("csv");
    let o = generate(&files, "3000", &SHAPE);
    assert!(o.status.success(), "{}", common::text(&o));

    let articles = rows(&files, "articles");
    assert_eq!(articles.len(), 3000);
    assert_eq!(rows(&files, "brands").len(), 20);
    assert_eq!(rows(&files, "genarts").len(), 299);
    assert_eq!(rows(&files, "vehicles").len(), 500);
    assert!(rows(&files, "kits").is_empty(), "--kits false");
    let brands: HashSet<&str> = articles.iter().map(|a| a[0].as_str()).collect();
    assert!(brands.len() >= 18, "articles of {} brands", brands.len());
    let genarts: HashSet<&str> = articles.iter().map(|a| a[2].as_str()).collect();
    assert!(genarts.len() > 200, "articles of {} genarts", genarts.len());

    // Exactly as many links and criteria as asked; cross numbers, prices and media near
    // their means (3,000 draws: within a few percent).
    let links = rows(&files, "links");
    assert!(per_article(&files, "links").values().all(|&n| n == 4));
    assert!(
        links.iter().all(|l| !l[4].is_empty()),
        "links with quantities"
    );
    assert!(per_article(&files, "criteria").values().all(|&n| n == 2));
    assert_eq!(per_article(&files, "criteria").len(), 3000);
    let mean = |name| rows(&files, name).len() as f64 / 3000.0;
    assert!(
        (3.3..3.6).contains(&mean("crossrefs")),
        "{}",
        mean("crossrefs")
    );
    assert!((1.1..1.2).contains(&mean("prices")), "{}", mean("prices"));
    assert!((1.4..1.6).contains(&mean("media")), "{}", mean("media"));
    assert!(rows(&files, "competitor_refs").is_empty());
    let kinds: HashSet<String> = rows(&files, "crossrefs")
        .into_iter()
        .map(|r| r[2].clone())
        .collect();
    for kind in ["oe", "competitor", "trade", "internal"] {
        assert!(kinds.contains(kind), "no {kind} numbers: {kinds:?}");
    }

    // The same flags, the same files.
    let again = dir.path().join("again");
    assert!(generate(&again, "3000", &SHAPE).status.success());
    for name in [
        "articles",
        "crossrefs",
        "prices",
        "links",
        "media",
        "brands",
    ] {
        let file = format!("{name}.csv");
        assert_eq!(
            std::fs::read(files.join(&file)).unwrap(),
            std::fs::read(again.join(&file)).unwrap(),
            "{file} differs"
        );
    }

    let store = dir.path().join("store");
    let (imported, report) = common::import(&store, &[common::path(&files)]);
    assert!(imported, "{report}");
    assert!(common::check(&store).0);
}

#[test]
fn gen_without_shape_flags_keeps_its_own_shape() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("csv");
    assert!(generate(&files, "500", &[]).status.success());
    assert_eq!(rows(&files, "brands").len(), 4);
    assert_eq!(rows(&files, "genarts").len(), 16);
    assert!(!rows(&files, "kits").is_empty());
    assert!(!rows(&files, "competitor_refs").is_empty());
    // Short link rows with --links-per-article, unless details are asked for.
    let short = dir.path().join("short");
    assert!(
        generate(&short, "500", &["--links-per-article", "3"])
            .status
            .success()
    );
    assert!(
        rows(&short, "links")
            .iter()
            .all(|l| l[3].is_empty() && l[4].is_empty())
    );
}

#[test]
fn gen_refuses_a_shape_out_of_range_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    for (flag, value) in [
        ("--crossrefs-per-article", "-1"),
        ("--crossrefs-per-article", "many"),
        ("--prices-per-article", "9"),
        ("--criteria-per-article", "9"),
        ("--media-per-article", "101"),
        ("--genarts", "10"),
        ("--brands", "0"),
        ("--vehicles", "0"),
        ("--kits", "maybe"),
        ("--link-details", "yes please"),
    ] {
        let given = format!("{flag}={value}");
        let o = generate(&dir.path().join("out"), "100", &[&given]);
        assert!(!o.status.success(), "{flag} {value} was taken");
        assert!(
            common::text(&o).contains(flag),
            "{flag} {value}: {}",
            common::text(&o)
        );
    }
}

#[test]
fn variant_generic_articles_carry_their_own_names() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("csv");
    assert!(
        generate(&files, "800", &["--genarts", "40"])
            .status
            .success()
    );
    let names: HashMap<String, String> = rows(&files, "genarts")
        .into_iter()
        .map(|g| (g[0].clone(), g[1].clone()))
        .collect();
    assert_eq!(names.len(), 40);
    let genart_of: HashMap<(String, String), String> = rows(&files, "articles")
        .into_iter()
        .map(|a| ((a[0].clone(), a[1].clone()), a[2].clone()))
        .collect();
    let mut variants = 0;
    for image in rows(&files, "media").iter().filter(|m| m[2] == "image") {
        let genart = &genart_of[&(image[0].clone(), image[1].clone())];
        assert_eq!(image[6], names[genart], "{image:?}");
        variants += usize::from(names[genart].contains(", type "));
    }
    assert!(variants > 0, "no image of a variant");
}

#[test]
fn gen_refuses_more_links_an_article_than_vehicles() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = generate(
        &out,
        "100",
        &["--vehicles", "5", "--links-per-article", "8"],
    );
    assert!(!o.status.success(), "{}", common::text(&o));
    let text = common::text(&o);
    assert!(
        text.contains("--links-per-article 8") && text.contains("--vehicles 5"),
        "{text}"
    );
    assert!(!out.exists(), "files were written");
}
