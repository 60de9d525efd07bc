//! `getOEArticlesByVIN` as a shop's VIN box calls it: the vehicle makers' part numbers of the
//! vehicle a VIN names, checked against the same vehicle's articles read through
//! `getArticles`, with its filters, orders, pages and facets, and its bad requests.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::server::{DEMO_KEY, Served, client};
use serde_json::{Value, json};

const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";
/// The demo's AUDI A3 Sportback 1.0 TSI (Ktype 10219), as a VIN names it.
const VIN: &str = "WAUKSK2X5MA123456";

fn post(s: &Served, operation: &str, fields: Value) -> (u16, Value) {
    let mut fields = fields;
    fields["provider"] = json!("demo");
    let r = s.fetch(
        client()
            .post(format!("{}{DLB_JSON}?api_key={DEMO_KEY}", s.base))
            .json(&json!({ operation: fields })),
    );
    let answer = r.json();
    (answer["status"].as_u64().unwrap_or(0) as u16, answer)
}

fn call(s: &Served, operation: &str, fields: Value) -> Value {
    let (status, answer) = post(s, operation, fields);
    assert_eq!(status, 200, "{operation}: {answer}");
    answer
}

fn normalised(number: &str) -> String {
    (number.chars())
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// Each OE part (maker, normalised number, generic article) of the vehicle's articles, with
/// the articles (brand, number) crossing to it, as getArticles gives them.
fn expected_parts(s: &Served) -> BTreeMap<(u64, String, u64), BTreeSet<(u64, String)>> {
    let page = call(
        s,
        "getArticles",
        json!({"linkageTargetId": "10219", "linkageTargetType": "V", "perPage": 1000,
            "includeOEMNumbers": true, "includeGenericArticles": true}),
    );
    let mut parts: BTreeMap<_, BTreeSet<_>> = BTreeMap::new();
    for article in page["articles"].as_array().unwrap() {
        let genart = article["genericArticles"][0]["genericArticleId"]
            .as_u64()
            .unwrap();
        let crossing = (
            article["dataSupplierId"].as_u64().unwrap(),
            article["articleNumber"].as_str().unwrap().to_owned(),
        );
        for oe in article["oemNumbers"].as_array().unwrap() {
            let key = (
                oe["mfrId"].as_u64().unwrap(),
                normalised(oe["articleNumber"].as_str().unwrap()),
                genart,
            );
            parts.entry(key).or_default().insert(crossing.clone());
        }
    }
    parts
}

#[test]
fn a_vins_oe_parts_are_those_its_vehicles_articles_cross_to() {
    let s = Served::demo(&[]);
    let expected = expected_parts(&s);
    assert!(
        expected.len() >= 2,
        "the demo's A3 has OE numbers: {expected:?}"
    );
    let answer = call(
        &s,
        "getOEArticlesByVIN",
        json!({"vin": "wauksk2x 5ma-123456", "perPage": 100, "includeAftermarketMatches": true}),
    );
    assert_eq!(
        answer["totalMatchingOEArticles"],
        expected.len(),
        "{answer}"
    );
    let parts = answer["oeArticles"].as_array().unwrap();
    let mut found = BTreeMap::new();
    for part in parts {
        let key = (
            part["mfrId"].as_u64().unwrap(),
            normalised(part["articleNumber"].as_str().unwrap()),
            part["genericArticleId"].as_u64().unwrap(),
        );
        assert!(
            !part["genericArticleDescription"]
                .as_str()
                .unwrap()
                .is_empty()
        );
        let crossing: BTreeSet<(u64, String)> = (part["matchingAftermarketArticles"].as_array())
            .unwrap()
            .iter()
            .map(|a| {
                assert_eq!(a["dataSupplierId"], a["mfrId"]);
                (
                    a["dataSupplierId"].as_u64().unwrap(),
                    a["articleNumber"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        found.insert(key, crossing);
    }
    assert_eq!(found, expected);
    // The default order is the vehicle maker's name.
    let makers: Vec<String> = parts
        .iter()
        .map(|p| p["mfrName"].as_str().unwrap().to_lowercase())
        .collect();
    assert!(makers.is_sorted(), "{makers:?}");
    // Without includeAftermarketMatches, no articles; the default page holds 10.
    let plain = call(&s, "getOEArticlesByVIN", json!({"vin": VIN}));
    let first = &plain["oeArticles"][0];
    assert_eq!(first["matchingAftermarketArticles"], json!([]), "{plain}");
    assert!(plain["oeArticles"].as_array().unwrap().len() <= 10);
}

#[test]
fn oe_parts_are_ordered_paged_narrowed_and_counted() {
    let s = Served::demo(&[]);
    let expected = expected_parts(&s);
    let numbers = |answer: &Value| -> Vec<String> {
        (answer["oeArticles"].as_array().unwrap().iter())
            .map(|p| normalised(p["articleNumber"].as_str().unwrap()))
            .collect()
    };
    let sort = |direction: &str| json!([{"field": "articleNumber", "direction": direction}]);
    let up = call(
        &s,
        "getOEArticlesByVIN",
        json!({"vin": VIN, "perPage": 100, "sort": sort("asc")}),
    );
    let down = call(
        &s,
        "getOEArticlesByVIN",
        json!({"vin": VIN, "perPage": 100, "sort": sort("desc")}),
    );
    let ascending = numbers(&up);
    assert!(ascending.is_sorted(), "{ascending:?}");
    let mut reversed = numbers(&down);
    reversed.reverse();
    assert_eq!(reversed, ascending);
    // Pages of one walk the same order.
    let mut paged = Vec::new();
    for page in 1..=expected.len() + 1 {
        let one = call(
            &s,
            "getOEArticlesByVIN",
            json!({"vin": VIN, "perPage": 1, "page": page, "sort": sort("asc")}),
        );
        paged.extend(numbers(&one));
    }
    assert_eq!(paged, ascending);
    // One generic article narrows to its parts; the facets count every part.
    let genart = expected.keys().next().unwrap().2;
    let of_genart = expected.keys().filter(|k| k.2 == genart).count();
    let narrowed = call(
        &s,
        "getOEArticlesByVIN",
        json!({"vin": VIN, "genericArticleIds": [genart], "perPage": 0,
            "includeGenericArticleFacets": true, "includeAftermarketDataSupplierFacets": true,
            "assemblyGroupFacetOptions": {"enabled": true}}),
    );
    assert_eq!(narrowed["totalMatchingOEArticles"], of_genart, "{narrowed}");
    assert_eq!(narrowed["oeArticles"], json!([]));
    let genart_counts = &narrowed["genericArticleFacets"]["counts"];
    assert_eq!(genart_counts[0]["genericArticleId"], genart);
    assert_eq!(genart_counts[0]["count"], of_genart);
    let brands: BTreeSet<u64> = (expected.iter())
        .filter(|(k, _)| k.2 == genart)
        .flat_map(|(_, crossing)| crossing.iter().map(|c| c.0))
        .collect();
    assert_eq!(
        narrowed["aftermarketDataSupplierFacets"]["total"],
        brands.len(),
        "{narrowed}"
    );
    let groups = narrowed["assemblyGroupFacets"]["counts"]
        .as_array()
        .unwrap();
    assert!(groups.iter().any(|g| g["count"] == of_genart), "{narrowed}");
    // A generic article none of the vehicle's articles is of narrows to nothing.
    let none = call(
        &s,
        "getOEArticlesByVIN",
        json!({"vin": VIN, "genericArticleIds": [999_999]}),
    );
    assert_eq!(none["totalMatchingOEArticles"], 0);
    // A VIN no pattern names has no OE parts.
    let unknown = call(
        &s,
        "getOEArticlesByVIN",
        json!({"vin": "WBA8E9C50GK000001"}),
    );
    assert_eq!(unknown["totalMatchingOEArticles"], 0);
}

#[test]
fn bad_requests_name_their_field() {
    let s = Served::demo(&[]);
    for (fields, named) in [
        (json!({"vin": "WAUKSK2X5MA12345"}), "'vin'"),
        (json!({}), "'vin'"),
        (json!({"vin": VIN, "perPage": 101}), "'perPage'"),
        (json!({"vin": VIN, "page": 0}), "'page'"),
        (
            json!({"vin": VIN, "sort": [{"field": "score", "direction": "asc"}]}),
            "'field'",
        ),
        (
            json!({"vin": VIN, "sort": [{"field": "mfrName", "direction": "up"}]}),
            "'direction'",
        ),
        (
            json!({"vin": VIN, "assemblyGroupNodeIds": [-1]}),
            "assemblyGroupNodeIds",
        ),
        (
            json!({"vin": VIN, "articleCountry": "Germany"}),
            "articleCountry",
        ),
    ] {
        let (status, answer) = post(&s, "getOEArticlesByVIN", fields.clone());
        assert_eq!(status, 400, "{fields}: {answer}");
        assert!(answer.to_string().contains(named), "{fields}: {answer}");
    }
}
