//! TecDoc's documents route, `{soap_prefix}/documents/{provider}/{docId}/{type}`: an article's
//! media file by the number answers give it (`docId`, `thumbDocId`), as TecDoc's clients
//! build the address themselves beside `{soap_prefix}/services/…Endpoint` and as answers'
//! own addresses (`imageURL50` … `imageURL800`, `docUrl`, `pdfs[].url`) lead. `type` 0 is the
//! file, 1 a picture's thumbnail; `size` (50, 100, 200, 400 or 800) a picture fitted within
//! so many pixels. The caller is admitted by the gate (a key as clients pass it, an address,
//! or an answer's signature for this one file); the rules are `service::media_files`'.

use std::sync::Arc;

use poem::http::header;
use poem::web::{Data, Path};
use poem::{IntoResponse, Request, Response, handler};

use super::AppState;
use super::media_answer;
use super::problem::Problem;
use super::query::QueryPairs;
use crate::media::MediaStore;
use crate::media::sizes::SIZES;
use crate::service::context::Context;
use crate::service::media_files::{self, Size};
use crate::service::media_links::THUMBNAIL_SIZE;

/// The path's route, under the endpoints' prefix.
pub const ROUTE: &str = "/documents/:provider/:doc_id/:kind";

#[handler]
pub async fn document_file(
    req: &Request,
    Path((_provider, doc_id, kind)): Path<(String, String, String)>,
    state: Data<&Arc<AppState>>,
    context: Data<&Context>,
) -> Response {
    let size = match asked_size(&doc_id, &kind, QueryPairs::of(req).first("size")) {
        Ok(asked) => asked,
        Err(problem) => return problem.into_response(),
    };
    let (doc_id, state, caller) = (size.0, state.0.clone(), context.caller().clone());
    let found = tokio::task::spawn_blocking(move || {
        let media = MediaStore::reading(&state.settings.media.dir);
        let max_bytes = state.settings.media.max_file_mb.saturating_mul(1024 * 1024);
        media_files::document(&state.store, &media, max_bytes, &caller, doc_id, size.1)
    })
    .await;
    let tags = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok());
    match found {
        Ok(Ok(found)) => media_answer::answer(found, tags),
        Ok(Err(e)) => Problem::from(e).into_response(),
        Err(e) => Problem::internal(e).into_response(),
    }
}

/// The number and size a path and its `size` ask for, or a 400 naming what is wrong.
fn asked_size(doc_id: &str, kind: &str, size: Option<&str>) -> Result<(u64, Size), Problem> {
    let doc = doc_id
        .parse::<u64>()
        .ok()
        .filter(|_| doc_id.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            Problem::bad_parameter(
                "docId",
                format!("docId '{doc_id}' is not a document number (the docId an answer gives)"),
            )
        })?;
    let fitted = size
        .map(|s| {
            s.parse::<u32>()
                .ok()
                .filter(|px| SIZES.contains(px))
                .ok_or_else(|| {
                    Problem::bad_parameter(
                        "size",
                        format!("size '{s}' is not one of the sizes 50, 100, 200, 400 and 800"),
                    )
                })
        })
        .transpose()?;
    let size = match (kind, fitted) {
        ("0", None) => Size::Original,
        ("0", Some(px)) => Size::Fit(px),
        ("1", None) => Size::Fit(THUMBNAIL_SIZE),
        ("1", Some(_)) => {
            return Err(Problem::bad_parameter(
                "size",
                "size goes with type 0: type 1 is the thumbnail, of one size",
            ));
        }
        _ => {
            return Err(Problem::bad_parameter(
                "type",
                format!("type '{kind}' is not 0 (the file) or 1 (its thumbnail)"),
            ));
        }
    };
    Ok((doc, size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_path_and_size_name_a_number_and_a_size_or_are_refused() {
        let ok = |d, k, s| asked_size(d, k, s).map_err(|p| p.0.detail.clone());
        assert_eq!(ok("12", "0", None), Ok((12, Size::Original)));
        assert_eq!(ok("12", "0", Some("400")), Ok((12, Size::Fit(400))));
        assert_eq!(ok("12", "1", None), Ok((12, Size::Fit(THUMBNAIL_SIZE))));
        for (d, k, s, named) in [
            ("x12", "0", None, "docId"),
            ("+12", "0", None, "docId"),
            ("12", "2", None, "type"),
            ("12", "0", Some("300"), "size"),
            ("12", "1", Some("400"), "size"),
        ] {
            let refused = ok(d, k, s).unwrap_err();
            assert!(refused.contains(named), "{refused}");
        }
    }
}
