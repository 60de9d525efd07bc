//! Staging one import file: its mode's retirement of the rows it does not hold, the shortcut
//! for the same bytes as last time, and its rows, each validated and staged or rejected.

use std::cell::RefCell;
use std::rc::Rc;

use sha2::{Digest, Sha256};

use super::assembly_tree::TreeFile;
use super::data_sets::Staged;
use super::definitions_file::DefinitionsFile;
use super::{FileReport, ImportError, ImportFile, ImportMode, ImportType, Progress, csv_source};
use crate::store::{Replace, Staging};

/// Passes what it reads on and hashes it on the way.
struct Hashing<R> {
    inner: R,
    hash: Rc<RefCell<Sha256>>,
}

impl<R: std::io::Read> std::io::Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.borrow_mut().update(&buf[..n]);
        Ok(n)
    }
}

/// `input`, hashed as it is read; the hash is taken once it has all been.
fn hashing<R>(inner: R) -> (Hashing<R>, Rc<RefCell<Sha256>>) {
    let hash = Rc::new(RefCell::new(Sha256::new()));
    (
        Hashing {
            inner,
            hash: hash.clone(),
        },
        hash,
    )
}

fn taken(hash: &RefCell<Sha256>) -> [u8; 32] {
    std::mem::take(&mut *hash.borrow_mut()).finalize().into()
}

/// Stages file `position` of an import.
pub(super) fn stage(
    staging: &mut Staging<'_>,
    position: u16,
    file: &ImportFile,
    progress: &dyn Progress,
) -> Result<FileReport, ImportError> {
    let import_type = file.import_type;
    let name = file.source.name();
    let file_error = |message: String| ImportError::File {
        file: name.clone(),
        message,
    };
    let mut report = FileReport::new(import_type, &name, file.mode);
    let scope = import_type.replace_scope(position);
    match file.mode {
        ImportMode::Merge => {}
        ImportMode::Replace => staging.replace(import_type.tree(), scope)?,
        ImportMode::Refresh => staging.replace(
            import_type.tree(),
            Replace {
                per_brand: false,
                ..scope
            },
        )?,
    }
    if let Some(rows) = unchanged(staging, file).map_err(file_error)? {
        report.rows = rows;
        report.unchanged = rows;
        return Ok(report);
    }
    let (input, len) = file.source.open().map_err(file_error)?;
    let (input, hash) = hashing(input);
    let limits = staging.limits();
    let mut source = csv_source::open(Box::new(input), len, &import_type.columns(), &limits)
        .map_err(file_error)?;
    progress.file_started(import_type, source.bytes_total);
    let mut store_failure = None;
    let mut tree_file = (import_type == ImportType::AssemblyGroups).then(TreeFile::default);
    let mut definitions_file =
        (import_type == ImportType::CriterionDefinitions).then(DefinitionsFile::default);
    let bytes = source.bytes_read_counter();
    source
        .for_each_row(|row| {
            report.rows += 1;
            if report.rows.is_multiple_of(4096) {
                progress.advanced(bytes.get());
            }
            let outcome = match row {
                Ok(row) if let Some(held) = tree_file.as_mut() => {
                    held.take(&row).map_err(|message| (row.line, message))
                }
                Ok(row) if let Some(held) = definitions_file.as_mut() => {
                    held.take(&row).map_err(|message| (row.line, message))
                }
                Ok(row) => match import_type.stage(&row, position, staging) {
                    Ok(Ok(Staged::LeftOut { language })) => {
                        *report.left_out.entry(language).or_default() += 1;
                        Ok(())
                    }
                    Ok(result) => result.map(drop).map_err(|message| (row.line, message)),
                    Err(e) => {
                        store_failure = Some(e);
                        return Err("store failure".into());
                    }
                },
                Err(bad) => Err(bad),
            };
            if let Err((line, message)) = outcome {
                report.reject(line, message);
            }
            Ok(())
        })
        .map_err(|message| match store_failure.take() {
            Some(e) => ImportError::Store(e),
            None => file_error(message),
        })?;
    progress.advanced(source.bytes_total);
    drop(source);
    if let Some(held) = tree_file {
        for (line, message) in held.stage(staging, position, file.mode != ImportMode::Merge)? {
            report.reject(line, message);
        }
    }
    if let Some(held) = definitions_file {
        for (line, message) in held.stage(staging, position, file.mode != ImportMode::Merge)? {
            report.reject(line, message);
        }
    }
    let (data_set, tree) = (import_type.name(), import_type.tree());
    staging.note_file(data_set, tree, taken(&hash), report.rows, false);
    Ok(report)
}

/// The rows of the file, when it merges the same bytes as a file whose rows the catalogue
/// still holds: nothing to read. (A replace reads its file: the table may hold rows of other
/// files it would retire.)
fn unchanged(staging: &mut Staging<'_>, file: &ImportFile) -> Result<Option<u64>, String> {
    let (data_set, tree) = (file.import_type.name(), file.import_type.tree());
    if file.mode != ImportMode::Merge {
        return Ok(None);
    }
    let Some((sha256, rows)) = staging.recorded_import(data_set, tree) else {
        return Ok(None);
    };
    let (input, _) = file.source.open()?;
    let (mut input, hash) = hashing(input);
    std::io::copy(&mut input, &mut std::io::sink()).map_err(|e| format!("cannot be read: {e}"))?;
    if taken(&hash) != sha256 {
        return Ok(None);
    }
    staging.note_file(data_set, tree, sha256, rows, true);
    Ok(Some(rows))
}
