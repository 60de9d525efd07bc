//! Who is calling: the one authentication of every protocol (`gate` decides what they may
//! use). A call names its provider (`provider`) and presents one of its
//! static keys in the query (`api_key`), the `X-Api-Key` header, or HTTP Basic with the key as
//! user name. Each route needs a scope of the provider's (`read`, `export`, `admin`).

use base64::Engine as _;
use poem::Request;
use poem::http::StatusCode;
use poem_openapi::SecurityScheme;
use poem_openapi::auth::{ApiKey, Basic};
use std::borrow::Cow;
use std::net::IpAddr;

use super::AppState;
use super::client_address::client_ip;
use super::problem::Problem;
use super::query::QueryPairs;
use crate::accounts::Scope;
use crate::service::access;
use crate::service::caller::Caller;
use crate::service::media_links;

// The three places a key may be. These types declare them in the document; `authenticate`
// reads the raw request, so their fields are never read.

/// `?api_key=<key>`.
#[allow(dead_code)]
#[derive(SecurityScheme)]
#[oai(ty = "api_key", key_name = "api_key", key_in = "query")]
pub struct ApiKeyQuery(ApiKey);

/// `X-Api-Key: <key>`.
#[allow(dead_code)]
#[derive(SecurityScheme)]
#[oai(ty = "api_key", key_name = "X-Api-Key", key_in = "header")]
pub struct ApiKeyHeader(ApiKey);

/// HTTP Basic with the key as user name and an empty password (`https://<key>@host/…`).
#[allow(dead_code)]
#[derive(SecurityScheme)]
#[oai(ty = "basic")]
pub struct KeyAsBasicUser(Basic);

/// Any of the three. Extraction never fails here: `authenticate` has already decided.
#[allow(dead_code)]
#[derive(SecurityScheme)]
pub enum Credentials {
    ApiKeyQuery(ApiKeyQuery),
    ApiKeyHeader(ApiKeyHeader),
    KeyAsBasicUser(KeyAsBasicUser),
    #[oai(fallback)]
    Checked,
}

fn unauthorized(detail: &str) -> Problem {
    Problem::new(StatusCode::UNAUTHORIZED, detail)
}

/// How a call was admitted.
#[derive(Debug, Clone)]
pub struct Admission {
    pub caller: Caller,
    /// The client's address (the peer, or what a trusted proxy names).
    pub client_ip: Option<IpAddr>,
}

/// The provider the request names (by its id, or by its numeric alias), admitted by the one key it presents or, without a key, by
/// its IPv4 address. A wrong key, an unknown provider and a disabled one get the same 401, so
/// a caller learns nothing from the difference. `provider_in_body` is the SOAP and JSON
/// requests' own `provider` field, which the query parameter may stand in for.
pub fn authenticate(
    state: &AppState,
    req: &Request,
    provider_in_body: Option<&str>,
) -> Result<Admission, Problem> {
    let query = QueryPairs::of(req);
    let Presented {
        provider: in_query,
        keys,
    } = credentials(&query, req)?;
    let provider = match (provider_in_body.filter(|p| !p.is_empty()), in_query) {
        (Some(body), Some(query)) if !query.is_empty() && query != body => {
            return Err(unauthorized(
                "the request's `provider` field and the query's `provider` differ",
            ));
        }
        (Some(body), _) => Some(body.to_owned().into()),
        (None, query) => query,
    };
    let Some(provider) = provider.filter(|p| !p.is_empty()) else {
        return Err(unauthorized(
            "the `provider` parameter is missing: name the ProviderId the call is made for",
        ));
    };
    let peer = req.remote_addr().as_socket_addr().copied();
    let client_ip = client_ip(peer, req.headers(), &state.settings.trusted_proxies);
    match keys {
        Keys::None => admit_by_address(state, client_ip, &provider),
        Keys::One(key) => admit_by_key(state, client_ip, &provider, &key),
        Keys::Different => Err(unauthorized("the request carries different keys")),
    }
}

/// A request of the documents route (`{soap_prefix}/documents/{provider}/{docId}/{type}`):
/// the provider its path names, admitted by the signature of an address an answer gave
/// (`sig`, for that file only), else by a key or address as every call is.
pub fn authenticate_document(state: &AppState, req: &Request) -> Result<Admission, Problem> {
    let path = req.uri().path();
    let parts = path
        .strip_prefix(state.settings.soap_prefix.as_str())
        .and_then(|rest| rest.strip_prefix("/documents/"))
        .map(|rest| rest.split('/').collect::<Vec<_>>())
        .unwrap_or_default();
    let [provider, doc_id, kind] = parts[..] else {
        return Err(Problem::not_found(format!("no route has the path {path}")));
    };
    let provider = percent_encoding::percent_decode_str(provider)
        .decode_utf8()
        .map_err(|_| unauthorized("the provider in the path is not UTF-8"))?;
    let query = QueryPairs::of(req);
    let Some(sig) = query.first("sig") else {
        return authenticate(state, req, Some(&provider));
    };
    let size = query.first("size").unwrap_or("");
    let secret = state.store.link_secret();
    let caller = media_links::signed(secret, &provider, doc_id, kind, size, sig)
        .then(|| access::admit_signed(&state.store, &provider))
        .transpose()?
        .flatten()
        .ok_or_else(|| unauthorized("the address's signature is not valid for this file"))?;
    let peer = req.remote_addr().as_socket_addr().copied();
    let client_ip = client_ip(peer, req.headers(), &state.settings.trusted_proxies);
    Ok(Admission { caller, client_ip })
}

