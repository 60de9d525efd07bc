//! Backups: the whole store (the catalogue of one data version with its change feed, the
//! providers, grants and the audit trail) as one file, and that file restored into an empty
//! directory.
//!
//! The file: `partscat-backup\n`, the backup layout and the store's format version (u32 each,
//! big-endian), then frames: `T` and a tree's name, `E` and one entry's key and value (each
//! length-prefixed, u32 big-endian), and last `Z` with the SHA-256 of every byte before it.
//! A restore reads the whole file and checks it before it writes anything, so a damaged,
//! truncated or foreign file is refused with nothing written.

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::check::CheckReport;
use super::error::StoreError;
use super::layout::{changes_tree, parse_stored_name};
use super::reclaim::FREED_PAGES;
use super::{FORMAT_VERSION, META, Store, engine};

mod structure;

use structure::checked_structure;

const MAGIC: &[u8] = b"partscat-backup\n";
const LAYOUT: u32 = 1;
const TREE: u8 = b'T';
const ENTRY: u8 = b'E';
const END: u8 = b'Z';
/// Entries written to a restored tree at once.
const BATCH: usize = 4096;

/// What a backup holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BackupSummary {
    pub data_version: u64,
    pub trees: u64,
    pub entries: u64,
    pub bytes: u64,
}

/// Why a restore cannot be done.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error("{0} is not a partscat backup")]
    Foreign(String),
    #[error("{0} is damaged: {1}")]
    Damaged(String, String),
    #[error("{0} is a backup of store format {1}, newer than this partscat's {FORMAT_VERSION}")]
    Newer(String, u32),
    #[error("{0} is not an empty directory; a backup is restored into an empty one")]
    NotEmpty(String),
    #[error("{0}: {1}")]
    Io(String, String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Hashes what passes through, on its way out or in.
struct Hashed<T> {
    inner: T,
    hash: Sha256,
    bytes: u64,
}

impl<W: Write> Write for Hashed<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<R: Read> Read for Hashed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
}

fn write_bytes(out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    let len = u32::try_from(bytes.len()).map_err(|_| io::Error::other("a value over 4 GiB"))?;
    out.write_all(&len.to_be_bytes())?;
    out.write_all(bytes)
}

impl Store {
    /// Writes a backup of the store to `out`. Imports and syncs wait while it is written, so
    /// the catalogue is that of one data version; the providers, grants and audit trail are
    /// read as they are at that moment.
    pub fn backup(&self, out: impl Write) -> Result<BackupSummary, StoreError> {
        let _no_commits = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let catalogue = self.catalogue();
        let manifest = catalogue.manifest();
        let mut names: Vec<String> = manifest
            .trees
            .iter()
            .map(|(name, generation)| format!("{name}@{generation}"))
            .chain(manifest.changes.kept.iter().map(|(v, _)| changes_tree(*v)))
            .collect();
        // The lists of freed pages before the pages (a page deleted while the backup is
        // written is deleted before its list), then the trees outside the catalogue
        // (pages, providers, grants, audit), then the meta tree, whose manifest names the
        // rest: a restore writes it last.
        let mut outside: Vec<String> = self
            .db
            .tree_names()
            .into_iter()
            .filter(|n| parse_stored_name(n).is_none() && n != META)
            .collect();
        outside.sort_by_key(|n| n != FREED_PAGES);
        names.extend(outside);
        names.push(META.to_owned());
        let io_error = |e: io::Error| StoreError::io("the backup cannot be written", e);
        let mut out = Hashed {
            inner: BufWriter::with_capacity(1 << 20, out),
            hash: Sha256::new(),
            bytes: 0,
        };
        out.write_all(MAGIC).map_err(io_error)?;
        out.write_all(&LAYOUT.to_be_bytes()).map_err(io_error)?;
        out.write_all(&FORMAT_VERSION.to_be_bytes())
            .map_err(io_error)?;
        let mut summary = BackupSummary {
            data_version: manifest.data_version,
            ..BackupSummary::default()
        };
        for name in &names {
            out.write_all(&[TREE]).map_err(io_error)?;
            write_bytes(&mut out, name.as_bytes()).map_err(io_error)?;
            summary.trees += 1;
            for entry in self.db.open_tree(name)?.iter() {
                let (k, v) = entry?;
                out.write_all(&[ENTRY]).map_err(io_error)?;
                write_bytes(&mut out, &k).map_err(io_error)?;
                write_bytes(&mut out, &v).map_err(io_error)?;
                summary.entries += 1;
            }
        }
        out.write_all(&[END]).map_err(io_error)?;
        let digest = out.hash.clone().finalize();
        out.write_all(&digest).map_err(io_error)?;
        out.flush().map_err(io_error)?;
        summary.bytes = out.bytes;
        Ok(summary)
    }
}

/// One frame of a backup.
enum Frame {
    Tree(String),
    Entry(Vec<u8>, Vec<u8>),
    End,
}

