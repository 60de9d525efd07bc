//! A request's work is bounded: lists have a documented maximum and repeats are merged, and
//! a request that would run past the server's work budget answers an error instead.

mod common;

use common::server::{DEMO_KEY, Served, client};
use serde_json::{Value, json};

fn json_call(s: &Served, operation: &str, fields: Value) -> Value {
    let r = s.fetch(
        client()
            .post(format!(
                "{}/ws/3.0/services/PartsToCatDLB.jsonEndpoint?provider=demo&api_key={DEMO_KEY}",
                s.base
            ))
            .json(&json!({ operation: fields })),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

#[test]
fn repeated_ids_are_merged_and_long_lists_refused() {
    let s = Served::demo(&[]);
    let once = json_call(
        &s,
        "getArticles",
        json!({"dataSupplierIds": [1], "perPage": 0}),
    );
    let repeated = json_call(
        &s,
        "getArticles",
        json!({"dataSupplierIds": vec![1; 3000], "perPage": 0}),
    );
    assert_eq!(once["status"], 200, "{once}");
    assert_eq!(
        repeated["totalMatchingArticles"],
        once["totalMatchingArticles"]
    );

    let too_many: Vec<u32> = (1..=101).collect();
    let refused = json_call(&s, "getArticles", json!({"dataSupplierIds": too_many}));
    assert_eq!(refused["status"], 400);
    assert_eq!(
        refused["statusText"],
        "Field 'dataSupplierIds' takes at most 100 different values"
    );
    let ktypes: Vec<String> = (1..=101).map(|k| k.to_string()).collect();
    let refused = json_call(&s, "getLinkageTargets", json!({"linkageTargetIds": ktypes}));
    assert_eq!(refused["status"], 400, "{refused}");

    // The same over SOAP, where repeats are repeated elements; the XSD states the maximum.
    let ids: String = (1..=101)
        .map(|i| format!("<tns:dataSupplierIds>{i}</tns:dataSupplierIds>"))
        .collect();
    let ns = "urn:partscat:ws:3.0:PartsToCatDLB";
    let envelope = format!(
        r#"<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tns="{ns}"><soapenv:Body><tns:getArticles><tns:provider>demo</tns:provider>{ids}</tns:getArticles></soapenv:Body></soapenv:Envelope>"#
    );
    let r = s.fetch(
        client()
            .post(format!(
                "{}/ws/3.0/services/PartsToCatDLB.soapEndpoint?api_key={DEMO_KEY}",
                s.base
            ))
            .header("Content-Type", "text/xml; charset=utf-8")
            .body(envelope),
    );
    assert!(
        r.text()
            .contains("Field &apos;dataSupplierIds&apos; takes at most 100 different values"),
        "{}",
        r.text()
    );
    let xsd = s
        .fetch(client().get(format!(
            "{}/ws/3.0/services/PartsToCatDLB.soapEndpoint?xsd=1",
            s.base
        )))
        .text();
    assert!(
        xsd.contains(
            r#"name="dataSupplierIds" type="xs:unsignedInt" minOccurs="0" maxOccurs="100""#
        ),
        "the XSD states the maximum"
    );
}

#[test]
fn work_past_the_budget_is_an_error_and_others_are_served() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("catalogue");
    common::generate(20_000, 7, &files);
    let data = dir.path().join("data");
    let (ok, report) = common::import(&data, &[common::path(&files)]);
    assert!(ok, "{report}");
    let o = common::partscat(&[
        "admin",
        "--data",
        common::path(&data),
        "provider",
        "create",
        "shop",
        "--scopes",
        "read",
        "--json",
    ]);
    assert!(o.status.success(), "{}", common::text(&o));
    let key = serde_json::from_slice::<Value>(&o.stdout).unwrap()["key"]
        .as_str()
        .unwrap()
        .to_owned();
    // Every number of 20,000 articles and their cross numbers that ends with 1, each looked
    // up: longer than a millisecond on any machine.
    let s = Served::start_with_env(&data, &[], &[("PARTSCAT_WORK_BUDGET_MS", "1")]);
    let r = s.fetch(
        client()
            .post(format!(
                "{}/ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key={key}",
                s.base
            ))
            .json(&json!({"getArticles": {
                "provider": "shop", "searchQuery": "1", "searchType": 10,
                "searchMatchType": "suffix"
            }})),
    );
    let answer = r.json();
    assert_eq!(answer["status"], 400, "{answer}");
    assert!(
        answer["statusText"]
            .as_str()
            .unwrap()
            .contains("work budget of 1 ms"),
        "{answer}"
    );
    assert_eq!(
        s.fetch(client().get(format!("{}/health", s.base))).status,
        200
    );
}
