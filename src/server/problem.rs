//! Errors as RFC 9457 `application/problem+json`: one body shape for every error the server
//! sends, with the parameter at fault named where there is one. Internals never reach the
//! client: a store failure is logged with its cause and answered with a plain sentence.

use std::marker::PhantomData;

use poem::http::StatusCode;
use poem::{Endpoint, IntoResponse, Request, Response};
use poem_openapi::registry::{MetaMediaType, MetaResponse, MetaResponses, Registry};
use poem_openapi::types::Type;
use poem_openapi::{ApiResponse, Object};
use serde::Serialize;

pub const PROBLEM_JSON: &str = "application/problem+json";

/// An error, as RFC 9457 describes it.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename = "Problem", example)]
pub struct ProblemDetails {
    /// A URI naming the kind of problem; `about:blank` when the status says it all.
    #[oai(rename = "type")]
    #[serde(rename = "type")]
    pub kind: String,
    /// The status's reason phrase.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong, in a sentence a person can act on.
    pub detail: String,
    /// The request parameter at fault, when one is.
    #[oai(skip_serializing_if_is_none)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameter: Option<String>,
}

/// An error answer. Converts into `poem::Error` so handlers can use `?`.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}", .0.detail)]
pub struct Problem(pub ProblemDetails);

impl Problem {
    pub fn new(status: StatusCode, detail: impl Into<String>) -> Problem {
        Problem(ProblemDetails {
            kind: "about:blank".into(),
            title: status.canonical_reason().unwrap_or("Error").into(),
            status: status.as_u16(),
            detail: detail.into(),
            parameter: None,
        })
    }

    /// A 400 naming the parameter at fault.
    pub fn bad_parameter(parameter: &str, detail: impl Into<String>) -> Problem {
        let mut problem = Problem::new(StatusCode::BAD_REQUEST, detail);
        problem.0.parameter = Some(parameter.into());
        problem
    }

    pub fn not_found(detail: impl Into<String>) -> Problem {
        Problem::new(StatusCode::NOT_FOUND, detail)
    }

    /// A failure of ours: the cause goes to the log, the client gets a sentence.
    pub fn internal(cause: impl std::fmt::Display) -> Problem {
        tracing::error!(%cause, "request failed");
        Problem::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the catalogue could not be read; the cause is in the server log",
        )
    }

    pub fn status(&self) -> StatusCode {
        StatusCode::from_u16(self.0.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }
}

impl From<crate::service::ServiceError> for Problem {
    fn from(e: crate::service::ServiceError) -> Problem {
        use crate::service::ServiceError as E;
        match e {
            E::BadParameter { parameter, detail } => Problem::bad_parameter(parameter, detail),
            E::Forbidden(detail) => Problem::new(StatusCode::FORBIDDEN, detail),
            E::NotFound(detail) => Problem::not_found(detail),
            E::Gone(detail) => Problem::new(StatusCode::GONE, detail),
            E::Conflict(detail) => Problem::new(StatusCode::CONFLICT, detail),
            E::NoSpace(detail) => Problem::new(StatusCode::INSUFFICIENT_STORAGE, detail),
            // Nobody reads the answer to an abandoned request; a request over its budget is
            // the client's to narrow.
            E::Spent(spent @ crate::budget::Spent::TooLarge(_)) => {
                Problem::new(StatusCode::PAYLOAD_TOO_LARGE, spent.to_string())
            }
            E::Spent(spent @ crate::budget::Spent::Busy) => {
                Problem::new(StatusCode::SERVICE_UNAVAILABLE, spent.to_string())
            }
            E::Spent(spent) => Problem::new(StatusCode::BAD_REQUEST, spent.to_string()),
            E::Store(e) => Problem::internal(e),
        }
    }
}

/// How long a client is asked to wait before it retries a 503 (still loading, too many held
/// waits, or no room for its answer).
pub const RETRY_UNAVAILABLE_S: u64 = 2;

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let body = serde_json::to_vec(&self.0).unwrap_or_default();
        let status = self.status();
        let mut response = Response::builder()
            .status(status)
            .content_type(PROBLEM_JSON);
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response = response.header(poem::http::header::RETRY_AFTER, RETRY_UNAVAILABLE_S);
        }
        response.body(body)
    }
}

impl poem::error::ResponseError for Problem {
    fn status(&self) -> StatusCode {
        Problem::status(self)
    }

    fn as_response(&self) -> Response {
        self.clone().into_response()
    }
}

/// The error statuses an operation documents.
pub trait StatusSet: Send + Sync + 'static {
    const STATUSES: &'static [u16];
}

