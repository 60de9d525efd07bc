//! The four endpoints' routes: `PartsToCatDLB|DLW.soapEndpoint` (SOAP 1.1 and 1.2, in
//! `soap_endpoint.rs`; `GET ?wsdl` and `?xsd=1` here) and `PartsToCatDLB|DLW.jsonEndpoint`
//! (`json_endpoint.rs`). A call is read by its request type, admitted by the gate as every
//! `/svc` request is (`gate::admit`), and run (`perform.rs`); every outcome but an unreadable
//! body is an answer with `status` and `statusText`.

use std::sync::Arc;

use poem::http::StatusCode;
use poem::web::Data;
use poem::{EndpointExt, Request, Response, Route, get, handler};

use super::exchange::{service, xml};
use super::json_endpoint::json_call;
use super::soap_endpoint::soap_call;
use super::wsdl::{self, ServiceName, Style};
use crate::server::AppState;
use crate::server::query::QueryPairs;

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

/// Where this endpoint is reached.
fn endpoint_address(state: &AppState, req: &Request, names: &ServiceName) -> String {
    format!(
        "{}/services/{}.soapEndpoint",
        crate::server::addresses::endpoints_base(state, req),
        names.service()
    )
}

/// `GET …soapEndpoint?wsdl` and `?xsd=1`.
#[handler]
fn describe(req: &Request, state: Data<&Arc<AppState>>, names: Data<&ServiceName>) -> Response {
    let names = names.0;
    let query = QueryPairs::of(req);
    let service = service();
    if query.iter().any(|(k, _)| k.eq_ignore_ascii_case("wsdl")) {
        let address = endpoint_address(&state, req, names);
        let text = wsdl::wsdl(names, service.operations, &service.types, &address);
        return xml(StatusCode::OK, "text/xml; charset=utf-8", text);
    }
    if query.iter().any(|(k, v)| k == "xsd" && v == "1") {
        let text = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>{}"#,
            wsdl::xsd(names, service.operations, &service.types)
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

/// The path of the bare service's JSON endpoint, which the catalogue browser calls.
pub fn json_endpoint_path(soap_prefix: &str, brand: &str) -> String {
    let name = ServiceName::new(Style::Bare, brand).service();
    format!("{soap_prefix}/services/{name}.jsonEndpoint")
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
