//! The local media store: files addressed by the SHA-256 of their content, so a frame that two
//! articles share is kept once, and an index from each catalogue URI to the file it names.
//!
//! Layout under `media_dir`:
//! - `objects/<first two hex digits>/<sha256>`: the files, written once, never changed;
//! - `uris/<sha256 of the URI>`: one line, `<sha256> <size> <content type> <uri>`;
//! - `tmp/`: downloads in progress (a `.part` per URI, resumed where the source allows), and
//!   URI entries being written (`.entry`).
//!
//! A file enters `objects/` by a rename of a complete, synced file, and its URI entry after
//! it, the same way (written in `tmp/` first): a reader never sees half a file, and a kill
//! leaves at most a `.part` or an `.entry` in `tmp/`.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::outside::files;

/// An entry is one line: two hashes' worth, a size, a content type and a URI.
const MAX_ENTRY_BYTES: u64 = 16 * 1024;

/// The entry of `uri`, relative to the store's directory.
fn entry_in_store(uri: &str) -> PathBuf {
    Path::new("uris").join(hex_sha256(uri.as_bytes()))
}

/// The object of `hash`, relative to the store's directory.
fn object_in_store(hash: &str) -> PathBuf {
    let prefix = hash.get(..2).unwrap_or("00");
    Path::new("objects").join(prefix).join(hash)
}

/// A file the store holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    /// SHA-256 of the content, lowercase hex.
    pub hash: String,
    pub size: u64,
    pub content_type: String,
}

/// Whether a file taken into the store is synced before it counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Durability {
    Synced,
    Remade,
}

pub struct MediaStore {
    dir: PathBuf,
}

fn hex_sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

impl MediaStore {
    /// Opens (creating) the media store at `dir`.
    pub fn open(dir: &Path) -> io::Result<MediaStore> {
        for sub in ["objects", "uris", "tmp"] {
            std::fs::create_dir_all(dir.join(sub))?;
        }
        Ok(MediaStore {
            dir: dir.to_owned(),
        })
    }

