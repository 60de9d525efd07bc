//! A call whose request was read, whichever endpoint it came by: admitted by the gate, run
//! where it belongs (a lookup where the request is, a long read or a grant on the blocking
//! pool, given up when the client hangs up), through the answer cache where it may be kept.

use std::sync::Arc;

use bytes::Bytes;
use poem::Request;
use poem::http::{HeaderValue, StatusCode};
use serde_json::Value;

use super::call::{Call, Failure, UNPARSEABLE, parse_failure};
use super::ignored;
use super::registry::Operation;
use super::tecdoc_form;
use super::types::Read;
use crate::budget::Budget;
use crate::limits::in_flight;
use crate::server::AppState;
use crate::server::answer_cache::{JsonBytes, LookupKind, Written};
use crate::server::gate::{self, Asked};
use crate::server::problem::Problem;

/// What a call came to: the answer's fields as its endpoint writes them (`Written`), or a
/// failure.
pub(super) enum Outcome {
    Done(Bytes),
    Failed(Failure),
}

/// How often a call on the blocking pool looks whether its client is still there.
const CLIENT_CHECK: std::time::Duration = std::time::Duration::from_millis(50);

/// What a call came to, when to come back after a 503 or 429, and the fields its request
/// gave that were ignored (for the answer's header).
pub(super) struct Performed {
    pub outcome: Outcome,
    pub retry: Option<u64>,
    pub ignored: Vec<String>,
    /// The language the answer's texts are in, once the call was admitted.
    pub language: Option<HeaderValue>,
}

impl Performed {
    pub fn failed(failure: Failure) -> Performed {
        Performed {
            outcome: Outcome::Failed(failure),
            retry: None,
            ignored: Vec::new(),
            language: None,
        }
    }
}

/// A call whose request was read: authenticate, check, run.
pub(super) async fn perform(
    state: &Arc<AppState>,
    req: &Request,
    op: &'static Operation,
    read: Read,
    form: Written,
) -> Performed {
    let Read { fields, unknown } = read;
    if let Err(failure) = ignored::refuse_unanswered(op, &unknown) {
        return Performed::failed(failure);
    }
    let body = gate::FromBody {
        provider: fields.get("provider").and_then(Value::as_str),
        lang: fields.get("lang").and_then(Value::as_str),
    };
    let admitted = match gate::admit(state, req, Asked::Operation(op.name), body) {
        Ok(admitted) => admitted,
        Err(refused) => {
            let failure: Failure = refused.problem.into();
            let retry = refused.retry_after_seconds.or(retry_unavailable(&failure));
            return Performed {
                retry,
                ..Performed::failed(failure)
            };
        }
    };
    let language = state.content_language(admitted.context.language());
    let provider = &admitted.context.caller().provider;
    let count = |n| state.metrics.ignored_fields(op.name, n);
    if let Err(failure) = ignored::admit(&state.ignored_fields, count, op, &unknown, provider) {
        return Performed::failed(failure);
    }
    let blocking = op.may_block(&fields);
    // Dropped with this future when the client hangs up, which stops the scan.
    let (budget, abandon_on_drop) = Budget::for_request(state.settings.work_budget());
    // What the work allocates counts for the request wherever it runs; on the blocking pool
    // it may wait there for room among the answers in flight.
    let held = in_flight::current();
    let work = {
        let state = state.clone();
        move || {
            let _counting = held.as_ref().map(|h| h.count_here(blocking));
            let call = Call {
                state: &state,
                context: &admitted.context,
                client_ip: admitted.client_ip,
                budget: &budget,
            };
            run_cached(&state, &call, op, fields, form)
        }
    };
    // Lookups run where the request is; a call that may read a whole index, or writes and
    // flushes a grant, goes to the blocking pool so it holds up no other request.
    let ran = if blocking {
        let peer = req.remote_addr().as_socket_addr().copied();
        let mut task = tokio::task::spawn_blocking(work);
        let mut abandon = Some(abandon_on_drop);
        let mut every = tokio::time::interval(CLIENT_CHECK);
        let ran = loop {
            tokio::select! {
                ran = &mut task => break ran,
                _ = every.tick() => {
                    if abandon.is_some() && peer.is_some_and(|p| state.connections.client_gone(p)) {
                        // Dropping the guard marks the budget spent: the scan stops at
                        // its next check, and the thread is free again.
                        abandon = None;
                    }
                }
            }
        };
        match abandon {
            Some(guard) => guard.disarm(),
            // Its work stopped short: nobody waits for the answer.
            None if matches!(ran, Ok(Err(_))) => {
                tracing::info!(operation = op.name, "call stopped: its client went away");
                state.metrics.call_abandoned();
            }
            None => {}
        }
        ran.unwrap_or_else(|e| Err(Problem::internal(e).into()))
    } else {
        abandon_on_drop.disarm();
        work()
    };
    let (outcome, retry) = match ran {
        Ok(bytes) => (Outcome::Done(bytes), None),
        Err(failure) => {
            let retry = retry_unavailable(&failure);
            (Outcome::Failed(failure), retry)
        }
    };
    Performed {
        outcome,
        retry,
        ignored: unknown,
        language,
    }
}

