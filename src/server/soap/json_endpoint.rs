//! `…jsonEndpoint`: the same operations as one JSON object `{"<operation>": {…}}`, answered
//! with `status` and `statusText` beside the answer's fields.

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::Data;
use poem::{Body, Request, Response, handler};
use serde_json::{Map, Value};

use super::call::Failure;
use super::exchange::{add_retry_after, read_bounded, service};
use super::perform::{Outcome, http_status, parse_failure, perform, read_failure};
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
    let request: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => return unparseable(format!("the body is not JSON: {e}")),
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
    let (outcome, retry) = match read {
        Ok(fields) => perform(&state, req, op, fields, Written::Json).await,
        Err(failure) => (Outcome::Failed(failure), None),
    };
    match outcome {
        Outcome::Done(answer) => json_response(StatusCode::OK, with_status(&answer), retry),
        Outcome::Failed(f) => json_answer(http_status(&f), json_failure(&f), retry),
    }
}
