//! CSV imports of catalogue data sets: validated in full, then committed all at once or not
//! at all. A directory of `<type>.csv` files is one import, taken in dependency order.

mod assembly_tree;
mod columns;
mod csv_source;
mod data_set_files;
mod data_sets;
mod definitions_file;
mod file_rows;
mod held_rows;
mod one_file;
mod report;
mod rows;

use std::path::{Path, PathBuf};

pub use data_set_files::{WriteError, write_changes, write_data_set};
pub use data_sets::ImportType;
pub use file_rows::{FileRow, WrittenReferences};
pub use report::{FileReport, ImportReport, RowError, Verdict};

use crate::store::{Outcome, Store, StoreError, SyncMark, Tally};

/// The first rejected rows listed in a report; the count covers all of them.
pub const LISTED_ERRORS: usize = 20;

/// One file to import as one data set.
#[derive(Debug, Clone)]
pub struct ImportFile {
    pub import_type: ImportType,
    pub source: Source,
    pub mode: ImportMode,
}

/// What an import does to the rows of its data set that the file does not hold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ImportMode {
    /// They stay: the file adds and changes rows.
    #[default]
    Merge,
    /// They are retired, within the brands the file's rows name where the data set is per
    /// brand (see `ImportType::replace_scope`).
    Replace,
    /// They are retired whatever their brand: the file is the whole data set (a sync's full
    /// refresh).
    Refresh,
}

impl ImportMode {
    pub const NAMES: &'static str = "merge, replace";

