//! The query of a `/svc` request, checked against what its route takes: every parameter once
//! (a repeated one is ambiguous), and only parameters the route's OpenAPI operation lists (a
//! misspelt `limt=5` would otherwise be dropped silently and the whole list answered). The
//! lists come from the generated document, so they cannot drift from the operations.

use std::collections::{BTreeSet, HashSet};

use foldhash::{HashMap, HashMapExt};
use std::sync::LazyLock;

use poem::{IntoResponse, Request, Response};

use crate::server::problem::Problem;
use crate::server::query::QueryPairs;

/// Parameters every route takes besides its own: the key as a query parameter (the document
/// gives it as a security scheme, not as a parameter).
const EVERY_ROUTE: [&str; 1] = ["api_key"];

/// The query parameters of each `/svc` route, by the route's name (its first path segment).
pub struct QueryParameters(HashMap<String, BTreeSet<String>>);

impl QueryParameters {
    /// The parameters `spec` (an OpenAPI document as JSON) lists for each `/svc` operation.
    pub fn of(spec: &str) -> QueryParameters {
        let doc: serde_json::Value = serde_json::from_str(spec).unwrap_or_default();
        let mut routes: HashMap<String, BTreeSet<String>> = HashMap::new();
        let paths = doc["paths"].as_object().into_iter().flatten();
        for (path, operations) in paths {
            let Some(name) = path.strip_prefix("/svc/").and_then(|p| p.split('/').next()) else {
                continue;
            };
            let known = routes.entry(name.to_owned()).or_default();
            known.extend(EVERY_ROUTE.map(str::to_owned));
            let parameters = operations
                .as_object()
                .into_iter()
                .flat_map(|ops| ops.values())
                .flat_map(|op| op["parameters"].as_array().into_iter().flatten());
            for parameter in parameters {
                if parameter["in"] == "query"
                    && let Some(name) = parameter["name"].as_str()
                {
                    known.insert(name.to_owned());
                }
            }
        }
        QueryParameters(routes)
    }

    /// The problem with `query` on the route named by `path`, if any: a parameter given twice,
    /// or one the route does not take. A path of no route is left to the routes (a 404).
    fn problem(&self, path: &str, query: &QueryPairs) -> Option<Problem> {
        let route = path.strip_prefix("/svc/")?.split('/').next()?;
        let known = self.0.get(route);
        // A short query (every client's) is searched for repeats as it stands; a long one
        // through a set, so that no query costs its length squared.
        let mut seen: Option<HashSet<&str>> = None;
        for (at, (name, _)) in query.iter().enumerate() {
            let repeated = match &mut seen {
                None if at < SHORT_QUERY => query.iter().take(at).any(|(n, _)| n == name),
                None => {
                    let set = seen.insert(query.iter().take(at).map(|(n, _)| n).collect());
                    !set.insert(name)
                }
                Some(set) => !set.insert(name),
            };
            if repeated {
                return Some(Problem::bad_parameter(
                    name,
                    format!("parameter `{name}` is given more than once"),
                ));
            }
            if let Some(known) = known
                && !known.contains(name)
            {
                let takes: Vec<&str> = known.iter().map(String::as_str).collect();
                let closest = takes
                    .iter()
                    .map(|k| (strsim::levenshtein(name, k), *k))
                    .min()
                    .filter(|(distance, _)| *distance <= 2)
                    .map(|(_, k)| format!(" (did you mean `{k}`?)"))
                    .unwrap_or_default();
                return Some(Problem::bad_parameter(
                    name,
                    format!(
                        "{route} has no parameter `{name}`{closest}; it takes {}",
                        takes.join(", ")
                    ),
                ));
            }
        }
        None
    }
}

/// Queries of up to this many parameters are searched for repeats pair by pair.
const SHORT_QUERY: usize = 16;

/// The `/svc` routes' parameters, read from their document the first time a request asks.
static KNOWN: LazyLock<QueryParameters> =
    LazyLock::new(|| QueryParameters::of(&crate::server::openapi(None).spec()));

/// Refuses a `/svc` request whose query its route does not accept, with a 400 naming the
/// parameter; none: the request goes on.
pub fn refused_query(req: &Request) -> Option<Response> {
    let query = QueryPairs::of(req);
    KNOWN
        .problem(req.uri().path(), &query)
        .map(IntoResponse::into_response)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> QueryParameters {
        QueryParameters::of(
            r#"{"paths": {
                "/svc/getArticlesByKtype/{ktype}": {"get": {"parameters": [
                    {"name": "ktype", "in": "path"},
                    {"name": "provider", "in": "query"},
                    {"name": "limit", "in": "query"}]}},
                "/svc/exportGolda": {"get": {"parameters": [
                    {"name": "brand_id", "in": "query"}]}}
            }}"#,
        )
    }

    #[test]
    fn a_parameter_the_route_does_not_take_is_named_with_those_it_does() {
        let known = known();
        let path = "/svc/getArticlesByKtype/10219";
        assert!(
            known
                .problem(
                    path,
                    &QueryPairs::parse(Some("provider=demo&limit=5&api_key=k"))
                )
                .is_none()
        );
        let problem = known
            .problem(path, &QueryPairs::parse(Some("provider=demo&limt=5")))
            .unwrap();
        let text = format!("{problem:?}");
        assert!(
            text.contains("no parameter `limt` (did you mean `limit`?)"),
            "{text}"
        );
        assert!(text.contains("api_key, limit, provider"), "{text}");
        let far = format!(
            "{:?}",
            known
                .problem("/svc/exportGolda", &QueryPairs::parse(Some("ktype=1")))
                .unwrap()
        );
        assert!(!far.contains("did you mean"), "{far}");
        assert!(
            known
                .problem(path, &QueryPairs::parse(Some("limit=1&limit=2")))
                .is_some()
        );
        // A path of no route is the router's to refuse.
        assert!(
            known
                .problem("/svc/nothing", &QueryPairs::parse(Some("x=1")))
                .is_none()
        );
    }

    #[test]
    fn a_repeat_is_found_in_short_and_long_queries_alike() {
        let known = known();
        for count in [2, SHORT_QUERY, SHORT_QUERY + 1, 3 * SHORT_QUERY] {
            let names: Vec<String> = (0..count).map(|i| format!("p{i}")).collect();
            let distinct = names.join("&");
            let problem =
                |query: &str| known.problem("/svc/nothing", &QueryPairs::parse(Some(query)));
            assert!(problem(&distinct).is_none(), "{count}");
            // The repeat of the first, and of the one before last, at the end.
            for repeated in [&names[0], &names[count - 2]] {
                let text = format!(
                    "{:?}",
                    problem(&format!("{distinct}&{repeated}=2")).unwrap()
                );
                assert!(
                    text.contains(&format!("`{repeated}` is given more than once")),
                    "{text}"
                );
            }
        }
    }
}
