//! The store through the library, as the server uses it: lookups in catalogue terms, one
//! writer at a time, dry runs that leave no trace, and views that stay whole while imports commit.

use std::path::Path;

use partscat::catalogue::{ArticleKey, CrossKind};
use partscat::import::{self, ImportFile, ImportMode, ImportType, Quiet, Source, Verdict};
use partscat::store::{Store, StoreError, check};

fn demo(dir: &Path) -> Store {
    let store = Store::open(&dir.join("data")).unwrap();
    let report = partscat::demo::load_demo_catalogue(&store, &Quiet)
        .unwrap()
        .unwrap();
    assert!(matches!(report.verdict, Verdict::Committed { .. }));
    store
}

fn file(dir: &Path, import_type: ImportType, text: &str) -> ImportFile {
    let path = dir.join(format!("{}.csv", import_type.name()));
    std::fs::write(&path, text).unwrap();
    ImportFile {
        import_type,
        source: Source::Path(path),
        mode: ImportMode::Merge,
    }
}

#[test]
fn references_are_found_however_they_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let store = demo(dir.path());
    let c = store.catalogue();
    let first = c.articles_of_brand(1).next().unwrap().unwrap();
    let written = first.reference.clone();
    let squeezed: String = written.chars().filter(|c| !c.is_whitespace()).collect();
    let dashed = written.replace(' ', "-").to_lowercase();
    for form in [&written, &squeezed, &dashed] {
        assert_eq!(
            c.articles_by_reference(form).unwrap(),
            vec![first.key.clone()],
            "{form}"
        );
    }
    assert!(c.articles_by_reference("---").unwrap().is_empty());

    // Every cross number of the article leads back to it.
    let crosses = c.cross_references_of(&first.key).unwrap();
    assert!(!crosses.is_empty());
    for x in crosses {
        let hits = c
            .articles_by_cross_number(&x.number.to_lowercase())
            .unwrap();
        assert!(
            hits.iter()
                .any(|h| h.article == first.key && h.kind == x.kind),
            "{}",
            x.number
        );
    }
    for ean in &first.eans {
        let hits = c.articles_by_cross_number(ean).unwrap();
        assert!(
            hits.iter()
                .any(|h| h.article == first.key && h.kind == CrossKind::Ean)
        );
    }

    // Ktype lookups agree with the article's links, and the genart index with both.
    for link in c.links_of(&first.key).unwrap() {
        assert!(
            c.articles_by_ktype(&link.ktype)
                .unwrap()
                .contains(&first.key)
        );
        assert!(
            c.articles_by_genart_ktype(first.genart, &link.ktype)
                .unwrap()
                .contains(&first.key)
        );
        assert!(c.vehicle(&link.ktype).unwrap().is_some());
    }
    assert!(c.articles_by_ktype("no-such-ktype").unwrap().is_empty());

    // What hangs off an article is found under its key, and only its own.
    assert!(
        c.prices_of(&first.key)
            .unwrap()
            .iter()
            .all(|p| p.article == first.key)
    );
    assert!(
        c.criteria_of(&first.key)
            .unwrap()
            .iter()
            .all(|x| x.article == first.key)
    );
    assert!(
        c.media_of(&first.key)
            .unwrap()
            .iter()
            .all(|m| m.article == first.key)
    );
    let priced = c
        .articles_of_brand(2)
        .map(|a| a.unwrap())
        .find(|a| !c.prices_of(&a.key).unwrap().is_empty());
    assert!(priced.is_some(), "the demo has prices");
    assert!(
        c.article(&ArticleKey {
            brand_id: 1,
            reference: "NOPE".into()
        })
        .unwrap()
        .is_none()
    );
}

