//! A catalogue team imports CSV files with `partscat import` and checks the store.

mod common;

use std::fs;
use std::path::Path;

use common::*;

/// Rewrites one line (1 = header) of a file.
fn with_line(from: &Path, to: &Path, line: usize, edit: impl Fn(&str) -> String) {
    let text = fs::read_to_string(from).unwrap();
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == line { edit(l) } else { l.to_owned() })
        .collect();
    fs::write(to, lines.join("\n") + "\n").unwrap();
}

/// Replaces one cell of a CSV line whose cells hold no quoted commas.
fn set_cell(line: &str, index: usize, value: &str) -> String {
    let mut cells: Vec<&str> = line.split(',').collect();
    cells[index] = value;
    cells.join(",")
}

#[test]
fn a_generated_catalogue_imports_and_its_reimport_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (files, data) = (dir.path().join("files"), dir.path().join("data"));
    generate(100_000, 7, &files);
    let (ok, first) = import(&data, &[path(&files)]);
    assert!(ok, "{first}");
    assert_eq!(first["verdict"], "committed");
    assert_eq!(totals(&first, "rejected"), 0);
    assert!(
        totals(&first, "added") > 1_000_000,
        "a 100,000-article catalogue has over a million rows"
    );
    let (sound, checksum) = check(&data);
    assert!(sound);

    let (ok, again) = import(&data, &[path(&files)]);
    assert!(ok);
    assert_eq!(again["verdict"], "nothing_changed");
    assert_eq!(totals(&again, "added") + totals(&again, "changed"), 0);
    assert_eq!(totals(&again, "unchanged"), totals(&first, "added"));
    assert_eq!(check(&data), (true, checksum));
}

#[test]
fn a_bad_row_in_the_middle_rejects_the_file_with_its_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (data, files, checksum) = generated_store(dir.path());
    let bad = dir.path().join("prices.csv");
    // Line 500 gets an amount that is not a number; the other rows change prices.
    let text = fs::read_to_string(files.join("prices.csv"))
        .unwrap()
        .replace(",EUR,", ",EUR,1");
    fs::write(&bad, &text).unwrap();
    with_line(&bad, &bad, 500, |l| set_cell(l, 4, "12.5x"));
    let (ok, report) = import(&data, &["--type", "prices", path(&bad)]);
    assert!(!ok);
    assert_eq!(report["verdict"], "rejected");
    let errors = report["files"][0]["errors"].as_array().unwrap();
    assert_eq!(errors[0]["line"], 500, "{report}");
    assert_eq!(report["files"][0]["rejected"], 1);
    assert!(totals(&report, "rows") > 1000, "every row was read");
    assert_eq!(
        totals(&report, "changed"),
        0,
        "a rejected import changes nothing"
    );
    assert_eq!(check(&data), (true, checksum));
}

/// A data set, a line, how to spoil it, and what the error must say.
type BadRow = (&'static str, usize, fn(&str) -> String, &'static str);

