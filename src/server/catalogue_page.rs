//! The catalogue browser for the people at a parts counter (`/catalogue`, and the landing page
//! at `/` that links it and the API's documentation). The page is static and embedded
//! (`assets/catalogue/`); everything it shows it asks of the JSON endpoint, through the gate
//! like any other client, so the providers, scopes and brand restrictions are those of every
//! other protocol. Its answers forbid everything but this origin (a content security policy),
//! so no request of the page reaches another host.

use bytes::Bytes;
use poem::http::{HeaderValue, header};
use poem::{Endpoint, Response, ResponseBuilder, Route, endpoint::make_sync, get};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "assets/catalogue/"]
struct PageFiles;

/// This origin only: scripts, styles, images (by the addresses answers give) and calls.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
    connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The page's routes, to be nested at `/catalogue`: the page names `json_endpoint` as the
/// place it calls.
pub fn routes(json_endpoint: &str) -> Route {
    let page = file("index.html").replace("{{ENDPOINT}}", json_endpoint);
    Route::new()
        .at("/", get(answer("text/html; charset=utf-8", page.into())))
        .at(
            "/catalogue.js",
            get(answer(
                "text/javascript; charset=utf-8",
                file("catalogue.js").into(),
            )),
        )
        .at(
            "/words.js",
            get(answer(
                "text/javascript; charset=utf-8",
                file("words.js").into(),
            )),
        )
        .at(
            "/catalogue.css",
            get(answer(
                "text/css; charset=utf-8",
                file("catalogue.css").into(),
            )),
        )
}

/// `/`: where a person who opens the appliance's address goes next.
pub fn landing() -> Response {
    with_policy(Response::builder().content_type("text/html; charset=utf-8"))
        .body(file("landing.html"))
}

/// An embedded file as text (the build embeds every one of them, so none is missing).
fn file(name: &str) -> String {
    PageFiles::get(name)
        .map(|f| String::from_utf8_lossy(&f.data).into_owned())
        .unwrap_or_default()
}

/// These bytes, with the page's policy.
fn answer(content_type: &'static str, body: Bytes) -> impl Endpoint<Output = Response> {
    make_sync(move |_| {
        with_policy(Response::builder().content_type(content_type)).body(body.clone())
    })
}

fn with_policy(response: ResponseBuilder) -> ResponseBuilder {
    response
        .header(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(POLICY),
        )
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .header(header::REFERRER_POLICY, "no-referrer")
}
