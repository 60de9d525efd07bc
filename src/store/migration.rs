//! Numbered migrations of the store's format, each logged in one line. A migration writes the
//! new format's tables as a new generation beside the old one and switches by rewriting the
//! manifest and the format version in one batch, so a crash or a kill before that batch
//! leaves the old format intact (its leftovers are dropped and the migration runs again).

use std::path::Path;
use std::sync::Arc;

use super::catalogue_view::Catalogue;
use super::error::StoreError;
use super::indexes;
use super::layout::{Manifest, ManifestV1, TreeName};
use super::packed::{BlockCache, PackedWriter};
use super::{KEY_FORMAT, KEY_MANIFEST};

/// The manifest of a format-1 store, read as the current kind so its leftovers can be found.
pub fn manifest_v1(bytes: &[u8]) -> Option<Manifest> {
    let (old, _): (ManifestV1, _) =
        bincode::decode_from_slice(bytes, bincode::config::standard()).ok()?;
    Some(Manifest {
        generation: old.generation,
        data_version: old.data_version,
        updated_at: old.updated_at,
        trees: old.trees,
        imported: Vec::new(),
    })
}

/// Format 1 kept one engine entry per row; format 2 keeps packed tables, and two more
/// indexes (numbers written backwards, for suffix searches).
pub fn v1_to_v2(
    db: &sled::Db,
    meta: &sled::Tree,
    path: &Path,
    old: &Manifest,
    cache: &Arc<BlockCache>,
) -> Result<Manifest, StoreError> {
    let started = std::time::Instant::now();
    let generation = old.generation + 1;
    let manifest = Manifest {
        generation,
        trees: TreeName::ALL
            .iter()
            .map(|t| (t.name().to_owned(), generation))
            .collect(),
        ..old.clone()
    };
    let mut rows = 0u64;
    for &tree in TreeName::DATA {
        let from = db.open_tree(tree.stored_name(old.generation_of(tree).unwrap_or(0)))?;
        let to = db.open_tree(tree.stored_name(generation))?;
        to.clear()?;
        let mut writer = PackedWriter::new(to);
        for entry in from.iter() {
            let (k, v) = entry?;
            writer.push(&k, &v)?;
        }
        rows += writer.finish()?;
    }
    let catalogue = Catalogue::open(db, manifest.clone(), cache)?;
    let spill = tempfile::Builder::new()
        .prefix(super::SPILL_PREFIX)
        .tempdir_in(path)
        .map_err(|e| StoreError::Engine(format!("cannot make a sort directory: {e}")))?;
    for &index in TreeName::INDEXES {
        let to = db.open_tree(index.stored_name(generation))?;
        to.clear()?;
        let mut writer = PackedWriter::new(to);
        indexes::build(index, &catalogue, spill.path(), &mut |k, v| {
            writer.push(k, v)
        })?;
        writer.finish()?;
    }
    drop(catalogue);
    db.flush()?;
    let mut batch = sled::Batch::default();
    batch.insert(KEY_FORMAT, &2u32.to_be_bytes());
    batch.insert(KEY_MANIFEST, super::encode_manifest(&manifest)?);
    meta.apply_batch(batch)?;
    db.flush()?;
    for (name, g) in &old.trees {
        db.drop_tree(format!("{name}@{g}").as_bytes())?;
    }
    db.flush()?;
    tracing::info!(
        path = %path.display(),
        rows,
        seconds = started.elapsed().as_secs_f64(),
        "migrated the store from format 1 to format 2 (packed tables)"
    );
    Ok(manifest)
}
