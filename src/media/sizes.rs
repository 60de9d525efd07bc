//! A picture of the media store at the sizes answers offer (`imageURL50` … `imageURL800`):
//! scaled down once to fit the size, kept beside the originals and answered from there ever
//! after. Kept under `sizes/<size>/<sha256 of the original>`, so a picture two URIs share is
//! scaled once; written in `tmp/` and renamed, so no reader sees half a file.
//!
//! JPEG and PNG pictures are scaled (the kinds makers deliver); a picture already within the
//! size, one of another kind, or one that cannot be read as its kind is answered as it is.

use std::fs::File;
use std::io::{self, Cursor, Read};
use std::path::{Path, PathBuf};

use image::imageops::FilterType;
use image::{ImageFormat, ImageReader, Limits};

use super::store::{MediaStore, Stored};
use crate::outside::files;

/// The sizes answers offer, in pixels of the longer side.
pub const SIZES: [u32; 5] = [50, 100, 200, 400, 800];

/// What decoding one picture may take: a delivered file is not trusted to be as small as it
/// looks (a few kilobytes may claim a billion pixels).
const MAX_SIDE: u32 = 20_000;
const MAX_DECODED_BYTES: u64 = 512 * 1024 * 1024;

/// Held while a picture is decoded and scaled (`MediaStore::scaled`).
static SCALING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// JPEG quality of a scaled picture.
const JPEG_QUALITY: u8 = 85;

fn format_of(content_type: &str) -> Option<ImageFormat> {
    let declared = content_type.split(';').next().unwrap_or("").trim();
    match declared.to_ascii_lowercase().as_str() {
        "image/jpeg" => Some(ImageFormat::Jpeg),
        "image/png" => Some(ImageFormat::Png),
        _ => None,
    }
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODED_BYTES);
    limits
}

/// A scaled picture, opened: its file and what it is (`hash` names the original and the
/// size, so it changes where either does).
pub struct Scaled {
    pub file: File,
    pub stored: Stored,
}

impl MediaStore {
    fn scaled_in_store(hash: &str, size: u32) -> PathBuf {
        Path::new("sizes").join(size.to_string()).join(hash)
    }