#[test]
fn rows_that_break_the_rules_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let (data, files, checksum) = generated_store(dir.path());
    let cases: [BadRow; 14] = [
        (
            "links",
            3,
            |l| set_cell(l, 2, "no-such-ktype"),
            "ktype no-such-ktype",
        ),
        (
            "articles",
            2,
            |l| l.replacen("2,", "0,", 1),
            "'0' is not a positive integer",
        ),
        (
            "articles",
            4,
            |l| format!("77,{}", l.split_once(',').unwrap().1),
            "brand 77",
        ),
        ("vehicles", 5, |l| l.replace("-", "-13-"), "year"),
        (
            "crossrefs",
            2,
            |l| l.replace(",oe,", ",oem,"),
            "'oem' is not one of",
        ),
        ("links", 6, |l| format!("{l},extra"), "fields"),
        (
            "plates",
            2,
            |l| set_cell(l, 0, "Germany"),
            "'Germany' is not an ISO 3166-1 country code",
        ),
        (
            "plates",
            3,
            |l| set_cell(l, 1, "/-/"),
            "'/-/' has no letters",
        ),
        ("plates", 4, |l| set_cell(l, 2, "99"), "ktype 99"),
        ("plates", 5, |l| set_cell(l, 3, "x"), "key_system"),
        (
            "vins",
            2,
            |l| set_cell(l, 0, "WA?KSK2X"),
            "its first three characters",
        ),
        ("vins", 3, |l| set_cell(l, 0, "WAUOSK2X"), "holds 'O'"),
        (
            "vins",
            4,
            |l| set_cell(l, 0, "WAUKSK2X5MA1234567"),
            "3 to 17 characters",
        ),
        ("vins", 5, |l| set_cell(l, 1, "99"), "ktype 99"),
    ];
    for (set, line, edit, expected) in cases {
        let bad = dir.path().join(format!("{set}.csv"));
        with_line(&files.join(format!("{set}.csv")), &bad, line, edit);
        let (ok, report) = import(&data, &["--type", set, path(&bad)]);
        assert!(!ok, "{set}: {report}");
        let error = &report["files"][0]["errors"][0];
        assert_eq!(error["line"], line as u64, "{set}: {report}");
        assert!(
            error["message"].as_str().unwrap().contains(expected),
            "{set}: {error}"
        );
    }
    // A row given twice in one file.
    let twice = dir.path().join("brands-twice.csv");
    fs::write(&twice, "brand_id,name\n9,New Brand\n9,New Brand again\n").unwrap();
    let (ok, report) = import(&data, &["--type", "brands", path(&twice)]);
    assert!(!ok);
    assert_eq!(report["files"][0]["errors"][0]["line"], 3);
    assert_eq!(check(&data), (true, checksum));
}

#[test]
fn a_dry_run_reports_what_would_change_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (data, files, checksum) = generated_store(dir.path());
    let changed = dir.path().join("prices.csv");
    fs::write(
        &changed,
        fs::read_to_string(files.join("prices.csv"))
            .unwrap()
            .replace(",EUR,", ",EUR,1"),
    )
    .unwrap();
    let (ok, report) = import(&data, &["--dry-run", "--type", "prices", path(&changed)]);
    assert!(ok, "{report}");
    assert_eq!(report["verdict"], "dry_run");
    assert!(totals(&report, "changed") > 1000);
    assert_eq!(check(&data), (true, checksum));
}

#[test]
fn semicolons_a_byte_order_mark_and_quoted_fields_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("brands.csv");
    fs::write(
        &file,
        "\u{feff}Brand_ID;Name\r\n1;\"Veltra; Brakes\"\r\n2;\"Norvik \"\"Filters\"\"\"\r\n",
    )
    .unwrap();
    let (ok, report) = import(&data, &["--type", "BRANDS", path(&file)]);
    assert!(ok, "{report}");
    assert_eq!(totals(&report, "added"), 2);
    // A file saved in Latin-1 is refused row by row, saying why.
    let latin1 = dir.path().join("latin1.csv");
    fs::write(&latin1, b"brand_id,name\n3,M\xfcller\n").unwrap();
    let (ok, report) = import(&data, &["--type", "brands", path(&latin1)]);
    assert!(!ok);
    assert!(
        report["files"][0]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("UTF-8"),
        "{report}"
    );
    let genarts = dir.path().join("genarts.csv");
    fs::write(
        &genarts,
        "genart_id,name\n402,\"Brake Pad Set, disc brake\"\n",
    )
    .unwrap();
    let articles = dir.path().join("articles.csv");
    fs::write(
        &articles,
        "brand_id,reference,genart_id,eans\n1,\"0 986 494 048\",402,4006381333931|96385074\n",
    )
    .unwrap();
    let (ok, report) = import(&data, &["--type", "genarts", path(&genarts)]);
    assert!(ok, "{report}");
    let (ok, report) = import(&data, &["--type", "articles", path(&articles)]);
    assert!(ok, "{report}");
    assert!(check(&data).0);
}

