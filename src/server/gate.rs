//! The one gate every request for an endpoint of the registry passes: `admit` decides, for
//! `/svc`, the SOAP and JSON operations, `/admin` and a guarded `/metrics` alike, whether the
//! catalogue is ready, who calls (`auth::authenticate`), whether they may use the endpoint
//! (its scope or its operation's access), the brand they name, their rate, and the language
//! they read; it builds the request's context (`service::Context`) that every answer of the
//! request is given. `guard` runs it before routing; a SOAP or JSON call runs it once its body
//! names the operation. A path the registry does not know is a 404 here, before anything else
//! (fail closed).

use std::sync::Arc;

use poem::http::{HeaderValue, StatusCode};
use poem::{IntoResponse, Request, Response};

use super::AppState;
use super::addresses::endpoints_base;
use super::auth::{self, Admission};
use super::client_address::direct_from_loopback;
use super::problem::Problem;
use super::query::QueryPairs;
use super::registry::{self, Access, Surface};
use crate::accounts::Scope;
use crate::config::MetricsAccess;
use crate::service::Snapshot;
use crate::service::caller::Caller;
use crate::service::context::Context;
use crate::service::language::Language;
use crate::service::media_links::MediaLinks;

/// What a request asks to use.
#[derive(Clone, Copy)]
pub enum Asked {
    /// A `/svc` route.
    Route(&'static registry::Route),
    /// The admin API over HTTP (from loopback only).
    Admin,
    /// `/metrics` behind the `admin` scope (`metrics = admin`), from anywhere: a remote
    /// Prometheus scrapes with a key of a provider that has the scope.
    Metrics,
    /// A SOAP or JSON operation, by name.
    Operation(&'static str),
    /// A media file by the documents route (`{soap_prefix}/documents/…`).
    Document,
}

/// Why a request was not admitted: the problem, and how long to wait when over the rate.
pub struct Refused {
    pub problem: Problem,
    pub retry_after_seconds: Option<u64>,
}

impl From<Problem> for Refused {
    fn from(problem: Problem) -> Refused {
        Refused {
            problem,
            retry_after_seconds: None,
        }
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let mut response = self.problem.into_response();
        if let Some(seconds) = self.retry_after_seconds {
            response.headers_mut().insert(
                poem::http::header::RETRY_AFTER,
                poem::http::HeaderValue::from(seconds),
            );
        }
        response
    }
}

/// A SOAP or JSON request's own fields the gate reads: `provider` and `lang`.
#[derive(Clone, Copy, Default)]
pub struct FromBody<'a> {
    pub provider: Option<&'a str>,
    pub lang: Option<&'a str>,
}

/// A request admitted: its context, and the client's address as authentication saw it.
pub struct Admitted {
    pub context: Context,
    pub client_ip: Option<std::net::IpAddr>,
}

/// Admits `req` to what it `asked` for and builds its context, or says why not.
pub fn admit(
    state: &AppState,
    req: &Request,
    asked: Asked,
    body: FromBody,
) -> Result<Admitted, Refused> {
    let catalogue_needed = !matches!(asked, Asked::Admin | Asked::Metrics);
    if catalogue_needed && !state.is_ready() {
        return Err(Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the catalogue is still loading",
        )
        .into());
    }
    if matches!(asked, Asked::Admin)
        && !direct_from_loopback(req.remote_addr().as_socket_addr().copied(), req.headers())
    {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            "Access denied: the admin API answers on loopback only (or on its Unix socket)",
        )
        .into());
    }
    let access = access_of(asked)?;
    let Admission { caller, client_ip } = match asked {
        Asked::Document => auth::authenticate_document(state, req)?,
        _ => auth::authenticate(state, req, body.provider)?,
    };
    may_use(&caller, asked, access)?;
    if let Access::Scope(scope) = access {
        check_client_certificate(state, req, scope)?;
    }
    if let Some(brand) = requested_brand(req) {
        caller.require_brand(brand).map_err(Problem::from)?;
    }
    check_rate(state, &caller)?;
    let language = reader_language(state, req, asked, body)?;
    let links = MediaLinks::new(
        &endpoints_base(state, req),
        &caller.provider.id,
        state.store.link_secret(),
    );
    Ok(Admitted {
        context: Context::new(
            Snapshot::of(&state.store),
            caller,
            language,
            state.terms.clone(),
            Arc::new(links),
        ),
        client_ip,
    })
}

/// The language the reader asks for: a SOAP or JSON request's `lang`; a `/svc` request's
/// `lang` parameter, else its `Accept-Language` header; else the catalogue's default. A `lang`
/// the catalogue does not hold is refused; a header never is (it states a preference).
fn reader_language(
    state: &AppState,
    req: &Request,
    asked: Asked,
    body: FromBody,
) -> Result<Language, Problem> {
    let held = &state.languages;
    let chosen = match asked {
        Asked::Operation(_) => held.choose("lang", body.lang),
        _ => match QueryPairs::of(req).first("lang") {
            Some(lang) => held.choose("lang", Some(lang)),
            None => Ok(req
                .headers()
                .get(poem::http::header::ACCEPT_LANGUAGE)
                .and_then(|h| h.to_str().ok())
                .map_or_else(|| held.default_language(), |h| held.negotiate(h))),
        },
    };
    chosen.map_err(Problem::from)
}

/// 429, with how long to wait, when the caller's provider is over its rate limit.
fn check_rate(state: &AppState, caller: &Caller) -> Result<(), Refused> {
    state.rate_limits.check(&caller.provider).map_err(|wait| {
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        Refused {
            problem: Problem::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "provider `{}` is over its rate limit; retry after {seconds} s",
                    caller.provider.id
                ),
            ),
            retry_after_seconds: Some(seconds),
        }
    })
}

