//! CSV imports of catalogue data sets: validated in full, then committed all at once or not
//! at all. A directory of `<type>.csv` files is one import, taken in dependency order.

mod csv_source;
mod data_sets;
mod report;

use std::path::{Path, PathBuf};

pub use data_sets::ImportType;
pub use report::{FileReport, ImportReport, RowError, Verdict};

use crate::store::{Change, Outcome, Store, StoreError};

/// The first rejected rows listed in a report; the count covers all of them.
pub const LISTED_ERRORS: usize = 20;

/// One file to import as one data set.
#[derive(Debug, Clone)]
pub struct ImportFile {
    pub import_type: ImportType,
    pub source: Source,
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
    pub fn name(&self) -> String {
        match self {
            Source::Path(p) => p.display().to_string(),
            Source::Opened { name, .. } | Source::Embedded { name, .. } => name.clone(),
        }
    }

    fn open(&self) -> Result<(Box<dyn std::io::Read>, u64), String> {
        match self {
            Source::Path(p) => {
                let file = std::fs::File::open(p).map_err(|e| format!("cannot be opened: {e}"))?;
                let len = file.metadata().map(|m| m.len()).unwrap_or(0);
                Ok((Box::new(file), len))
            }
            Source::Opened { file, .. } => {
                let len = file.metadata().map(|m| m.len()).unwrap_or(0);
                let own = file
                    .try_clone()
                    .map_err(|e| format!("cannot be read: {e}"))?;
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
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Lists the `<type>.csv` files of a directory in dependency order.
pub fn files_in_directory(dir: &Path) -> Result<Vec<ImportFile>, ImportError> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| ImportError::Directory(format!("{}: cannot be read: {e}", dir.display())))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| ImportError::Directory(e.to_string()))?
            .path();
        let Some(stem) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".csv"))
        else {
            continue;
        };
        let import_type = ImportType::from_name(stem).ok_or_else(|| {
            ImportError::Directory(format!(
                "{}: '{stem}.csv' is not a data set; the files are named after one of: {}",
                dir.display(),
                ImportType::names()
            ))
        })?;
        files.push(ImportFile {
            import_type,
            source: Source::Path(path),
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

/// Imports the files as one all-or-nothing change. A dry run validates everything and
/// reports what would change without writing anything.
pub fn import(
    store: &Store,
    files: &[ImportFile],
    dry_run: bool,
    progress: &dyn Progress,
) -> Result<ImportReport, ImportError> {
    let mut ordered = files.to_vec();
    ordered.sort_by_key(|f| f.import_type);
    let mut staging = store.begin(dry_run)?;
    let mut reports = Vec::new();
    for file in &ordered {
        reports.push(stage_file(&mut staging, file, progress)?);
    }
    let rejected = reports.iter().any(|r| r.rejected > 0);
    let verdict = if rejected {
        drop(staging);
        Verdict::Rejected
    } else {
        match staging.commit(&mut |text| progress.phase(text))? {
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

fn stage_file(
    staging: &mut crate::store::Staging<'_>,
    file: &ImportFile,
    progress: &dyn Progress,
) -> Result<FileReport, ImportError> {
    let name = file.source.name();
    let file_error = |message: String| ImportError::File {
        file: name.clone(),
        message,
    };
    let (input, len) = file.source.open().map_err(file_error)?;
    let mut source =
        csv_source::open(input, len, &file.import_type.columns()).map_err(file_error)?;
    progress.file_started(file.import_type, source.bytes_total);
    let mut report = FileReport::new(file.import_type, &name);
    let mut store_failure = None;
    let mut rows = 0u64;
    let bytes = source.bytes_read_counter();
    source
        .for_each_row(|row| {
            rows += 1;
            if rows.is_multiple_of(4096) {
                progress.advanced(bytes.get());
            }
            let outcome = match row {
                Ok(row) => match file.import_type.stage(&row, staging) {
                    Ok(result) => result.map_err(|message| (row.line, message)),
                    Err(e) => {
                        store_failure = Some(e);
                        return Err("store failure".into());
                    }
                },
                Err(bad) => Err(bad),
            };
            match outcome {
                Ok(change) => report.count(change),
                Err((line, message)) => report.reject(line, message),
            }
            Ok(())
        })
        .map_err(|message| match store_failure.take() {
            Some(e) => ImportError::Store(e),
            None => file_error(message),
        })?;
    progress.advanced(source.bytes_total);
    Ok(report)
}

impl FileReport {
    fn count(&mut self, change: Change) {
        self.rows += 1;
        match change {
            Change::Added => self.added += 1,
            Change::Changed => self.changed += 1,
            Change::Unchanged | Change::Duplicate => self.unchanged += 1,
        }
    }

    fn reject(&mut self, line: u64, message: String) {
        self.rows += 1;
        self.rejected += 1;
        if self.errors.len() < LISTED_ERRORS {
            self.errors.push(RowError { line, message });
        }
    }
}
