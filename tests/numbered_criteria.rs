//! Criteria as TecDoc numbers them: definitions and key tables imported beside the articles'
//! criteria, the numbers in every answer, `getCriteria2` and `getKeyValues`, and a search
//! narrowed by criteria with its matches counted per value.

mod common;

use std::fs;
use std::path::Path;

use common::server::{DEMO_KEY, Served, client};
use common::*;
use serde_json::{Value, json};

const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";
const DEMO: (&str, &str) = ("demo", DEMO_KEY);

/// A call by `provider` with `key`: the HTTP status and the answer.
fn post(s: &Served, (provider, key): (&str, &str), operation: &str, fields: Value) -> (u16, Value) {
    let mut fields = fields;
    fields["provider"] = json!(provider);
    let r = s.fetch(
        client()
            .post(format!("{}{DLB_JSON}?api_key={key}", s.base))
            .json(&json!({ operation: fields })),
    );
    (r.status, r.json())
}

/// A call that must answer status 200; the answer.
fn call(s: &Served, operation: &str, fields: Value) -> Value {
    let (status, answer) = post(s, DEMO, operation, fields);
    assert_eq!((status, &answer["status"]), (200, &json!(200)), "{answer}");
    answer
}

fn array(answer: &Value) -> Vec<Value> {
    answer["data"]["array"].as_array().unwrap().clone()
}

