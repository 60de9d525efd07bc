//! Opening a store's directory: refusing one that is not partscat's, reading (or writing the
//! first) manifest, and clearing what a crash left behind.

use std::path::Path;

use super::layout::Manifest;
use super::*;

/// A directory with files but without the engine's is somebody else's.
pub(super) fn refuse_foreign_directory(path: &Path) -> Result<(), StoreError> {
    if path.exists() && !path.is_dir() {
        return Err(StoreError::NotOurs(
            path.into(),
            "it is a file; the store is a directory".into(),
        ));
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return Ok(());
    };
    let names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let has = |name: &str| names.iter().any(|n| n == name);
    let engine_files = engine::engine_files::present(path);
    if has(marker::FILE) && !engine_files {
        return Err(StoreError::Corrupt(
            path.into(),
            "its marker is there but the storage engine's files are missing".into(),
        ));
    }
    if !names.is_empty() && !engine_files {
        return Err(StoreError::NotOurs(
            path.into(),
            "the directory holds other files".into(),
        ));
    }
    Ok(())
}

/// The store's id; made (and kept) on the first open that lacks it.
pub(super) fn store_id(db: &engine::Db, meta: &engine::Tree) -> Result<String, StoreError> {
    if let Some(id) = meta.get(KEY_STORE_ID)? {
        return Ok(String::from_utf8_lossy(&id).into_owned());
    }
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|source| StoreError::NoRandomness {
        what: "the store's id",
        source,
    })?;
    let id = hex::encode(bytes);
    meta.insert(KEY_STORE_ID, id.as_bytes())?;
    db.flush()?;
    Ok(id)
}

/// The secret the store signs media addresses with (`media_links`), made when it is first
/// needed and kept: an address an answer gave stays good across restarts and backups.
pub(super) fn link_secret(db: &engine::Db, meta: &engine::Tree) -> Result<[u8; 32], StoreError> {
    if let Some(secret) = meta.get(KEY_LINK_SECRET)?
        && let Ok(secret) = <[u8; 32]>::try_from(&secret[..])
    {
        return Ok(secret);
    }
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).map_err(|source| StoreError::NoRandomness {
        what: "the media addresses' secret",
        source,
    })?;
    meta.insert(KEY_LINK_SECRET, &secret[..])?;
    db.flush()?;
    Ok(secret)
}

pub(super) fn encode_manifest(manifest: &Manifest) -> Vec<u8> {
    codec::encode(MANIFEST_VERSION, manifest)
}

/// Sort directories of imports that were killed.
pub(super) fn remove_sort_leftovers(path: &Path) {
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    for entry in entries.flatten() {
        if entry
            .file_name()
            .to_string_lossy()
            .starts_with(SPILL_PREFIX)
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The format version and the manifest; a manifest of format 1 is read as it was.
pub(super) fn read_manifest(
    meta: &engine::Tree,
    path: &Path,
) -> Result<(u32, Manifest), StoreError> {
    let format = meta
        .get(KEY_FORMAT)?
        .and_then(|v| v.as_ref().try_into().ok())
        .map(u32::from_be_bytes);
    match format {
        Some(1..=FORMAT_VERSION) => {}
        Some(found) if found > FORMAT_VERSION => {
            return Err(StoreError::NewerFormat {
                path: path.into(),
                found,
                supported: FORMAT_VERSION,
            });
        }
        Some(found) => {
            return Err(StoreError::Corrupt(
                path.into(),
                format!("unknown format version {found}"),
            ));
        }
        None => {
            return Err(StoreError::Corrupt(
                path.into(),
                "its format version is missing".into(),
            ));
        }
    }
    let bytes = meta
        .get(KEY_MANIFEST)?
        .ok_or_else(|| StoreError::Corrupt(path.into(), "its manifest is missing".into()))?;
    let format = format.unwrap_or(FORMAT_VERSION);
    let manifest = match format {
        1 => migration::manifest_v1(&bytes),
        // Format 2 wrote the manifest without a version byte.
        2 => codec::body::<layout::ManifestV3>(&bytes).map(Manifest::from),
        _ => codec::decode(MANIFEST_VERSION, &bytes)
            .or_else(|| {
                codec::decode::<layout::ManifestBeforePages>(MANIFEST_BEFORE_PAGES, &bytes)
                    .map(Manifest::from)
            })
            .or_else(|| {
                codec::decode::<layout::ManifestBeforeSync>(MANIFEST_BEFORE_SYNC, &bytes)
                    .map(Manifest::from)
            })
            .or_else(|| {
                codec::decode::<layout::ManifestV3>(MANIFEST_BEFORE_CHANGES, &bytes)
                    .map(Manifest::from)
            }),
    };
    match manifest {
        Some(manifest) => Ok((format, manifest)),
        None => Err(StoreError::Corrupt(
            path.into(),
            "its manifest cannot be read".into(),
        )),
    }
}

/// Makes a new store. Trees a crashed earlier attempt left are reused only if empty.
pub(super) fn initialise(
    db: &engine::Db,
    meta: &engine::Tree,
    path: &Path,
) -> Result<Manifest, StoreError> {
    let foreign = db
        .tree_names()
        .into_iter()
        .filter(|n| n != META)
        .any(|name| db.open_tree(&name).map(|t| !t.is_empty()).unwrap_or(true));
    if foreign {
        return Err(StoreError::NotOurs(
            path.into(),
            "it is a sled database without partscat's marker".into(),
        ));
    }
    let manifest = Manifest::empty();
    for tree in TreeName::ALL {
        db.open_tree(&tree.stored_name(0))?;
    }
    db.open_tree(reclaim::FREED_PAGES)?;
    let mut batch = engine::Batch::default();
    batch.insert(KEY_FORMAT, FORMAT_VERSION.to_be_bytes());
    batch.insert(KEY_MANIFEST, encode_manifest(&manifest));
    batch.insert(KEY_MAGIC, MAGIC);
    meta.apply(batch)?;
    db.flush()?;
    tracing::info!(path = %path.display(), "created a new store");
    Ok(manifest)
}

/// Drops generation trees the manifest does not name: leftovers of interrupted imports.
pub(super) fn drop_orphans(db: &engine::Db, manifest: &Manifest) -> Result<(), StoreError> {
    let mut dropped = 0;
    for name in db.tree_names() {
        if layout::parse_stored_name(&name).is_some() && !manifest.names_tree(&name) {
            db.drop_tree(&name)?;
            dropped += 1;
        }
    }
    if dropped > 0 {
        db.flush()?;
        tracing::info!(dropped, "dropped trees left by an interrupted import");
    }
    Ok(())
}
