//! The layers hold: no file under `src/server/` reads the catalogue itself. A file reads it
//! when it takes a catalogue view (`.catalogue()`), names its type (`Catalogue`), or calls
//! one of the view's read methods (`src/store/catalogue_view/`) on a value named
//! `catalogue` or `snapshot`. An adapter may hold a `service::Snapshot` and hand it to the
//! service calls that read it; the protocol adapters call `src/service/` for what they answer.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The names of the catalogue view's methods that take `&self` (`src/store/catalogue_view/`).
fn read_methods() -> BTreeSet<String> {
    let mut files = Vec::new();
    rust_files(&root().join("src/store/catalogue_view"), &mut files);
    let methods: BTreeSet<String> = files
        .iter()
        .flat_map(|file| {
            let view = std::fs::read_to_string(file).unwrap();
            view.lines()
                .filter_map(|l| l.trim().strip_prefix("pub fn "))
                .filter(|rest| rest.contains("(&self"))
                .filter_map(|rest| rest.split(['(', '<']).next())
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(methods.contains("articles_by_reference"), "{methods:?}");
    methods
}

/// Whether `source` takes or names a catalogue view, or calls one of `methods` on
/// `catalogue` (or `catalogue()`), spaces and line breaks allowed around the dot.
fn reads(source: &str, methods: &BTreeSet<String>) -> bool {
    let code: String = source
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let source = code.as_str();
    let names_the_type = source.match_indices("Catalogue").any(|(at, _)| {
        let word = |c: char| c.is_alphanumeric() || c == '_';
        !source[..at].ends_with(word) && !source[at + "Catalogue".len()..].starts_with(word)
    });
    if names_the_type || source.contains(".catalogue()") {
        return true;
    }
    ["catalogue", "snapshot"]
        .iter()
        .any(|held| calls_a_read_on(source, held, methods))
}

/// Whether `source` calls one of `methods` on a value named `held` (or `held()`).
fn calls_a_read_on(source: &str, held: &str, methods: &BTreeSet<String>) -> bool {
    let mut rest = source;
    while let Some(at) = rest.find(held) {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + held.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let after = rest.strip_prefix("()").unwrap_or(rest).trim_start();
        let Some(call) = after.strip_prefix('.') else {
            continue;
        };
        let name: String = call
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if methods.contains(&name) {
            return true;
        }
    }
    false
}

#[test]
fn no_file_under_src_server_reads_the_catalogue() {
    let methods = read_methods();
    assert!(methods.len() > 20, "found {methods:?}");
    let mut files = Vec::new();
    rust_files(&root().join("src/server"), &mut files);
    let reading: BTreeSet<String> = files
        .iter()
        .filter(|f| reads(&std::fs::read_to_string(f).unwrap(), &methods))
        .map(|f| f.strip_prefix(root()).unwrap().display().to_string())
        .collect();
    assert!(
        reading.is_empty(),
        "these files read the catalogue: move the reads to src/service/: {reading:?}"
    );
}

#[test]
fn the_read_detector_sees_a_read_across_lines_and_not_a_namesake() {
    let methods: BTreeSet<String> = ["links_of".to_owned()].into();
    assert!(reads("let l = catalogue\n    .links_of(&key)?;", &methods));
    assert!(reads("state.store.catalogue().links_of(&key)", &methods));
    assert!(reads("fn f(c: &Catalogue) {}", &methods));
    assert!(reads("let c = state.store.catalogue();", &methods));
    assert!(!reads("struct CatalogueArticle;", &methods));
    assert!(!reads("/// Catalogue lookups.", &methods));
    assert!(!reads("my_catalogue.links_of(&key)", &methods));
    assert!(!reads("catalogue.clone()", &methods));
    assert!(!reads(
        "service::articles::lookups::links_of(&catalogue, &key)",
        &methods
    ));
}
