//! The embedded store: sled trees holding the catalogue, behind an API in catalogue terms.
//! Nothing outside this module touches sled or bincode.
//!
//! Durability: a change becomes visible and durable at one point, the write of the manifest
//! key followed by a flush; every tree it names was flushed before that write. See
//! `docs/store-layout.md`.

mod article_records;
mod audit;
mod background;
mod backup;
mod catalogue_view;
pub mod check;
mod codec;
mod compact;
mod criterion_ids;
mod engine;
mod error;
mod file_modes;
#[cfg(test)]
mod fixture;
mod grants;
mod index_changes;
mod indexes;
mod keys;
mod layout;
mod marker;
mod migration;
mod opening;
mod packed;
mod providers;
pub mod reads;
mod reclaim;
mod records;
mod reserve;
mod retention;
mod settings;
mod sorter;
mod staging;
mod stored_text;
#[cfg(test)]
mod suite;
mod touched;
mod varint;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

pub use article_records::ArticleRecord;
pub use audit::AuditEntry;
pub use backup::{BackupSummary, RestoreError, restore};
pub use catalogue_view::{
    Catalogue, Change, Criteria, Names, Translations, VehicleEntry, VehicleSummary,
};
pub use compact::{Compacted, compact};
pub use engine::Compaction;
pub use error::StoreError;
pub use file_modes::{keep_new_files_private, wider_than_owner};
pub use layout::{SyncMark, TreeName};
pub use providers::generate_key;
pub use records::{ArticleRow, CriterionRow, CrossNumber, MediaRow, PriceRow, Record, RowView};
pub use retention::ChangeRetention;
pub use staging::{Duplicate, Origin, Outcome, Replace, Staging, Tally};

use layout::Manifest;
use opening::{
    drop_orphans, encode_manifest, initialise, link_secret, read_manifest,
    refuse_foreign_directory, remove_sort_leftovers, store_id,
};

/// Bumped when the layout changes; older stores are migrated on open, newer ones refused.
pub const FORMAT_VERSION: u32 = 16;
/// The codec version of the manifest (4: with the next page id).
const MANIFEST_VERSION: u8 = 4;
/// The manifest with the sync mark, before page ids.
const MANIFEST_BEFORE_PAGES: u8 = 3;
/// The manifest with the change feed's extent, before the sync mark.
const MANIFEST_BEFORE_SYNC: u8 = 2;
/// The manifest of format 3 before the change feed.
const MANIFEST_BEFORE_CHANGES: u8 = 1;
/// Sort runs of an import live in a directory of the store named with this prefix; one left
/// by a killed import is removed at the next open.
const SPILL_PREFIX: &str = ".sort-";
const MAGIC: &[u8] = b"partscat-store";
const META: &str = "meta";
/// The engine's page cache unless configured: large imports slow down sharply once the
/// working set outgrows it.
pub const DEFAULT_CACHE_BYTES: u64 = 1024 * 1024 * 1024;
const KEY_MAGIC: &[u8] = b"magic";
const KEY_FORMAT: &[u8] = b"format_version";
const KEY_MANIFEST: &[u8] = b"manifest";
/// Names the store to its downstreams: data versions count within one store's history.
const KEY_STORE_ID: &[u8] = b"store_id";
/// The secret media addresses are signed with (`Store::link_secret`).
const KEY_LINK_SECRET: &[u8] = b"link_secret";

/// An open store. One process at a time may open a store (sled locks it).
pub struct Store {
    db: engine::Db,
    meta: engine::Tree,
    path: PathBuf,
    current: RwLock<Arc<Catalogue>>,
    /// The data version of each commit, for whoever waits on the next one.
    committed: tokio::sync::watch::Sender<u64>,
    writer: Mutex<()>,
    /// The engine, page ids and block cache of the catalogue's tables.
    space: Arc<packed::Space>,
    providers: providers::ProviderTables,
    grants: grants::GrantTables,
    change_retention: RwLock<ChangeRetention>,
    limits: RwLock<crate::limits::Limits>,
    /// The languages imports keep texts in; none: every language.
    text_languages: RwLock<Option<Vec<String>>>,
    id: String,
    link_secret: [u8; 32],
}

impl Drop for Store {
    /// Gives back the space queued for reclaiming before the engine closes.
    fn drop(&mut self) {
        self.space.stop_reclaiming();
    }
}

/// Whether `dir` holds a store's engine files (a store may be there), or is a directory this
/// account may not look into (opening it then says whose it is).
pub fn exists_at(dir: &Path) -> bool {
    engine::engine_files::present(dir) || file_modes::permission_problem(dir).is_some()
}

