//! Numbered migrations of the store's format, each logged in one line. Migrations write the
//! new format's tables as new generations beside the old ones; the switch rewrites the
//! manifest and the format version in one batch at the end, so a crash or a kill before that
//! batch leaves the old format intact (its leftovers are dropped and the migrations run again).

use std::path::Path;
use std::sync::Arc;

use super::catalogue_view::Catalogue;
use super::engine::{self, Batch};
use super::error::StoreError;
use super::indexes;
use super::layout::{Manifest, ManifestV1, ManifestV3, TreeName};
use super::packed::{PackedWriter, Space, legacy_entries, logged_pages_tree_name, pages_tree_name};
use super::records::{Record, VALUE_VERSION};
use super::{FORMAT_VERSION, KEY_FORMAT, KEY_MANIFEST};
use crate::catalogue::Vehicle;

/// The manifest of a format-1 store, read as the current kind so its leftovers can be found.
pub fn manifest_v1(bytes: &[u8]) -> Option<Manifest> {
    let (old, _): (ManifestV1, _) =
        bincode::decode_from_slice(bytes, bincode::config::standard()).ok()?;
    Some(
        ManifestV3 {
            generation: old.generation,
            data_version: old.data_version,
            updated_at: old.updated_at,
            trees: old.trees,
            imported: Vec::new(),
        }
        .into(),
    )
}

/// Takes a store of format `from` to the current format; returns the new manifest.
pub fn upgrade(
    meta: &engine::Tree,
    path: &Path,
    from: u32,
    old: &Manifest,
    space: &Arc<Space>,
) -> Result<Manifest, StoreError> {
    let mut manifest = old.clone();
    // Formats 2 to 5 kept each table's blocks in its generation's own tree; the steps below
    // read and write tables whose pages generations share.
    if (2..6).contains(&from) {
        manifest = step(5, "pages shared between generations", || {
            relayout(space, &manifest)
        })?;
    }
    if from < 2 {
        manifest = step(1, "packed tables", || pack_tables(space, &manifest))?;
    }
    if from < 3 {
        manifest = step(2, "a version byte on every value", || {
            version_values(space, &manifest)
        })?;
    }
    if from < 2 {
        // Format 1 had neither packed indexes nor the reversed ones: derive them all.
        build_indexes(space, path, &mut manifest, TreeName::INDEXES)?;
    } else {
        if from < 4 {
            manifest = step(3, "numeric article ids", || {
                let rows = build_indexes(space, path, &mut manifest, &[TreeName::ArticleIds])?;
                Ok((manifest.clone(), rows))
            })?;
        }
        if from < 5 {
            manifest = step(4, "articles by the numbers replacing them", || {
                let rows = build_indexes(space, path, &mut manifest, &[TreeName::ReplacedArticle])?;
                Ok((manifest.clone(), rows))
            })?;
        }
    }
    if from < 7 {
        // Format 7 writes blocks with Zstandard and still reads format 6's LZ4 blocks: nothing
        // is rewritten, but a binary that knows only format 6 must refuse the store.
        manifest = step(
            6,
            "blocks compressed with Zstandard as they are written",
            || Ok((manifest.clone(), 0)),
        )?;
    }
    // Format 1's stores had every index built above, this one with them.
    if (2..8).contains(&from) {
        manifest = step(7, "kits by their components", || {
            let rows = build_indexes(space, path, &mut manifest, &[TreeName::ComponentKit])?;
            Ok((manifest.clone(), rows))
        })?;
    }
    if (1..9).contains(&from) {
        manifest = step(
            8,
            "model series, the assembly-group tree, vehicles' details",
            || vehicles_v2(space, &manifest),
        )?;
    }
    if (1..10).contains(&from) {
        // Format 10 adds the texts in other languages: new tables, empty until an import
        // fills them. A binary that knows only format 9 must refuse the store.
        manifest = step(9, "texts in other languages", || Ok((manifest.clone(), 0)))?;
    }
    // Format 1's stores had every index built above, this one with them.
    if (2..12).contains(&from) {
        manifest = step(11, "one record per article, with its rows", || {
            let rows = build_indexes(space, path, &mut manifest, &[TreeName::ArticleRecords])?;
            Ok((manifest.clone(), rows))
        })?;
    }
    if (1..13).contains(&from) {
        // Format 13 keeps the page file's free room beside it between opens
        // (`sled_engine/kept_room.rs`): nothing is rewritten, but a binary that knows only
        // format 12 would write without removing it, and must refuse the store.
        manifest = step(12, "the page file's free room kept between opens", || {
            Ok((manifest.clone(), 0))
        })?;
    }
    if (12..14).contains(&from) {
        // Format 14's records hold the articles' descriptions in other languages (an older
        // store's were built without them; format 11 and before built them above).
        manifest = step(
            13,
            "descriptions in other languages in each article's record",
            || {
                let rows = build_indexes(space, path, &mut manifest, &[TreeName::ArticleRecords])?;
                Ok((manifest.clone(), rows))
            },
        )?;
    }
    if (2..15).contains(&from) {
        // Format 15 numbers the criteria and adds their definitions and key tables (new
        // tables, empty until an import fills them); format 1's stores built it above.
        manifest = step(14, "numbered criteria", || {
            let rows = build_indexes(space, path, &mut manifest, &[TreeName::CriterionIds])?;
            Ok((manifest.clone(), rows))
        })?;
    }
    if (1..16).contains(&from) {
        // Format 16 adds the VIN patterns (a new table, empty until an import fills it): a
        // binary that knows only format 15 must refuse the store.
        manifest = step(15, "VIN patterns", || Ok((manifest.clone(), 0)))?;
    }
    // Format 11's pages were moved into the page file before the store was read
    // (`pages_out_of_the_log`); a binary that knows only format 10 must refuse the store.
    manifest.next_page = space.next_page();
    space.db().flush()?;
    let mut batch = Batch::default();
    batch.insert(KEY_FORMAT, FORMAT_VERSION.to_be_bytes());
    batch.insert(KEY_MANIFEST, super::encode_manifest(&manifest));
    meta.apply(batch)?;
    space.db().flush()?;
    super::drop_orphans(space.db(), &manifest)?;
    Ok(manifest)
}

