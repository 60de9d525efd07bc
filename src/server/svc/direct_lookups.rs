//! `getCrossRefsOrArticle` answered before routing: the most frequent request of a busy
//! counter, and routing it through poem-openapi (the path match, the extraction of each
//! parameter, the handler's chain of futures) cost more than a kept answer's probe and a
//! good part of a lookup. Only a request the route would accept as it is takes this path:
//! the gate has admitted it, its query was checked (`refused_query`), it names a `provider`
//! and `lookups::lookup_kind` takes its `mainref`/`crossrefs`. Anything else goes on to the
//! route, which decides and answers it with the same functions.

use std::sync::Arc;

use poem::{IntoResponse, Request, Response};

use super::REFERENCE_ROUTE;
use super::lookups::{cross_refs_or_article, lookup_kind};
use crate::server::AppState;
use crate::server::query::QueryPairs;
use crate::service::context::Context;

/// The answer of `req`, if it is a lookup by reference the route would take as it is.
pub fn direct_answer(req: &Request) -> Option<Response> {
    if req.method() != poem::http::Method::GET {
        return None;
    }
    let written = req.uri().path().strip_prefix(REFERENCE_ROUTE)?;
    let query = QueryPairs::of(req);
    let asked = |name| query.first(name).is_some();
    let lookup = lookup_kind(asked("mainref"), asked("crossrefs")).ok()?;
    query.first("provider")?;
    // One path segment (`paths_as_written` encoded a reference's slashes), decoded as the
    // router decodes a path parameter: the reference the route would be given.
    if written.is_empty() || written.contains('/') {
        return None;
    }
    let reference = percent_encoding::percent_decode_str(written)
        .decode_utf8()
        .ok()?;
    let state = req.data::<Arc<AppState>>()?;
    let context = req.extensions().get::<Context>()?;
    Some(
        match cross_refs_or_article(state, context, &reference, lookup) {
            Ok(answer) => answer.into_response(),
            Err(problem) => problem.into_response(),
        },
    )
}