/// The store at `path` as another account's, where this process's may not use it.
fn refuse_other_accounts_store(path: &Path) -> Result<(), StoreError> {
    match file_modes::permission_problem(path) {
        None => Ok(()),
        Some((denied, uid)) => Err(StoreError::NoPermission {
            store: path.into(),
            denied: denied.display().to_string(),
            owner: file_modes::account_name(uid),
            running_as: file_modes::account_name(file_modes::running_as()),
        }),
    }
}

impl Store {
    /// Opens the store at `path`, creating a new one in an empty or missing directory.
    /// Refuses a directory that holds something else, a corrupt store and a newer format.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Self::open_with_cache(path, DEFAULT_CACHE_BYTES)
    }

    /// Like `open`, with the engine's page cache limited to `cache_bytes`.
    pub fn open_with_cache(path: &Path, cache_bytes: u64) -> Result<Store, StoreError> {
        refuse_other_accounts_store(path)?;
        refuse_foreign_directory(path)?;
        file_modes::create_private_dir(path)
            .map_err(|e| StoreError::Unopenable(path.into(), e.to_string()))?;
        remove_sort_leftovers(path);
        let vouched = marker::read(path)?;
        // Half the cache is the engine's pages, half the packed tables' decoded blocks.
        let open = || {
            let db = engine::open_sled(path, cache_bytes / 2)?;
            Self::open_on(db, path, cache_bytes / 2, vouched)
        };
        let store = match open() {
            Err(StoreError::DiskFull) if reserve::release(path) => open()?,
            opened => opened?,
        };
        reserve::keep(path);
        Ok(store)
    }

    /// A store whose trees live in memory (nothing durable), for tests of what lies above the
    /// engine; `scratch` takes the sort runs of imports.
    #[cfg(test)]
    fn in_memory(scratch: &Path) -> Result<Store, StoreError> {
        Self::open_on(engine::MemoryEngine::new_db(), scratch, 64 << 20, None)
    }

    fn open_on(
        db: engine::Db,
        path: &Path,
        cache_bytes: u64,
        vouched: Option<u64>,
    ) -> Result<Store, StoreError> {
        let cache = packed::BlockCache::new(cache_bytes);
        let meta = db.open_tree(META)?;
        let manifest = match meta.get(KEY_MAGIC)? {
            Some(magic) if magic.as_ref() == MAGIC => {
                let (format, manifest) = read_manifest(&meta, path)?;
                migration::pages_out_of_the_log(&db, format)?;
                let space = packed::Space::new(db.clone(), manifest.next_page, cache.clone());
                reclaim::at_open(&space, manifest.generation, manifest.next_page)?;
                match format {
                    FORMAT_VERSION => manifest,
                    format => {
                        drop_orphans(&db, &manifest)?;
                        migration::upgrade(&meta, path, format, &manifest, &space)?
                    }
                }
            }
            None if vouched.is_some() => {
                return Err(StoreError::Corrupt(
                    path.into(),
                    "its marker says it holds a catalogue, but the storage engine's files have lost it".into(),
                ));
            }
            Some(_) => {
                return Err(StoreError::NotOurs(
                    path.into(),
                    "its meta tree belongs to another program".into(),
                ));
            }
            None => initialise(&db, &meta, path)?,
        };
        if let Some(version) = vouched.filter(|&v| v > manifest.data_version) {
            return Err(StoreError::Corrupt(
                path.into(),
                format!(
                    "its marker vouches for data version {version}, but the storage engine's files hold only {}",
                    manifest.data_version
                ),
            ));
        }
        if vouched != Some(manifest.data_version) {
            marker::write(path, manifest.data_version)?;
        }
        let present = db.tree_names();
        if let Some(missing) = manifest
            .trees
            .iter()
            .find(|(n, g)| !present.contains(&format!("{n}@{g}")))
        {
            return Err(StoreError::Corrupt(
                path.into(),
                format!(
                    "tree {}@{} named by its manifest is missing",
                    missing.0, missing.1
                ),
            ));
        }
        drop_orphans(&db, &manifest)?;
        let id = store_id(&db, &meta)?;
        let link_secret = link_secret(&db, &meta)?;
        let space = packed::Space::new(db.clone(), manifest.next_page, cache);
        let catalogue = Catalogue::open(&space, manifest)?;
        let (committed, _) = tokio::sync::watch::channel(catalogue.data_version());
        Ok(Store {
            committed,
            meta,
            space,
            path: path.into(),
            current: RwLock::new(Arc::new(catalogue)),
            writer: Mutex::new(()),
            providers: providers::ProviderTables::open(&db)?,
            grants: grants::GrantTables::open(&db)?,
            change_retention: RwLock::new(ChangeRetention::default()),
            limits: RwLock::new(crate::limits::Limits::default()),
            text_languages: RwLock::new(None),
            id,
            link_secret,
            db,
        })
    }

    /// The store's identity, made when it was first opened: a downstream's sync mark names
    /// the store it followed, since data versions count within one store's history.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The secret media addresses in answers are signed with, kept with the store.
    pub fn link_secret(&self) -> &[u8; 32] {
        &self.link_secret
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The catalogue as of now; it stays consistent while held, whatever imports commit.
    pub fn catalogue(&self) -> Arc<Catalogue> {
        self.current
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Starts a change of the catalogue. Only one runs at a time; a second gets `Busy`.
    /// A dry run writes nothing at all.
    pub fn begin(&self, dry_run: bool) -> Result<Staging<'_>, StoreError> {
        let guard = self.writer.try_lock().map_err(|_| StoreError::Busy)?;
        if !dry_run {
            self.db.writes_coming();
        }
        Staging::new(self, guard, dry_run)
    }

    /// Bytes free for this process on the store's file system.
    pub fn free_bytes(&self) -> Result<u64, StoreError> {
        free_bytes(&self.path)
    }

    /// A directory for an import's sort runs (or a sync's downloaded feed), removed when
    /// dropped; one a killed process left is removed at the next open.
    pub fn spill_dir(&self) -> Result<tempfile::TempDir, StoreError> {
        tempfile::Builder::new()
            .prefix(SPILL_PREFIX)
            .tempdir_in(&self.path)
            .map_err(|e| {
                let doing = format!("cannot make a sort directory in {}", self.path.display());
                StoreError::io(&doing, e)
            })
    }

    /// Writes everything to disk. Called on shutdown and after every committed change.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        Ok(())
    }

    /// The names of every tree on disk: a diagnostic that shows nothing is left of an attempt.
    pub fn trees_on_disk(&self) -> Vec<String> {
        self.space.settle();
        let mut names = self.db.tree_names();
        names.sort();
        names
    }

    fn publish(&self, manifest: &Manifest, catalogue: Catalogue) -> Result<(), StoreError> {
        self.meta.insert(KEY_MANIFEST, encode_manifest(manifest))?;
        self.db.flush()?;
        marker::write(&self.path, manifest.data_version)?;
        let replaced = std::mem::replace(
            &mut *self.current.write().unwrap_or_else(|e| e.into_inner()),
            Arc::new(catalogue),
        );
        // Let go of the old view with the lock released: no reader waits while it goes.
        drop(replaced);
        self.committed.send_replace(manifest.data_version);
        Ok(())
    }

    /// The data version of each commit as it lands.
    pub fn commits(&self) -> tokio::sync::watch::Receiver<u64> {
        self.committed.subscribe()
    }

    /// Waits, up to `wait`, for a data version newer than `since` to be committed; the
    /// catalogue as of then (newer, or the same at the time-out).
    pub async fn newer_than(&self, since: u64, wait: std::time::Duration) -> Arc<Catalogue> {
        let mut versions = self.committed.subscribe();
        let _ = tokio::time::timeout(wait, versions.wait_for(|&v| v > since)).await;
        self.catalogue()
    }
}

/// Ends the process, as a `kill -9` would, at the named step of a commit when the
/// environment variable `PARTSCAT_CRASH_AT` names it: how the crash tests stop a commit of
/// a few milliseconds at an exact moment rather than at a time they guess.
pub(crate) fn crash_point(step: &str) {
    if std::env::var_os("PARTSCAT_CRASH_AT").is_some_and(|at| at == step) {
        std::process::abort();
    }
}

/// Bytes free for this process on the file system of `path`.
pub(crate) fn free_bytes(path: &Path) -> Result<u64, StoreError> {
    let text = std::ffi::CString::new(path.as_os_str().as_encoded_bytes())
        .map_err(|e| StoreError::io("the store's path holds a NUL byte", e.into()))?;
    let mut stat: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a valid C string and a zeroed out-parameter of the right type.
    if unsafe { libc::statvfs(text.as_ptr(), &mut stat) } != 0 {
        let doing = format!("cannot read the free space of {}", path.display());
        return Err(StoreError::io(&doing, std::io::Error::last_os_error()));
    }
    Ok(stat.f_bavail as u64 * stat.f_frsize as u64)
}

#[cfg(test)]
mod tests;
