//! Clients authenticate as a provider: over IPv6 a key is needed ("Access denied" without),
//! forwarding headers count only from trusted proxies, each route needs its scope, and no
//! key ever reaches the log.

mod common;

use std::path::Path;

use common::server::{DEMO_KEY, Served, client, client_from};
use partscat::accounts::Scope;
use partscat::store::Store;

const ROUTE: &str = "/svc/getArticlesByKtype/10219";

fn v6_port_free() -> Option<u16> {
    std::net::TcpListener::bind("[::1]:0")
        .ok()
        .and_then(|l| l.local_addr().ok())
        .map(|a| a.port())
}

#[test]
fn over_ipv6_a_key_is_needed_and_admits() {
    let Some(v6) = v6_port_free() else {
        eprintln!("no IPv6 loopback on this machine: nothing to test");
        return;
    };
    let s = Served::demo(&["--listen", &format!("[::1]:{v6}")]);
    let c = client();
    let v6_base = format!("http://[::1]:{v6}");

    let denied = s.fetch(c.get(format!("{v6_base}{ROUTE}?provider=demo")));
    assert_eq!(denied.status, 403);
    assert!(denied.text().contains("Access denied"), "{}", denied.text());
    // A forged forwarding header from an untrusted peer changes nothing.
    let forged = s.fetch(
        c.get(format!("{v6_base}{ROUTE}?provider=demo"))
            .header("X-Forwarded-For", "127.0.0.1")
            .header("X-Real-IP", "127.0.0.1")
            .header("Forwarded", "for=127.0.0.1"),
    );
    assert_eq!(forged.status, 403);

    let admitted = s.fetch(c.get(format!("{v6_base}{ROUTE}?provider=demo&api_key={DEMO_KEY}")));
    assert_eq!(admitted.status, 200);

    // Over IPv4 a missing key is a 401, whatever the headers claim.
    let v4 = s.fetch(
        c.get(format!("{}{ROUTE}?provider=demo", s.base))
            .header("X-Forwarded-For", "::1"),
    );
    assert_eq!(v4.status, 401);
}

#[test]
fn a_trusted_proxy_names_the_client() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_TRUSTED_PROXIES", "127.0.0.1/32")]);
    let c = client();
    // The proxy on 127.0.0.1 says the client came over IPv6: it needs a key.
    let via_proxy = s.fetch(
        c.get(format!("{}{ROUTE}?provider=demo", s.base))
            .header("X-Forwarded-For", "2001:db8::7"),
    );
    assert_eq!(via_proxy.status, 403, "{}", via_proxy.text());
    let forwarded = s.fetch(
        c.get(format!("{}{ROUTE}?provider=demo", s.base))
            .header("Forwarded", "for=\"[2001:db8::7]:4711\""),
    );
    assert_eq!(forwarded.status, 403);
    let v4_client = s.fetch(
        c.get(format!("{}{ROUTE}?provider=demo", s.base))
            .header("X-Forwarded-For", "192.0.2.1"),
    );
    assert_eq!(v4_client.status, 401);
}

/// A store with the demo catalogue and one provider per scope (`<scope>` with key
/// `key-<scope>`), prepared before the server opens it.
fn store_with_scoped_providers(data: &Path) {
    let store = Store::open(data).unwrap();
    partscat::demo::load_demo_catalogue(&store, &partscat::import::Quiet).unwrap();
    for (id, scope) in [
        ("reader", Scope::Read),
        ("exporter", Scope::Export),
        ("operator", Scope::Admin),
    ] {
        store
            .put_provider(id, id, vec![scope], Some(&format!("key-{id}")))
            .unwrap();
    }
    store.flush().unwrap();
}