    /// The media store at `dir` for looking up only: nothing is created (a store that is not
    /// there holds nothing).
    pub fn reading(dir: &Path) -> MediaStore {
        MediaStore {
            dir: dir.to_owned(),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn entry_path(&self, uri: &str) -> PathBuf {
        self.dir.join(entry_in_store(uri))
    }

    /// Where the file of `hash` lives.
    pub fn object_path(&self, hash: &str) -> PathBuf {
        self.dir.join(object_in_store(hash))
    }

    /// Where a download of `uri` in progress is kept.
    pub fn partial_path(&self, uri: &str) -> PathBuf {
        self.dir
            .join("tmp")
            .join(format!("{}.part", hex_sha256(uri.as_bytes())))
    }

    /// The file the store holds for `uri`, if its entry and its object are both there. The
    /// entry is read only as a regular file of the store, and only a sound one counts: a
    /// hash of 64 hex digits (so its object lies where it should) and the URI it names.
    pub fn lookup(&self, uri: &str) -> Option<Stored> {
        let file = files::open_regular_in(&self.dir, &entry_in_store(uri)).ok()?;
        let mut text = String::new();
        file.take(MAX_ENTRY_BYTES).read_to_string(&mut text).ok()?;
        let mut parts = text.trim_end().splitn(4, ' ');
        let (hash, size, content_type, named) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let sound_hash = hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit());
        if named != uri || !sound_hash {
            return None;
        }
        let size: u64 = size.parse().ok()?;
        let on_disk = std::fs::metadata(self.object_path(hash)).ok()?;
        (on_disk.len() == size).then(|| Stored {
            hash: hash.to_owned(),
            size,
            content_type: content_type.to_owned(),
        })
    }

    /// Opens the file of `stored` for reading: a regular file in its place under `objects/`,
    /// reached through real directories only, and as long as its entry says.
    pub fn open_file(&self, stored: &Stored) -> Result<std::fs::File, files::FolderError> {
        let relative = object_in_store(&stored.hash);
        let file = files::open_regular_in(&self.dir, &relative)?;
        let size = file
            .metadata()
            .map_err(|e| files::FolderError::Io(relative.display().to_string(), e))?
            .len();
        if size != stored.size {
            return Err(files::FolderError::Io(
                relative.display().to_string(),
                io::Error::other(format!(
                    "holds {size} bytes, its entry says {}",
                    stored.size
                )),
            ));
        }
        Ok(file)
    }

    /// Takes the complete file at `part` (a download of `uri`) into the store: hashed, synced,
    /// renamed into `objects/` (or dropped, where the same content is there already), and the
    /// URI's entry written after it.
    pub fn admit(&self, uri: &str, part: &Path, content_type: &str) -> io::Result<Stored> {
        self.admit_as(uri, part, content_type, Durability::Synced)
    }

    /// `admit` for a file partscat makes again whenever the store lacks it (the demo's
    /// pictures): not synced, as a crash that loses it only means it is made again.
    pub fn admit_remade(&self, uri: &str, part: &Path, content_type: &str) -> io::Result<Stored> {
        self.admit_as(uri, part, content_type, Durability::Remade)
    }

    /// Names the file the store holds as `stored` by `uri` too, as `admit_remade` would for
    /// the same content (nothing synced), without writing the content again.
    pub fn name_remade(&self, uri: &str, stored: &Stored) -> io::Result<()> {
        self.write_entry(uri, stored, Durability::Remade)
    }

    fn admit_as(
        &self,
        uri: &str,
        part: &Path,
        content_type: &str,
        durability: Durability,
    ) -> io::Result<Stored> {
        let mut hash = Sha256::new();
        let mut file = std::fs::File::open(part)?;
        let mut buffer = vec![0u8; 64 * 1024];
        let mut size = 0u64;
        loop {
            let n = io::Read::read(&mut file, &mut buffer)?;
            if n == 0 {
                break;
            }
            hash.update(&buffer[..n]);
            size += n as u64;
        }
        let hash = hex::encode(hash.finalize());
        let object = self.object_path(&hash);
        if std::fs::metadata(&object).is_ok_and(|m| m.len() == size) {
            std::fs::remove_file(part)?;
        } else {
            if durability == Durability::Synced {
                std::fs::File::open(part)?.sync_all()?;
            }
            if let Some(parent) = object.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::rename(part, &object)?;
        }
        let stored = Stored {
            hash,
            size,
            content_type: content_type.to_owned(),
        };
        self.write_entry(uri, &stored, durability)?;
        Ok(stored)
    }

    fn write_entry(&self, uri: &str, stored: &Stored, durability: Durability) -> io::Result<()> {
        let entry = self.entry_path(uri);
        // Written beside the downloads, not in `uris/`: a kill before the rename leaves nothing
        // there that is not a whole entry.
        let temp = self
            .dir
            .join("tmp")
            .join(format!("{}.entry", hex_sha256(uri.as_bytes())));
        let _ = std::fs::remove_file(&temp);
        let mut file = files::create_private(&temp)?;
        writeln!(
            file,
            "{} {} {} {uri}",
            stored.hash, stored.size, stored.content_type
        )?;
        if durability == Durability::Synced {
            file.sync_all()?;
        }
        std::fs::rename(&temp, &entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_kept_once_and_found_by_each_uri_that_names_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::open(dir.path()).unwrap();
        assert_eq!(store.lookup("media/a.jpg"), None);
        for uri in ["media/a.jpg", "media/b.jpg"] {
            let part = store.partial_path(uri);
            std::fs::write(&part, b"the same frame").unwrap();
            store.admit(uri, &part, "image/jpeg").unwrap();
            assert!(!part.exists());
        }
        let a = store.lookup("media/a.jpg").unwrap();
        assert_eq!(store.lookup("media/b.jpg").unwrap(), a);
        assert_eq!(a.size, 14);
        let objects: Vec<_> = walk(&dir.path().join("objects"));
        assert_eq!(objects.len(), 1, "{objects:?}");
        assert_eq!(
            std::io::read_to_string(store.open_file(&a).unwrap()).unwrap(),
            "the same frame"
        );
        // An object that went missing makes the URI missing again.
        std::fs::remove_file(store.object_path(&a.hash)).unwrap();
        assert_eq!(store.lookup("media/a.jpg"), None);
    }

    #[test]
    fn an_object_that_is_a_link_or_an_entry_that_leads_outside_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::open(&dir.path().join("media")).unwrap();
        let part = store.partial_path("media/a.jpg");
        std::fs::write(&part, b"frame").unwrap();
        let a = store.admit("media/a.jpg", &part, "image/jpeg").unwrap();
        // The object replaced by a link to a file outside the store, of the same size.
        let outside = dir.path().join("secret");
        std::fs::write(&outside, b"12345").unwrap();
        std::fs::remove_file(store.object_path(&a.hash)).unwrap();
        std::os::unix::fs::symlink(&outside, store.object_path(&a.hash)).unwrap();
        let found = store.lookup("media/a.jpg").unwrap();
        assert!(matches!(
            store.open_file(&found),
            Err(files::FolderError::Link(_))
        ));
        // An entry whose hash climbs out of `objects/` names nothing.
        let entry = store.entry_path("media/b.jpg");
        std::fs::write(&entry, "../../../secret 5 image/jpeg media/b.jpg\n").unwrap();
        assert_eq!(store.lookup("media/b.jpg"), None);
        // An entry that is a link is not read.
        let elsewhere = dir.path().join("entry");
        std::fs::write(&elsewhere, format!("{} 5 image/jpeg media/c.jpg\n", a.hash)).unwrap();
        std::os::unix::fs::symlink(&elsewhere, store.entry_path("media/c.jpg")).unwrap();
        assert_eq!(store.lookup("media/c.jpg"), None);
    }

    fn walk(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            if e.path().is_dir() {
                out.extend(walk(&e.path()));
            } else {
                out.push(e.path());
            }
        }
        out
    }
}