#[test]
fn kits_and_competitor_references_are_indexed() {
    let dir = tempfile::tempdir().unwrap();
    let store = demo(dir.path());
    let c = store.catalogue();
    let (mut kits, mut components) = (0, 0);
    for vehicle in 10_000..10_100 {
        for kit in c.kits_by_ktype(&vehicle.to_string()).unwrap() {
            kits += 1;
            let parts = c.kit_components(&kit, &vehicle.to_string()).unwrap();
            assert!(parts.len() >= 2);
            components += parts.len();
        }
    }
    assert!(kits > 0 && components > kits);
    let competitors: Vec<_> = c
        .competitor_references_of(101)
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(!competitors.is_empty());
    for hit in competitors.iter().take(50) {
        assert!(c.article(&hit.article).unwrap().is_some());
    }
}

#[test]
fn a_dry_run_into_an_empty_store_finds_every_reference_among_its_own_rows() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("data")).unwrap();
    let empty = store.trees_on_disk();
    let report = import::import(&store, &partscat::demo::demo_files(), true, &Quiet).unwrap();
    assert_eq!(report.verdict, Verdict::DryRun);
    assert!(report.files.iter().all(|f| f.rejected == 0 && f.added > 0));
    assert_eq!(store.trees_on_disk(), empty);
}

#[test]
fn a_dry_run_leaves_no_trace_and_one_import_runs_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let store = demo(dir.path());
    let trees = store.trees_on_disk();
    let checksum = check::check(&store).unwrap().checksum;
    let brands = file(
        dir.path(),
        ImportType::Brands,
        "brand_id,name\n1,Renamed\n60,New\n",
    );
    let report = import::import(&store, std::slice::from_ref(&brands), true, &Quiet).unwrap();
    assert_eq!(report.verdict, Verdict::DryRun);
    assert_eq!((report.files[0].added, report.files[0].changed), (1, 1));
    assert_eq!(store.trees_on_disk(), trees);
    assert_eq!(check::check(&store).unwrap().checksum, checksum);

    let held = store.begin(false).unwrap();
    assert!(matches!(
        import::import(&store, &[brands], false, &Quiet),
        Err(import::ImportError::Store(StoreError::Busy))
    ));
    drop(held);
    assert_eq!(
        store.trees_on_disk(),
        trees,
        "an abandoned change leaves nothing"
    );
}

#[test]
fn a_view_taken_before_an_import_stays_whole_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = demo(dir.path());
    let before = store.catalogue();
    let count = before.articles_of_brand(2).count();
    let brands = file(
        dir.path(),
        ImportType::Brands,
        "brand_id,name\n2,Norvik Filtration\n",
    );
    let genarts = file(
        dir.path(),
        ImportType::GenericArticles,
        "genart_id,name\n7,Oil Filter\n",
    );
    let articles = file(
        dir.path(),
        ImportType::Articles,
        "brand_id,reference,genart_id\n2,W 999/99,7\n",
    );
    let report = import::import(&store, &[articles, brands, genarts], false, &Quiet).unwrap();
    assert_eq!(report.verdict, Verdict::Committed { data_version: 2 });

    assert_eq!(
        before.articles_of_brand(2).count(),
        count,
        "the old view still reads its generation"
    );
    assert_eq!(before.brand(2).unwrap().unwrap().name, "Norvik Filters");
    let after = store.catalogue();
    assert_eq!(after.articles_of_brand(2).count(), count + 1);
    assert_eq!(after.brand(2).unwrap().unwrap().name, "Norvik Filtration");
    let trees_while_held = store.trees_on_disk().len();
    drop(before);
    assert!(
        store.trees_on_disk().len() < trees_while_held,
        "replaced trees go once the last reader lets go"
    );
    assert!(check::check(&store).unwrap().is_sound());
}