    pub fn name(self) -> &'static str {
        match self {
            ImportMode::Merge => "merge",
            ImportMode::Replace => "replace",
            ImportMode::Refresh => "refresh",
        }
    }

    pub fn from_name(name: &str) -> Option<ImportMode> {
        [ImportMode::Merge, ImportMode::Replace]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// Where an import file's bytes come from.
#[derive(Debug, Clone)]
pub enum Source {
    Path(PathBuf),
    /// A file opened already (and checked), named in reports by `name` rather than a path.
    Opened {
        name: String,
        file: std::sync::Arc<std::fs::File>,
    },
    /// Bytes the binary carries (the demo catalogue), with a name for reports.
    Embedded {
        name: String,
        bytes: std::borrow::Cow<'static, [u8]>,
    },
}

impl Source {
    /// The file's size in bytes (0 when it cannot be read; opening it says why).
    pub fn bytes(&self) -> u64 {
        match self {
            Source::Path(p) => std::fs::metadata(p).map(|m| m.len()).unwrap_or(0),
            Source::Opened { file, .. } => file.metadata().map(|m| m.len()).unwrap_or(0),
            Source::Embedded { bytes, .. } => bytes.len() as u64,
        }
    }

    pub fn name(&self) -> String {
        match self {
            Source::Path(p) => p.display().to_string(),
            Source::Opened { name, .. } | Source::Embedded { name, .. } => name.clone(),
        }
    }

    /// The file to read, and its length.
    pub fn open(&self) -> Result<(Box<dyn std::io::Read>, u64), String> {
        match self {
            Source::Path(p) => {
                let file = std::fs::File::open(p).map_err(|e| format!("cannot be opened: {e}"))?;
                let len = file.metadata().map(|m| m.len()).unwrap_or(0);
                Ok((Box::new(file), len))
            }
            Source::Opened { file, .. } => {
                let len = file.metadata().map(|m| m.len()).unwrap_or(0);
                let mut own = file
                    .try_clone()
                    .map_err(|e| format!("cannot be read: {e}"))?;
                // The clone shares the offset: an earlier read (the hash) may have moved it.
                std::io::Seek::rewind(&mut own).map_err(|e| format!("cannot be read: {e}"))?;
                Ok((Box::new(own), len))
            }
            Source::Embedded { bytes, .. } => Ok((
                Box::new(std::io::Cursor::new(bytes.clone())),
                bytes.len() as u64,
            )),
        }
    }
}

/// What an import tells whoever watches it (a progress bar, a job status).
pub trait Progress {
    fn file_started(&self, _import_type: ImportType, _bytes: u64) {}
    fn advanced(&self, _bytes_read: u64) {}
    fn phase(&self, _text: &str) {}
    /// Files done of those a step handles (media downloads, packages, publishing).
    fn files(&self, _done: u64, _total: u64) {}
}

/// Watches nothing.
pub struct Quiet;
impl Progress for Quiet {}

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{file}: {message}")]
    File { file: String, message: String },
    #[error("{0}")]
    Directory(String),
    #[error(
        "the import needs about {needed} bytes ({} MiB) of free disk space in {dir} and {free} bytes ({} MiB) are free; free some space or import fewer files at once",
        needed >> 20,
        free >> 20
    )]
    DiskSpace { dir: String, needed: u64, free: u64 },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Free disk an import needs for each byte of its files: the sort runs (at most the rows
/// once) and their rows in the new tables (the measured store is under 1.5x its CSV, indexes
/// included). The rows of a changed table it already holds are counted apart.
const DISK_PER_INPUT_BYTE: u64 = 3;
/// And whatever the files' size: room for the engine's log to grow.
const DISK_RESERVE: u64 = 64 << 20;

/// Refuses an import the store's disk cannot take, before anything is written; returns the
/// bytes it needs.
fn check_free_space(
    store: &Store,
    files: &[ImportFile],
    dry_run: bool,
) -> Result<u64, ImportError> {
    let input: u64 = files.iter().map(|f| f.source.bytes()).sum();
    // A dry run writes only the sort runs; an import also rewrites the tables it changes.
    let (per_byte, rewritten) = if dry_run {
        (1, 0)
    } else {
        let data_sets: Vec<_> = files.iter().map(|f| f.import_type.tree()).collect();
        (
            DISK_PER_INPUT_BYTE,
            store.catalogue().rewrite_bound(&data_sets)?,
        )
    };
    let needed = input
        .saturating_mul(per_byte)
        .saturating_add(rewritten)
        .saturating_add(DISK_RESERVE);
    let free = store.free_bytes()?;
    if free < needed {
        return Err(ImportError::DiskSpace {
            dir: store.path().display().to_string(),
            needed,
            free,
        });
    }
    Ok(needed)
}

/// Lists the `<type>.csv` files of a directory in dependency order.
pub fn files_in_directory(dir: &Path) -> Result<Vec<ImportFile>, ImportError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| ImportError::Directory(format!("{}: cannot be read: {e}", dir.display())))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| ImportError::Directory(e.to_string()))?;
        let file_name = entry.file_name();
        let Some(stem) = file_name.to_str().and_then(|n| n.strip_suffix(".csv")) else {
            continue;
        };
        let import_type = ImportType::from_name(stem).ok_or_else(|| {
            ImportError::Directory(format!(
                "{}: '{stem}.csv' is not a data set; the files are named after one of: {}",
                dir.display(),
                ImportType::names()
            ))
        })?;
        // Opened now, as a regular file inside the directory: not a link, FIFO or device.
        let file = crate::outside::files::open_regular_in(dir, Path::new(&file_name))
            .map_err(|e| ImportError::Directory(format!("{}: {e}", dir.display())))?;
        files.push(ImportFile {
            import_type,
            source: Source::Opened {
                name: entry.path().display().to_string(),
                file: std::sync::Arc::new(file),
            },
            mode: ImportMode::Merge,
        });
    }
    if files.is_empty() {
        return Err(ImportError::Directory(format!(
            "{} holds no import file; name them <type>.csv with <type> one of: {}",
            dir.display(),
            ImportType::names()
        )));
    }
    files.sort_by_key(|f| f.import_type);
    Ok(files)
}

/// Reads a data set's file with the reader and bounds of an import, staging nothing: the
/// rows read and those refused, or why the file as a whole is refused. What the feed's fuzz
/// target drives.
pub fn read_rows(
    import_type: ImportType,
    input: Box<dyn std::io::Read>,
    limits: &crate::limits::Limits,
) -> Result<(u64, u64), String> {
    let mut source = csv_source::open(input, 0, &import_type.columns(), limits)?;
    let (mut rows, mut refused) = (0, 0);
    source.for_each_row(|row| {
        rows += 1;
        refused += u64::from(row.is_err());
        Ok(())
    })?;
    Ok((rows, refused))
}

/// Imports the files as one all-or-nothing change. A dry run validates everything and
/// reports what would change without writing anything.
pub fn import(
    store: &Store,
    files: &[ImportFile],
    dry_run: bool,
    progress: &dyn Progress,
) -> Result<ImportReport, ImportError> {
    import_with(store, files, dry_run, None, progress)
}

