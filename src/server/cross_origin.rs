//! Pages of other origins calling the Pegasus endpoints and the documents route from a
//! browser (TecDoc's JavaScript client in a shop's pages, its end user admitted by a grant):
//! CORS for the origins the
//! setting `cors_origins` names, none by default. Their preflights are answered and their
//! answers carry `Access-Control-Allow-Origin`. A call from a page of any other origin is
//! refused before it is read: a whitelisted or granted address would otherwise lend its
//! rights to whatever page its user happens to open.

use poem::http::{HeaderValue, Method, StatusCode, header};
use poem::{IntoResponse, Request, Response};

use super::AppState;
use super::problem::Problem;
use super::registry::{self, Surface};

/// What a page may send beside the body: the key as TecDoc clients pass it, a SOAP action.
const ALLOWED_HEADERS: &str = "content-type, x-api-key, api-key, authorization, soapaction";
/// What a page may read of an answer beyond the simple headers.
const EXPOSED_HEADERS: &str = "content-language, retry-after, partscat-ignored-fields";

/// The request's origin, where it is a page of another origin that the settings name;
/// its answer is marked for it.
pub fn allowed(state: &AppState, req: &Request) -> Option<HeaderValue> {
    let origin = foreign_origin(state, req)?;
    named(state, origin).then(|| HeaderValue::from_str(origin).ok())?
}

/// The answer to a preflight of a named origin, or the refusal of a call from another.
pub fn answer_before_routes(state: &AppState, req: &Request) -> Option<Response> {
    let origin = foreign_origin(state, req)?;
    if !named(state, origin) {
        let refused = Problem::new(
            StatusCode::FORBIDDEN,
            format!(
                "pages of {origin} may not call this service: the setting cors_origins names \
                 the origins that may"
            ),
        );
        return Some(refused.into_response());
    }
    if req.method() != Method::OPTIONS {
        return None;
    }
    let mut preflight = Response::builder()
        .status(StatusCode::NO_CONTENT)
        .header(header::ACCESS_CONTROL_ALLOW_METHODS, "POST, GET, OPTIONS")
        .header(header::ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS)
        .header(header::ACCESS_CONTROL_MAX_AGE, "600")
        .finish();
    if let Ok(origin) = HeaderValue::from_str(origin) {
        mark(&mut preflight, origin);
    }
    Some(preflight)
}

/// Marks an answer as readable by the page of `origin`.
pub fn mark(response: &mut Response, origin: HeaderValue) {
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static(EXPOSED_HEADERS),
    );
    headers.append(header::VARY, HeaderValue::from_static("origin"));
}

/// The `Origin` of a request to the Pegasus endpoints made by a page of another origin than
/// this server's own (a browser names the origin of a cross-origin request, and of a
/// same-origin one too where it is not a GET).
fn foreign_origin<'r>(state: &AppState, req: &'r Request) -> Option<&'r str> {
    // The header first: most requests have none, and it is cheaper than the path.
    let origin = req
        .headers()
        .get(header::ORIGIN)?
        .to_str()
        .unwrap_or("null");
    let surface = registry::surface_of(req.uri().path(), &state.settings.soap_prefix);
    if !matches!(surface, Some(Surface::Operations | Surface::Documents)) {
        return None;
    }
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok());
    let own = origin
        .split_once("://")
        .is_some_and(|(_, authority)| Some(authority) == host);
    (!own).then_some(origin)
}

fn named(state: &AppState, origin: &str) -> bool {
    state
        .settings
        .cors_origins
        .iter()
        .any(|o| o.eq_ignore_ascii_case(origin))
}
