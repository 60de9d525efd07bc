//! `…soapEndpoint`: a SOAP 1.1 or 1.2 envelope in, the operation's answer or a fault out.

use std::sync::Arc;

use poem::http::{StatusCode, header};
use poem::web::Data;
use poem::{Body, Request, Response, handler};

use super::call::Failure;
use super::call::parse_failure;
use super::envelope::{self, Element, SoapVersion};
use super::exchange::{add_retry_after, read_bounded, service, xml};
use super::perform::{
    Outcome, Performed, http_status, name_ignored_and_language, perform, read_failure,
};
use super::registry::Operation;
use super::tecdoc_form;
use super::wsdl::{ServiceName, Style};
use crate::server::AppState;
use crate::server::answer_cache::Written;

#[handler]
pub(super) async fn soap_call(
    req: &Request,
    body: Body,
    state: Data<&Arc<AppState>>,
    names: Data<&ServiceName>,
) -> Response {
    let names = names.0;
    let style = names.style;
    let parsed = match read_envelope(req, body).await {
        Ok(parsed) => parsed,
        Err(fault) => return fault,
    };
    let version = parsed.version;
    let tecdoc = parsed.operation_namespace.as_deref() == Some(tecdoc_form::TECDOC_NS);
    let service = service();
    let name = parsed.operation.name.as_str();
    let Some(op) = super::registry::operation(name) else {
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
    let performed = match read {
        Ok(read) => {
            let form = if tecdoc {
                Written::TecdocSoap
            } else {
                Written::Soap
            };
            perform(&state, req, op, read, form).await
        }
        Err(failure) => Performed::failed(failure),
    };
    let (status, body) = match (&performed.outcome, tecdoc) {
        (Outcome::Done(answer), false) => {
            let (open, close) = soap_success(names, op);
            (
                StatusCode::OK,
                envelope::around(version, &[open.as_bytes(), answer, close.as_bytes()]),
            )
        }
        (Outcome::Done(answer), true) => (StatusCode::OK, envelope::around(version, &[answer])),
        (Outcome::Failed(f), false) => {
            let answer = soap_answer(names, &format!("{}Response", op.name), f);
            (
                http_status(f),
                envelope::envelope(version, &answer).into_bytes(),
            )
        }
        (Outcome::Failed(f), true) => {
            let answer = tecdoc_form::failure(op.name, f);
            (
                http_status(f),
                envelope::envelope(version, &answer).into_bytes(),
            )
        }
    };
    let mut response = Response::builder()
        .status(status)
        .content_type(version.content_type())
        .body(body);
    add_retry_after(&mut response, performed.retry);
    name_ignored_and_language(&mut response, &performed);
    response
}

/// The fields element of an operation element, by style.
fn fields_element(style: Style, op: &Element) -> Result<&Element, Failure> {
    match style {
        Style::Bare if super::wsdl::only_arg0(Some(op.children.iter().map(|c| &c.name))) => {
            Err(parse_failure(format!(
                "the bare style (DLB) takes the fields of {} as they are, not in `arg0`",
                op.name
            )))
        }
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

/// What goes around an answer's elements: the answer element with its status, and its end.
fn soap_success(names: &ServiceName, op: &Operation) -> (String, String) {
    let open = format!(
        r#"<tns:{0}Response xmlns:tns="{1}"><tns:status>200</tns:status><tns:statusText>OK</tns:statusText>"#,
        op.name,
        names.namespace()
    );
    (open, format!("</tns:{}Response>", op.name))
}

fn soap_answer(names: &ServiceName, element: &str, failure: &Failure) -> String {
    format!(
        r#"<tns:{element} xmlns:tns="{}"><tns:status>{}</tns:status><tns:statusText>{}</tns:statusText></tns:{element}>"#,
        names.namespace(),
        failure.status,
        quick_xml::escape::escape(failure.text.as_str())
    )
}

/// The envelope of the request, or the fault that answers a body that is not one (in the
/// version the content type hints at where the envelope does not say).
async fn read_envelope(req: &Request, body: Body) -> Result<envelope::Envelope, Response> {
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
    let bytes = read_bounded(body).await.map_err(|(status, why)| {
        xml(
            status,
            hinted.content_type(),
            envelope::client_fault(hinted, &why),
        )
    })?;
    envelope::parse(&bytes).map_err(|(version, why)| {
        let version = version.unwrap_or(hinted);
        xml(
            StatusCode::BAD_REQUEST,
            version.content_type(),
            envelope::client_fault(version, &why.0),
        )
    })
}