/// Reads a backup's frames; `apply` gets each. Errors say what is wrong with the file.
fn read_frames(
    file: &Path,
    mut apply: impl FnMut(Frame) -> Result<(), RestoreError>,
) -> Result<(), RestoreError> {
    let name = file.display().to_string();
    let damaged = |why: String| RestoreError::Damaged(name.clone(), why);
    let opened =
        std::fs::File::open(file).map_err(|e| RestoreError::Io(name.clone(), e.to_string()))?;
    let mut input = Hashed {
        inner: BufReader::with_capacity(1 << 20, opened),
        hash: Sha256::new(),
        bytes: 0,
    };
    let mut magic = [0u8; MAGIC.len()];
    if input.read_exact(&mut magic).is_err() || magic != MAGIC {
        return Err(RestoreError::Foreign(name.clone()));
    }
    if input.number().map_err(damaged)? != LAYOUT {
        return Err(RestoreError::Foreign(name.clone()));
    }
    let format = input.number().map_err(damaged)?;
    if format > FORMAT_VERSION {
        return Err(RestoreError::Newer(name.clone(), format));
    }
    loop {
        let mut kind = [0u8; 1];
        input
            .read_exact(&mut kind)
            .map_err(|_| damaged("it ends early".into()))?;
        match kind[0] {
            TREE => {
                let tree = String::from_utf8(input.field().map_err(damaged)?)
                    .map_err(|_| damaged("a tree name is not text".into()))?;
                apply(Frame::Tree(tree))?;
            }
            ENTRY => {
                let key = input.field().map_err(damaged)?;
                let value = input.field().map_err(damaged)?;
                apply(Frame::Entry(key, value))?;
            }
            END => {
                input.end().map_err(damaged)?;
                return apply(Frame::End);
            }
            other => return Err(damaged(format!("an unknown frame {other:#04x}"))),
        }
    }
}

impl<R: Read> Hashed<R> {
    /// A big-endian `u32`.
    fn number(&mut self) -> Result<u32, String> {
        let mut b = [0u8; 4];
        self.read_exact(&mut b)
            .map_err(|_| "it ends early".to_owned())?;
        Ok(u32::from_be_bytes(b))
    }

    /// A length, then that many bytes.
    fn field(&mut self) -> Result<Vec<u8>, String> {
        let len = self.number()? as usize;
        let mut bytes = Vec::with_capacity(len.min(1 << 20));
        self.by_ref()
            .take(len as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| e.to_string())?;
        if bytes.len() != len {
            return Err("it ends early".into());
        }
        Ok(bytes)
    }

    /// The checksum of everything read before it, and nothing after it.
    fn end(&mut self) -> Result<(), String> {
        let computed = self.hash.clone().finalize();
        let mut stored = [0u8; 32];
        self.inner
            .read_exact(&mut stored)
            .map_err(|_| "it ends early".to_owned())?;
        if computed.as_slice() != stored {
            return Err("its checksum does not match its content".into());
        }
        if self.inner.read(&mut [0u8; 1]).map_err(|e| e.to_string())? != 0 {
            return Err("it goes on after its end".into());
        }
        Ok(())
    }
}

/// Restores the backup `file` into `dir`, which must be empty or absent. The file is checked
/// whole first (its checksum, and that it holds only partscat's own trees, each once); the
/// store written is then opened and checked in full. Should anything fail, what was written
/// is removed again, and `dir` too where the restore made it. The store's check report.
pub fn restore(dir: &Path, file: &Path) -> Result<(BackupSummary, CheckReport), RestoreError> {
    let shown = dir.display().to_string();
    let existed = match std::fs::read_dir(dir) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(RestoreError::NotEmpty(shown));
            }
            true
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => false,
        Err(e) => return Err(RestoreError::Io(shown, e.to_string())),
    };
    let file_name = file.display().to_string();
    read_frames(file, checked_structure(&file_name))?;
    super::file_modes::create_private_dir(dir)
        .map_err(|e| RestoreError::Io(shown.clone(), e.to_string()))?;
    let restored = write_trees(dir, file).and_then(|summary| {
        let store = Store::open(dir)?;
        let report = super::check::check(&store)?;
        if let Some(problem) = report.problems.first() {
            return Err(RestoreError::Damaged(
                file_name.clone(),
                format!(
                    "the catalogue it holds does not check out ({} problems; the first: {problem})",
                    report.problem_count
                ),
            ));
        }
        super::check::probe(&store).map_err(|e| RestoreError::Damaged(file_name.clone(), e))?;
        Ok((
            BackupSummary {
                data_version: store.catalogue().data_version(),
                ..summary
            },
            report,
        ))
    });
    if restored.is_err() {
        if existed {
            if let Ok(entries) = std::fs::read_dir(dir) {
                for entry in entries.flatten() {
                    let path = entry.path();
                    let _ = if entry.file_type().is_ok_and(|t| t.is_dir()) {
                        std::fs::remove_dir_all(&path)
                    } else {
                        std::fs::remove_file(&path)
                    };
                }
            }
        } else {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    restored
}

fn write_trees(dir: &Path, file: &Path) -> Result<BackupSummary, RestoreError> {
    let db = engine::open_sled(dir, 64 << 20)?;
    let mut summary = BackupSummary::default();
    let mut tree: Option<engine::Tree> = None;
    let mut batch = engine::Batch::default();
    let mut pending = 0;
    read_frames(file, |frame| {
        match frame {
            Frame::Tree(name) => {
                if let Some(t) = &tree {
                    t.apply(std::mem::take(&mut batch))?;
                }
                tree = Some(db.open_tree(&name)?);
                summary.trees += 1;
            }
            Frame::Entry(k, v) => {
                batch.insert(k, v);
                pending += 1;
                summary.entries += 1;
                if pending == BATCH
                    && let Some(t) = &tree
                {
                    t.apply(std::mem::take(&mut batch))?;
                    pending = 0;
                }
            }
            Frame::End => {
                if let Some(t) = &tree {
                    t.apply(std::mem::take(&mut batch))?;
                }
            }
        }
        Ok(())
    })?;
    db.flush()?;
    summary.bytes = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0);
    Ok(summary)
}