/// Imports what a sync took from its upstream, and commits with it how far the upstream has
/// been followed (even when the files change nothing).
pub fn import_synced(
    store: &Store,
    files: &[ImportFile],
    mark: SyncMark,
    progress: &dyn Progress,
) -> Result<ImportReport, ImportError> {
    import_with(store, files, false, Some(mark), progress)
}

fn import_with(
    store: &Store,
    files: &[ImportFile],
    dry_run: bool,
    mark: Option<SyncMark>,
    progress: &dyn Progress,
) -> Result<ImportReport, ImportError> {
    let mut ordered = files.to_vec();
    ordered.sort_by_key(|f| f.import_type);
    let needed = check_free_space(store, &ordered, dry_run)?;
    staged_and_committed(store, &ordered, dry_run, mark, progress).map_err(|e| match e {
        // Another process took the space the estimate counted on.
        ImportError::Store(StoreError::DiskFull) => ImportError::DiskSpace {
            dir: store.path().display().to_string(),
            needed,
            free: store.free_bytes().unwrap_or(0),
        },
        e => e,
    })
}

fn staged_and_committed(
    store: &Store,
    ordered: &[ImportFile],
    dry_run: bool,
    mark: Option<SyncMark>,
    progress: &dyn Progress,
) -> Result<ImportReport, ImportError> {
    let mut staging = store.begin(dry_run)?;
    if let Some(mark) = mark {
        staging.mark_synced(mark);
    }
    let mut reports = Vec::new();
    for (position, file) in ordered.iter().enumerate() {
        let position = u16::try_from(position)
            .map_err(|_| ImportError::Directory("too many files in one import".into()))?;
        let started = std::time::Instant::now();
        reports.push(one_file::stage(&mut staging, position, file, progress)?);
        tracing::debug!(file = file.source.name(), took = ?started.elapsed(), "file staged");
    }
    progress.phase("comparing with the catalogue");
    let started = std::time::Instant::now();
    let tallies = staging.seal()?;
    tracing::debug!(took = ?started.elapsed(), "staged rows compared and written");
    for (position, report) in reports.iter_mut().enumerate() {
        if let Some(tally) = tallies.get(&(position as u16)) {
            let names: Vec<String> = ordered.iter().map(|f| f.source.name()).collect();
            report.settle(tally, &names);
        }
    }
    let rejected = reports.iter().any(|r| r.rejected > 0);
    let verdict = if rejected {
        drop(staging);
        // Nothing is written: no row was added or changed.
        for report in &mut reports {
            (
                report.added,
                report.changed,
                report.unchanged,
                report.removed,
            ) = (0, 0, 0, 0);
        }
        Verdict::Rejected
    } else {
        let started = std::time::Instant::now();
        let outcome = staging.commit(&mut |text| progress.phase(text))?;
        tracing::debug!(took = ?started.elapsed(), "committed");
        match outcome {
            Outcome::Committed { data_version } => Verdict::Committed { data_version },
            Outcome::NothingChanged => Verdict::NothingChanged,
            Outcome::DryRun => Verdict::DryRun,
        }
    };
    Ok(ImportReport {
        files: reports,
        verdict,
    })
}

impl FileReport {
    /// Takes in what the file's rows do to the catalogue, known once its data set is sealed.
    fn settle(&mut self, tally: &Tally, files: &[String]) {
        self.added = tally.added;
        self.changed = tally.changed;
        self.unchanged = tally.unchanged;
        self.removed = tally.removed;
        self.rejected += tally.duplicate_count;
        for d in &tally.duplicates {
            let earlier = if files.get(d.earlier.file as usize) == Some(&self.file) {
                format!("line {}", d.earlier.line)
            } else {
                let other = files
                    .get(d.earlier.file as usize)
                    .map_or("?", |f| f.as_str());
                format!("line {} of {other}", d.earlier.line)
            };
            self.errors.push(RowError {
                line: d.line,
                message: format!("repeats the key of the row on {earlier}"),
            });
        }
        self.errors.sort_by_key(|e| e.line);
        self.errors.truncate(LISTED_ERRORS);
    }

    fn reject(&mut self, line: u64, message: String) {
        self.rejected += 1;
        if self.errors.len() < LISTED_ERRORS {
            self.errors.push(RowError { line, message });
        }
    }
}