/// What the registry says `asked` needs; an operation it does not list is refused.
fn access_of(asked: Asked) -> Result<Access, Problem> {
    match asked {
        Asked::Route(route) => Ok(Access::Scope(route.scope)),
        Asked::Admin | Asked::Metrics => Ok(Access::Scope(Scope::Admin)),
        Asked::Document => Ok(Access::Scope(Scope::Read)),
        Asked::Operation(name) => crate::server::soap::operation_access(name).ok_or_else(|| {
            Problem::new(
                StatusCode::FORBIDDEN,
                format!("Access denied: {name} is not a registered operation"),
            )
        }),
    }
}

/// 403 unless `caller` may use what it asked for, which needs `access`.
fn may_use(caller: &Caller, asked: Asked, access: Access) -> Result<(), Problem> {
    match access {
        Access::Scope(scope) => auth::check_scope(caller, scope),
        Access::OwnCredentials if caller.credential.is_static() => Ok(()),
        Access::OwnCredentials => Err(Problem::new(
            StatusCode::FORBIDDEN,
            format!(
                "Access denied: {} needs the provider's own key or whitelisted address, not a dynamic grant",
                asked.name()
            ),
        )),
        Access::AnyCaller => Ok(()),
    }
}

impl Asked {
    /// What was asked for, as an error names it.
    fn name(self) -> &'static str {
        match self {
            Asked::Route(route) => route.path,
            Asked::Admin => "the admin API",
            Asked::Metrics => "/metrics",
            Asked::Operation(name) => name,
            Asked::Document => "the documents route",
        }
    }
}

/// With `client_ca`, the `sync` scope is admitted only over a connection that presented a
/// certificate it signed (mutual TLS), in addition to the key.
fn check_client_certificate(state: &AppState, req: &Request, scope: Scope) -> Result<(), Problem> {
    let needed = scope == Scope::Sync && state.settings.client_ca.is_some();
    if !needed
        || state.client_certificates.presented(
            req.local_addr().as_socket_addr(),
            req.remote_addr().as_socket_addr(),
        )
    {
        return Ok(());
    }
    Err(Problem::new(
        StatusCode::FORBIDDEN,
        "Access denied: the `sync` scope needs a client certificate signed by this appliance's client_ca, and this connection presented none",
    ))
}

/// The `brand_id` a request names, where it is a number (validation answers the rest).
fn requested_brand(req: &Request) -> Option<u32> {
    QueryPairs::of(req).first("brand_id")?.parse().ok()
}

/// Every request before it is routed: a path the registry does not know is a 404; an open
/// path passes; `/svc`, `/admin` and a guarded `/metrics` are admitted (`admit`), and the
/// caller goes with the request. SOAP and JSON calls pass here and are admitted once their
/// body is read. The answer where the request ends here; none where it goes on.
pub fn guard(state: &AppState, req: &mut Request) -> Option<Response> {
    let query = QueryPairs::parse(req.uri().query());
    req.extensions_mut().insert(query);
    let path = req.uri().path();
    // While the catalogue loads, a `/svc` path is a 503 whether or not it names a route.
    if path.starts_with("/svc/") && !state.is_ready() {
        let loading = Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the catalogue is still loading",
        );
        return Some(loading.into_response());
    }
    let asked = match registry::surface_of(path, &state.settings.soap_prefix) {
        None => {
            let unknown = Problem::not_found(format!("no route has the path {path}"));
            return Some(unknown.into_response());
        }
        Some(Surface::Open | Surface::Operations) => return None,
        Some(Surface::Metrics) if state.settings.metrics != MetricsAccess::Admin => return None,
        Some(Surface::Metrics) => Asked::Metrics,
        Some(Surface::Admin) => Asked::Admin,
        Some(Surface::Svc(route)) => Asked::Route(route),
        Some(Surface::Documents) => Asked::Document,
    };
    match admit(state, req, asked, FromBody::default()) {
        Ok(admitted) => {
            req.extensions_mut().insert(admitted.context);
            None
        }
        Err(refused) => Some(refused.into_response()),
    }
}

/// The language a request admitted by `guard` is answered in, as `Content-Language` names
/// it: the one asked for where the catalogue holds it, else its default.
pub fn served_language(state: &AppState, req: &Request) -> Option<HeaderValue> {
    let context = req.extensions().get::<Context>()?;
    state.content_language(context.language())
}

/// Names the language an answer's texts are in, where the answer does not name one itself.
pub fn name_language(response: &mut Response, language: HeaderValue) {
    response
        .headers_mut()
        .entry(poem::http::header::CONTENT_LANGUAGE)
        .or_insert(language);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::ProviderRecord;
    use crate::service::caller::Credential;
    use std::sync::Arc;

    #[test]
    fn an_operation_the_registry_does_not_list_is_refused() {
        let caller = |credential| Caller {
            provider: Arc::new(ProviderRecord::new("p", "P", vec![])),
            credential,
        };
        let asked = Asked::Operation("getVersionInfo");
        let access = access_of(asked).unwrap();
        assert!(may_use(&caller(Credential::StaticKey), asked, access).is_ok());
        let unlisted = access_of(Asked::Operation("getVersionInfoAgain")).unwrap_err();
        assert_eq!(unlisted.status(), StatusCode::FORBIDDEN);
        // Grants are handed out with the provider's own credentials only.
        let asked = Asked::Operation("addDynamicAddress");
        let access = access_of(asked).unwrap();
        let refused = may_use(&caller(Credential::DynamicKey), asked, access).unwrap_err();
        assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    }
}
