//! An article's media file (an image, a frame of a 360-degree set, a document) out of the
//! local media store, for a caller who may see the article: the file a media row of the
//! catalogue names, as the media store holds it. What came from the media source is not
//! trusted: only a regular file in its place is opened, only as large as the settings allow,
//! and only a known picture or PDF type is answered as such.

use std::fs::File;

use super::ServiceError;
use super::caller::Caller;
use crate::media::MediaStore;
use crate::store::Store;

/// Content types answered as they are: pictures a browser shows and PDF. Anything else the
/// media source said is answered as bytes to save, never to render.
const SHOWN: [&str; 6] = [
    "image/jpeg",
    "image/png",
    "image/gif",
    "image/webp",
    "image/avif",
    "application/pdf",
];

/// The type answered for a file whose stored type is not one of `SHOWN`.
pub const SAVED_ONLY: &str = "application/octet-stream";

/// A media file, opened.
#[derive(Debug)]
pub struct MediaFile {
    pub file: File,
    pub size: u64,
    /// One of `SHOWN`, or `SAVED_ONLY`.
    pub content_type: &'static str,
    /// SHA-256 of the content: the same URI names the same bytes while this does not change.
    pub hash: String,
    /// The last part of the URI, for a file saved.
    pub file_name: String,
}

/// The file of the media row `uri` of article `article_id`. An article the caller may not see
/// is as missing as one that is not there; a row the article does not have, or a file the
/// media store does not hold (or holds unsoundly), is missing too, each said so.
pub fn media_file(
    store: &Store,
    media: &MediaStore,
    max_bytes: u64,
    caller: &Caller,
    article_id: u32,
    uri: &str,
) -> Result<MediaFile, ServiceError> {
    let catalogue = store.catalogue();
    let article = catalogue
        .article_by_id(article_id)?
        .filter(|a| caller.provider.sees_brand(a.brand_id))
        .ok_or_else(|| ServiceError::NotFound(format!("there is no article {article_id}")))?;
    if !catalogue.media_of(&article)?.iter().any(|m| m.uri == uri) {
        return Err(ServiceError::NotFound(format!(
            "article {article_id} has no media file '{uri}'"
        )));
    }
    let stored = media.lookup(uri).ok_or_else(|| {
        ServiceError::NotFound(format!(
            "the media store does not hold '{uri}' (apiDMM with download360 fetches it)"
        ))
    })?;
    if stored.size > max_bytes {
        return Err(ServiceError::NotFound(format!(
            "'{uri}' is refused: {} bytes, more than the {max_bytes} media files may hold",
            stored.size
        )));
    }
    let file = media.open_file(&stored).map_err(|e| {
        tracing::warn!(uri, error = %e, "a media file of the store is refused");
        ServiceError::NotFound(format!("'{uri}' is refused: {e}"))
    })?;
    let declared = stored.content_type.split(';').next().unwrap_or("").trim();
    let content_type = SHOWN
        .into_iter()
        .find(|shown| shown.eq_ignore_ascii_case(declared))
        .unwrap_or(SAVED_ONLY);
    Ok(MediaFile {
        file,
        size: stored.size,
        content_type,
        hash: stored.hash,
        file_name: uri.rsplit('/').next().unwrap_or(uri).to_owned(),
    })
}