/// Moves the pages a store of `format` before 11 kept in the engine's log into its page file
/// (`packed::pages_tree_name`), before anything reads them: each table's are copied, then the
/// old tree dropped, so a process ended half way copies again at the next open.
pub fn pages_out_of_the_log(db: &engine::Db, format: u32) -> Result<(), StoreError> {
    if format >= 11 {
        return Ok(());
    }
    let present = db.tree_names();
    let started = std::time::Instant::now();
    let mut pages = 0;
    for table in TreeName::ALL {
        let logged = logged_pages_tree_name(table.name());
        if !present.contains(&logged) {
            continue;
        }
        let (from, to) = (
            db.open_tree(&logged)?,
            db.open_tree(&pages_tree_name(table.name()))?,
        );
        let (mut batch, mut bytes) = (Batch::default(), 0);
        for entry in from.iter() {
            let (id, page) = entry?;
            bytes += page.len();
            batch.insert(id.to_vec(), page.to_vec());
            pages += 1;
            if bytes >= MOVED_AT_ONCE {
                to.apply(std::mem::take(&mut batch))?;
                bytes = 0;
            }
        }
        to.apply(batch)?;
        db.drop_tree(&logged)?;
    }
    if pages > 0 {
        db.flush()?;
        tracing::info!(
            rows = pages,
            seconds = started.elapsed().as_secs_f64(),
            "migrated the store from format 10 to format 11 (pages in a file of their own)"
        );
    }
    Ok(())
}

/// Bytes of pages moved in one batch.
const MOVED_AT_ONCE: usize = 4 << 20;

/// Runs migration `from` → `from + 1` and logs it in one line.
fn step(
    from: u32,
    what: &str,
    run: impl FnOnce() -> Result<(Manifest, u64), StoreError>,
) -> Result<Manifest, StoreError> {
    let started = std::time::Instant::now();
    let (manifest, rows) = run()?;
    tracing::info!(
        rows,
        seconds = started.elapsed().as_secs_f64(),
        "migrated the store from format {from} to format {} ({what})",
        from + 1
    );
    Ok(manifest)
}