macro_rules! status_sets {
    ($($(#[$doc:meta])* $name:ident = [$($status:literal),*];)*) => {$(
        $(#[$doc])*
        pub struct $name;
        impl StatusSet for $name {
            const STATUSES: &'static [u16] = &[$($status),*];
        }
    )*};
}

status_sets! {
    /// Catalogue lookups.
    Lookup = [400, 401, 403, 404, 429, 503];
    /// Reading the status of a job.
    JobLookup = [400, 401, 403, 404, 429];
    /// Imports: a second one while one runs is a conflict.
    Import = [400, 401, 403, 404, 409, 429, 503];
    /// The change feed: a data version it no longer keeps is gone.
    Feed = [400, 401, 403, 410, 429, 503];
    /// A brand's DMM package: the brand may be unknown; one package per brand at a time.
    Package = [400, 401, 403, 404, 409, 429, 503];
}

/// A `Problem` whose documented statuses are `S`'s.
pub struct ApiError<S: StatusSet>(pub Problem, PhantomData<S>);

impl<S: StatusSet> From<Problem> for ApiError<S> {
    fn from(p: Problem) -> Self {
        ApiError(p, PhantomData)
    }
}

impl<S: StatusSet> From<crate::service::ServiceError> for ApiError<S> {
    fn from(e: crate::service::ServiceError) -> Self {
        ApiError(Problem::from(e), PhantomData)
    }
}

impl<S: StatusSet> From<ApiError<S>> for poem::Error {
    fn from(e: ApiError<S>) -> poem::Error {
        poem::Error::from(e.0)
    }
}

impl<S: StatusSet> IntoResponse for ApiError<S> {
    fn into_response(self) -> Response {
        self.0.into_response()
    }
}

fn description(status: u16) -> &'static str {
    match status {
        400 => "A parameter is missing or invalid; `parameter` names it.",
        401 => "The provider is unknown or disabled, or the credentials are missing or wrong.",
        403 => "Access denied: the caller's address, scope or brands do not allow this.",
        404 => "What the request names does not exist in the catalogue.",
        409 => {
            "An import, synchronisation or the same brand's package is already running, or what the call needs is not configured."
        }
        410 => {
            "The change feed no longer holds the changes since this data version; refresh in full."
        }
        413 => "The request body is too large.",
        429 => "Too many requests; retry after the time in `Retry-After`.",
        503 => "The catalogue is still loading.",
        _ => "An error.",
    }
}

impl<S: StatusSet> ApiResponse for ApiError<S> {
    fn meta() -> MetaResponses {
        MetaResponses {
            responses: S::STATUSES
                .iter()
                .map(|&status| MetaResponse {
                    description: description(status),
                    status: Some(status),
                    status_range: None,
                    content: vec![MetaMediaType {
                        content_type: PROBLEM_JSON,
                        schema: <ProblemDetails as Type>::schema_ref(),
                    }],
                    headers: vec![],
                })
                .collect(),
        }
    }

    fn register(registry: &mut Registry) {
        <ProblemDetails as Type>::register(registry);
    }
}

/// Renders every error that leaves the application as problem+json: poem-openapi's parse
/// errors become 400s naming the parameter, unknown paths 404s, and so on.
pub async fn render_errors<E: Endpoint>(next: E, req: Request) -> poem::Result<Response> {
    // A `Uri` clone shares its bytes; the path is read only when there is an error.
    let uri = req.uri().clone();
    let answer = next.call(req).await.map(IntoResponse::into_response);
    Ok(rendered(answer, &uri))
}

/// The answer to a request for `uri`, its error rendered as problem+json.
pub fn rendered(answer: poem::Result<Response>, uri: &poem::http::Uri) -> Response {
    match answer {
        Ok(response) => response,
        Err(err) => {
            let problem = problem_of(err, uri.path());
            let mut response = problem.clone().into_response();
            // RFC 9110: a 405 lists the methods the resource takes.
            if problem.status() == StatusCode::METHOD_NOT_ALLOWED {
                response.headers_mut().insert(
                    poem::http::header::ALLOW,
                    poem::http::HeaderValue::from_static(super::registry::allowed_methods(
                        uri.path(),
                    )),
                );
            }
            response
        }
    }
}

fn problem_of(err: poem::Error, path: &str) -> Problem {
    use poem_openapi::error::{ParseParamError, ParsePathError};
    if let Some(p) = err.downcast_ref::<Problem>() {
        return p.clone();
    }
    if let Some(e) = err.downcast_ref::<ParseParamError>() {
        return Problem::bad_parameter(e.name, parameter_message(path, e.name, &e.reason));
    }
    if let Some(e) = err.downcast_ref::<ParsePathError>() {
        let name = e
            .name
            .strip_prefix("param")
            .and_then(|i| i.parse().ok())
            .and_then(|i| super::registry::path_parameter_name(path, i))
            .unwrap_or(e.name);
        return Problem::bad_parameter(name, parameter_message(path, name, &e.reason));
    }
    if err.is::<poem::error::ParsePathError>() {
        // poem could not decode a path segment (not UTF-8).
        let name = super::registry::undecodable_path_parameter(path).unwrap_or("path");
        return Problem::bad_parameter(
            name,
            format!("path parameter `{name}` is not valid percent-encoded UTF-8"),
        );
    }
    let status = err.status();
    if status == StatusCode::NOT_FOUND {
        if let Some(name) = super::registry::empty_path_parameter(path) {
            return Problem::bad_parameter(
                name,
                format!("path parameter `{name}` is empty: it needs at least 1 character"),
            );
        }
        return Problem::not_found(format!("no route has the path {path}"));
    }
    if status.is_server_error() {
        return Problem::internal(err);
    }
    let detail = match status {
        StatusCode::METHOD_NOT_ALLOWED => "this route does not take this method".to_string(),
        _ => err.to_string(),
    };
    Problem::new(status, detail)
}

/// poem-openapi's reasons name its own types ("failed to parse \"integer(uint32)\"");
/// say what the parameter must be instead.
fn parameter_message(path: &str, name: &str, reason: &str) -> String {
    let must = if reason.contains("expects an input value") {
        "is required".to_owned()
    } else if let Some(rule) = super::registry::parameter_rule(path, name) {
        rule.to_owned()
    } else if reason.contains("boolean") {
        "must be `true` or `false`".to_owned()
    } else if reason.contains("ImportType") {
        format!("must be one of: {}", crate::import::ImportType::names())
    } else if reason.contains("integer") || reason.contains("minimum(1,") {
        "must be a positive integer (1 or more)".to_owned()
    } else if reason.contains("minLength") || reason.contains("min_length") {
        "must have at least 1 character".to_owned()
    } else {
        format!("is invalid: {}", reason.trim_end_matches('.'))
    };
    format!("parameter `{name}` {must}")
}
