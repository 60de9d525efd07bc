//! The demo catalogue the binary carries, so a new appliance works with one command.
//! The files under `assets/demo/` are the generator's output for `DEMO_ARTICLES` and
//! `DEMO_SEED`, with texts in other languages (`generate_demo`); a test keeps them so. Its pictures are drawn (`pictures`) and its documents written (`leaflets`).

mod leaflets;
mod pictures;

pub use pictures::fill_media_store;

use std::path::Path;

use rust_embed::RustEmbed;

use crate::accounts::{ProviderRecord, Scope, hash_key, key_id};
use crate::clock::Clock;
use crate::import::{
    self, ImportError, ImportFile, ImportMode, ImportReport, ImportType, Progress, Source,
};
use crate::service::admin::{self, Operator};
use crate::store::{Store, StoreError, generate_key};

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
                mode: ImportMode::Merge,
            })
        })
        .collect();
    files.sort_by_key(|f| f.import_type);
    files
}

/// Copies the demo catalogue's files into an empty import inbox, so that `importArticles`
/// (and its example in `/docs`) has files to try; an inbox holding anything is left alone.
/// Returns how many files were written.
pub fn seed_inbox(inbox: &Path) -> std::io::Result<usize> {
    if std::fs::read_dir(inbox)?.next().is_some() {
        return Ok(0);
    }
    let mut written = 0;
    for name in DemoFiles::iter().filter(|n| n.ends_with(".csv")) {
        if let Some(file) = DemoFiles::get(&name) {
            std::fs::write(inbox.join(name.as_ref()), file.data)?;
            written += 1;
        }
    }
    Ok(written)
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

/// The languages of the demo catalogue's texts: English, German and French in full, and
/// Bulgarian in part (its generic articles' names), in fallback order.
pub const DEMO_LANGUAGES: [&str; 4] = ["en", "de", "fr", "bg"];

/// The demo provider's id.
pub const DEMO_PROVIDER: &str = "demo";
/// The demo provider's numeric alias, for TecDoc clients that send the provider as an integer.
pub const DEMO_PROVIDER_NUMBER: u32 = 1;

/// Who the audit trail names for what `serve --demo` does to the demo provider.
const OPERATOR: &str = "serve --demo";

/// What `serve --demo` did to the demo provider, and the key to show.
#[derive(Debug, PartialEq, Eq)]
pub enum DemoKey {
    /// The provider was created with this key.
    Created(String),
    /// The provider existed; the key asked for (`--demo-key`) was added to its keys.
    Added(String),
    /// The provider existed and already had the key asked for.
    Kept(String),
    /// The provider existed and nothing was asked: it is left as the operator left it.
    Unchanged,
}

/// Creates the `demo` provider (every scope) on the first start of a store; on later starts
/// leaves it as it is (keys, brands, whitelist, scopes an operator changed) and only adds the
/// key `--demo-key` names if the provider lacks it. Each change is in the audit trail.
pub fn prepare_demo_provider(
    store: &Store,
    clock: &dyn Clock,
    key: Option<&str>,
) -> Result<DemoKey, StoreError> {
    let operator = Operator(OPERATOR.into());
    let audit = |action: &str, detail: String| {
        admin::audit(store, clock, &operator, action, DEMO_PROVIDER, detail)
    };
    let Some(existing) = store.provider(DEMO_PROVIDER)? else {
        let key = match key {
            Some(k) => k.to_owned(),
            None => generate_key()?,
        };
        let mut record = ProviderRecord::new(
            DEMO_PROVIDER,
            "Demo provider",
            vec![Scope::Read, Scope::Export, Scope::Admin, Scope::Sync],
        );
        let hash = hash_key(&key);
        record.key_hashes.push(hash);
        record.number = Some(DEMO_PROVIDER_NUMBER);
        // Address grants as long as TecDoc allows, as a shop trying the demo asks them.
        record.max_grant_hours = 24;
        audit(
            "provider.create",
            format!(
                "scopes read, export, admin, sync; key {}; number {DEMO_PROVIDER_NUMBER}; \
                 max_grant_hours 24",
                key_id(&hash)
            ),
        )?;
        store.save_provider(record)?;
        return Ok(DemoKey::Created(key));
    };
    let Some(key) = key else {
        return Ok(DemoKey::Unchanged);
    };
    let hash = hash_key(key);
    if existing.key_hashes.contains(&hash) {
        return Ok(DemoKey::Kept(key.to_owned()));
    }
    let mut record = (*existing).clone();
    record.key_hashes.push(hash);
    audit("key.add", format!("key {}", key_id(&hash)))?;
    store.save_provider(record)?;
    Ok(DemoKey::Added(key.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::SystemClock;

    #[test]
    fn the_demo_files_are_the_generators_output() {
        let dir = tempfile::tempdir().unwrap();
        crate::generate::generate_demo(dir.path()).unwrap();
        for data_set in ImportType::ALL {
            let name = format!("{}.csv", data_set.name());
            let generated = std::fs::read(dir.path().join(&name)).unwrap();
            let embedded = DemoFiles::get(&name).unwrap_or_else(|| panic!("{name} is missing"));
            assert!(
                generated == embedded.data.as_ref(),
                "assets/demo/{name} differs from `partscat gen --articles 2000`"
            );
        }
    }

    #[test]
    fn the_demo_provider_keeps_what_an_operator_changed_across_restarts() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("data")).unwrap();
        let clock = SystemClock;
        let DemoKey::Created(first) = prepare_demo_provider(&store, &clock, None).unwrap() else {
            panic!("the first start creates the provider");
        };
        let mut changed = (*store.provider(DEMO_PROVIDER).unwrap().unwrap()).clone();
        changed.brands = vec![7];
        store.save_provider(changed).unwrap();

        assert_eq!(
            prepare_demo_provider(&store, &clock, None).unwrap(),
            DemoKey::Unchanged
        );
        assert_eq!(
            prepare_demo_provider(&store, &clock, Some(&first)).unwrap(),
            DemoKey::Kept(first.clone())
        );
        assert_eq!(
            prepare_demo_provider(&store, &clock, Some("pc_chosen")).unwrap(),
            DemoKey::Added("pc_chosen".into())
        );
        let record = store.provider(DEMO_PROVIDER).unwrap().unwrap();
        assert_eq!(record.brands, vec![7]);
        assert!(record.key_hashes.contains(&hash_key(&first)));
        assert!(record.key_hashes.contains(&hash_key("pc_chosen")));
        let actions: Vec<String> = store
            .audit_entries(10)
            .unwrap()
            .into_iter()
            .map(|e| e.action)
            .collect();
        assert_eq!(actions, ["provider.create", "key.add"]);
    }
}