    /// The picture `stored` (opened as `original`) fitted within `size` pixels, scaled now
    /// where the store does not keep it yet. None where the original is answered as it is:
    /// already within the size, not a JPEG or PNG, or not readable as one.
    pub fn scaled(
        &self,
        stored: &Stored,
        mut original: File,
        size: u32,
    ) -> io::Result<Option<Scaled>> {
        let Some(format) = format_of(&stored.content_type) else {
            return Ok(None);
        };
        let relative = Self::scaled_in_store(&stored.hash, size);
        let scaled_stored = |bytes: u64| Stored {
            hash: format!("{}-{size}", stored.hash),
            size: bytes,
            content_type: stored.content_type.clone(),
        };
        let kept = || -> io::Result<Option<Scaled>> {
            let Ok(file) = files::open_regular_in(self.dir(), &relative) else {
                return Ok(None);
            };
            let bytes = file.metadata()?.len();
            Ok(Some(Scaled {
                file,
                stored: scaled_stored(bytes),
            }))
        };
        if let Some(found) = kept()? {
            return Ok(Some(found));
        }
        // One picture scaled at a time: each may decode hundreds of megabytes, and many first
        // requests for new pictures must not add them up. A request that waited may find the
        // picture scaled meanwhile.
        let one_at_a_time = SCALING.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = kept()? {
            return Ok(Some(found));
        }
        let mut content = Vec::with_capacity(usize::try_from(stored.size).unwrap_or(0));
        original.read_to_end(&mut content)?;
        let scaled = scale(&content, format, size, &stored.hash);
        drop((one_at_a_time, content));
        let Some(scaled) = scaled else {
            return Ok(None);
        };
        let path = self.dir().join(&relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let temp = self
            .dir()
            .join("tmp")
            .join(format!("{}-{size}.scaled", stored.hash));
        std::fs::create_dir_all(self.dir().join("tmp"))?;
        let _ = std::fs::remove_file(&temp);
        io::Write::write_all(&mut files::create_private(&temp)?, &scaled)?;
        // Made again whenever it is missing: a crash that loses it costs one more scaling.
        std::fs::rename(&temp, &path)?;
        let file = files::open_regular_in(self.dir(), &relative)
            .map_err(|e| io::Error::other(e.to_string()))?;
        Ok(Some(Scaled {
            file,
            stored: scaled_stored(scaled.len() as u64),
        }))
    }
}

/// The picture `content` fitted within `size`, encoded as its own kind; None where it is
/// within the size already or cannot be read.
fn scale(content: &[u8], format: ImageFormat, size: u32, hash: &str) -> Option<Vec<u8>> {
    let mut reader = ImageReader::with_format(Cursor::new(content), format);
    reader.limits(limits());
    let picture = match reader.decode() {
        Ok(picture) => picture,
        Err(e) => {
            tracing::warn!(hash, error = %e, "a picture of the media store is answered unscaled: it cannot be read");
            return None;
        }
    };
    if picture.width() <= size && picture.height() <= size {
        return None;
    }
    let scaled = picture.resize(size, size, FilterType::CatmullRom);
    let mut out = Vec::new();
    let written = match format {
        ImageFormat::Jpeg => {
            let encoder =
                image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY);
            image::DynamicImage::ImageRgb8(scaled.to_rgb8()).write_with_encoder(encoder)
        }
        _ => scaled.write_to(&mut Cursor::new(&mut out), ImageFormat::Png),
    };
    match written {
        Ok(()) => Some(out),
        Err(e) => {
            tracing::warn!(hash, error = %e, "a picture of the media store is answered unscaled: it cannot be written scaled");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(width: u32, height: u32, format: ImageFormat) -> Vec<u8> {
        let img = image::RgbImage::from_fn(width, height, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
        });
        let mut out = Vec::new();
        image::DynamicImage::ImageRgb8(img)
            .write_to(&mut Cursor::new(&mut out), format)
            .unwrap();
        out
    }

    fn admitted(store: &MediaStore, uri: &str, bytes: &[u8], kind: &str) -> Stored {
        let part = store.partial_path(uri);
        std::fs::write(&part, bytes).unwrap();
        store.admit(uri, &part, kind).unwrap()
    }

    fn dimensions(file: File) -> (u32, u32) {
        let mut bytes = Vec::new();
        io::BufReader::new(file).read_to_end(&mut bytes).unwrap();
        image::load_from_memory(&bytes)
            .unwrap()
            .into_rgb8()
            .dimensions()
    }

    #[test]
    fn a_picture_is_scaled_once_to_fit_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::open(dir.path()).unwrap();
        let stored = admitted(
            &store,
            "media/wide.jpg",
            &picture(600, 300, ImageFormat::Jpeg),
            "image/jpeg",
        );
        let open = || store.open_file(&stored).unwrap();
        let scaled = store.scaled(&stored, open(), 200).unwrap().unwrap();
        assert_eq!(scaled.stored.content_type, "image/jpeg");
        assert_eq!(dimensions(scaled.file), (200, 100));
        let kept = dir.path().join("sizes/200").join(&stored.hash);
        assert!(kept.is_file());
        // Answered from what is kept: the original is not read again.
        let again = store.scaled(&stored, File::open("/dev/null").unwrap(), 200);
        assert_eq!(again.unwrap().unwrap().stored, scaled.stored);
        // Within the size already: the original.
        assert!(store.scaled(&stored, open(), 800).unwrap().is_none());
    }

    #[test]
    fn what_cannot_be_scaled_is_answered_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let store = MediaStore::open(dir.path()).unwrap();
        let png = admitted(
            &store,
            "media/tall.png",
            &picture(100, 400, ImageFormat::Png),
            "image/png",
        );
        let scaled = store
            .scaled(&png, store.open_file(&png).unwrap(), 50)
            .unwrap()
            .unwrap();
        assert_eq!(dimensions(scaled.file), (13, 50));
        let broken = admitted(&store, "media/broken.jpg", b"not a jpeg", "image/jpeg");
        let open = store.open_file(&broken).unwrap();
        assert!(store.scaled(&broken, open, 50).unwrap().is_none());
        let pdf = admitted(&store, "docs/a.pdf", b"%PDF-1.4", "application/pdf");
        let open = store.open_file(&pdf).unwrap();
        assert!(store.scaled(&pdf, open, 50).unwrap().is_none());
        // A picture claiming more pixels than decoding may take is not decoded.
        let huge = admitted(
            &store,
            "media/huge.png",
            &picture(MAX_SIDE + 1, 1, ImageFormat::Png),
            "image/png",
        );
        let open = store.open_file(&huge).unwrap();
        assert!(store.scaled(&huge, open, 50).unwrap().is_none());
    }
}
