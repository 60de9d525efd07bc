//! An article's media file (an image, a frame of a 360-degree set, a document) out of the
//! local media store, for a caller who may see the article: the file a media row of the
//! catalogue names, as the media store holds it. What came from the media source is not
//! trusted: only a regular file in its place is opened, only as large as the settings allow,
//! and only a known picture or PDF type is answered as such.

use std::fs::File;

use super::ServiceError;
use super::caller::Caller;
use crate::catalogue::documents::{article_of_document, document_ids};
use crate::catalogue::{ArticleKey, Media, MediaKind};
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
    /// SHA-256 of the content (of a scaled picture: of its original, and its size): the same
    /// address names the same bytes while this does not change.
    pub hash: String,
    /// The last part of the URI, for a file saved.
    pub file_name: String,
}

/// The size a picture is answered at: as stored, or fitted within so many pixels (one of
/// `media::sizes::SIZES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    Original,
    Fit(u32),
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
    let (_, rows) = visible_media(store, caller, article_id)
        .ok_or_else(|| ServiceError::NotFound(format!("there is no article {article_id}")))??;
    if !rows.iter().any(|m| m.uri == uri) {
        return Err(ServiceError::NotFound(format!(
            "article {article_id} has no media file '{uri}'"
        )));
    }
    opened(media, max_bytes, uri, Size::Original)
}

/// The file numbered `doc_id` (TecDoc's `docId`, `catalogue::documents`) at `size`, under the
/// same rules as `media_file`. Only a picture has sizes: a document (a PDF) is answered
/// whole, and asked for at a size it is missing, said so.
pub fn document(
    store: &Store,
    media: &MediaStore,
    max_bytes: u64,
    caller: &Caller,
    doc_id: u64,
    size: Size,
) -> Result<MediaFile, ServiceError> {
    let missing = || ServiceError::NotFound(format!("there is no document {doc_id}"));
    let article_id = article_of_document(doc_id).ok_or_else(missing)?;
    let (_, rows) = visible_media(store, caller, article_id).ok_or_else(missing)??;
    let ids = document_ids(article_id, &rows);
    let row = rows
        .iter()
        .zip(ids)
        .find_map(|(m, id)| (id == doc_id).then_some(m))
        .ok_or_else(missing)?;
    if row.kind == MediaKind::Document && size != Size::Original {
        return Err(ServiceError::NotFound(format!(
            "document {doc_id} is not a picture: it has no thumbnail and no sizes, only the file itself (type 0)"
        )));
    }
    opened(media, max_bytes, &row.uri, size)
}

/// The article `article_id` and its media rows, where the caller may see it.
fn visible_media(
    store: &Store,
    caller: &Caller,
    article_id: u32,
) -> Option<Result<(ArticleKey, Vec<Media>), ServiceError>> {
    let catalogue = store.catalogue();
    let article = match catalogue.article_by_id(article_id) {
        Ok(found) => found.filter(|a| caller.provider.sees_brand(a.brand_id))?,
        Err(e) => return Some(Err(e.into())),
    };
    Some(
        catalogue
            .media_of(&article)
            .map(|rows| (article, rows))
            .map_err(Into::into),
    )
}

/// The file the media store holds for `uri`, at `size`, within the bounds.
fn opened(
    media: &MediaStore,
    max_bytes: u64,
    uri: &str,
    size: Size,
) -> Result<MediaFile, ServiceError> {
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
    let refused = |e: String| {
        tracing::warn!(uri, error = %e, "a media file of the store is refused");
        ServiceError::NotFound(format!("'{uri}' is refused: {e}"))
    };
    let file = media
        .open_file(&stored)
        .map_err(|e| refused(e.to_string()))?;
    let (file, stored) = match size {
        Size::Original => (file, stored),
        Size::Fit(px) => match media
            .scaled(&stored, file, px)
            .map_err(|e| refused(e.to_string()))?
        {
            Some(scaled) => (scaled.file, scaled.stored),
            None => (
                media
                    .open_file(&stored)
                    .map_err(|e| refused(e.to_string()))?,
                stored,
            ),
        },
    };
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