#[test]
fn each_route_needs_its_scope() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    store_with_scoped_providers(&data);
    let s = Served::start(&data, &["--inbox", dir.path().to_str().unwrap()]);
    let c = client();
    let routes = [
        ("reader", "/svc/getArticlesByKtype/10219"),
        ("reader", "/svc/getCrossRefsOrArticle/0986494958?mainref"),
        ("reader", "/svc/getPricesByKtype/10219"),
        ("reader", "/svc/price/3500/1/10219"),
        ("reader", "/svc/e/k/10219"),
        ("exporter", "/svc/exportGolda?brand_id=1"),
        ("exporter", "/svc/exportCatalogue?brand_id=1"),
        ("exporter", "/svc/exportAtc?brand_id=1"),
        ("exporter", "/svc/DMM?brand_id=1"),
        ("exporter", "/svc/exportRefConcurrente?manufacturer_id=102"),
        ("operator", "/svc/jobs/1"),
        (
            "operator",
            "/svc/importArticles?fileId=none.csv&importType=prices&dryRun=true",
        ),
    ];
    for (owner, route) in routes {
        for provider in ["reader", "exporter", "operator"] {
            let sep = if route.contains('?') { '&' } else { '?' };
            let url = format!(
                "{}{route}{sep}provider={provider}&api_key=key-{provider}",
                s.base
            );
            let r = s.fetch(c.get(url));
            if provider == owner {
                assert_ne!(r.status, 403, "{provider} on {route}: {}", r.text());
                assert_ne!(r.status, 401, "{provider} on {route}");
            } else {
                assert_eq!(r.status, 403, "{provider} on {route}: {}", r.text());
                let body = r.json();
                assert!(body["detail"].as_str().unwrap().contains("scope"), "{body}");
            }
        }
    }
}

#[test]
fn json_log_lines_for_collectors() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_LOG_FORMAT", "json")]);
    assert_eq!(s.get(ROUTE).status, 200);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !s.log_text().contains("partscat::service::access") {
        assert!(std::time::Instant::now() < deadline, "{}", s.log_text());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let log = s.log_text();
    for line in log.lines().filter(|l| !l.is_empty()) {
        let entry: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert!(
            entry["level"].is_string() && entry["fields"].is_object(),
            "{line}"
        );
    }
    assert!(
        log.contains("api_key=[redacted]") && !log.contains(DEMO_KEY),
        "{log}"
    );
}

#[test]
fn no_key_reaches_the_log() {
    let s = Served::demo(&[]);
    let c = client();
    let secret_query = "pc_in_the_query_0123456789";
    let url = format!("{}{ROUTE}?provider=demo&api_key={DEMO_KEY}", s.base);
    assert_eq!(s.fetch(c.get(&url)).status, 200);
    let header = s.fetch(
        c.get(format!("{}{ROUTE}?provider=demo", s.base))
            .header("X-Api-Key", DEMO_KEY),
    );
    assert_eq!(header.status, 200);
    let basic = s.fetch(
        c.get(format!("{}{ROUTE}?provider=demo", s.base))
            .basic_auth(DEMO_KEY, Some("")),
    );
    assert_eq!(basic.status, 200);
    let wrong = s.fetch(c.get(format!(
        "{}{ROUTE}?provider=demo&api_key={secret_query}",
        s.base
    )));
    assert_eq!(wrong.status, 401);
    let wrong_header = s.fetch(
        c.get(format!("{}{ROUTE}?provider=demo", s.base))
            .header("X-Api-Key", secret_query)
            .header("Authorization", format!("Bearer {secret_query}")),
    );
    assert_eq!(wrong_header.status, 401);
    // Other spellings of the parameter, and a key pasted into the path.
    let spellings = ["API_KEY", "apikey", "api-key", "key", "Api%2DKey"];
    for name in spellings {
        let r = s.fetch(c.get(format!(
            "{}{ROUTE}?provider=demo&{name}={secret_query}",
            s.base
        )));
        assert_eq!(r.status, 401, "{name}");
    }
    let in_path = s.fetch(c.get(format!(
        "{}/svc/getCrossRefsOrArticle/{DEMO_KEY}?mainref&provider=demo&api_key={DEMO_KEY}",
        s.base
    )));
    assert_eq!(in_path.status, 404);

    // The access lines are written after the answers; give the writer a moment.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while s.log_text().matches("request").count() < 5 + spellings.len() + 1 {
        assert!(std::time::Instant::now() < deadline, "{}", s.log_text());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let log = s.log_text();
    assert!(log.contains("api_key=[redacted]"), "{log}");
    assert!(log.contains("API_KEY=[redacted]"), "{log}");
    assert!(log.contains("getCrossRefsOrArticle/[redacted]"), "{log}");
    assert!(log.contains(ROUTE), "{log}");
    // Standard error is a file here: no colour escapes.
    assert!(!log.contains('\x1b'), "{log}");
    for secret in [DEMO_KEY, secret_query] {
        assert!(!log.contains(secret), "the log holds a key: {log}");
    }
}