#[test]
fn what_an_answer_read_stays_current_until_a_commit_changes_one_of_its_tables() {
    // An answer that read one article's prices stays current while commits change other
    // articles' prices, over several commits, until one changes a price of its article.
    use partscat::store::reads::recorded;
    let dir = tempfile::tempdir().unwrap();
    let store = demo(dir.path());
    let before = store.catalogue();
    let article = before.articles_of_brand(2).next().unwrap().unwrap().key;
    let (crossrefs, of_crossrefs) = recorded(|| before.cross_references_of(&article).unwrap());
    let (prices, of_prices) = recorded(|| before.prices_of(&article).unwrap());
    let other = before
        .articles_of_brand(2)
        .map(|a| a.unwrap().key)
        .find(|k| *k != article && !before.prices_of(k).unwrap().is_empty())
        .unwrap();
    let (other_prices, of_other) = recorded(|| before.prices_of(&other).unwrap());
    let of_other = of_other.unwrap();
    let (_, of_names) = recorded(|| before.names().unwrap().brands.len());
    let (_, of_version) = recorded(|| before.data_version());
    let (of_crossrefs, of_prices) = (of_crossrefs.unwrap(), of_prices.unwrap());
    let (of_names, of_version) = (of_names.unwrap(), of_version.unwrap());
    assert!(!crossrefs.is_empty() && !prices.is_empty());
    for stamp in [&of_crossrefs, &of_prices, &of_names, &of_version] {
        assert!(before.still_current(stamp));
    }

    let price = &prices[0];
    let changed = file(
        dir.path(),
        ImportType::Prices,
        &format!(
            "brand_id,reference,price_type,currency,amount,valid_from\n2,{},{},{},{},{}\n",
            article.reference,
            price.price_type,
            price.currency,
            "987.65",
            price.valid_from.map(|d| d.to_string()).unwrap_or_default(),
        ),
    );
    let report = import::import(&store, &[changed], false, &Quiet).unwrap();
    assert_eq!(report.verdict, Verdict::Committed { data_version: 2 });
    let after = store.catalogue();
    assert!(
        after.still_current(&of_crossrefs),
        "prices changed, not cross-references"
    );
    assert!(after.still_current(&of_names));
    assert!(!after.still_current(&of_prices));
    assert!(
        after.still_current(&of_other),
        "another article's prices changed, not this one's"
    );
    assert!(!after.still_current(&of_version), "the data version moved");
    assert_eq!(after.cross_references_of(&article).unwrap(), crossrefs);
    assert_ne!(after.prices_of(&article).unwrap(), prices);

    // Two generations of one table in one answer: nothing to keep.
    let (_, mixed) = recorded(|| {
        before.prices_of(&article).unwrap();
        after.prices_of(&article).unwrap();
    });
    assert_eq!(mixed, None);

    // Commits that change prices: the answer of `other` stays current through those of
    // `article`, and not past the first that changes its own.
    let price_row = |key: &partscat::catalogue::ArticleKey,
                     p: &partscat::catalogue::Price,
                     amount: &str| {
        format!(
            "brand_id,reference,price_type,currency,amount,valid_from\n2,{},{},{},{amount},{}\n",
            key.reference,
            p.price_type,
            p.currency,
            p.valid_from.map(|d| d.to_string()).unwrap_or_default(),
        )
    };
    let commit = |text: String| {
        let report = import::import(
            &store,
            &[file(dir.path(), ImportType::Prices, &text)],
            false,
            &Quiet,
        )
        .unwrap();
        assert!(
            matches!(report.verdict, Verdict::Committed { .. }),
            "{report:?}"
        );
    };
    commit(price_row(&article, price, "12.34"));
    assert!(
        store.catalogue().still_current(&of_other),
        "two commits of another article"
    );
    // Stamped again at today's generations, it is as current and names no older one.
    let current = store.catalogue();
    let advanced = current
        .advanced(&of_other)
        .expect("the prices' generation moved");
    assert!(current.still_current(&advanced));
    assert_eq!(current.advanced(&advanced), None);
    commit(price_row(&other, &other_prices[0], "56.78"));
    let now = store.catalogue();
    assert!(!now.still_current(&of_other), "its own price changed");
    assert!(!now.still_current(&advanced), "its own price changed");
    assert_ne!(now.prices_of(&other).unwrap(), other_prices);
}
