//! A media file as an answer: streamed with its type, its tag and how a client may keep it, or
//! 304 where the client's copy is current (`mediaFile` and the documents route alike).

use poem::http::{StatusCode, header};
use poem::{Body, Response};

use crate::service::media_files::{MediaFile, SAVED_ONLY};

/// A file's content never changes under its tag: a client keeps it and asks again only with
/// `If-None-Match`. Private: the caller's credentials decided it may see it.
const CACHE: &str = "private, max-age=86400";

/// What a media file may do where a browser opens it: nothing but be shown.
const POLICY: &str = "default-src 'none'; sandbox";

/// `found` answered, or 304 where `if_none_match` names its tag.
pub fn answer(found: MediaFile, if_none_match: Option<&str>) -> Response {
    let etag = format!("\"{}\"", found.hash);
    let current = if_none_match
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let builder = Response::builder()
        .header(header::ETAG, etag)
        .header(header::CACHE_CONTROL, CACHE)
        .header(header::CONTENT_SECURITY_POLICY, POLICY)
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    if current {
        return builder.status(StatusCode::NOT_MODIFIED).finish();
    }
    let disposition = match found.content_type {
        SAVED_ONLY => "attachment",
        _ => "inline",
    };
    let name: String = found
        .file_name
        .chars()
        .filter(|c| c.is_ascii_graphic() && *c != '"' && *c != '\\')
        .collect();
    let file = tokio::fs::File::from_std(found.file);
    builder
        .status(StatusCode::OK)
        .content_type(found.content_type)
        .header(header::CONTENT_LENGTH, found.size)
        .header(
            header::CONTENT_DISPOSITION,
            format!("{disposition}; filename=\"{name}\""),
        )
        .body(Body::from_async_read(file))
}