#[test]
fn a_header_that_does_not_fit_is_refused_with_the_column_named() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    for (header, expected) in [
        ("brand_id,name,colour\n", "unknown column 'colour'"),
        ("brand_id\n", "lacks the required column(s) name"),
        ("brand_id,name,name\n", "twice"),
        ("", "is empty"),
    ] {
        let file = dir.path().join("brands.csv");
        fs::write(
            &file,
            format!("{header}1,X\n").replace(if header.is_empty() { "1,X\n" } else { "\u{0}" }, ""),
        )
        .unwrap();
        let o = partscat(&[
            "import",
            "--data",
            path(&data),
            "--type",
            "brands",
            path(&file),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains(expected), "{expected}: {}", text(&o));
    }
    let o = partscat(&[
        "import",
        "--data",
        path(&data),
        "--type",
        "parts",
        path(&dir.path().join("brands.csv")),
    ]);
    assert!(text(&o).contains("not a data set"), "{}", text(&o));
}

#[test]
fn a_directory_is_imported_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let (data, _, checksum) = generated_store(dir.path());
    let batch = dir.path().join("batch");
    fs::create_dir(&batch).unwrap();
    fs::write(batch.join("brands.csv"), "brand_id,name\n50,New Brand\n").unwrap();
    fs::write(
        batch.join("genarts.csv"),
        "genart_id,name\n9999,New Genart\n",
    )
    .unwrap();
    // The article of the new brand is valid; the second row's genart does not exist.
    fs::write(
        batch.join("articles.csv"),
        "brand_id,reference,genart_id\n50,NB-1,9999\n50,NB-2,12345678\n",
    )
    .unwrap();
    let (ok, report) = import(&data, &[path(&batch)]);
    assert!(!ok);
    assert_eq!(report["files"][2]["errors"][0]["line"], 3, "{report}");
    assert_eq!(check(&data), (true, checksum.clone()));

    // Fixed, the same directory goes in as one step, later files seeing earlier ones.
    fs::write(
        batch.join("articles.csv"),
        "brand_id,reference,genart_id\n50,NB-1,9999\n50,NB-2,9999\n",
    )
    .unwrap();
    let (ok, report) = import(&data, &[path(&batch)]);
    assert!(ok, "{report}");
    assert_eq!(totals(&report, "added"), 4);
    let (sound, after) = check(&data);
    assert!(sound);
    assert_ne!(after, checksum);

    fs::write(batch.join("notes.csv"), "x\n").unwrap();
    let o = partscat(&["import", "--data", path(&data), path(&batch)]);
    assert!(
        text(&o).contains("'notes.csv' is not a data set"),
        "{}",
        text(&o)
    );
}

#[test]
fn the_documented_sample_files_import() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/samples");
    let (ok, report) = import(&data, &[path(&samples)]);
    assert!(ok, "{report}");
    assert_eq!(
        report["files"].as_array().unwrap().len(),
        19,
        "one sample per data set, the texts in other languages aside"
    );
    assert!(check(&data).0);
}

/// The first import a new user tries: one sample file into the demo catalogue. Each names
/// only articles and vehicles the demo holds, so each imports alone.
#[test]
fn each_sample_file_imports_alone_into_the_demo_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    let (data, _, _) = generated_store(dir.path());
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/samples");
    let mut names: Vec<String> = fs::read_dir(&samples)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), 19);
    for name in names {
        let data_set = name.trim_end_matches(".csv");
        let file = samples.join(&name);
        let (ok, report) = import(&data, &["--type", data_set, path(&file)]);
        assert!(ok, "{name}: {report}");
    }
    assert!(check(&data).0);
}

