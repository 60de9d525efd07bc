//! The four endpoints: `PartsToCatDLB|DLW.soapEndpoint` (SOAP 1.1 and 1.2; `GET ?wsdl`,
//! `?xsd=1`) and `PartsToCatDLB|DLW.jsonEndpoint`. A call is read by its request type,
//! admitted by the gate as every `/svc` request is (`gate::admit`), and run; every
//! outcome but an unreadable body is an answer with `status` and `statusText`.

use std::sync::{Arc, OnceLock};

use futures_util::StreamExt;
use poem::http::{StatusCode, header};
use poem::web::Data;
use poem::{Body, EndpointExt, Request, Response, Route, get, handler};
use serde_json::{Map, Value};

use super::call::{Call, Failure};
use super::envelope::{self, Element, MAX_ENVELOPE_BYTES, SoapVersion};
use super::operations::{self, Operation};
use super::types::Types;
use super::wsdl::{self, ServiceName, Style};
use crate::budget::Budget;
use crate::server::AppState;
use crate::server::answer_cache::LookupKind;
use crate::server::connection::body_error_status;
use crate::server::gate::{self, Asked};
use crate::server::problem::Problem;
use crate::server::query::QueryPairs;
use crate::service::Snapshot;

/// The operations and their types, built once.
struct Service {
    operations: Vec<Operation>,
    types: Types,
}

fn service() -> &'static Service {
    static SERVICE: OnceLock<Service> = OnceLock::new();
    SERVICE.get_or_init(|| {
        let operations = operations::all();
        let types = Types::new(|registry| {
            for op in &operations {
                op.register(registry);
            }
        });
        Service { operations, types }
    })
}

/// The routes, to be nested at the SOAP prefix, named after the maker's brand.
pub fn routes(brand: &str) -> Route {
    let mut route = Route::new();
    for style in [Style::Bare, Style::Wrapped] {
        let names = ServiceName::new(style, brand);
        let name = names.service();
        route = route
            .at(
                format!("/services/{name}.soapEndpoint"),
                get(describe).post(soap_call).data(names.clone()),
            )
            .at(
                format!("/services/{name}.jsonEndpoint"),
                poem::post(json_call).data(names),
            );
    }
    route
}

/// Where this endpoint is reached: the configured base URL, else the client's `Host`.
fn endpoint_address(state: &AppState, req: &Request, names: &ServiceName) -> String {
    let base = match &state.settings.base_url {
        Some(base) => base.clone(),
        None => {
            let host = req
                .headers()
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .filter(|h| !h.is_empty() && !h.contains(['/', ' ', '"', '<']))
                .map(str::to_owned)
                .or_else(|| state.settings.listen.first().map(|a| a.to_string()))
                .unwrap_or_else(|| "localhost".into());
            let scheme = if state.settings.https() {
                "https"
            } else {
                "http"
            };
            format!("{scheme}://{host}")
        }
    };
    format!(
        "{base}{}/services/{}.soapEndpoint",
        state.settings.soap_prefix,
        names.service()
    )
}

fn xml(status: StatusCode, content_type: &str, body: String) -> Response {
    Response::builder()
        .status(status)
        .content_type(content_type)
        .body(body)
}

/// `GET …soapEndpoint?wsdl` and `?xsd=1`.
#[handler]
fn describe(req: &Request, state: Data<&Arc<AppState>>, names: Data<&ServiceName>) -> Response {
    let names = names.0;
    let query = QueryPairs::of(req);
    let service = service();
    if query.iter().any(|(k, _)| k.eq_ignore_ascii_case("wsdl")) {
        let address = endpoint_address(&state, req, names);
        let text = wsdl::wsdl(names, &service.operations, &service.types, &address);
        return xml(StatusCode::OK, "text/xml; charset=utf-8", text);
    }
    if query.iter().any(|(k, v)| k == "xsd" && v == "1") {
        let text = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>{}"#,
            wsdl::xsd(names, &service.operations, &service.types)
        );
        return xml(StatusCode::OK, "text/xml; charset=utf-8", text);
    }
    xml(
        StatusCode::BAD_REQUEST,
        "text/plain; charset=utf-8",
        format!(
            "{0}: POST a SOAP 1.1 or 1.2 envelope here; the WSDL is at ?wsdl and its schema at ?xsd=1\n",
            names.service()
        ),
    )
}

