//! A repeated `getCrossRefsOrArticle` answered from the answer cache before routing. Such a
//! hit is most of a busy counter's traffic, and routing it through poem-openapi (the path
//! match, the extraction of each parameter, the handler's chain) cost more than the probe.
//! Only a request the route would accept as is takes this path: the gate has admitted it
//! and `check_query` has checked its parameters; anything else (a miss, one of `mainref`
//! and `crossrefs` missing or both given, no `provider`) goes on to the route, which answers
//! and keeps it exactly as before.

use std::sync::Arc;

use poem::{IntoResponse, Request, Response};

use super::REFERENCE_ROUTE;
use super::lookups::CrossRefsOrArticle;
use crate::server::AppState;
use crate::server::answer_cache::{JsonBytes, LookupKind};
use crate::server::query::QueryPairs;
use crate::service::Snapshot;
use crate::service::caller::Caller;

/// The kept answer of `req`, if it is a lookup by reference whose answer is kept and holds.
pub fn kept_answer(req: &Request, query: &QueryPairs) -> Option<Response> {
    if req.method() != poem::http::Method::GET {
        return None;
    }
    let written = req.uri().path().strip_prefix(REFERENCE_ROUTE)?;
    let lookup = match (query.first("mainref"), query.first("crossrefs")) {
        (Some(_), None) => LookupKind::Article,
        (None, Some(_)) => LookupKind::CrossReferences,
        _ => return None,
    };
    query.first("provider")?;
    // One path segment (`paths_as_written` encoded a reference's slashes), decoded as the
    // router decodes a path parameter: the key is the one the route keeps its answer under.
    if written.is_empty() || written.contains('/') {
        return None;
    }
    let reference = percent_encoding::percent_decode_str(written)
        .decode_utf8()
        .ok()?;
    let state = req.data::<Arc<AppState>>()?;
    let caller = req.extensions().get::<Caller>()?;
    let snapshot = Snapshot::of(&state.store);
    let bytes = state
        .answers
        .hit(&snapshot, lookup, &reference, caller.brands())?;
    Some(JsonBytes::<CrossRefsOrArticle>::new(bytes).into_response())
}
