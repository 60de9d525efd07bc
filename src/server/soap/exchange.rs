//! What both endpoints share: the operation set and its types, built once; the request body,
//! read within the envelope bound; and the answer's parts.

use std::sync::OnceLock;

use futures_util::StreamExt;
use poem::http::{StatusCode, header};
use poem::{Body, Response};

use super::envelope::MAX_ENVELOPE_BYTES;
use super::registry::{self, Operation};
use super::types::Types;
use crate::server::request_body::body_error_status;

/// The operations and their types, built once.
pub(super) struct Service {
    pub operations: &'static [Operation],
    pub types: Types,
}

pub(super) fn service() -> &'static Service {
    static SERVICE: OnceLock<Service> = OnceLock::new();
    SERVICE.get_or_init(|| {
        let operations = registry::operations();
        let types = Types::new(|registry| {
            for op in operations {
                op.register(registry);
            }
        });
        Service { operations, types }
    })
}

/// An XML (or plain text) answer.
pub(super) fn xml(status: StatusCode, content_type: &str, body: String) -> Response {
    Response::builder()
        .status(status)
        .content_type(content_type)
        .body(body)
}

/// The body, refused beyond the envelope bound whether or not it declares its length, or
/// when it comes too slowly.
pub(super) async fn read_bounded(body: Body) -> Result<Vec<u8>, (StatusCode, String)> {
    let mut stream = body.into_bytes_stream();
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| {
            (
                body_error_status(&e),
                format!("the body could not be read: {e}"),
            )
        })?;
        if bytes.len() + chunk.len() > MAX_ENVELOPE_BYTES {
            return Err((
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the body is larger than {MAX_ENVELOPE_BYTES} bytes"),
            ));
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

pub(super) fn add_retry_after(response: &mut Response, retry: Option<u64>) {
    if let Some(seconds) = retry {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, poem::http::HeaderValue::from(seconds));
    }
}
