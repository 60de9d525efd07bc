//! `…jsonEndpoint`: the same operations as one JSON object `{"<operation>": {…}}`, answered
//! with `status` and `statusText` beside the answer's fields.

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use serde_json::{Map, Value};

use super::call::Failure;
use super::call::parse_failure;
use super::exchange::{add_retry_after, read_bounded, service};
use super::perform::{
    Outcome, Performed, http_status, name_ignored_and_language, perform, read_failure,
};
use super::wsdl::{ServiceName, Style};
use crate::server::AppState;
use crate::server::answer_cache::Written;

fn json_answer(status: StatusCode, fields: Map<String, Value>, retry: Option<u64>) -> Response {
    let body = serde_json::to_vec(&Value::Object(fields)).unwrap_or_default();
    json_response(status, body, retry)
}

fn json_response(status: StatusCode, body: Vec<u8>, retry: Option<u64>) -> Response {
    let mut response = Response::builder()
        .status(status)
        .content_type("application/json")
        .body(body);
    add_retry_after(&mut response, retry);
    response
}

fn json_failure(failure: &Failure) -> Map<String, Value> {
    let mut fields = Map::new();
    fields.insert("status".into(), failure.status.into());
    fields.insert("statusText".into(), failure.text.clone().into());
    fields
}

/// The answer's object (as written or kept) with `status` and `statusText` first.
fn with_status(answer: &[u8]) -> Vec<u8> {
    const OK: &[u8] = br#"{"status":200,"statusText":"OK""#;
    let mut body = Vec::with_capacity(OK.len() + answer.len());
    body.extend_from_slice(OK);
    match answer.strip_prefix(b"{") {
        Some(b"}") | None => body.push(b'}'),
        Some(fields) => {
            body.push(b',');
            body.extend_from_slice(fields);
        }
    }
    body
}

/// How deep a JavaScript literal may nest: JSON's own parser stops at 128, and the literal's
/// parser has no bound of its own.
const LITERAL_DEPTH: usize = 64;

/// The body as JSON, or as the JavaScript object literal TecDoc's JavaScript client sends
/// (`{getManufacturers:{lang:'de'}}`: names unquoted, strings in single quotes, trailing
/// commas).
fn read_body(bytes: &[u8]) -> Result<Value, String> {
    let json_error = match serde_json::from_slice(bytes) {
        Ok(value) => return Ok(value),
        Err(e) => e,
    };
    let not_json = || format!("the body is not JSON: {json_error}");
    let text = std::str::from_utf8(bytes).map_err(|_| not_json())?;
    if !text.trim_start().starts_with('{') || nesting(text) > LITERAL_DEPTH {
        return Err(not_json());
    }
    json5::from_str(text).map_err(|_| not_json())
}

/// How deep brackets nest, strings aside.
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest, mut quote, mut escaped) = (0usize, 0, None, false);
    for c in text.chars() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                '"' | '\'' => quote = Some(c),
                '{' | '[' => {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                '}' | ']' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    deepest
}

#[handler]
pub(super) async fn json_call(
    req: &Request,
    body: Body,
    state: Data<&Arc<AppState>>,
    names: Data<&ServiceName>,
) -> Response {
    let names = names.0;
    let style = names.style;
    let unparseable = |why: String| {
        let failure = parse_failure(why);
        json_answer(StatusCode::BAD_REQUEST, json_failure(&failure), None)
    };
    let bytes = match read_bounded(body).await {
        Ok(bytes) => bytes,
        Err((status, why)) => {
            let failure = parse_failure(why);
            return json_answer(status, json_failure(&failure), None);
        }
    };
    let request: Value = match read_body(&bytes) {
        Ok(v) => v,
        Err(why) => return unparseable(why),
    };
    let Some((name, inner)) = request
        .as_object()
        .filter(|o| o.len() == 1)
        .and_then(|o| o.iter().next())
    else {
        return unparseable(r#"the body must be one object {"<operation>": {…}}"#.into());
    };
    let service = service();
    let Some(op) = super::registry::operation(name) else {
        let failure = Failure::bad(format!("Unknown Call: {name}"));
        return json_answer(StatusCode::BAD_REQUEST, json_failure(&failure), None);
    };
    let fields = match style {
        Style::Bare if super::wsdl::only_arg0(inner.as_object().map(|o| o.keys())) => {
            Err(parse_failure(format!(
                r#"{} takes the fields of {name} as they are, not in "arg0": {{"{name}": {{…}}}}"#,
                names.service()
            )))
        }
        Style::Bare => Ok(inner),
        Style::Wrapped => match inner.as_object() {
            Some(o) if o.len() == 1 && o.contains_key("arg0") => Ok(&o["arg0"]),
            _ => Err(parse_failure(format!(
                r#"{} takes the fields of {name} in "arg0": {{"{name}": {{"arg0": {{…}}}}}}"#,
                names.service()
            ))),
        },
    };
    let read = fields.and_then(|f| {
        service
            .types
            .read_json(&op.request_type, f)
            .map_err(read_failure)
    });
    let performed = match read {
        Ok(read) => perform(&state, req, op, read, Written::Json).await,
        Err(failure) => Performed::failed(failure),
    };
    let retry = performed.retry;
    let mut response = match &performed.outcome {
        Outcome::Done(answer) => json_response(StatusCode::OK, with_status(answer), retry),
        Outcome::Failed(f) => json_answer(http_status(f), json_failure(f), retry),
    };
    name_ignored_and_language(&mut response, &performed);
    response
}
