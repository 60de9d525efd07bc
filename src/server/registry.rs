//! Every endpoint partscat answers, declared once: each `/svc` route with the scope it needs,
//! the methods it takes and the parameters whose errors need words of their own, and each
//! SOAP/JSON operation with who may call it. Authentication and authorisation read this
//! table, as do the metrics labels, the served document and the errors of malformed paths;
//! whatever is not here is refused (`gate`). Tests hold it
//! equal to the OpenAPI document's paths and the WSDLs' operations.

use crate::accounts::Scope;

/// A `/svc` route as its operation declares it (`#[oai(path)]`; a test holds the two equal).
pub struct Route {
    pub path: &'static str,
    pub scope: Scope,
    /// What a parameter must be, where poem-openapi's own words would name its types.
    pub parameter_rules: &'static [(&'static str, &'static str)],
}

const fn route(path: &'static str, scope: Scope) -> Route {
    Route {
        path,
        scope,
        parameter_rules: &[],
    }
}

/// Every route: lookups and prices need `read`, exports and DMM `export`, imports, jobs,
/// synchronisation and apiDMM `admin`, the change feed `sync`. A path not here is refused
/// (`auth`).
pub const ROUTES: [Route; 22] = [
    route("/svc/getCrossRefsOrArticle/:reference", Scope::Read),
    route("/svc/suggestNumbers/:number", Scope::Read),
    Route {
        path: "/svc/mediaFile/:articleId",
        scope: Scope::Read,
        parameter_rules: &[("articleId", "must be an article id from 1 to 2147483647")],
    },
    route("/svc/getArticlesByKtype/:ktype", Scope::Read),
    route("/svc/getVehicleMakes", Scope::Read),
    Route {
        path: "/svc/getModelSeries/:mfr_id",
        scope: Scope::Read,
        parameter_rules: &[(
            "mfr_id",
            "must be a vehicle maker's id from 1 to 4294967295",
        )],
    },
    Route {
        path: "/svc/getVehicleTypes/:model_series_id",
        scope: Scope::Read,
        parameter_rules: &[(
            "model_series_id",
            "must be a model series' id from 1 to 4294967295",
        )],
    },
    route("/svc/getAssemblyGroups/:ktype", Scope::Read),
    route("/svc/getPricesByKtype/:ktype", Scope::Read),
    Route {
        path: "/svc/price/:genart/:is_kit/:ktype",
        scope: Scope::Read,
        parameter_rules: &[("is_kit", "must be 0 or 1")],
    },
    route("/svc/e/k/:ktype", Scope::Read),
    route("/svc/exportGolda", Scope::Export),
    route("/svc/exportCatalogue", Scope::Export),
    route("/svc/exportRefConcurrente", Scope::Export),
    route("/svc/exportRefConcurrenteInterne", Scope::Export),
    route("/svc/exportAtc", Scope::Export),
    route("/svc/DMM", Scope::Export),
    Route {
        path: "/svc/importArticles",
        scope: Scope::Admin,
        parameter_rules: &[
            (
                "fileId",
                "must be a plain file name in the import inbox (no paths, no hidden files)",
            ),
            ("mode", "must be `merge` or `replace`"),
        ],
    },
    route("/svc/jobs/:id", Scope::Admin),
    route("/svc/syncTecdoc", Scope::Admin),
    Route {
        path: "/svc/changes",
        scope: Scope::Sync,
        parameter_rules: &[
            ("since", "must be a data version (0 or more)"),
            ("wait", "must be a number of seconds from 0 to 300"),
        ],
    },
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

/// What a path of the server is, for the gate (`gate::guard`): every path the server answers
/// is one of these, and any other is refused with a 404 before it is routed.
#[derive(Clone, Copy)]
pub enum Surface {
    /// The probes, the OpenAPI document and its UI, the catalogue browser's page: open to
    /// anyone (the page's calls are admitted as every client's are).
    Open,
    /// `/metrics`: open, or for the `admin` scope, as the `metrics` setting says.
    Metrics,
    /// The admin API over HTTP: the `admin` scope, from loopback only.
    Admin,
    /// A `/svc` route.
    Svc(&'static Route),
    /// A SOAP or JSON endpoint: each call is admitted once its body names the operation.
    Operations,
    /// A media file by TecDoc's documents route, `{soap_prefix}/documents/{provider}/{docId}/
    /// {type}`: the `read` scope, or the signature of an address an answer gave.
    Documents,
}

/// The paths open to anyone.
pub const OPEN_PATHS: [&str; 12] = [
    "/",
    "/catalogue",
    "/catalogue/",
    "/catalogue/catalogue.js",
    "/catalogue/words.js",
    "/catalogue/catalogue.css",
    "/health",
    "/ready",
    "/openapi.json",
    "/openapi.yaml",
    "/docs",
    "/docs/",
];

/// What `path` is, with the SOAP endpoints under `soap_prefix`; `None` for a path the server
/// does not answer.
pub fn surface_of(path: &str, soap_prefix: &str) -> Option<Surface> {
    if OPEN_PATHS.contains(&path) {
        return Some(Surface::Open);
    }
    if path == "/metrics" {
        return Some(Surface::Metrics);
    }
    if path == "/admin" || path.starts_with("/admin/") {
        return Some(Surface::Admin);
    }
    if path.starts_with("/svc/") {
        return route_of(path).map(Surface::Svc);
    }
    let under_prefix = path.strip_prefix(soap_prefix);
    if under_prefix
        .and_then(|rest| rest.strip_prefix("/documents/"))
        .is_some_and(|rest| rest.split('/').count() == 3)
    {
        return Some(Surface::Documents);
    }
    let endpoint = under_prefix
        .and_then(|rest| rest.strip_prefix("/services/"))
        .is_some_and(|name| {
            !name.contains('/')
                && (name.ends_with(".soapEndpoint") || name.ends_with(".jsonEndpoint"))
        });
    endpoint.then_some(Surface::Operations)
}

/// The route a `/svc` path belongs to, by its first segment.
pub fn route_of(path: &str) -> Option<&'static Route> {
    named_route(path).map(|(_, route)| route)
}

/// The name of the route a `/svc` path belongs to (the metrics' label).
pub fn route_name_of(path: &str) -> Option<&'static str> {
    named_route(path).map(|(name, _)| name)
}

