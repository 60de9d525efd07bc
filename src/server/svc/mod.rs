//! The `/svc` routes (V2 integration) as poem-openapi operations: the OpenAPI document is
//! generated from this code, so it cannot drift from what the server does.

mod examples;
mod export_rows;
mod exports;
mod imports;
pub(crate) mod lookups;
pub(crate) mod prices;
pub(crate) mod schema;

use poem::http::StatusCode;
use poem_openapi::param::Query;
use poem_openapi::{OpenApi, Tags};

use super::auth::Credentials;
use super::problem::{ApiError, Problem, Unimplemented};
use crate::store::Scope;

#[derive(Tags)]
pub enum ApiTag {
    /// Articles and cross-references by reference, articles by vehicle.
    Lookups,
    /// Prices by vehicle, kit prices and exhaust kit prices.
    Prices,
    /// Streamed exports per brand or competitor manufacturer, as JSON or CSV.
    Exports,
    /// Imports from the import inbox, run as jobs.
    Imports,
    /// Synchronisation and media publishing.
    Synchronisation,
}

/// Every `/svc` operation.
pub fn api() -> impl OpenApi {
    (
        lookups::LookupApi,
        prices::PriceApi,
        exports::ExportApi,
        imports::ImportApi,
        LaterApi,
    )
}

/// The routes a later release implements; until then they say so.
struct LaterApi;

fn not_yet(route: &str) -> ApiError<Unimplemented> {
    Problem::new(
        StatusCode::NOT_IMPLEMENTED,
        format!("`{route}` is not implemented in this release"),
    )
    .into()
}

#[OpenApi(tag = "ApiTag::Synchronisation")]
impl LaterApi {
    /// Pulls catalogue data of `importType` from the configured upstream.
    ///
    /// Not implemented in this release: answers 501.
    #[oai(path = "/svc/syncTecdoc", method = "get", operation_id = "syncTecdoc")]
    async fn sync_tecdoc(
        &self,
        /// The data set to synchronise.
        #[oai(
            name = "importType",
            example = "crate::server::svc::examples::import_type"
        )]
        _import_type: Query<imports::ImportTypeName>,
        /// `true`: reload in full instead of what changed since the last sync.
        #[oai(name = "refresh", example = "crate::server::svc::examples::refresh")]
        _refresh: Query<bool>,
        /// The ProviderId the call is made for.
        #[oai(name = "provider", example = "crate::server::svc::examples::provider")]
        _provider: Query<String>,
        _credentials: Credentials,
    ) -> Result<super::json_body::JsonBody<imports::JobStatus>, ApiError<Unimplemented>> {
        Err(not_yet("syncTecdoc"))
    }

    /// Builds a brand's DMM package, optionally publishing it and fetching 360-degree frames.
    ///
    /// Not implemented in this release: answers 501.
    #[oai(path = "/svc/apiDMM", method = "get", operation_id = "apiDMM")]
    async fn api_dmm(
        &self,
        /// The brand.
        #[oai(
            name = "brand_id",
            example = "crate::server::svc::examples::brand_id",
            validator(minimum(value = "1"), maximum(value = "4294967295"))
        )]
        _brand_id: Query<u32>,
        /// `true`: deliver the package to the configured publish target.
        #[oai(name = "publish", default)]
        _publish: Query<bool>,
        /// `true`: fetch the 360-degree frames into the local media store first.
        #[oai(name = "download360", default)]
        _download360: Query<bool>,
        /// The ProviderId the call is made for.
        #[oai(name = "provider", example = "crate::server::svc::examples::provider")]
        _provider: Query<String>,
        _credentials: Credentials,
    ) -> Result<super::json_body::JsonBody<imports::JobStatus>, ApiError<Unimplemented>> {
        Err(not_yet("apiDMM"))
    }
}

/// Every `/svc` query parameter takes one value: a repeated one is ambiguous, so it is a 400
/// naming it rather than a silent choice of the first.
pub async fn reject_repeated_parameters<E: poem::Endpoint>(
    next: E,
    req: poem::Request,
) -> poem::Result<poem::Response> {
    use poem::IntoResponse;
    if req.uri().path().starts_with("/svc/") {
        let query = req.uri().query().unwrap_or("");
        let mut seen = std::collections::HashSet::new();
        for (name, _) in form_urlencoded::parse(query.as_bytes()) {
            if !seen.insert(name.clone()) {
                return Ok(Problem::bad_parameter(
                    &name,
                    format!("parameter `{name}` is given more than once"),
                )
                .into_response());
            }
        }
    }
    Ok(next.call(req).await?.into_response())
}

/// The route whose one path parameter is a reference as written.
const REFERENCE_ROUTE: &str = "/svc/getCrossRefsOrArticle/";

/// References often hold a `/` (`HU 719/7 x`, `FN 717/5`). Sent as is, it would split the
/// path; everything after the route's name is the reference, so `…/FN%20717/5` and
/// `…/FN%20717%2F5` are the same request. The URI with the slashes of its reference encoded,
/// where it has any: a URI that was parsed stays parseable with `%2F` for `/`, so `None`
/// means "nothing to encode".
pub fn slashes_encoded(uri: &poem::http::Uri) -> Option<poem::http::Uri> {
    let reference = uri.path().strip_prefix(REFERENCE_ROUTE)?;
    if !reference.contains('/') {
        return None;
    }
    let mut encoded = format!("{REFERENCE_ROUTE}{}", reference.replace('/', "%2F"));
    if let Some(query) = uri.query() {
        encoded.push('?');
        encoded.push_str(query);
    }
    let mut parts = uri.clone().into_parts();
    parts.path_and_query = Some(encoded.parse().ok()?);
    poem::http::Uri::from_parts(parts).ok()
}

