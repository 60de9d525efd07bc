//! Import throughput, in CSV rows per second, of a generated catalogue into an empty store:
//! parsing, validation, staging, index builds and the durable switch, end to end.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use partscat::import::{self, Quiet};
use partscat::store::Store;

const ARTICLES: usize = 20_000;

fn import_throughput(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let files_dir = dir.path().join("files");
    partscat::generate::generate(ARTICLES, 5, &files_dir).expect("generate");
    let files = import::files_in_directory(&files_dir).expect("files");
    let rows: u64 = std::fs::read_dir(&files_dir)
        .expect("files")
        .map(|e| {
            std::fs::read_to_string(e.expect("entry").path())
                .expect("csv")
                .lines()
                .count() as u64
                - 1
        })
        .sum();

    let mut group = c.benchmark_group("import");
    group.sample_size(10);
    group.throughput(Throughput::Elements(rows));
    let mut run = 0;
    group.bench_function(
        format!("{ARTICLES} articles, {rows} rows, into an empty store"),
        |b| {
            b.iter(|| {
                run += 1;
                let store = Store::open(&dir.path().join(format!("store-{run}"))).expect("store");
                let report = import::import(&store, &files, false, &Quiet).expect("import");
                assert!(!report.is_rejected());
                drop(store);
                std::fs::remove_dir_all(dir.path().join(format!("store-{run}"))).expect("cleanup");
            })
        },
    );
    group.finish();
}

criterion_group!(benches, import_throughput);
criterion_main!(benches);
