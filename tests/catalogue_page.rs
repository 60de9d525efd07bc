//! The catalogue browser's page as the appliance serves it: open to anyone (its calls are
//! admitted as every client's are), embedded, with a policy that keeps every request of the
//! page on this origin, and naming the JSON endpoint of this appliance's prefix. The page in
//! a browser is checked by `tests/live/catalogue_browser.mjs`.

mod common;

use common::server::{Served, client};

fn open(s: &Served, path: &str) -> common::server::Reply {
    s.fetch(client().get(format!("{}{path}", s.base)))
}

#[test]
fn the_page_and_its_assets_are_served_with_a_same_origin_policy() {
    let s = Served::demo(&[]);
    for (path, kind) in [
        ("/catalogue", "text/html"),
        ("/catalogue/", "text/html"),
        ("/catalogue/catalogue.js", "text/javascript"),
        ("/catalogue/catalogue.css", "text/css"),
        ("/catalogue/words.js", "text/javascript"),
    ] {
        let r = open(&s, path);
        assert_eq!(r.status, 200, "{path}");
        assert!(r.header("content-type").starts_with(kind), "{path}");
        let policy = r.header("content-security-policy");
        assert!(policy.contains("default-src 'none'"), "{path}: {policy}");
        assert!(policy.contains("connect-src 'self'"), "{path}: {policy}");
        assert_eq!(r.header("x-content-type-options"), "nosniff");
    }
    let page = open(&s, "/catalogue?provider=demo&q=0986494958").text();
    assert!(
        page.contains(r#"content="/ws/3.0/services/PartsToCatDLB.jsonEndpoint""#),
        "{page}"
    );
    // Nothing else lives under the page's path.
    assert_eq!(open(&s, "/catalogue/secrets.txt").status, 404);
    assert_eq!(open(&s, "/catalogue/../partscat.toml").status, 404);
}

#[test]
fn the_page_names_the_endpoint_under_a_configured_prefix() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_SOAP_PREFIX", "/tecdoc")]);
    let page = open(&s, "/catalogue").text();
    assert!(
        page.contains(r#"content="/tecdoc/services/PartsToCatDLB.jsonEndpoint""#),
        "{page}"
    );
}
