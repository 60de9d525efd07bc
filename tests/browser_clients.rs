//! What TecDoc's JavaScript client and the shops built on it send: bodies written as
//! JavaScript object literals, calls from pages of other origins (CORS for the origins the
//! settings name, refused from any other), the key as an `api-key` header, combined target
//! kinds, and `searchTreeNodes`. (In a real browser: `tests/live/browser_client.mjs`.)

mod common;

use common::server::{DEMO_KEY, Reply, Served, client};
use serde_json::{Value, json};

const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";
const SHOP: &str = "http://shop.example.fi";

fn post(s: &Served, body: &str, headers: &[(&str, &str)]) -> Reply {
    let mut request = client()
        .post(format!("{}{DLB_JSON}", s.base))
        .header("content-type", "application/json")
        .body(body.to_owned());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    s.fetch(request)
}

#[test]
fn a_javascript_object_literal_is_read_as_its_json() {
    let s = Served::demo(&[]);
    let key = [("x-api-key", DEMO_KEY)];
    let literal = post(
        &s,
        "{getManufacturers2:{provider:'demo',lang:'de',linkingTargetType:'P',},}",
        &key,
    );
    let json = post(
        &s,
        r#"{"getManufacturers2":{"provider":"demo","lang":"de","linkingTargetType":"P"}}"#,
        &key,
    );
    assert_eq!(literal.json()["status"], 200, "{}", literal.text());
    assert_eq!(literal.json(), json.json());
    // What is neither is refused as before, and deep nesting stays a 400.
    let neither = post(&s, "{getManufacturers2:{provider:demo}}", &key);
    assert_eq!(neither.status, 400);
    assert!(
        neither.json()["statusText"]
            .as_str()
            .unwrap()
            .contains("not JSON")
    );
    let deep = format!("{{a:{}1{}}}", "[".repeat(5000), "]".repeat(5000));
    assert_eq!(post(&s, &deep, &key).status, 400);
}

#[test]
fn pages_of_a_named_origin_may_call_and_others_are_refused() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_CORS_ORIGINS", SHOP)]);
    let preflight = s.fetch(
        client()
            .request(reqwest::Method::OPTIONS, format!("{}{DLB_JSON}", s.base))
            .header("origin", SHOP)
            .header("access-control-request-method", "POST")
            .header("access-control-request-headers", "content-type"),
    );
    assert_eq!(preflight.status, 204, "{}", preflight.text());
    assert_eq!(preflight.header("access-control-allow-origin"), SHOP);
    assert!(
        preflight
            .header("access-control-allow-methods")
            .contains("POST")
    );
    assert!(
        preflight
            .header("access-control-allow-headers")
            .contains("content-type")
    );

    let body = r#"{"getLanguages":{"provider":"demo","lang":"en"}}"#;
    let called = post(&s, body, &[("origin", SHOP), ("api-key", DEMO_KEY)]);
    assert_eq!(called.json()["status"], 200, "{}", called.text());
    assert_eq!(called.header("access-control-allow-origin"), SHOP);
    assert!(
        called
            .header("access-control-expose-headers")
            .contains("content-language")
    );

    for other in ["http://elsewhere.example", "null"] {
        let refused = post(&s, body, &[("origin", other), ("api-key", DEMO_KEY)]);
        assert_eq!(refused.status, 403, "{other}: {}", refused.text());
        assert!(
            refused.text().contains("cors_origins"),
            "{}",
            refused.text()
        );
        assert!(refused.headers.get("access-control-allow-origin").is_none());
    }
    // A page of the appliance's own origin is no other origin.
    let own = post(&s, body, &[("origin", &s.base), ("api-key", DEMO_KEY)]);
    assert_eq!(own.json()["status"], 200, "{}", own.text());
    assert!(own.headers.get("access-control-allow-origin").is_none());

    // By default no origin is named.
    let plain = Served::demo(&[]);
    let refused = post(&plain, body, &[("origin", SHOP), ("api-key", DEMO_KEY)]);
    assert_eq!(refused.status, 403);
}

#[test]
fn combined_target_kinds_and_search_tree_nodes_are_taken() {
    let s = Served::demo(&[]);
    let call = |fields: Value| {
        let r = post(
            &s,
            &json!({"getManufacturers2": fields}).to_string(),
            &[("api-key", DEMO_KEY)],
        );
        assert_eq!(r.json()["status"], 200, "{}", r.text());
        r.json()["data"]["array"].as_array().unwrap().len()
    };
    let cars = call(json!({"provider": "demo", "linkingTargetType": "P"}));
    let any = call(json!({"provider": "demo", "linkingTargetType": "U"}));
    let pom = call(json!({"provider": "demo", "linkingTargetType": "POM"}));
    assert!(cars > 0 && pom >= cars && any >= pom, "{cars} {pom} {any}");

    let genarts = |nodes: bool| -> Vec<Value> {
        let r = post(
            &s,
            &json!({"getGenericArticles": {"provider": "demo", "searchTreeNodes": nodes}})
                .to_string(),
            &[("api-key", DEMO_KEY)],
        );
        assert_eq!(r.json()["status"], 200, "{}", r.text());
        r.json()["data"]["array"].as_array().unwrap().clone()
    };
    let plain = genarts(false);
    let with_nodes = genarts(true);
    assert!(plain.iter().all(|g| g.get("searchTreeNodeId").is_none()));
    assert!(with_nodes.len() > plain.len(), "{}", with_nodes.len());
    let placed = with_nodes
        .iter()
        .filter(|g| g["searchTreeNodeId"].is_u64())
        .count();
    assert!(placed > 0);
    // Every generic article is still there, once per node it sits under.
    let ids = |list: &[Value]| {
        let mut ids: Vec<u64> = list
            .iter()
            .map(|g| g["genericArticleId"].as_u64().unwrap())
            .collect();
        ids.dedup();
        ids
    };
    assert_eq!(ids(&plain), ids(&with_nodes));
}