#[test]
fn criteria_carry_their_numbers_and_key_table_criteria_their_keys_texts() {
    let s = Served::demo(&[]);
    let criteria = array(&call(&s, "getCriteria2", json!({"lang": "de"})));
    let by_id = |id: i64| {
        criteria
            .iter()
            .find(|c| c["criteriaId"] == id)
            .unwrap_or_else(|| panic!("criterion {id}: {criteria:?}"))
            .clone()
    };
    let length = by_id(7);
    assert_eq!(length["criteriaName"], "Länge");
    assert_eq!(length["criteriaShortName"], "L");
    assert_eq!(length["criteriaType"], "N");
    assert_eq!(length["criteriaUnit"], "mm");
    assert_eq!(length["isInterval"], false);
    assert_eq!(by_id(13)["criteriaType"], "K");
    let ids: Vec<i64> = criteria
        .iter()
        .map(|c| c["criteriaId"].as_i64().unwrap())
        .collect();
    assert_eq!(
        ids,
        (1..=13).collect::<Vec<_>>(),
        "every demo criterion, in order"
    );

    let keys = array(&call(
        &s,
        "getKeyValues",
        json!({"keyTableId": 1, "lang": "fr"}),
    ));
    let texts: Vec<(&str, &str)> = keys
        .iter()
        .map(|k| {
            (
                k["keyId"].as_str().unwrap(),
                k["keyValue"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        texts,
        [
            ("1", "Pression de gaz"),
            ("2", "Pression d'huile"),
            ("3", "Bitube")
        ]
    );
    assert!(keys.iter().all(|k| k["keyTableId"] == 1));
    // A table the catalogue does not hold has no keys, as TecDoc answers it.
    assert!(array(&call(&s, "getKeyValues", json!({"keyTableId": 99}))).is_empty());
    let (_, refused) = post(&s, DEMO, "getKeyValues", json!({}));
    assert_eq!(refused["status"], 400, "{refused}");
    assert!(refused.to_string().contains("keyTableId"), "{refused}");

    // An article's criteria: numbered, a key-table criterion's key with its text.
    let page = call(
        &s,
        "getArticles",
        json!({"searchQuery": "345 526", "searchType": 10, "includeArticleCriteria": true,
            "lang": "de"}),
    );
    let shown = page["articles"][0]["articleCriteria"].as_array().unwrap();
    let kind = shown
        .iter()
        .find(|c| c["criteriaId"] == 13)
        .unwrap_or_else(|| panic!("{page}"));
    assert_eq!(kind["criteriaType"], "K");
    assert_eq!(kind["criteriaDescription"], "Stoßdämpferart");
    assert!(["1", "2", "3"].contains(&kind["rawValue"].as_str().unwrap()));
    assert!(
        ["Gasdruck", "Öldruck", "Zweirohr"].contains(&kind["formattedValue"].as_str().unwrap()),
        "{kind}"
    );
    let length = shown.iter().find(|c| c["criteriaId"] == 7).unwrap();
    assert_eq!(length["criteriaAbbrDescription"], "L");
}

#[test]
fn a_search_is_narrowed_by_criteria_and_counted_per_value() {
    let s = Served::demo(&[]);
    // The demo's shock absorbers (brand 4, generic article 854) with their facets.
    let all = call(
        &s,
        "getArticles",
        json!({"dataSupplierIds": [4], "genericArticleIds": [854],
            "includeCriteriaFacets": true, "perPage": 1}),
    );
    let total = all["totalMatchingArticles"].as_u64().unwrap();
    assert!(total > 10, "{all}");
    let counts = all["criteriaFacets"]["counts"].as_array().unwrap().clone();
    assert_eq!(all["criteriaFacets"]["total"], counts.len());
    let kinds: Vec<&Value> = counts.iter().filter(|c| c["criteriaId"] == 13).collect();
    assert_eq!(kinds.len(), 3, "three shock absorber types: {counts:?}");
    let of_kinds: u64 = kinds.iter().map(|c| c["count"].as_u64().unwrap()).sum();
    assert_eq!(of_kinds, total, "every shock absorber has a type");

    let narrowed = |filters: Value| {
        call(
            &s,
            "getArticles",
            json!({"dataSupplierIds": [4], "genericArticleIds": [854],
                "criteriaFilters": filters, "perPage": 100, "includeArticleCriteria": true}),
        )
    };
    let gas = kinds.iter().find(|c| c["rawValue"] == "1").unwrap();
    let found = narrowed(json!([{"criteriaId": 13, "rawValue": "1"}]));
    assert_eq!(found["totalMatchingArticles"], gas["count"], "{found}");
    for article in found["articles"].as_array().unwrap() {
        let criteria = article["articleCriteria"].as_array().unwrap();
        assert!(
            criteria
                .iter()
                .any(|c| c["criteriaId"] == 13 && c["rawValue"] == "1"),
            "{article}"
        );
    }
    // Two values of one criterion are alternatives.
    let either = narrowed(json!([
        {"criteriaId": 13, "rawValue": "1"},
        {"criteriaId": 13, "rawValue": "2"}
    ]));
    let two: u64 = kinds
        .iter()
        .filter(|c| c["rawValue"] != "3")
        .map(|c| c["count"].as_u64().unwrap())
        .sum();
    assert_eq!(either["totalMatchingArticles"], two);
    // Two criteria must both hold; a number matches however written.
    let first = &found["articles"][0]["articleCriteria"];
    let length = first
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["criteriaId"] == 7)
        .expect("a shock absorber has a length");
    let raw = length["rawValue"].as_str().unwrap();
    let both = narrowed(json!([
        {"criteriaId": 13, "rawValue": "1"},
        {"criteriaId": 7, "rawValue": format!("{raw}.0")}
    ]));
    let held = both["totalMatchingArticles"].as_u64().unwrap();
    assert!(
        held >= 1 && held <= gas["count"].as_u64().unwrap(),
        "{both}"
    );
    // A number no criterion has matches nothing; one that is no number is refused.
    let none = narrowed(json!([{"criteriaId": 999, "rawValue": "1"}]));
    assert_eq!(none["totalMatchingArticles"], 0);
    let (_, refused) = post(
        &s,
        DEMO,
        "getArticles",
        json!({"dataSupplierIds": [4], "genericArticleIds": [854],
            "criteriaFilters": [{"criteriaId": -4, "rawValue": "1"}]}),
    );
    assert_eq!(refused["status"], 400, "{refused}");
    assert!(refused.to_string().contains("criteriaFilters"), "{refused}");
}

fn write(dir: &Path, name: &str, text: &str) {
    fs::write(dir.join(name), text).unwrap();
}

/// A small catalogue: two brake discs, with criteria by name and by number.
fn small_catalogue(dir: &Path) {
    fs::create_dir_all(dir).unwrap();
    write(dir, "brands.csv", "brand_id,name\n1,Veltra\n");
    write(dir, "genarts.csv", "genart_id,name\n82,Brake Disc\n");
    write(
        dir,
        "articles.csv",
        "brand_id,reference,genart_id\n1,BD 1,82\n1,BD 2,82\n",
    );
    write(
        dir,
        "key_values.csv",
        "key_table_id,key,value\n7,V,Vented\n7,S,Solid\n",
    );
    write(
        dir,
        "criterion_definitions.csv",
        "criterion_id,name,short_name,type,unit,interval,successor_id,key_table_id\n\
         200,Diameter,Ø,N,mm,0,,\n\
         201,Disc Type,,K,,0,,7\n",
    );
    write(
        dir,
        "criteria.csv",
        "brand_id,reference,name,value,unit,criterion_id\n\
         1,BD 1,Diameter,280,mm,200\n\
         1,BD 1,Disc Type,V,,201\n\
         1,BD 1,Colour,grey,,\n\
         1,BD 2,Diameter,300,,\n",
    );
}

#[test]
fn imported_numbers_hold_and_criteria_without_one_keep_the_number_they_get() {
    let dir = tempfile::tempdir().unwrap();
    let (files, data) = (dir.path().join("files"), dir.path().join("data"));
    small_catalogue(&files);
    let (ok, report) = import(&data, &[path(&files)]);
    assert!(ok, "{report}");
    let key = provider_key(&data, "shop", &["--scopes", "read"]);
    let listed = |s: &Served| -> Vec<(i64, String)> {
        let (status, answer) = post(s, ("shop", &key), "getCriteria2", json!({}));
        assert_eq!(status, 200, "{answer}");
        array(&answer)
            .iter()
            .map(|c| {
                (
                    c["criteriaId"].as_i64().unwrap(),
                    c["criteriaName"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let mut s = Served::start(&data, &[]);
    let first = listed(&s);
    assert_eq!(first[0], (200, "Diameter".to_owned()));
    assert_eq!(first[1], (201, "Disc Type".to_owned()));
    let colour = first[2].clone();
    assert_eq!(colour.1, "Colour");
    assert!(
        colour.0 >= 1_000_000,
        "a number past the definitions': {first:?}"
    );
    // A row without a number gets its definition's by name, and the definition's unit.
    let (_, page) = post(
        &s,
        ("shop", &key),
        "getArticles",
        json!({"searchQuery": "BD 2", "searchType": 0, "includeArticleCriteria": true}),
    );
    let diameter = &page["articles"][0]["articleCriteria"][0];
    assert_eq!(diameter["criteriaId"], 200, "{page}");
    assert_eq!(diameter["formattedValue"], "300 mm");
    s.terminate();

    // Another criterion without a number, imported later: the first keeps its number.
    let more = dir.path().join("more.csv");
    write(
        dir.path(),
        "more.csv",
        "brand_id,reference,name,value,unit\n1,BD 2,Alloy,cast iron,\n",
    );
    let (ok, report) = import(
        &data,
        &["--type", "criteria", "--mode", "merge", path(&more)],
    );
    assert!(ok, "{report}");
    let mut s = Served::start(&data, &[]);
    let second = listed(&s);
    assert!(second.contains(&colour), "{second:?}");
    let alloy = second.iter().find(|c| c.1 == "Alloy").unwrap();
    assert!(alloy.0 > colour.0, "{second:?}");
    s.terminate();
    assert!(check(&data).0, "the numbers agree with a full derivation");
}

#[test]
fn numbers_names_and_keys_that_do_not_agree_are_rejected_by_line() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    small_catalogue(&files);
    let cases: [(&str, &str, &str); 5] = [
        (
            "criteria.csv",
            "brand_id,reference,name,value,unit,criterion_id\n1,BD 1,Width,280,mm,200\n",
            "criterion 200 is 'Diameter', not 'Width'",
        ),
        (
            "criteria.csv",
            "brand_id,reference,name,value,unit,criterion_id\n1,BD 1,Width,280,mm,555\n",
            "criterion 555 which is not in the catalogue's criterion_definitions",
        ),
        (
            "criteria.csv",
            "brand_id,reference,name,value,unit,criterion_id\n1,BD 1,Disc Type,X,,201\n",
            "'X' is not a key of key table 7",
        ),
        (
            "criterion_definitions.csv",
            "criterion_id,name,type,key_table_id\n200,Diameter,N,\n202,Diameter,N,\n",
            "'Diameter' is also criterion 200's name",
        ),
        (
            "criterion_definitions.csv",
            "criterion_id,name,type,key_table_id\n203,Finish,K,\n",
            "a criterion of type K names the key table",
        ),
    ];
    for (file, text, message) in cases {
        let data = dir.path().join(format!("data-{}", message.len()));
        let bad = dir.path().join("bad");
        copy_dir(&files, &bad);
        write(&bad, file, text);
        let (ok, report) = import(&data, &[path(&bad)]);
        assert!(!ok, "{file}: {report}");
        assert_eq!(report["verdict"], "rejected");
        let errors: Vec<&Value> = report["files"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f["errors"].as_array().unwrap())
            .collect();
        assert!(
            errors.iter().any(|e| e["line"].as_u64().unwrap() >= 2
                && e["message"].as_str().unwrap().contains(message)),
            "{file}: {message}: {report}"
        );
        fs::remove_dir_all(&bad).unwrap();
    }
}
