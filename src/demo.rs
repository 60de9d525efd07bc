//! The demo catalogue the binary carries, so a new appliance works with one command.
//! The files under `assets/demo/` are the generator's output for `DEMO_ARTICLES` and
//! `DEMO_SEED`; a test keeps them so.

use rust_embed::RustEmbed;

use crate::import::{self, ImportError, ImportFile, ImportReport, ImportType, Progress, Source};
use crate::store::{Scope, Store, StoreError};

#[derive(RustEmbed)]
#[folder = "assets/demo/"]
struct DemoFiles;

/// The demo catalogue's files, in the form an import takes.
pub fn demo_files() -> Vec<ImportFile> {
    let mut files: Vec<ImportFile> = ImportType::ALL
        .iter()
        .filter_map(|&t| {
            let name = format!("{}.csv", t.name());
            DemoFiles::get(&name).map(|f| ImportFile {
                import_type: t,
                source: Source::Embedded {
                    name: format!("demo/{name}"),
                    bytes: f.data,
                },
            })
        })
        .collect();
    files.sort_by_key(|f| f.import_type);
    files
}

/// Loads the demo catalogue into an empty store; a store that holds data is left alone.
pub fn load_demo_catalogue(
    store: &Store,
    progress: &dyn Progress,
) -> Result<Option<ImportReport>, ImportError> {
    if !store.catalogue().is_empty() {
        return Ok(None);
    }
    import::import(store, &demo_files(), false, progress).map(Some)
}

/// The demo provider's id.
pub const DEMO_PROVIDER: &str = "demo";

/// Creates (or re-keys) the `demo` provider with every scope; returns its key.
pub fn create_demo_provider(store: &Store, key: Option<&str>) -> Result<String, StoreError> {
    store.put_provider(
        DEMO_PROVIDER,
        "Demo provider",
        vec![Scope::Read, Scope::Export, Scope::Admin],
        key,
    )
}