#[test]
fn a_provider_over_its_rate_limit_gets_429_with_retry_after() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_RATE_LIMIT_PER_SECOND", "5")]);
    let c = client();
    let replies: Vec<_> = (0..20).map(|_| s.get(ROUTE)).collect();
    let limited: Vec<_> = replies.iter().filter(|r| r.status == 429).collect();
    assert!(
        !limited.is_empty(),
        "20 requests at once stayed under 5 a second"
    );
    assert!(replies.iter().all(|r| r.status == 200 || r.status == 429));
    let first = limited[0];
    assert_eq!(first.header("content-type"), "application/problem+json");
    let wait: u64 = first.header("retry-after").parse().unwrap();
    assert!((1..=2).contains(&wait), "Retry-After: {wait}");
    // Probes are not limited, and after the wait the provider is served again.
    assert_eq!(s.fetch(c.get(format!("{}/health", s.base))).status, 200);
    std::thread::sleep(std::time::Duration::from_secs(wait));
    assert_eq!(s.get(ROUTE).status, 200);
}

/// A store with the demo catalogue and a provider `shop` whitelisting 127.0.0.1 and
/// 127.0.0.8/30, with key `key-shop`.
fn store_with_whitelist(data: &Path) {
    let store = Store::open(data).unwrap();
    partscat::demo::load_demo_catalogue(&store, &partscat::import::Quiet).unwrap();
    store
        .put_provider("shop", "Shop", vec![Scope::Read], Some("key-shop"))
        .unwrap();
    let mut shop = (*store.provider("shop").unwrap().unwrap()).clone();
    for entry in ["127.0.0.1/32", "127.0.0.8/30"] {
        shop.whitelist
            .push(entry.parse::<ipnet::Ipv4Net>().unwrap().into());
    }
    store.save_provider(shop).unwrap();
    store.flush().unwrap();
}

#[test]
fn whitelisted_addresses_are_admitted_without_a_key() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    store_with_whitelist(&data);
    let s = Served::start(&data, &[]);
    let url = format!("{}{ROUTE}?provider=shop", s.base);
    for (from, admitted) in [
        ("127.0.0.1", true),
        ("127.0.0.3", false),
        ("127.0.0.8", true),
        ("127.0.0.11", true),
        ("127.0.0.12", false),
    ] {
        let r = s.fetch(client_from(from).get(&url));
        let expected = if admitted { 200 } else { 401 };
        assert_eq!(r.status, expected, "from {from}: {}", r.text());
    }
    // The whitelist is the provider's own: another provider name from the same address is not
    // admitted, and a key still works from anywhere.
    let other = s.fetch(client_from("127.0.0.1").get(format!("{}{ROUTE}?provider=demo", s.base)));
    assert_eq!(other.status, 401);
    let keyed = s.fetch(client_from("127.0.0.3").get(format!("{url}&api_key=key-shop")));
    assert_eq!(keyed.status, 200);
    // A forged header does not lend a whitelisted address to another client.
    let forged = s.fetch(
        client_from("127.0.0.3")
            .get(&url)
            .header("X-Forwarded-For", "127.0.0.1"),
    );
    assert_eq!(forged.status, 401);
}

