//! What every request passes on its way to the routes and back, in order, in one endpoint:
//! the access log's line, the maker's route prefix, the metrics' timing, the memory its
//! answer holds (counted until it is sent), problem+json for every error, compression of the
//! answer, the HTTP/2 request count, the body bound, pages of other origins (CORS), the gate (authentication and scopes of
//! `/svc` and `/admin`, readiness), paths as people write them, and the query each `/svc`
//! route takes. Each step is a plain function of its module
//! called here once: a chain of middleware endpoints would hold the request in every link's
//! state (a 14 KB future, copied as each link was built, for every request;
//! `tests/request_future.rs` keeps it small).

use std::sync::Arc;

use poem::http::{HeaderValue, Method, header};
use poem::{Endpoint, IntoResponse, Request, Response};

use crate::limits::in_flight::{Counted, Held};

use super::{
    AppState, access_log, answer_memory, catalogue_page, compression, connection, cross_origin,
    gate, metrics, problem, request_body, svc, tls,
};

pub struct Passage<E> {
    routes: E,
    state: Arc<AppState>,
}

impl<E> Passage<E> {
    pub fn new(routes: E, state: Arc<AppState>) -> Passage<E> {
        Passage { routes, state }
    }
}

impl<E: Endpoint> Endpoint for Passage<E> {
    type Output = Response;

    async fn call(&self, mut req: Request) -> poem::Result<Response> {
        let state = &self.state;
        req.set_data(state.clone());
        let line = access_log::Line::begin(&req);
        prefixed_routes(state, &mut req);
        let timing = metrics::Timing::begin(&req);
        // A `Uri` clone shares its bytes; the path is read only when there is an error.
        let uri = req.uri().clone();
        let held = Held::new();
        let answer = Counted::new(held.clone(), self.answer(req)).await;
        let mut response = answer_memory::held_until_sent(problem::rendered(answer, &uri), held);
        timing.end(&state.metrics, &response);
        // On HTTPS, every answer tells browsers to keep to HTTPS (HSTS).
        if state.settings.https() {
            let hsts = HeaderValue::from_static(tls::HSTS);
            let headers = response.headers_mut();
            headers.insert(header::STRICT_TRANSPORT_SECURITY, hsts);
        }
        if let Some(line) = line {
            line.end(&response);
        }
        Ok(response)
    }
}

impl<E: Endpoint> Passage<E> {
    /// The answer, compressed where the client takes it; an error is rendered by the caller.
    async fn answer(&self, mut req: Request) -> poem::Result<Response> {
        let coding = compression::negotiate(&req);
        let _in_flight = connection::in_flight(&self.state, &req);
        let page = cross_origin::allowed(&self.state, &req);
        let answered = self.before_routes(&mut req);
        let served = gate::served_language(&self.state, &req);
        let mut response = match answered {
            Some(answer) => answer,
            None => self.routes.call(req).await?.into_response(),
        };
        if let Some(language) = served {
            gate::name_language(&mut response, language);
        }
        if let Some(origin) = page {
            cross_origin::mark(&mut response, origin);
        }
        compression::compressed(coding, response).await
    }

    /// The steps before the routes, in order; the answer where one of them gives it.
    fn before_routes(&self, req: &mut Request) -> Option<Response> {
        request_body::bound(req)
            .or_else(|| cross_origin::answer_before_routes(&self.state, req))
            .or_else(|| gate::guard(&self.state, req))
            .or_else(|| paths_as_written(req))
            .or_else(|| svc::refused_query(req))
            .or_else(|| svc::lookup_before_routing(req))
    }
}

/// Paths as people write them, into the form the routes take: `/` is the landing page that
/// links the catalogue and the API's documentation (a route at "/" would lose to the OpenAPI
/// service nested there), and a reference's unencoded `/` is encoded
/// (`svc::slashes_encoded`).
fn paths_as_written(req: &mut Request) -> Option<Response> {
    if req.uri().path() == "/" && req.method() == Method::GET {
        return Some(catalogue_page::landing());
    }
    if let Some(uri) = svc::slashes_encoded(req.uri()) {
        *req.uri_mut() = uri;
    }
    None
}

/// The V2 routes under the maker's prefix (`route_prefix`): `/{prefix}/…` is served as
/// `/svc/…`, where the routes are declared (and stay reachable, so that a client or a
/// follower written for `/svc` keeps working). The access log shows the path as sent.
fn prefixed_routes(state: &AppState, req: &mut Request) {
    let (prefix, soap_prefix) = (&state.settings.route_prefix, &state.settings.soap_prefix);
    let path = req.uri().path();
    if prefix != "svc"
        && !prefix.is_empty()
        && !path.starts_with(&format!("{soap_prefix}/"))
        && let Some(rest) = path.strip_prefix(&format!("/{prefix}/"))
    {
        let query = req
            .uri()
            .query()
            .map(|q| format!("?{q}"))
            .unwrap_or_default();
        if let Ok(uri) = format!("/svc/{rest}{query}").parse() {
            *req.uri_mut() = uri;
        }
    }
}