/// The provider a query names, and the keys a request presents.
struct Presented<'q> {
    provider: Option<Cow<'q, str>>,
    keys: Keys<'q>,
}

/// The keys a request presents, as authentication tells them apart: none, one (in one
/// place or repeated alike in several), or different ones.
enum Keys<'q> {
    None,
    One(Cow<'q, str>),
    Different,
}

impl<'q> Keys<'q> {
    fn add(&mut self, key: Cow<'q, str>) {
        *self = match std::mem::replace(self, Keys::None) {
            Keys::None => Keys::One(key),
            Keys::One(one) if one == key => Keys::One(one),
            _ => Keys::Different,
        };
    }
}

/// The provider the query names, and every key the request presents: `api_key`, the
/// `X-Api-Key` (or `Api-Key`) headers, HTTP Basic. A repeated `api_key` or `provider` is refused.
fn credentials<'q>(query: &'q QueryPairs, req: &'q Request) -> Result<Presented<'q>, Problem> {
    let mut provider = None;
    let mut keys = Keys::None;
    for (name, value) in query.iter() {
        match name {
            "api_key" if !matches!(keys, Keys::None) => {
                return Err(unauthorized("the request repeats `api_key`"));
            }
            "api_key" => keys.add(Cow::Borrowed(value)),
            "provider" if provider.is_some() => {
                return Err(Problem::bad_parameter(
                    "provider",
                    "parameter `provider` is given more than once",
                ));
            }
            "provider" => provider = Some(Cow::Borrowed(value)),
            _ => {}
        }
    }
    // `api-key`: how some TecDoc clients send it.
    for (header, name) in [("x-api-key", "X-Api-Key"), ("api-key", "Api-Key")] {
        for value in req.headers().get_all(header) {
            let key = value
                .to_str()
                .map_err(|_| unauthorized(&format!("the {name} header is not text")))?;
            keys.add(key.into());
        }
    }
    if let Some(value) = req.headers().get(poem::http::header::AUTHORIZATION) {
        keys.add(basic_user(value)?.into());
    }
    Ok(Presented { provider, keys })
}

/// A call with a key: one of the provider's static keys, or an unexpired dynamic key of it.
fn admit_by_key(
    state: &AppState,
    client_ip: Option<IpAddr>,
    provider: &str,
    key: &str,
) -> Result<Admission, Problem> {
    let caller = access::admit_key(&state.store, state.clock.as_ref(), provider, key)?
        .ok_or_else(|| unauthorized("the provider or its key is not valid"))?;
    Ok(Admission { caller, client_ip })
}

/// A call without a key is admitted by its IPv4 address: in the provider's whitelist, or
/// under an unexpired dynamic grant. Over IPv6 it is 403 `Access denied`; an unknown provider
/// and an address it does not admit get the same 401.
fn admit_by_address(
    state: &AppState,
    client_ip: Option<IpAddr>,
    provider: &str,
) -> Result<Admission, Problem> {
    let not_admitted = || {
        unauthorized(
            "no credentials, and this address is not admitted: pass the key as `api_key`, in `X-Api-Key`, or as the Basic user name",
        )
    };
    let ip = match client_ip {
        Some(IpAddr::V4(ip)) => ip,
        Some(IpAddr::V6(_)) => {
            return Err(Problem::new(
                StatusCode::FORBIDDEN,
                "Access denied: addresses are admitted over IPv4 only; over IPv6 present a key",
            ));
        }
        None => return Err(not_admitted()),
    };
    let caller = access::admit_address(&state.store, state.clock.as_ref(), provider, ip)?
        .ok_or_else(not_admitted)?;
    Ok(Admission { caller, client_ip })
}

/// The user name of a Basic header; the password must be empty.
fn basic_user(value: &poem::http::HeaderValue) -> Result<String, Problem> {
    let malformed = || unauthorized("the Authorization header is not Basic with the key as user");
    let text = value.to_str().map_err(|_| malformed())?;
    let (scheme, encoded) = text.split_once(' ').ok_or_else(malformed)?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return Err(malformed());
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .map_err(|_| malformed())?;
    let decoded = String::from_utf8(decoded).map_err(|_| malformed())?;
    match decoded.split_once(':') {
        Some((user, "")) if !user.is_empty() => Ok(user.to_owned()),
        _ => Err(malformed()),
    }
}

/// 403 unless the caller may use the scope.
pub fn check_scope(caller: &Caller, scope: Scope) -> Result<(), Problem> {
    if caller.may_use(scope) {
        return Ok(());
    }
    if caller.provider.scopes.contains(&scope) {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            format!(
                "Access denied: a dynamic key or address grant does not carry the `{}` scope; use the provider's own key",
                scope.name()
            ),
        ));
    }
    Err(Problem::new(
        StatusCode::FORBIDDEN,
        format!(
            "Access denied: provider `{}` lacks the `{}` scope this route needs",
            caller.provider.id,
            scope.name()
        ),
    ))
}
