//! Every data set written back as its import file imports into an empty store as the same
//! catalogue: the same content checksum.

use std::fs::File;
use std::io::BufWriter;

use partscat::import::{self, ImportType, Quiet, Verdict, write_data_set};
use partscat::store::{Store, check};

#[test]
fn the_data_sets_written_as_files_import_as_the_same_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    let source = Store::open(&dir.path().join("source")).unwrap();
    partscat::demo::load_demo_catalogue(&source, &Quiet)
        .unwrap()
        .unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir(&files).unwrap();
    let catalogue = source.catalogue();
    for data_set in ImportType::ALL {
        let out = File::create(files.join(format!("{}.csv", data_set.name()))).unwrap();
        let rows = write_data_set(&catalogue, data_set, BufWriter::new(out)).unwrap();
        assert!(rows > 0, "{}", data_set.name());
    }
    // A link row names its article as the maker writes it, not normalised.
    let links = std::fs::read_to_string(files.join("links.csv")).unwrap();
    assert!(
        links.lines().any(|l| l.starts_with("1,0 986 ")),
        "{links:.300}"
    );

    let copy = Store::open(&dir.path().join("copy")).unwrap();
    let report = import::import(
        &copy,
        &import::files_in_directory(&files).unwrap(),
        false,
        &Quiet,
    )
    .unwrap();
    assert!(
        matches!(report.verdict, Verdict::Committed { .. }),
        "{report}"
    );
    let (original, copied) = (check::check(&source).unwrap(), check::check(&copy).unwrap());
    assert!(copied.is_sound(), "{:?}", copied.problems);
    assert_eq!(original.counts, copied.counts);
    assert_eq!(original.checksum, copied.checksum);
}
