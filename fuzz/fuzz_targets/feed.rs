//! The change feed's reader on arbitrary bytes: the tar of a feed of all data sets unpacked
//! within its size bound, and each file (or the bytes themselves, as a feed of one data set)
//! read as an import reads it. It must answer `Ok` or `Err`, never panic, and never write
//! more than the bound allows.
#![no_main]

use libfuzzer_sys::fuzz_target;
use partscat::import::{self, ImportType};
use partscat::limits::Limits;
use partscat::service::sync;

/// A small feed bound, so that going past it is reached.
const MAX_BYTES: u64 = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        row_bytes: 4096,
        ..Limits::default()
    };
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let feed = scratch.path().join("feed");
    let files = scratch.path().join("files");
    std::fs::write(&feed, data).expect("the feed written");
    std::fs::create_dir(&files).expect("the files directory");
    if sync::unpack_feed(&feed, &files, MAX_BYTES).is_ok() {
        let mut unpacked = 0;
        for entry in std::fs::read_dir(&files).expect("unpacked").flatten() {
            let meta = entry.metadata().expect("an unpacked file");
            assert!(meta.is_file(), "only plain files are unpacked");
            unpacked += meta.len();
            let name = entry.file_name().to_string_lossy().into_owned();
            let data_set = name
                .strip_suffix(".csv")
                .and_then(ImportType::from_name)
                .expect("only data sets' files are unpacked");
            let file = std::fs::File::open(entry.path()).expect("an unpacked file opens");
            let _ = import::read_rows(data_set, Box::new(file), &limits);
        }
        assert!(unpacked <= MAX_BYTES, "{unpacked} bytes unpacked");
    }
    for data_set in [ImportType::ALL[0], ImportType::ALL[ImportType::ALL.len() - 1]] {
        let _ = import::read_rows(data_set, Box::new(std::io::Cursor::new(data.to_vec())), &limits);
    }
});