#[test]
fn a_brand_restricted_provider_sees_only_its_brands() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    {
        let store = Store::open(&data).unwrap();
        partscat::demo::load_demo_catalogue(&store, &partscat::import::Quiet).unwrap();
        let scopes = vec![Scope::Read, Scope::Export];
        store
            .put_provider("brand2", "Brand two only", scopes, Some("key-brand2"))
            .unwrap();
        let mut record = (*store.provider("brand2").unwrap().unwrap()).clone();
        record.brands = vec![2];
        store.save_provider(record).unwrap();
        partscat::demo::prepare_demo_provider(
            &store,
            &partscat::clock::SystemClock,
            Some(DEMO_KEY),
        )
        .unwrap();
        store.flush().unwrap();
    }
    let s = Served::start(&data, &[]);
    let c = client();
    let get = |provider: &str, key: &str, route: &str| {
        let sep = if route.contains('?') { '&' } else { '?' };
        s.fetch(c.get(format!(
            "{}{route}{sep}provider={provider}&api_key={key}",
            s.base
        )))
    };
    let restricted = |route: &str| get("brand2", "key-brand2", route);
    let everyone = |route: &str| get("demo", DEMO_KEY, route);

    // Routes that name a brand: 403 for another brand, served for its own.
    for route in [
        "/svc/exportGolda?brand_id=1",
        "/svc/exportCatalogue?brand_id=1",
        "/svc/DMM?brand_id=1",
    ] {
        let r = restricted(route);
        assert_eq!(r.status, 403, "{route}: {}", r.text());
        assert!(r.text().contains("Access denied"));
        assert_eq!(
            restricted(&route.replace("brand_id=1", "brand_id=2")).status,
            200
        );
    }
    assert_eq!(
        restricted("/svc/exportRefConcurrenteInterne?manufacturer_id=102&brand_id=1").status,
        403
    );
    // An export without a brand parameter holds only its brands' rows.
    let all = everyone("/svc/exportRefConcurrente?manufacturer_id=102").json();
    let mine = restricted("/svc/exportRefConcurrente?manufacturer_id=102").json();
    let all = all.as_array().unwrap();
    let mine = mine.as_array().unwrap();
    assert!(
        all.iter().any(|r| r["brandId"] != 2),
        "the demo has other brands' rows"
    );
    assert!(!mine.is_empty());
    assert!(mine.iter().all(|r| r["brandId"] == 2));
    assert_eq!(mine.len(), all.iter().filter(|r| r["brandId"] == 2).count());

    // Lookups: another brand's article is not found; lists hold only its brands.
    assert_eq!(
        everyone("/svc/getCrossRefsOrArticle/0986494958?mainref").status,
        200
    );
    assert_eq!(
        restricted("/svc/getCrossRefsOrArticle/0986494958?mainref").status,
        404
    );
    // Suggestions: no article of another brand, exact or by a shared start.
    for typed in ["0986494958", "0986", "2800"] {
        let suggested = restricted(&format!("/svc/suggestNumbers/{typed}?limit=50")).json();
        assert!(
            suggested["suggestions"]
                .as_array()
                .unwrap()
                .iter()
                .all(|x| x["brandId"] == 2),
            "{typed}: {suggested}"
        );
    }
    let ktype = restricted("/svc/getArticlesByKtype/10219").json();
    assert!(
        ktype["articles"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["brandId"] == 2)
    );
    let everyone_ktype = everyone("/svc/getArticlesByKtype/10219").json();
    assert!(
        everyone_ktype["articles"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["brandId"] != 2),
        "the answer cache keeps the two providers' answers apart"
    );
    let prices = restricted("/svc/getPricesByKtype/10219").json();
    assert!(
        prices["articles"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["article"]["brandId"] == 2)
    );
}