/// A 503 (still loading, or no room among the answers in flight) says when to come back.
fn retry_unavailable(failure: &Failure) -> Option<u64> {
    (failure.status == 503).then_some(crate::server::problem::RETRY_UNAVAILABLE_S)
}

/// Runs an operation and writes its answer's fields in `form`, through the answer cache
/// where its answers may be kept: the request's fields (as read by its type), the form, the
/// provider's brands and the data version are the key. A kept answer is served as it was
/// written.
fn run_cached(
    state: &AppState,
    call: &Call<'_>,
    op: &Operation,
    fields: Value,
    form: Written,
) -> Result<Bytes, Failure> {
    if !op.cacheable {
        return op
            .run(call, fields)
            .map(|value| written(op, form, &value).into());
    }
    let key = fields.to_string();
    let kept: JsonBytes<()> = state
        .answers
        .answer_written(
            call.context,
            LookupKind::Operation(op.name, form),
            &key,
            || {
                let value = op.run(call, fields).map_err(Problem::from)?;
                Ok(written(op, form, &value))
            },
        )
        .map_err(Failure::from)?;
    Ok(kept.bytes().clone())
}

/// The answer's fields in `form`: the JSON object, or the elements after `status` and
/// `statusText` (partscat's), or TecDoc's whole answer element.
fn written(op: &Operation, form: Written, value: &Value) -> Vec<u8> {
    let types = &super::exchange::service().types;
    match form {
        Written::Json => serde_json::to_vec(value).unwrap_or_default(),
        Written::Soap => {
            let mut out = String::new();
            types.write_xml(&op.answer_type, value, &mut out);
            out.into_bytes()
        }
        Written::TecdocSoap => {
            tecdoc_form::success(op.name, &op.answer_type, types, value).into_bytes()
        }
    }
}

/// A request whose fields could not be read is 400 on the wire too, and one the server had
/// no room for 503 (with `Retry-After`, which HTTP clients read at that status); other
/// failures are normal answers.
pub(super) fn http_status(failure: &Failure) -> StatusCode {
    if failure.text.starts_with(UNPARSEABLE) {
        StatusCode::BAD_REQUEST
    } else if failure.status == 503 {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::OK
    }
}

/// Errors in reading fields: a field that is not part of the request, or a body of the
/// other style, means the request could not be parsed; a bad value names its field.
pub(super) fn read_failure(text: String) -> Failure {
    if text.contains("is not part of") || text.contains("must be an object") {
        parse_failure(text)
    } else {
        Failure::bad(text)
    }
}

/// Names the fields the request gave that were ignored, where it gave any, and the language
/// of the answer's texts.
pub(super) fn name_ignored_and_language(response: &mut poem::Response, performed: &Performed) {
    if let Some(language) = &performed.language {
        crate::server::gate::name_language(response, language.clone());
    }
    if performed.ignored.is_empty() {
        return;
    }
    let named = super::ignored::header_value(&performed.ignored);
    if let Ok(value) = poem::http::HeaderValue::from_str(&named) {
        response.headers_mut().insert(super::ignored::HEADER, value);
    }
}