/// The body, refused beyond the envelope bound whether or not it declares its length, or
/// when it comes too slowly.
async fn read_bounded(body: Body) -> Result<Vec<u8>, (StatusCode, String)> {
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

/// What a call came to: the answer's fields, or a failure.
enum Outcome {
    Done(Value),
    Failed(Failure),
}

/// How often a call on the blocking pool looks whether its client is still there.
const CLIENT_CHECK: std::time::Duration = std::time::Duration::from_millis(50);

/// A call whose request was read: authenticate, check, run.
async fn perform(
    state: &Arc<AppState>,
    req: &Request,
    op: &'static Operation,
    fields: Value,
) -> (Outcome, Option<u64>) {
    let provider = fields.get("provider").and_then(Value::as_str);
    let admission = match gate::admit(state, req, Asked::Operation(op.name), provider) {
        Ok(admission) => admission,
        Err(refused) => {
            return (
                Outcome::Failed(refused.problem.into()),
                refused.retry_after_seconds,
            );
        }
    };
    let blocking = op.may_block(&fields);
    // Dropped with this future when the client hangs up, which stops the scan.
    let (budget, abandon_on_drop) = Budget::for_request(state.settings.work_budget());
    let work = {
        let state = state.clone();
        move || {
            let call = Call {
                state: &state,
                caller: &admission.caller,
                client_ip: admission.client_ip,
                budget: &budget,
            };
            run_cached(&state, &call, op, fields)
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
        if let Some(guard) = abandon {
            guard.disarm();
        }
        ran.unwrap_or_else(|e| Err(Problem::internal(e).into()))
    } else {
        abandon_on_drop.disarm();
        work()
    };
    let outcome = match ran {
        Ok(value) => Outcome::Done(value),
        Err(failure) => Outcome::Failed(failure),
    };
    (outcome, None)
}

/// Runs an operation, through the answer cache where its answers may be kept: the request's
/// fields (as read by its type), the provider's brands and the data version are the key.
fn run_cached(
    state: &AppState,
    call: &Call<'_>,
    op: &Operation,
    fields: Value,
) -> Result<Value, Failure> {
    if !op.cacheable {
        return op.run(call, fields);
    }
    let key = fields.to_string();
    let bytes = state
        .answers
        .answer(
            &Snapshot::of(&state.store),
            LookupKind::Operation(op.name),
            &key,
            call.caller.brands(),
            || op.run(call, fields).map_err(Problem::from),
        )
        .map_err(Failure::from)?;
    serde_json::from_slice(bytes.bytes()).map_err(|e| Problem::internal(e).into())
}

const UNPARSEABLE: &str = "Unable to parse request";

fn parse_failure(text: String) -> Failure {
    Failure::bad(if text.starts_with(UNPARSEABLE) {
        text
    } else {
        format!("{UNPARSEABLE}: {text}")
    })
}

/// The fields element of an operation element, by style.
fn fields_element(style: Style, op: &Element) -> Result<&Element, Failure> {
    match style {
        Style::Bare => Ok(op),
        Style::Wrapped => match op.children.as_slice() {
            [arg0] if arg0.name == "arg0" => Ok(arg0),
            _ => Err(parse_failure(format!(
                "the wrapped style (DLW) takes the fields of {} in one `arg0` element",
                op.name
            ))),
        },
    }
}

/// A request whose fields could not be read is 400 on the wire too; other failures are
/// normal answers.
fn http_status(failure: &Failure) -> StatusCode {
    if failure.text.starts_with(UNPARSEABLE) {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    }
}

#[handler]
async fn soap_call(
    req: &Request,
    body: Body,
    state: Data<&Arc<AppState>>,
    names: Data<&ServiceName>,
) -> Response {
    let names = names.0;
    let style = names.style;
    let declared = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let hinted = if declared.starts_with("application/soap+xml") {
        SoapVersion::V12
    } else {
        SoapVersion::V11
    };
    let bytes = match read_bounded(body).await {
        Ok(bytes) => bytes,
        Err((status, why)) => {
            return xml(
                status,
                hinted.content_type(),
                envelope::client_fault(hinted, &why),
            );
        }
    };
    let parsed = match envelope::parse(&bytes) {
        Ok(parsed) => parsed,
        Err((version, why)) => {
            let version = version.unwrap_or(hinted);
            return xml(
                StatusCode::BAD_REQUEST,
                version.content_type(),
                envelope::client_fault(version, &why.0),
            );
        }
    };
    let version = parsed.version;
    let service = service();
    let name = parsed.operation.name.as_str();
    let Some(op) = service.operations.iter().find(|o| o.name == name) else {
        let body = soap_answer(
            names,
            "Error",
            &Failure::bad(format!("Unknown Call: {name}")),
        );
        return xml(
            StatusCode::BAD_REQUEST,
            version.content_type(),
            envelope::envelope(version, &body),
        );
    };
    let read = fields_element(style, &parsed.operation).and_then(|fields| {
        service
            .types
            .read_xml(&op.request_type, fields)
            .map_err(read_failure)
    });
    let (outcome, retry) = match read {
        Ok(fields) => perform(&state, req, op, fields).await,
        Err(failure) => (Outcome::Failed(failure), None),
    };
    let (status, body) = match &outcome {
        Outcome::Done(value) => (
            StatusCode::OK,
            soap_success(names, op, &service.types, value),
        ),
        Outcome::Failed(f) => (
            http_status(f),
            soap_answer(names, &format!("{}Response", op.name), f),
        ),
    };
    let mut response = xml(
        status,
        version.content_type(),
        envelope::envelope(version, &body),
    );
    add_retry_after(&mut response, retry);
    response
}

/// Errors in reading fields: a field that is not part of the request, or a body of the
/// other style, means the request could not be parsed; a bad value names its field.
fn read_failure(text: String) -> Failure {
    if text.contains("is not part of") || text.contains("must be an object") {
        parse_failure(text)
    } else {
        Failure::bad(text)
    }
}

fn add_retry_after(response: &mut Response, retry: Option<u64>) {
    if let Some(seconds) = retry {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, poem::http::HeaderValue::from(seconds));
    }
}

fn soap_success(names: &ServiceName, op: &Operation, types: &Types, value: &Value) -> String {
    let mut out = format!(
        r#"<tns:{0}Response xmlns:tns="{1}"><tns:status>200</tns:status><tns:statusText>OK</tns:statusText>"#,
        op.name,
        names.namespace()
    );
    types.write_xml(&op.answer_type, value, &mut out);
    out.push_str(&format!("</tns:{}Response>", op.name));
    out
}

fn soap_answer(names: &ServiceName, element: &str, failure: &Failure) -> String {
    format!(
        r#"<tns:{element} xmlns:tns="{}"><tns:status>{}</tns:status><tns:statusText>{}</tns:statusText></tns:{element}>"#,
        names.namespace(),
        failure.status,
        quick_xml::escape::escape(failure.text.as_str())
    )
}

fn json_answer(status: StatusCode, fields: Map<String, Value>, retry: Option<u64>) -> Response {
    let body = serde_json::to_vec(&Value::Object(fields)).unwrap_or_default();
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

#[handler]
async fn json_call(
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
    let Some(op) = service.operations.iter().find(|o| o.name == name) else {
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
        Ok(fields) => perform(&state, req, op, fields).await,
        Err(failure) => (Outcome::Failed(failure), None),
    };
    match outcome {
        Outcome::Done(value) => {
            let mut fields = json_failure(&Failure::new(200, "OK"));
            if let Value::Object(answer) = value {
                fields.extend(answer);
            }
            json_answer(StatusCode::OK, fields, retry)
        }
        Outcome::Failed(f) => json_answer(http_status(&f), json_failure(&f), retry),
    }
}

/// The path of each service's SOAP endpoint (its WSDL is this with `?wsdl`), by name.
pub fn endpoint_paths(soap_prefix: &str, brand: &str) -> Vec<(String, String)> {
    [Style::Bare, Style::Wrapped]
        .into_iter()
        .map(|style| {
            let name = ServiceName::new(style, brand).service();
            let path = format!("{soap_prefix}/services/{name}.soapEndpoint");
            (name, path)
        })
        .collect()
}