#[test]
fn a_repeated_key_is_rejected_naming_the_row_it_repeats() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("brands.csv");
    fs::write(&file, "brand_id,name\n1,Veltra\n2,Norvik\n1,Veltra again\n").unwrap();
    let (ok, report) = import(&data, &["--type", "brands", path(&file)]);
    assert!(!ok);
    assert_eq!(report["verdict"], "rejected");
    assert_eq!(report["files"][0]["rejected"], 1, "{report}");
    assert_eq!(report["files"][0]["errors"][0]["line"], 4, "{report}");
    assert_eq!(
        report["files"][0]["errors"][0]["message"],
        "repeats the key of the row on line 2"
    );
    assert_eq!(
        totals(&report, "added"),
        0,
        "a rejected import adds nothing"
    );
}

#[test]
fn a_replace_from_the_command_line_withdraws_rows_and_says_how_many() {
    let dir = tempfile::tempdir().unwrap();
    let (data, files, checksum) = generated_store(dir.path());
    // The whole catalogue again, replaced: it holds every row, so nothing goes.
    let (ok, same) = import(&data, &["--mode", "replace", path(&files)]);
    assert!(ok, "{same}");
    assert_eq!(same["verdict"], "nothing_changed", "{same}");
    assert_eq!(totals(&same, "removed"), 0);
    // Brand 1's links without the first one: that link is withdrawn.
    let links = fs::read_to_string(files.join("links.csv")).unwrap();
    let mut brand_1 = links.lines().filter(|l| l.starts_with("1,"));
    let withdrawn = brand_1.next().unwrap();
    let kept: Vec<&str> = std::iter::once(links.lines().next().unwrap())
        .chain(brand_1)
        .collect();
    let file = dir.path().join("links.csv");
    fs::write(&file, kept.join("\n") + "\n").unwrap();
    let args = ["--type", "links", "--mode", "replace"];
    let (ok, dry) = import(&data, &[&args[..], &["--dry-run", path(&file)]].concat());
    assert!(ok, "{dry}");
    assert_eq!(dry["files"][0]["removed"], 1, "{dry} ({withdrawn})");
    assert_eq!(
        check(&data),
        (true, checksum.clone()),
        "a dry run writes nothing"
    );
    let o = partscat(
        &[
            &["import", "--data", path(&data)][..],
            &args,
            &[path(&file)],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("1 removed"), "{}", text(&o));
    let (sound, changed) = check(&data);
    assert!(sound);
    assert_ne!(changed, checksum);

    let o = partscat(&[
        "import",
        "--data",
        path(&data),
        "--type",
        "links",
        "--mode",
        "purge",
        path(&file),
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("merge, replace"), "{}", text(&o));
}

/// `gen --links-per-article N`: the link-heavy shape of real fitment data. Every plain
/// article fits exactly N vehicles with rows as short as a fitment file's, and the catalogue
/// imports and checks like the default shape.
#[test]
fn the_link_heavy_shape_imports_and_checks() {
    let dir = tempfile::tempdir().unwrap();
    let (files, store) = (dir.path().join("csv"), dir.path().join("store"));
    let o = common::partscat(&[
        "gen",
        "--articles",
        "3000",
        "--links-per-article",
        "8",
        "--out",
        common::path(&files),
    ]);
    assert!(o.status.success(), "{}", common::text(&o));
    let links = std::fs::read_to_string(files.join("links.csv")).unwrap();
    let mut per_article: std::collections::HashMap<(String, String), usize> = Default::default();
    let mut short = 0;
    for row in links.lines().skip(1) {
        let fields: Vec<&str> = row.split(',').collect();
        *per_article
            .entry((fields[0].to_owned(), fields[1].to_owned()))
            .or_default() += 1;
        short += usize::from(fields[3].is_empty() && fields[4].is_empty());
    }
    assert!(per_article.len() >= 3000, "{}", per_article.len());
    assert!(per_article.values().all(|&n| n == 8), "{per_article:?}");
    assert_eq!(short, links.lines().count() - 1);
    assert!(common::import(&store, &[common::path(&files)]).0);
    assert!(common::check(&store).0);
    // Without the option, the default shape as before.
    let o = common::partscat(&[
        "gen",
        "--articles",
        "3000",
        "--links-per-article",
        "0",
        "--out",
        common::path(&dir.path().join("none")),
    ]);
    assert!(!o.status.success());
}