/// A `/svc` route as its operation declares it (`#[oai(path)]`; a test holds the two equal),
/// with the scope it needs. Authorisation and the errors of malformed paths read this table.
pub struct Route {
    pub path: &'static str,
    pub scope: Scope,
}

const fn route(path: &'static str, scope: Scope) -> Route {
    Route { path, scope }
}

/// Every route: lookups and prices need `read`, exports and DMM `export`, imports, jobs,
/// synchronisation and apiDMM `admin`. A path not here is refused (`auth`).
pub const ROUTES: [Route; 15] = [
    route("/svc/getCrossRefsOrArticle/:reference", Scope::Read),
    route("/svc/getArticlesByKtype/:ktype", Scope::Read),
    route("/svc/getPricesByKtype/:ktype", Scope::Read),
    route("/svc/price/:genart/:is_kit/:ktype", Scope::Read),
    route("/svc/e/k/:ktype", Scope::Read),
    route("/svc/exportGolda", Scope::Export),
    route("/svc/exportCatalogue", Scope::Export),
    route("/svc/exportRefConcurrente", Scope::Export),
    route("/svc/exportRefConcurrenteInterne", Scope::Export),
    route("/svc/exportAtc", Scope::Export),
    route("/svc/DMM", Scope::Export),
    route("/svc/importArticles", Scope::Admin),
    route("/svc/jobs/:id", Scope::Admin),
    route("/svc/syncTecdoc", Scope::Admin),
    route("/svc/apiDMM", Scope::Admin),
];

impl Route {
    /// Its first segment after `/svc/`, which no two routes share.
    pub fn name(&self) -> &'static str {
        self.path["/svc/".len()..].split('/').next().unwrap_or("")
    }

    /// What comes before its first path parameter (`/svc/e/k/`); the whole path without one.
    fn prefix(&self) -> &'static str {
        self.path.find("/:").map_or(self.path, |i| &self.path[..=i])
    }

    /// Its path parameters, in order.
    fn parameters(&self) -> impl Iterator<Item = &'static str> {
        self.path.split('/').filter_map(|s| s.strip_prefix(':'))
    }

    /// The path as the OpenAPI document writes it (`{ktype}` for `:ktype`), for the test
    /// that holds the operations' paths and this table equal.
    #[cfg(test)]
    pub fn document_path(&self) -> String {
        self.path
            .split('/')
            .map(|s| match s.strip_prefix(':') {
                Some(name) => format!("{{{name}}}"),
                None => s.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// The route a `/svc` path belongs to, by its first segment.
pub fn route_of(path: &str) -> Option<&'static Route> {
    let name = path.strip_prefix("/svc/")?.split('/').next()?;
    ROUTES.iter().find(|r| r.name() == name)
}

/// The route with path parameters whose prefix the path starts with.
fn parameterised_route(path: &str) -> Option<&'static Route> {
    ROUTES
        .iter()
        .find(|r| r.parameters().next().is_some() && path.starts_with(r.prefix()))
}

/// The name of a route's `index`th path parameter (poem-openapi reports some as `param<N>`).
pub fn path_parameter_name(path: &str, index: usize) -> Option<&'static str> {
    parameterised_route(path)?.parameters().nth(index)
}

/// The first path parameter whose segment does not decode to UTF-8.
pub fn undecodable_path_parameter(path: &str) -> Option<&'static str> {
    let route = parameterised_route(path)?;
    path[route.prefix().len()..]
        .split('/')
        .zip(route.parameters())
        .find(|(segment, _)| percent_decoded(segment).is_none())
        .map(|(_, name)| name)
}

fn percent_decoded(segment: &str) -> Option<String> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The parameter a path leaves empty, for a path that no route matched.
pub fn empty_path_parameter(path: &str) -> Option<&'static str> {
    for route in ROUTES.iter().filter(|r| r.parameters().next().is_some()) {
        let prefix = route.prefix();
        let params: Vec<&'static str> = route.parameters().collect();
        let base = prefix.trim_end_matches('/');
        let rest = if path == base {
            ""
        } else if let Some(r) = path.strip_prefix(prefix) {
            r
        } else {
            continue;
        };
        let segments: Vec<&str> = if rest.is_empty() {
            Vec::new()
        } else {
            rest.split('/').collect()
        };
        if segments.len() > params.len() {
            return None;
        }
        return params
            .iter()
            .enumerate()
            .find(|(i, _)| segments.get(*i).is_none_or(|s| s.is_empty()))
            .map(|(_, p)| *p);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::empty_path_parameter;

    #[test]
    fn empty_segments_name_their_parameter() {
        assert_eq!(empty_path_parameter("/svc/e/k/"), Some("ktype"));
        assert_eq!(empty_path_parameter("/svc/e/k"), Some("ktype"));
        assert_eq!(empty_path_parameter("/svc/price//1/10"), Some("genart"));
        assert_eq!(empty_path_parameter("/svc/price/4000/1/"), Some("ktype"));
        assert_eq!(empty_path_parameter("/svc/price/4000//x"), Some("is_kit"));
        assert_eq!(
            empty_path_parameter("/svc/getCrossRefsOrArticle/"),
            Some("reference")
        );
        assert_eq!(empty_path_parameter("/svc/price/1/2/3/4"), None);
        assert_eq!(empty_path_parameter("/svc/nothing"), None);
    }

    #[test]
    fn undecodable_segments_name_their_parameter() {
        use super::undecodable_path_parameter as bad;
        assert_eq!(bad("/svc/price/1/%FF/10"), Some("is_kit"));
        assert_eq!(bad("/svc/getArticlesByKtype/%C3%28"), Some("ktype"));
        assert_eq!(bad("/svc/getArticlesByKtype/%C3%A9"), None);
    }
}
