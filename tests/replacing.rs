//! Imports in replace mode: the rows of a data set that the file no longer holds are
//! retired, within the brands the file names where the data set is per brand; what other
//! rows still refer to is not retired; a dry run counts and writes nothing.

use std::path::Path;

use partscat::catalogue::{ArticleKey, CrossKind};
use partscat::import::{self, ImportError, ImportFile, ImportMode, ImportType, Quiet, Source};
use partscat::import::{ImportReport, Verdict};
use partscat::store::{Store, StoreError, check};

fn demo(dir: &Path) -> Store {
    let store = Store::open(&dir.join("data")).unwrap();
    partscat::demo::load_demo_catalogue(&store, &Quiet)
        .unwrap()
        .unwrap();
    store
}

/// The demo catalogue's file of a data set, its header and the rows `keep` keeps.
fn demo_rows(import_type: ImportType, mut keep: impl FnMut(&str) -> bool) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("assets/demo")
        .join(format!("{}.csv", import_type.name()));
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    for line in lines.filter(|l| keep(l)) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

fn import_as(
    store: &Store,
    dir: &Path,
    files: &[(ImportType, &str)],
    mode: ImportMode,
    dry_run: bool,
) -> Result<ImportReport, ImportError> {
    let files: Vec<ImportFile> = files
        .iter()
        .map(|(import_type, text)| {
            let path = dir.join(format!("{}.csv", import_type.name()));
            std::fs::write(&path, text).unwrap();
            ImportFile {
                import_type: *import_type,
                source: Source::Path(path),
                mode,
            }
        })
        .collect();
    import::import(store, &files, dry_run, &Quiet)
}

fn count(store: &Store, label: &str) -> u64 {
    let report = check::check(store).unwrap();
    assert!(report.is_sound(), "{:?}", report.problems);
    report
        .counts
        .iter()
        .find(|(name, _)| *name == label)
        .map(|(_, n)| *n)
        .unwrap()
}

fn key(brand_id: u32, written: &str) -> ArticleKey {
    ArticleKey {
        brand_id,
        reference: partscat::catalogue::normalise_reference(written),
    }
}

/// The brand and reference of a CSV row (the first two columns).
fn brand_and_reference(line: &str) -> (u32, String) {
    let mut cells = line.split(',');
    let brand = cells.next().unwrap().parse().unwrap();
    (brand, cells.next().unwrap().to_owned())
}

#[test]
fn a_replace_retires_the_rows_of_the_brands_it_names_and_no_others() {
    let dir = tempfile::tempdir().unwrap();
    let store = demo(dir.path());
    let before = count(&store, "prices");
    let brand_1_rows = demo_rows(ImportType::Prices, |l| l.starts_with("1,"))
        .lines()
        .count() as u64
        - 1;
    // Brand 1's first ten price rows: the rest of brand 1's prices are withdrawn.
    let mut kept = 0;
    let file = demo_rows(ImportType::Prices, |l| {
        let keep = l.starts_with("1,") && kept < 10;
        kept += u32::from(keep);
        keep
    });
    let last_kept = brand_and_reference(file.lines().last().unwrap());
    let withdrawn = demo_rows(ImportType::Prices, |l| l.starts_with("1,"))
        .lines()
        .skip(1)
        .map(brand_and_reference)
        .filter(|r| *r != last_kept)
        .last()
        .unwrap();
    let other_brand = brand_and_reference(
        demo_rows(ImportType::Prices, |l| l.starts_with("2,"))
            .lines()
            .nth(1)
            .unwrap(),
    );

    // A dry run counts what would go and writes nothing.
    let version = store.catalogue().data_version();
    let dry = import_as(
        &store,
        dir.path(),
        &[(ImportType::Prices, &file)],
        ImportMode::Replace,
        true,
    )
    .unwrap();
    assert_eq!(dry.verdict, Verdict::DryRun);
    assert_eq!(dry.files[0].removed, brand_1_rows - 10);
    assert_eq!(dry.files[0].unchanged, 10);
    assert_eq!(store.catalogue().data_version(), version);
    assert_eq!(count(&store, "prices"), before);

    let report = import_as(
        &store,
        dir.path(),
        &[(ImportType::Prices, &file)],
        ImportMode::Replace,
        false,
    )
    .unwrap();
    assert!(matches!(report.verdict, Verdict::Committed { .. }));
    assert_eq!(report.files[0].removed, brand_1_rows - 10);
    assert!(report.to_string().contains("removed"), "{report}");
    assert_eq!(count(&store, "prices"), before - (brand_1_rows - 10));
    let c = store.catalogue();
    assert!(
        c.prices_of(&key(withdrawn.0, &withdrawn.1))
            .unwrap()
            .is_empty()
    );
    assert!(
        !c.prices_of(&key(other_brand.0, &other_brand.1))
            .unwrap()
            .is_empty()
    );

    // The same file again changes nothing; merged, a file never retires anything.
    let again = import_as(
        &store,
        dir.path(),
        &[(ImportType::Prices, &file)],
        ImportMode::Replace,
        false,
    )
    .unwrap();
    assert_eq!(again.verdict, Verdict::NothingChanged);
    assert_eq!(again.files[0].removed, 0);
    let merged = import_as(
        &store,
        dir.path(),
        &[(ImportType::Prices, "brand_id,reference,currency,amount\n")],
        ImportMode::Merge,
        false,
    )
    .unwrap();
    assert_eq!(merged.verdict, Verdict::NothingChanged);
    // A file without rows names no brand: a per-brand data set keeps every row.
    let empty = import_as(
        &store,
        dir.path(),
        &[(ImportType::Prices, "brand_id,reference,currency,amount\n")],
        ImportMode::Replace,
        false,
    )
    .unwrap();
    assert_eq!(empty.verdict, Verdict::NothingChanged);
}