#[test]
fn dynamic_grants_admit_until_their_expiry_second() {
    use partscat::accounts::hash_key;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // Grants written as the library writes them, expiring a few seconds from now, so the
    // test sees them work and then stop. (Their durations and caps are tested in `access`.)
    let expires_at = now + 5;
    {
        let store = Store::open(&data).unwrap();
        partscat::demo::load_demo_catalogue(&store, &partscat::import::Quiet).unwrap();
        store
            .put_provider("shop", "Shop", vec![Scope::Read], Some("key-shop"))
            .unwrap();
        store
            .grant_address("shop", "127.0.0.2".parse().unwrap(), expires_at)
            .unwrap();
        store
            .grant_key("shop", hash_key("pc_dynamic_for_a_user"), expires_at)
            .unwrap();
    }
    let s = Served::start(&data, &[]);
    let by_address = format!("{}{ROUTE}?provider=shop", s.base);
    let by_key = format!("{by_address}&api_key=pc_dynamic_for_a_user");
    let other_provider = format!(
        "{}{ROUTE}?provider=demo&api_key=pc_dynamic_for_a_user",
        s.base
    );
    assert_eq!(
        s.fetch(client_from("127.0.0.2").get(&by_address)).status,
        200
    );
    assert_eq!(
        s.fetch(client_from("127.0.0.3").get(&by_address)).status,
        401
    );
    assert_eq!(s.fetch(client_from("127.0.0.3").get(&by_key)).status, 200);
    assert_eq!(
        s.fetch(client_from("127.0.0.3").get(&other_provider))
            .status,
        401
    );

    // At the expiry second both stop working.
    while std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        < expires_at
    {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(
        s.fetch(client_from("127.0.0.2").get(&by_address)).status,
        401
    );
    assert_eq!(s.fetch(client_from("127.0.0.3").get(&by_key)).status, 401);
}

#[test]
fn a_path_of_no_route_is_a_404_before_any_credential_is_asked_for() {
    let s = Served::demo(&[]);
    let c = client();
    for path in [
        "/svc/",
        "/svc",
        "/svc/getArticle/1",
        "/svc/nothing?provider=demo",
    ] {
        let r = s.fetch(c.get(format!("{}{path}", s.base)));
        assert_eq!(r.status, 404, "{path}: {}", r.text());
    }
    // A route's path without credentials is still a 401.
    let r = s.fetch(c.get(format!("{}{ROUTE}?provider=demo", s.base)));
    assert_eq!(r.status, 401);
}

#[test]
fn a_path_no_endpoint_has_is_a_404_before_any_credential_is_asked_for() {
    let s = Served::demo(&[]);
    for path in [
        "/anything",
        "/svc/newRoute/1",
        "/health/extra",
        "/admin2",
        "/ws/3.0/services/PartsToCatDLB.txt",
        "/ws/3.0/other",
    ] {
        for reply in [s.get_open(path), s.get(path)] {
            assert_eq!(reply.status, 404, "{path}");
            assert!(
                reply
                    .header("content-type")
                    .starts_with("application/problem+json"),
                "{path}"
            );
            assert!(reply.text().contains("no route has the path"), "{path}");
        }
    }
    // What is open stays open; what is not asks for credentials.
    for path in [
        "/health",
        "/ready",
        "/openapi.json",
        "/openapi.yaml",
        "/docs",
        "/metrics",
    ] {
        assert_eq!(s.get_open(path).status, 200, "{path}");
    }
    assert_eq!(s.get_open(ROUTE).status, 401);
    let wsdl = s.get_open("/ws/3.0/services/PartsToCatDLB.soapEndpoint?wsdl");
    assert_eq!(wsdl.status, 200);
}

#[test]
fn one_key_in_several_places_admits_and_different_keys_do_not() {
    let s = Served::demo(&[]);
    let c = client();
    let url = format!("{}{ROUTE}?provider=demo", s.base);
    let keyed = format!("{url}&api_key={DEMO_KEY}");
    // The same key in the query, the header (twice) and as the Basic user.
    let alike = c
        .get(&keyed)
        .header("X-Api-Key", DEMO_KEY)
        .header("X-Api-Key", DEMO_KEY)
        .basic_auth(DEMO_KEY, Some(""));
    assert_eq!(s.fetch(alike).status, 200);
    // A second key anywhere, first or last, is refused, the right one among them or not.
    let other = "pc_another_key_0123456789";
    let refused = [
        c.get(&keyed).header("X-Api-Key", other),
        c.get(&keyed)
            .header("X-Api-Key", DEMO_KEY)
            .basic_auth(other, Some("")),
        c.get(&url)
            .header("X-Api-Key", DEMO_KEY)
            .header("X-Api-Key", other)
            .header("X-Api-Key", DEMO_KEY),
    ];
    for request in refused {
        let r = s.fetch(request);
        assert_eq!(r.status, 401);
        assert!(r.text().contains("different keys"), "{}", r.text());
    }
    let repeated = s.fetch(c.get(format!("{keyed}&api_key={DEMO_KEY}")));
    assert_eq!(repeated.status, 401);
    assert!(repeated.text().contains("repeats `api_key`"));
}