/// `trees` of `old` rewritten at the next generation by `rewrite`, which is given the old
/// root's name and writes the new table; other trees keep their generation.
fn rewrite(
    space: &Space,
    old: &Manifest,
    trees: &[TreeName],
    mut rewrite: impl FnMut(TreeName, &str, &mut PackedWriter) -> Result<(), StoreError>,
) -> Result<(Manifest, u64), StoreError> {
    let generation = old.generation + 1;
    let mut manifest = Manifest {
        generation,
        ..old.clone()
    };
    let mut rows = 0;
    for &tree in trees {
        let from = tree.stored_name(old.generation_of(tree).unwrap_or(0));
        let mut writer = space.writer(tree.name(), &tree.stored_name(generation))?;
        rewrite(tree, &from, &mut writer)?;
        rows += writer.finish()?.1;
        manifest.set_generation(tree, generation);
    }
    Ok((manifest, rows))
}

/// Format 1 kept one engine entry per row; format 2 keeps packed tables.
fn pack_tables(space: &Space, old: &Manifest) -> Result<(Manifest, u64), StoreError> {
    rewrite(space, old, TreeName::DATA, |_, from, writer| {
        for entry in space.db().open_tree(from)?.iter() {
            let (k, v) = entry?;
            writer.push(&k, &v)?;
        }
        Ok(())
    })
}

/// Format 6 keeps a table's blocks as pages its generations share.
fn relayout(space: &Space, old: &Manifest) -> Result<(Manifest, u64), StoreError> {
    rewrite(space, old, &TreeName::ALL, |_, from, writer| {
        for entry in legacy_entries(&space.db().open_tree(from)?) {
            let (k, v) = entry?;
            writer.push(&k, &v)?;
        }
        Ok(())
    })
}

/// Format 3 leads every record value with the codec's version byte.
fn version_values(space: &Space, old: &Manifest) -> Result<(Manifest, u64), StoreError> {
    let mut value = Vec::new();
    rewrite(space, old, TreeName::DATA, |tree, from, writer| {
        for entry in space.table(tree.name(), from)?.iter() {
            let (k, v) = entry?;
            value.clear();
            value.push(VALUE_VERSION);
            value.extend_from_slice(&v);
            writer.push(&k, &value)?;
        }
        Ok(())
    })
}

/// Format 9 holds the model series and the assembly-group tree (new, empty data sets) and
/// writes vehicles as version 2 values: their engine codes a list, their model series,
/// target type, body, engine kind and power range. The vehicles are rewritten so that a
/// re-import of the same rows finds them unchanged.
fn vehicles_v2(space: &Space, old: &Manifest) -> Result<(Manifest, u64), StoreError> {
    rewrite(space, old, &[TreeName::Vehicles], |tree, from, writer| {
        for entry in space.table(tree.name(), from)?.iter() {
            let (k, v) = entry?;
            let vehicle = Vehicle::decode(&k, &v).ok_or_else(|| {
                StoreError::Damaged(format!("vehicle {} cannot be decoded", hex::encode(&k)))
            })?;
            writer.push(&k, &vehicle.value())?;
        }
        Ok(())
    })
}

fn build_indexes(
    space: &Arc<Space>,
    path: &Path,
    manifest: &mut Manifest,
    which: &[TreeName],
) -> Result<u64, StoreError> {
    for &index in which {
        manifest.set_generation(index, manifest.generation);
    }
    let catalogue = Catalogue::open(space, manifest.clone())?;
    let spill = tempfile::Builder::new()
        .prefix(super::SPILL_PREFIX)
        .tempdir_in(path)
        .map_err(|e| StoreError::io("cannot make a sort directory", e))?;
    let mut rows = 0;
    for &index in which {
        let mut writer = space.writer(index.name(), &index.stored_name(manifest.generation))?;
        indexes::build(index, &catalogue, spill.path(), &mut |k, v| {
            writer.push(k, v)
        })?;
        rows += writer.finish()?.1;
    }
    Ok(rows)
}
