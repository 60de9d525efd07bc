//! Lookup cost on a generated catalogue of 100,000 articles: by article key (exact), by a
//! reference written another way (normalised), by a cross number, and by Ktype. Each
//! iteration looks up a different key from a few thousand, so caches see realistic spread.

use criterion::{Criterion, criterion_group, criterion_main};
use partscat::catalogue::{Article, ArticleKey};
use partscat::import::{self, Quiet};
use partscat::store::Store;

struct Fixture {
    _dir: tempfile::TempDir,
    store: Store,
    articles: Vec<Article>,
    cross_numbers: Vec<String>,
    ktypes: Vec<String>,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = dir.path().join("files");
    partscat::generate::generate(100_000, 11, &files).expect("generate");
    let store = Store::open(&dir.path().join("data")).expect("store");
    let report = import::import(
        &store,
        &import::files_in_directory(&files).expect("files"),
        false,
        &Quiet,
    )
    .expect("import");
    assert!(!report.is_rejected());
    let catalogue = store.catalogue();
    let mut articles = Vec::new();
    for brand in 1..=4 {
        articles.extend(
            catalogue
                .articles_of_brand(brand)
                .step_by(40)
                .take(1000)
                .map(|a| a.expect("article")),
        );
    }
    let mut cross_numbers = Vec::new();
    let mut ktypes = Vec::new();
    for a in &articles {
        cross_numbers.extend(
            catalogue
                .cross_references_of(&a.key)
                .expect("crossrefs")
                .into_iter()
                .map(|x| x.number),
        );
        ktypes.extend(
            catalogue
                .links_of(&a.key)
                .expect("links")
                .into_iter()
                .map(|l| l.ktype),
        );
    }
    drop(catalogue);
    Fixture {
        _dir: dir,
        store,
        articles,
        cross_numbers,
        ktypes,
    }
}

fn lookups(c: &mut Criterion) {
    let f = fixture();
    let catalogue = f.store.catalogue();
    let keys: Vec<ArticleKey> = f.articles.iter().map(|a| a.key.clone()).collect();
    // The written reference with its separators changed, as a client might type it.
    let retyped: Vec<String> = f
        .articles
        .iter()
        .map(|a| a.reference.replace(' ', "-").to_lowercase())
        .collect();

    let mut group = c.benchmark_group("lookup (100k articles)");
    let mut i = 0usize;
    group.bench_function("reference exact (article by key)", |b| {
        b.iter(|| {
            i = (i + 1) % keys.len();
            catalogue.article(&keys[i]).expect("lookup").expect("found")
        })
    });
    group.bench_function("reference normalised", |b| {
        b.iter(|| {
            i = (i + 1) % retyped.len();
            let found = catalogue
                .articles_by_reference(&retyped[i])
                .expect("lookup");
            assert!(!found.is_empty());
            found
        })
    });
    group.bench_function("cross number", |b| {
        b.iter(|| {
            i = (i + 1) % f.cross_numbers.len();
            let found = catalogue
                .articles_by_cross_number(&f.cross_numbers[i])
                .expect("lookup");
            assert!(!found.is_empty());
            found
        })
    });
    group.bench_function("ktype", |b| {
        b.iter(|| {
            i = (i + 1) % f.ktypes.len();
            let found = catalogue.articles_by_ktype(&f.ktypes[i]).expect("lookup");
            assert!(!found.is_empty());
            found
        })
    });
    group.finish();
}

criterion_group!(benches, lookups);
criterion_main!(benches);
