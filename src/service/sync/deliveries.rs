//! Syncing from a directory of dated deliveries, one subdirectory each, named so that they
//! sort by date.

use std::path::Path;

use super::{SyncError, SyncReport, SyncRequest, refuse_rejected};
use crate::import::{self, ImportFile, ImportMode, ImportReport, ImportType, Progress};
use crate::store::{Store, SyncMark};

/// The label of a source directory in the sync mark.
fn directory_label(dir: &Path) -> String {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_owned());
    format!("directory {}", dir.display())
}

/// The deliveries of a source directory, oldest first: its subdirectories, except those
/// still being written (named with a leading `.`); a link among them is refused.
fn deliveries(dir: &Path) -> Result<Vec<String>, SyncError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| SyncError::Source(dir.display().to_string(), e.to_string()))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry =
            entry.map_err(|e| SyncError::Source(dir.display().to_string(), e.to_string()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let kind = entry
            .file_type()
            .map_err(|e| SyncError::Source(dir.display().to_string(), e.to_string()))?;
        if name.starts_with('.') {
            continue;
        }
        if kind.is_symlink() {
            return Err(SyncError::Source(
                dir.display().to_string(),
                format!("'{name}' is a link; a delivery is a directory inside it"),
            ));
        }
        if kind.is_dir() {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// The files of one delivery for the data sets asked for (those it holds).
fn delivery_files(
    dir: &Path,
    data_sets: &[ImportType],
    mode: ImportMode,
) -> Result<Vec<ImportFile>, SyncError> {
    let files = import::files_in_directory(dir)
        .map_err(|e| SyncError::Source(dir.display().to_string(), e.to_string()))?;
    Ok(files
        .into_iter()
        .filter(|f| data_sets.contains(&f.import_type))
        .map(|f| ImportFile { mode, ..f })
        .collect())
}

/// Brings the catalogue up to a directory of dated deliveries: every delivery after the
/// position reached, or (`refresh`) each data set whole from the newest delivery that holds it.
pub(super) fn sync_from_deliveries(
    store: &Store,
    dir: &Path,
    request: SyncRequest,
    progress: &dyn Progress,
) -> Result<SyncReport, SyncError> {
    let data_sets = request.data_sets();
    let names: Vec<&str> = data_sets.iter().map(|d| d.name()).collect();
    let label = directory_label(dir);
    let all = deliveries(dir)?;
    let Some(newest) = all.last().cloned() else {
        return Err(SyncError::Source(
            dir.display().to_string(),
            "it holds no delivery".into(),
        ));
    };
    let mark = store.catalogue().sync_mark().clone();
    let from = data_sets
        .iter()
        .map(|d| mark.reached(&label, d.name()).map(str::to_owned))
        .collect::<Option<Vec<String>>>()
        .and_then(|v| v.into_iter().min());
    let upstream = dir.display().to_string();
    let reached = newest.clone();
    let imports = if request.refresh {
        vec![refresh(
            store,
            dir,
            &all,
            &data_sets,
            mark.advanced(&label, &names, &newest),
            progress,
        )?]
    } else {
        catch_up(
            store,
            dir,
            &all,
            from.as_deref(),
            &data_sets,
            mark,
            progress,
        )?
    };
    Ok(SyncReport {
        upstream,
        from,
        reached,
        imports,
    })
}

/// Each data set from the newest delivery that holds it, replacing it whole, as one change
/// that records `mark`.
fn refresh(
    store: &Store,
    dir: &Path,
    all: &[String],
    data_sets: &[ImportType],
    mark: SyncMark,
    progress: &dyn Progress,
) -> Result<ImportReport, SyncError> {
    let mut files: Vec<ImportFile> = Vec::new();
    for name in all.iter().rev() {
        for file in delivery_files(&dir.join(name), data_sets, ImportMode::Refresh)? {
            if !files.iter().any(|f| f.import_type == file.import_type) {
                files.push(file);
            }
        }
    }
    if files.is_empty() {
        let names: Vec<&str> = data_sets.iter().map(|d| d.name()).collect();
        return Err(SyncError::Source(
            dir.display().to_string(),
            format!("no delivery holds a file of {}", names.join(", ")),
        ));
    }
    let report = import::import_synced(store, &files, mark, progress)?;
    refuse_rejected(&report)?;
    Ok(report)
}

/// Every delivery after the oldest position reached (`from`), in order, each its own change;
/// one that is refused stops the sync there, the earlier ones kept.
fn catch_up(
    store: &Store,
    dir: &Path,
    all: &[String],
    from: Option<&str>,
    data_sets: &[ImportType],
    mut mark: SyncMark,
    progress: &dyn Progress,
) -> Result<Vec<ImportReport>, SyncError> {
    let label = directory_label(dir);
    let names: Vec<&str> = data_sets.iter().map(|d| d.name()).collect();
    let mut imports = Vec::new();
    for name in all.iter().filter(|n| from.is_none_or(|f| n.as_str() > f)) {
        let files: Vec<ImportFile> = delivery_files(&dir.join(name), data_sets, ImportMode::Merge)?
            .into_iter()
            // A data set already past this delivery takes nothing from it.
            .filter(|f| {
                mark.reached(&label, f.import_type.name())
                    .is_none_or(|r| r < name.as_str())
            })
            .collect();
        let next = mark.advanced(&label, &names, name);
        progress.phase(&format!("delivery {name}"));
        let report = import::import_synced(store, &files, next.clone(), progress)?;
        refuse_rejected(&report)?;
        imports.push(report);
        mark = next;
    }
    Ok(imports)
}
