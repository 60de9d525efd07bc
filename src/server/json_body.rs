//! JSON bodies written by serde straight into bytes. poem-openapi's `Json` first builds a
//! `serde_json::Value` tree (an allocation per field) and then writes it; on the lookup
//! routes that tree cost more than the lookup. The schema still comes from the type.

use std::marker::PhantomData;

use bytes::Bytes;
use poem::http::{HeaderValue, header};
use poem::{IntoResponse, Response};
use poem_openapi::ApiResponse;
use poem_openapi::payload::Payload;
use poem_openapi::registry::{MetaMediaType, MetaResponse, MetaResponses, MetaSchemaRef, Registry};
use poem_openapi::types::Type;
use serde::Serialize;

use super::problem::Problem;

pub const JSON: &str = "application/json; charset=utf-8";

pub struct JsonBody<T>(pub T);

impl<T: Type + Send> Payload for JsonBody<T> {
    const CONTENT_TYPE: &'static str = JSON;

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

/// `value` as JSON, or 413 where it would pass the answer bound (`limits.answer_mb`).
pub fn bounded_json<T: Serialize>(value: &T) -> Result<Vec<u8>, Problem> {
    // Room for a lookup's answer at once (a few hundred bytes to a few KiB), not grown from 8.
    let mut out = crate::limits::BoundedAnswer {
        bytes: Vec::with_capacity(2048),
    };
    match serde_json::to_writer(&mut out, value) {
        Ok(()) => Ok(out.bytes),
        Err(e) if e.is_io() => Err(Problem::new(
            poem::http::StatusCode::PAYLOAD_TOO_LARGE,
            crate::limits::answer_too_large(),
        )),
        Err(e) => Err(Problem::internal(e)),
    }
}

impl<T: Serialize + Send> IntoResponse for JsonBody<T> {
    fn into_response(self) -> Response {
        match bounded_json(&self.0) {
            Ok(body) => Response::builder()
                .header(header::CONTENT_TYPE, HeaderValue::from_static(JSON))
                .body(body),
            Err(problem) => problem.into_response(),
        }
    }
}

/// A 200 with a JSON body of `T`'s schema.
fn json_200<T: Type>() -> MetaResponses {
    MetaResponses {
        responses: vec![MetaResponse {
            description: "",
            status: Some(200),
            status_range: None,
            content: vec![MetaMediaType {
                content_type: JSON,
                schema: T::schema_ref(),
            }],
            headers: vec![],
        }],
    }
}

impl<T: Type + Send> ApiResponse for JsonBody<T> {
    fn meta() -> MetaResponses {
        json_200::<T>()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

/// A JSON answer already serialised; the document shows `T`'s schema.
pub struct JsonBytes<T> {
    bytes: Bytes,
    _schema: PhantomData<fn() -> T>,
}

impl<T> JsonBytes<T> {
    pub fn new(bytes: Bytes) -> Self {
        JsonBytes {
            bytes,
            _schema: PhantomData,
        }
    }

    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }
}

impl<T: Type> Payload for JsonBytes<T> {
    const CONTENT_TYPE: &'static str = JSON;

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T> IntoResponse for JsonBytes<T> {
    fn into_response(self) -> Response {
        Response::builder()
            .header(header::CONTENT_TYPE, HeaderValue::from_static(JSON))
            .body(self.bytes)
    }
}

impl<T: Type> ApiResponse for JsonBytes<T> {
    fn meta() -> MetaResponses {
        json_200::<T>()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

/// A JSON answer of `T`'s schema, either already serialised (and cacheable) or streamed.
pub enum MaybeStreamed<T> {
    Whole(JsonBytes<T>),
    Streamed(Response),
}

impl<T> IntoResponse for MaybeStreamed<T> {
    fn into_response(self) -> Response {
        match self {
            MaybeStreamed::Whole(bytes) => bytes.into_response(),
            MaybeStreamed::Streamed(response) => response,
        }
    }
}

impl<T: Type> ApiResponse for MaybeStreamed<T> {
    fn meta() -> MetaResponses {
        json_200::<T>()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}