#[test]
fn cross_references_and_competitor_references_retire_their_own_kinds() {
    let dir = tempfile::tempdir().unwrap();
    let store = demo(dir.path());
    let competitors_before = count(&store, "crossrefs");
    // Brand 2's OE numbers only: its internal and trade numbers go, its competitor
    // references stay.
    let oe_only = demo_rows(ImportType::CrossReferences, |l| {
        l.starts_with("2,") && l.contains(",oe,")
    });
    let others_of_brand_2 = demo_rows(ImportType::CrossReferences, |l| {
        l.starts_with("2,") && !l.contains(",oe,")
    })
    .lines()
    .count() as u64
        - 1;
    assert!(others_of_brand_2 > 0);
    let report = import_as(
        &store,
        dir.path(),
        &[(ImportType::CrossReferences, &oe_only)],
        ImportMode::Replace,
        false,
    )
    .unwrap();
    assert_eq!(report.files[0].removed, others_of_brand_2);
    assert_eq!(
        count(&store, "crossrefs"),
        competitors_before - others_of_brand_2
    );
    let c = store.catalogue();
    let competitor = demo_rows(ImportType::CompetitorReferences, |l| l.starts_with("2,"));
    let (brand, reference) = brand_and_reference(competitor.lines().nth(1).unwrap());
    assert!(
        c.cross_references_of(&key(brand, &reference))
            .unwrap()
            .iter()
            .any(|x| x.kind == CrossKind::Competitor)
    );
}

#[test]
fn rows_that_others_still_refer_to_are_not_retired() {
    let dir = tempfile::tempdir().unwrap();
    let store = demo(dir.path());
    let version = store.catalogue().data_version();
    let articles_before = count(&store, "articles");
    // Brand 4's articles without its first: that article still has links, prices, criteria.
    let all = demo_rows(ImportType::Articles, |l| l.starts_with("4,"));
    let first = all.lines().nth(1).unwrap().to_owned();
    let without_first: String = all
        .lines()
        .filter(|l| *l != first)
        .map(|l| format!("{l}\n"))
        .collect();
    let refused = import_as(
        &store,
        dir.path(),
        &[(ImportType::Articles, &without_first)],
        ImportMode::Replace,
        false,
    )
    .unwrap_err();
    let message = refused.to_string();
    assert!(
        matches!(
            refused,
            ImportError::Store(StoreError::StillReferred { count, .. }) if count > 0
        ),
        "{message}"
    );
    assert!(message.contains("refers to article"), "{message}");
    assert!(message.contains("nothing was written"), "{message}");
    assert_eq!(store.catalogue().data_version(), version);
    assert_eq!(count(&store, "articles"), articles_before);

    // With every data set that refers to brand 4's articles (its descriptions in other
    // languages too) replaced in the same import
    // (brand 4 has no kits), the article goes, and with it its rows.
    let (brand, reference) = brand_and_reference(&first);
    let not_first =
        |l: &str| l.starts_with("4,") && brand_and_reference(l) != (brand, reference.clone());
    let criteria = demo_rows(ImportType::Criteria, not_first);
    let crossrefs = demo_rows(ImportType::CrossReferences, not_first);
    let competitor_refs = demo_rows(ImportType::CompetitorReferences, not_first);
    let links = demo_rows(ImportType::Links, not_first);
    let prices = demo_rows(ImportType::Prices, not_first);
    let media = demo_rows(ImportType::Media, not_first);
    let article_texts = demo_rows(ImportType::ArticleTexts, not_first);
    let report = import_as(
        &store,
        dir.path(),
        &[
            (ImportType::Articles, &without_first),
            (ImportType::Criteria, &criteria),
            (ImportType::CrossReferences, &crossrefs),
            (ImportType::CompetitorReferences, &competitor_refs),
            (ImportType::Links, &links),
            (ImportType::Prices, &prices),
            (ImportType::Media, &media),
            (ImportType::ArticleTexts, &article_texts),
        ],
        ImportMode::Replace,
        false,
    )
    .unwrap();
    assert!(
        matches!(report.verdict, Verdict::Committed { .. }),
        "{report}"
    );
    assert_eq!(report.files[0].removed, 1, "{report}");
    assert_eq!(count(&store, "articles"), articles_before - 1);
    let c = store.catalogue();
    assert!(c.article(&key(brand, &reference)).unwrap().is_none());
    assert!(c.links_of(&key(brand, &reference)).unwrap().is_empty());
}