fn named_route(path: &str) -> Option<(&'static str, &'static Route)> {
    let rest = path.strip_prefix("/svc/")?;
    let name = memchr::memchr(b'/', rest.as_bytes()).map_or(rest, |slash| &rest[..slash]);
    BY_NAME
        .get_key_value(name)
        .map(|(name, route)| (*name, *route))
}

/// The routes by name: every request's route is found here (by the gate and the metrics).
static BY_NAME: std::sync::LazyLock<foldhash::HashMap<&'static str, &'static Route>> =
    std::sync::LazyLock::new(|| ROUTES.iter().map(|route| (route.name(), route)).collect());

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

/// Every `/svc` route takes GET (and so HEAD); nothing else.
pub const SVC_METHODS: &str = "GET, HEAD";

/// The methods a path takes, for a 405's `Allow`: `/svc` routes GET; SOAP endpoints GET (their
/// WSDL) and POST; JSON endpoints POST; the admin API's collection GET and POST, a provider
/// GET, PATCH and DELETE.
pub fn allowed_methods(path: &str) -> &'static str {
    if path.ends_with(".jsonEndpoint") {
        "POST"
    } else if path.ends_with(".soapEndpoint") || path == "/admin/providers" {
        "GET, HEAD, POST"
    } else if path.starts_with("/admin/providers/") {
        "GET, HEAD, PATCH, DELETE"
    } else {
        SVC_METHODS
    }
}

/// What a `/svc` path's parameter must be, where its route says.
pub fn parameter_rule(path: &str, parameter: &str) -> Option<&'static str> {
    let route = route_of(path)?;
    route
        .parameter_rules
        .iter()
        .find(|(name, _)| *name == parameter)
        .map(|(_, rule)| *rule)
}

/// Who may call a SOAP/JSON operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// A caller whose provider has the scope (an end user's grant: `read`, and `export`
    /// where the provider allows it).
    Scope(Scope),
    /// The provider's own key or whitelisted address, never an end user's grant: the
    /// operations that hand out grants.
    OwnCredentials,
    /// Any authenticated caller: what reveals nothing of the catalogue (the version).
    AnyCaller,
}

#[cfg(test)]
mod tests;
