//! Requests as TecDoc Pegasus 3.0 client code sends them: every field of the request type,
//! many null or `[]`, over JSON and SOAP, DLB and DLW, with a numeric provider id; and
//! getArticles' answer in Pegasus's shapes.

mod common;

use common::server::{DEMO_KEY, Reply, Served, client};
use serde_json::{Value, json};

const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";
const DLW_JSON: &str = "/ws/3.0/services/PartsToCatDLW.jsonEndpoint";
const DLB: &str = "/ws/3.0/services/PartsToCatDLB.soapEndpoint";
const BARE_NS: &str = "urn:partscat:ws:3.0:PartsToCatDLB";

/// Every field of Pegasus's `articlesRequest`, as a client that sets none of them sends it.
fn articles_request_all_null() -> Value {
    let mut fields = serde_json::Map::new();
    for name in [
        "articleCountry",
        "searchQuery",
        "searchType",
        "searchMatchType",
        "legacyArticleIds",
        "dataSupplierIds",
        "genericArticleIds",
        "assemblyGroupNodeIds",
        "criteriaFilters",
        "linkageTargetId",
        "linkageTargetType",
        "linkageTargetCountry",
        "newArticlesDateFrom",
        "newArticlesDateTo",
        "newLinkagesDateFrom",
        "newLinkagesDateTo",
        "newLinkagesMfrId",
        "lang",
        "perPage",
        "page",
        "linkagesPerPage",
        "linkagesPage",
        "sort",
        "includeAll",
        "includeMisc",
        "includeGenericArticles",
        "includeArticleText",
        "includeGTINs",
        "includeTradeNumbers",
        "includeOEMNumbers",
        "includeReplacesArticles",
        "includeReplacedByArticles",
        "includeArticleCriteria",
        "includeLinkages",
        "includePDFs",
        "includeImages",
        "includeDataSupplierFacets",
        "includeGenericArticleFacets",
        "assemblyGroupFacetOptions",
        "includeCriteriaFacets",
        "includeComparableNumbers",
        "includeLinks",
        "includePrices",
    ] {
        fields.insert(name.into(), Value::Null);
    }
    Value::Object(fields)
}

fn post_json(s: &Served, path: &str, key: &str, body: &Value) -> Reply {
    s.fetch(
        client()
            .post(format!("{}{path}?api_key={key}", s.base))
            .json(body),
    )
}

/// A JSON call that must answer status 200; the answer.
fn call(s: &Served, path: &str, operation: &str, fields: Value) -> Value {
    let body = if path == DLW_JSON {
        json!({ operation: { "arg0": fields } })
    } else {
        json!({ operation: fields })
    };
    let r = post_json(s, path, DEMO_KEY, &body);
    let answer = r.json();
    assert_eq!(answer["status"], 200, "{operation}: {}", r.text());
    answer
}

fn with(mut base: Value, extra: Value) -> Value {
    base.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    base
}

#[test]
fn every_field_of_a_pegasus_request_is_taken_null_empty_or_set() {
    let s = Served::demo(&[]);
    for path in [DLB_JSON, DLW_JSON] {
        // Every field null, as TecDoc clients send an unset field.
        let nulls = with(
            articles_request_all_null(),
            json!({"provider": "demo", "searchQuery": "0986478379", "articleCountry": "DE"}),
        );
        let answer = call(&s, path, "getArticles", nulls);
        assert_eq!(answer["articles"][0]["articleNumber"], "0 986 478 379");
        // Lists as [], flags false, the rest set as a Pegasus client sets them.
        let set = json!({
            "provider": "demo", "articleCountry": "DE", "lang": "de",
            "searchQuery": "0986478379", "searchType": 10, "searchMatchType": "exact",
            "legacyArticleIds": [], "dataSupplierIds": [], "genericArticleIds": [],
            "assemblyGroupNodeIds": [], "criteriaFilters": [],
            "linkageTargetType": "P", "linkageTargetCountry": "DE",
            "perPage": 10, "page": 1, "sort": [],
            "includeMisc": false, "includeArticleText": false, "includeLinks": false,
            "assemblyGroupFacetOptions": {"enabled": false, "assemblyGroupType": "P",
                "includeCompleteTree": false, "maxDepth": 1},
            "includeCriteriaFacets": false,
        });
        let answer = call(&s, path, "getArticles", set.clone());
        assert_eq!(answer["totalMatchingArticles"], 1, "{answer}");
        // What the catalogue has no data for is refused by name, never taken and ignored.
        for (field, value) in [
            ("newArticlesDateFrom", json!("2020-01-01")),
            ("newLinkagesMfrId", json!(5)),
            ("linkageTargetCountry", json!("D")),
            (
                "criteriaFilters",
                json!([{"criteriaId": -100, "rawValue": "x"}]),
            ),
        ] {
            let mut fields = set.clone();
            fields[field] = value;
            let body = match path {
                DLW_JSON => json!({"getArticles": {"arg0": fields}}),
                _ => json!({ "getArticles": fields }),
            };
            let refused = post_json(&s, path, DEMO_KEY, &body).json();
            assert_eq!(refused["status"], 400, "{field}: {refused}");
            let text = refused["statusText"].as_str().unwrap();
            assert!(text.contains(&format!("'{field}'")), "{text}");
        }
        for (operation, fields) in [
            (
                "getGenericArticles",
                json!({"provider": "demo", "articleCountry": null, "lang": "en", "linked": false,
                    "linkingTargetId": null, "linkingTargetType": null, "searchTreeNodes": false}),
            ),
            (
                "getManufacturers",
                json!({"provider": "demo", "country": null, "countryGroupFlag": false,
                    "favouredList": null, "lang": "en", "linkingTargetType": "P"}),
            ),
        ] {
            call(&s, path, operation, fields);
        }
    }

    // Over SOAP: every field an element, unset ones nil.
    let nils: String = articles_request_all_null()
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| *k != "searchQuery")
        .map(|k| format!(r#"<tns:{k} xsi:nil="true"/>"#))
        .collect();
    let envelope = format!(
        r#"<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><s:Body><tns:getArticles xmlns:tns="{BARE_NS}"><tns:provider>demo</tns:provider><tns:searchQuery>0986478379</tns:searchQuery>{nils}</tns:getArticles></s:Body></s:Envelope>"#
    );
    let r = s.fetch(
        client()
            .post(format!("{}{DLB}?api_key={DEMO_KEY}", s.base))
            .header("content-type", "text/xml; charset=utf-8")
            .header("SOAPAction", "\"\"")
            .body(envelope),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(
        r.text().contains("<tns:status>200</tns:status>") && r.text().contains("0 986 478 379"),
        "{}",
        r.text()
    );

    // What is still wrong is named.
    let r = post_json(
        &s,
        DLB_JSON,
        DEMO_KEY,
        &json!({"getArticles": {"provider": "demo", "searchQuery": "1",
            "sort": [{"field": "colour", "direction": "asc"}]}}),
    );
    assert_eq!(r.json()["status"], 400, "{}", r.text());
    assert!(r.text().contains("'field'"), "{}", r.text());
    let r = post_json(
        &s,
        DLB_JSON,
        DEMO_KEY,
        &json!({"getGenericArticles": {"provider": "demo", "linked": true}}),
    );
    assert_eq!(r.json()["status"], 400, "{}", r.text());
    assert!(r.text().contains("linkingTargetId"), "{}", r.text());
    let r = post_json(
        &s,
        DLB_JSON,
        DEMO_KEY,
        &json!({"getArticles": {"provider": "demo", "searchQuery": "1", "colour": "red"}}),
    );
    // A field TecDoc does not define is ignored, as TecDoc ignores it, and named.
    assert_eq!(r.json()["status"], 200, "{}", r.text());
    assert_eq!(r.header("partscat-ignored-fields"), "colour");
}

#[test]
fn a_numeric_provider_id_works_as_pegasus_sends_it() {
    let s = Served::demo(&[]);
    let o = common::partscat(&[
        "admin",
        "--data",
        common::path(&s.data),
        "provider",
        "create",
        "20345",
        "--scopes",
        "read",
        "--json",
    ]);
    assert!(o.status.success(), "{}", common::text(&o));
    let key = serde_json::from_slice::<Value>(&o.stdout).unwrap()["key"]
        .as_str()
        .unwrap()
        .to_owned();
    let r = post_json(
        &s,
        DLB_JSON,
        &key,
        &json!({"getArticles": {"provider": 20345, "searchQuery": "0986478379"}}),
    );
    assert_eq!(r.json()["status"], 200, "{}", r.text());
    let r = s.fetch(client().get(format!(
        "{}/svc/getArticlesByKtype/10219?provider=20345&api_key={key}",
        s.base
    )));
    assert_eq!(r.status, 200, "{}", r.text());
}

#[test]
fn get_articles_answers_in_pegasus_shapes() {
    let s = Served::demo(&[]);
    let search = |extra: Value| {
        call(
            &s,
            DLB_JSON,
            "getArticles",
            with(
                json!({"provider": "demo", "searchQuery": "0986478379", "searchType": 0}),
                extra,
            ),
        )
    };
    // Without include flags: the article's identity, and every list empty.
    let bare = search(json!({}));
    let a = &bare["articles"][0];
    assert_eq!(a["dataSupplierId"], 1);
    assert_eq!(a["mfrId"], 1);
    assert_eq!(a["mfrName"], "Veltra Brakes");
    assert_eq!(a["normalisedArticleNumber"], "0986478379");
    assert!(a.get("misc").is_none(), "{a}");
    for list in [
        "genericArticles",
        "articleText",
        "gtins",
        "tradeNumbers",
        "oemNumbers",
        "replacesArticles",
        "replacedByArticles",
        "articleCriteria",
        "linkages",
        "pdfs",
        "images",
        "comparableNumbers",
        "links",
        "prices",
    ] {
        assert_eq!(a[list], json!([]), "{list}: {a}");
    }
    assert!(bare.get("dataSupplierFacets").is_none());

    let full = search(
        json!({"includeAll": true, "includeDataSupplierFacets": true,
        "includeGenericArticleFacets": true}),
    );
    let a = &full["articles"][0];
    assert_eq!(a["misc"]["articleStatusId"], 1, "{a}");
    assert_eq!(a["misc"]["articleStatusDescription"], "active");
    assert!(a["misc"]["quantityPerPackage"].as_i64().unwrap() >= 1);
    let genart = &a["genericArticles"][0];
    assert!(genart["genericArticleId"].as_i64().unwrap() > 0, "{a}");
    assert!(
        !genart["genericArticleDescription"]
            .as_str()
            .unwrap()
            .is_empty()
    );
    let oe = &a["oemNumbers"][0];
    assert!(
        oe["articleNumber"].is_string() && oe["mfrId"].as_i64().unwrap() > 0,
        "{a}"
    );
    assert!(!oe["mfrName"].as_str().unwrap().is_empty());
    let criterion = &a["articleCriteria"][0];
    assert!(["N", "A"].contains(&criterion["criteriaType"].as_str().unwrap()));
    assert!(criterion["formattedValue"].is_string() && criterion["rawValue"].is_string());
    let image = &a["images"][0];
    // One address per size, each of partscat's documents route.
    let url50 = image["imageURL50"].as_str().unwrap();
    assert!(url50.contains("/ws/3.0/documents/demo/") && url50.contains("size=50&sig="));
    assert_ne!(image["imageURL800"], image["imageURL50"], "{image}");
    assert!(image["fileName"].as_str().unwrap().ends_with(".jpg"));
    let price = &a["prices"][0];
    assert!(
        price["price"].is_number() && price["currencyCode"] == "EUR",
        "{price}"
    );
    assert!(price["kindOfPriceKey"].is_number() && price["validDateFrom"].is_number());
    let total = a["totalLinkages"].as_u64().unwrap();
    assert_eq!(a["linkages"].as_array().unwrap().len() as u64, total);
    let linkage = &a["linkages"][0];
    assert_eq!(linkage["linkageTargetTypeId"], 2);
    assert_eq!(
        linkage["linkageTargetId"].as_i64().unwrap().to_string(),
        linkage["linkageTarget"]["linkageTargetId"]
            .as_str()
            .unwrap()
    );
    let facets = &full["dataSupplierFacets"];
    assert_eq!(facets["total"], 1);
    assert_eq!(facets["counts"][0]["dataSupplierId"], 1);
    assert_eq!(facets["counts"][0]["count"], 1);
    assert_eq!(full["genericArticleFacets"]["counts"][0]["count"], 1);

    // Linkages page by linkagesPerPage and linkagesPage; totalLinkages counts them all.
    assert!(total >= 3, "linkages to page: {total}");
    let paged = |page: u32| {
        search(json!({"includeLinkages": true, "linkagesPerPage": 2, "linkagesPage": page}))
            ["articles"][0]
            .clone()
    };
    let (first, second) = (paged(1), paged(2));
    assert_eq!(first["totalLinkages"].as_u64(), Some(total));
    assert_eq!(first["linkages"].as_array().unwrap().len(), 2);
    assert_eq!(first["linkages"][0], a["linkages"][0]);
    assert_eq!(second["linkages"][0], a["linkages"][2]);

    // sort: by brand name or number, either way; the cursor pages only the default order.
    let numbers = |answer: &Value| -> Vec<String> {
        answer["articles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["normalisedArticleNumber"].as_str().unwrap().to_owned())
            .collect()
    };
    let wide = json!({"searchQuery": "0986", "searchMatchType": "prefix", "perPage": 50});
    let ascending = numbers(&search(with(
        wide.clone(),
        json!({"sort": [{"field": "articleNumber", "direction": "asc"}]}),
    )));
    let descending = numbers(&search(with(
        wide.clone(),
        json!({"sort": [{"field": "articleNumber", "direction": "desc"}]}),
    )));
    assert!(ascending.len() > 2);
    assert!(ascending.windows(2).all(|w| w[0] <= w[1]), "{ascending:?}");
    assert!(
        descending.windows(2).all(|w| w[0] >= w[1]),
        "{descending:?}"
    );
    let r = post_json(
        &s,
        DLB_JSON,
        DEMO_KEY,
        &json!({"getArticles": {"provider": "demo", "searchQuery": "0", "cursor": "MTox",
            "sort": [{"field": "mfrName", "direction": "asc"}]}}),
    );
    assert_eq!(r.json()["status"], 400, "{}", r.text());
    assert!(r.text().contains("'cursor'"), "{}", r.text());
}

#[test]
fn generic_articles_linked_to_a_vehicle_type() {
    let s = Served::demo(&[]);
    let ids = |answer: &Value| -> Vec<u64> {
        answer["data"]["array"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["genericArticleId"].as_u64().unwrap())
            .collect()
    };
    let every = ids(&call(
        &s,
        DLB_JSON,
        "getGenericArticles",
        json!({"provider": "demo"}),
    ));
    let linked = ids(&call(
        &s,
        DLB_JSON,
        "getGenericArticles",
        json!({"provider": "demo", "linked": true, "linkingTargetId": 10536,
            "linkingTargetType": "P"}),
    ));
    // The vehicle's own articles, by /svc, name the same generic articles.
    let mut expected: Vec<u64> = s.get("/svc/getArticlesByKtype/10536").json()["articles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["genart"].as_u64().unwrap())
        .collect();
    expected.sort_unstable();
    expected.dedup();
    assert_eq!(linked, expected);
    assert!(linked.len() < every.len());
}

#[test]
fn list_answers_are_pegasus_data_arrays() {
    let s = Served::demo(&[]);
    for path in [DLB_JSON, DLW_JSON] {
        for operation in ["getBrands", "getAmBrands"] {
            let answer = call(
                &s,
                path,
                operation,
                json!({"provider": "demo", "articleCountry": null, "lang": "en"}),
            );
            let brands = answer["data"]["array"].as_array().unwrap();
            assert_eq!(brands.len(), 4, "{answer}");
            assert_eq!(brands[0]["brandId"], 1);
            assert_eq!(brands[0]["brandName"], "Veltra Brakes");
        }
        let makers = call(&s, path, "getManufacturers", json!({"provider": "demo"}));
        let first = &makers["data"]["array"][0];
        assert!(first["manuId"].as_u64().unwrap() > 0 && first["manuName"].is_string());
        let genarts = call(&s, path, "getGenericArticles", json!({"provider": "demo"}));
        let first = &genarts["data"]["array"][0];
        assert!(first["genericArticleId"].as_u64().unwrap() > 0);
        assert_eq!(first["designation"], first["masterDesignation"]);
    }
}

#[test]
fn the_brand_and_the_route_prefix_come_from_the_settings() {
    let s = Served::demo_with_env(
        &[],
        &[
            ("PARTSCAT_BRAND_NAME", "Tecdoc"),
            ("PARTSCAT_ROUTE_PREFIX", "vlt"),
        ],
    );
    // The SOAP and JSON endpoints are named after the brand, in their WSDLs too.
    let wsdl = s
        .fetch(client().get(format!(
            "{}/ws/3.0/services/TecdocToCatDLB.soapEndpoint?wsdl",
            s.base
        )))
        .text();
    assert!(wsdl.contains(r#"name="TecdocToCatDLB""#), "{wsdl}");
    assert!(wsdl.contains("urn:partscat:ws:3.0:TecdocToCatDLB"));
    assert!(wsdl.contains("/ws/3.0/services/TecdocToCatDLB.soapEndpoint\""));
    assert!(!wsdl.contains("PartsToCat"));
    let answer = call(
        &s,
        "/ws/3.0/services/TecdocToCatDLB.jsonEndpoint",
        "getAmBrands",
        json!({"provider": "demo"}),
    );
    assert_eq!(answer["data"]["array"].as_array().unwrap().len(), 4);
    let gone = post_json(&s, DLB_JSON, DEMO_KEY, &json!({"getAmBrands": {}}));
    assert_eq!(gone.status, 404, "{}", gone.text());

    // The V2 routes under the prefix, in the document and on the wire; /svc stays.
    let doc = s.get("/openapi.json").json();
    let paths: Vec<&String> = doc["paths"].as_object().unwrap().keys().collect();
    assert!(paths.iter().all(|p| p.starts_with("/vlt/")), "{paths:?}");
    assert!(paths.contains(&&"/vlt/getArticlesByKtype/{ktype}".to_owned()));
    for route in [
        "/vlt/getArticlesByKtype/10219",
        "/svc/getArticlesByKtype/10219",
    ] {
        assert_eq!(s.get(route).status, 200, "{route}");
    }
    std::fs::write(
        s.data.with_file_name("data-inbox").join("p.csv"),
        std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/assets/demo/prices.csv"
        ))
        .unwrap(),
    )
    .unwrap();
    let r = s.get("/vlt/importArticles?fileId=p.csv&importType=prices&dryRun=true");
    assert!(r.status == 200 || r.status == 202, "{}", r.text());
    let status_url = r.json()["statusUrl"].as_str().unwrap().to_owned();
    assert!(status_url.starts_with("/vlt/jobs/"), "{status_url}");
    if r.status == 202 {
        assert_eq!(r.header("location"), status_url);
    }
    assert_eq!(s.get(&status_url).status, 200);

    // Names that cannot be names are refused at start, naming the setting.
    for (var, value) in [
        ("PARTSCAT_BRAND_NAME", "Tec doc"),
        ("PARTSCAT_ROUTE_PREFIX", "admin"),
        ("PARTSCAT_ROUTE_PREFIX", "a/b"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let o = std::process::Command::new(common::bin())
            .args(["serve", "--data", common::path(&dir.path().join("d"))])
            .args(["--listen", "127.0.0.1:0"])
            .env_remove("PARTSCAT_DATA")
            .env(var, value)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{var}={value}");
        assert!(common::text(&o).contains(var), "{}", common::text(&o));
    }
}

#[test]
fn vehicle_types_by_ids_as_pegasus_answers_them() {
    let s = Served::demo(&[]);
    let svc = s.get("/svc/getArticlesByKtype/10219").json();
    let vehicle = &svc["vehicle"];
    for (path, operation) in [
        (DLB_JSON, "getVehicleByIds3"),
        (DLW_JSON, "getVehicleByIds4"),
    ] {
        let answer = call(
            &s,
            path,
            operation,
            json!({"provider": "demo", "carIds": {"array": [10219, 999999]},
                "motorCodes": true, "axles": false, "cabs": false, "countryGroupFlag": false,
                "kbaData": false, "protoTypes": false, "registrationInfo": false,
                "secondaryTypes": false, "wheelbases": false, "lang": "de", "country": "DE",
                "articleCountry": "DE", "countriesCarSelection": null, "numberplateType": null}),
        );
        let found = answer["data"]["array"].as_array().unwrap();
        assert_eq!(found.len(), 1, "an unknown Ktype is left out: {answer}");
        let details = &found[0]["vehicleDetails"];
        assert_eq!(found[0]["carId"], 10219);
        assert_eq!(details["manuName"], vehicle["make"], "{answer} {vehicle}");
        assert_eq!(details["modelName"], vehicle["model"]);
        assert_eq!(details["powerKwFrom"], vehicle["kw"]);
        // Every engine code of the type, each its own record.
        let codes: Vec<&str> = found[0]["motorCodes"]["array"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["motorCode"].as_str().unwrap())
            .collect();
        assert_eq!(codes.join(", "), vehicle["engine"].as_str().unwrap());
        assert_eq!(codes.len(), 2, "{answer}");
        assert_eq!(details["motorType"], "Otto", "the engine kind");
        let from = vehicle["yearFrom"].as_str().unwrap().replace('-', "");
        assert!(
            details["yearOfConstrFrom"].to_string().starts_with(&from),
            "{details}"
        );
    }
    let r = post_json(
        &s,
        DLB_JSON,
        DEMO_KEY,
        &json!({"getVehicleByIds3": {"provider": "demo", "carIds": {"array": []}}}),
    );
    assert_eq!(r.json()["status"], 400, "{}", r.text());
    assert!(r.text().contains("carIds"), "{}", r.text());
}

#[test]
fn languages_and_countries_are_the_catalogues() {
    let s = Served::demo_with_env(
        &[],
        &[
            ("PARTSCAT_CATALOGUE_LANGUAGES", "de,en"),
            ("PARTSCAT_CATALOGUE_COUNTRIES", "DE, at,CH"),
        ],
    );
    let languages = call(
        &s,
        DLB_JSON,
        "getLanguages",
        json!({"provider": "demo", "lang": "en"}),
    );
    assert_eq!(
        languages["data"]["array"],
        json!([
            {"languageCode": "de", "languageName": "German"},
            {"languageCode": "en", "languageName": "English"}
        ])
    );
    // A language the catalogue does not hold is answered in its default (German here).
    let french = post_json(
        &s,
        DLB_JSON,
        DEMO_KEY,
        &json!({"getLanguages": {"provider": "demo", "lang": "fr"}}),
    );
    assert_eq!(french.json()["status"], 200, "{}", french.text());
    assert_eq!(french.header("content-language"), "de");
    assert_eq!(french.json()["data"]["array"][0]["languageName"], "Deutsch");
    let countries = call(
        &s,
        DLW_JSON,
        "getCountries",
        json!({"provider": "demo", "lang": null}),
    );
    let codes: Vec<&str> = countries["data"]["array"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["countryCode"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["DE", "AT", "CH"]);
    // Named in the catalogue's default language (German here), or the one asked.
    assert_eq!(countries["data"]["array"][1]["countryName"], "Österreich");
    let english = call(
        &s,
        DLB_JSON,
        "getCountries",
        json!({"provider": "demo", "lang": "en"}),
    );
    assert_eq!(english["data"]["array"][1]["countryName"], "Austria");
    let languages = call(
        &s,
        DLB_JSON,
        "getLanguages",
        json!({"provider": "demo", "lang": "de"}),
    );
    assert_eq!(languages["data"]["array"][0]["languageName"], "Deutsch");
    // Unset, the catalogue is for any country: every country partscat names, each with its
    // code and name, as TecDoc lists the countries it serves.
    let plain = Served::demo(&[]);
    let every = call(
        &plain,
        DLB_JSON,
        "getCountries",
        json!({"provider": "demo"}),
    );
    let every = every["data"]["array"].as_array().unwrap();
    assert!(every.len() >= 50, "{every:?}");
    assert!(
        every
            .iter()
            .all(|c| c["countryCode"].as_str().unwrap().len() == 2
                && !c["countryName"].as_str().unwrap().is_empty())
    );
    assert!(every.iter().any(|c| c["countryCode"] == "HU"), "{every:?}");
}

#[test]
fn an_articles_vehicle_types_by_its_numeric_id() {
    let s = Served::demo(&[]);
    // The id getArticles gives: 0 986 478 849 fits vehicle types itself and is in a kit.
    let found = call(
        &s,
        DLB_JSON,
        "getArticles",
        json!({"provider": "demo", "searchQuery": "0986478849", "includeGenericArticles": true}),
    );
    let id = found["articles"][0]["genericArticles"][0]["legacyArticleId"]
        .as_i64()
        .unwrap();
    assert!(id > 0, "{found}");
    let linkages = call(
        &s,
        DLB_JSON,
        "getArticleLinkages",
        json!({"provider": "demo", "dataSupplierId": 1, "articleNumber": "0 986 478 849"}),
    );
    let fits: Vec<i64> = linkages["linkages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            l["linkageTarget"]["linkageTargetId"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap()
        })
        .collect();
    assert!(!fits.is_empty());
    let all_null = json!({"provider": "demo", "articleCountry": null, "articleId": id,
        "country": null, "countryGroupFlag": false, "lang": null, "linkingTargetId": null,
        "linkingTargetManuId": 0, "linkingTargetType": "P", "withMainArticles": false});
    let targets = |path: &str, extra: Value| -> (Vec<Value>, Vec<Value>) {
        let answer = call(
            &s,
            path,
            "getArticleLinkedAllLinkingTarget4",
            with(all_null.clone(), extra),
        );
        let record = &answer["data"]["array"][0];
        (
            record["articleLinkages"]["array"]
                .as_array()
                .unwrap()
                .clone(),
            record["mainArticleLinkages"]["array"]
                .as_array()
                .unwrap()
                .clone(),
        )
    };
    for path in [DLB_JSON, DLW_JSON] {
        let (linked, main) = targets(path, json!({}));
        let ktypes: Vec<i64> = linked
            .iter()
            .map(|l| l["linkingTargetId"].as_i64().unwrap())
            .collect();
        assert_eq!(ktypes, fits, "the same vehicle types as getArticleLinkages");
        assert!(
            linked
                .iter()
                .all(|l| l["linked"] == true && l["linkingTargetType"] == "P")
        );
        // A link's id carries the article's id and the Ktype.
        assert_eq!(
            linked[0]["articleLinkId"].as_i64().unwrap(),
            (id << 32) | fits[0]
        );
        assert_eq!(main, Vec::<Value>::new(), "without withMainArticles");
    }
    // One Ktype; one maker's vehicles (by the maker's id); the kits holding the article.
    let (linked, _) = targets(DLB_JSON, json!({"linkingTargetId": fits[0]}));
    assert_eq!(linked.len(), 1);
    let make = s
        .get(&format!("/svc/getArticlesByKtype/{}", fits[0]))
        .json()["vehicle"]["make"]
        .clone();
    let makers = call(
        &s,
        DLB_JSON,
        "getManufacturers",
        json!({"provider": "demo"}),
    );
    let maker = makers["data"]["array"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["manuName"] == make)
        .unwrap()["manuId"]
        .clone();
    let (linked, _) = targets(DLB_JSON, json!({"linkingTargetManuId": maker}));
    assert!(!linked.is_empty() && linked.len() <= fits.len());
    let (_, main) = targets(DLB_JSON, json!({"withMainArticles": true}));
    assert!(!main.is_empty(), "0 986 478 849 is in the demo's kits");
    let kit = main[0]["mainArticleId"].as_i64().unwrap();
    assert!(kit > 0 && kit != id);
    assert_eq!(
        main[0]["articleLinkId"].as_i64().unwrap(),
        (kit << 32) | main[0]["linkingTargetId"].as_i64().unwrap()
    );

    // How it fits the vehicle types of the links asked: in the order asked; a link of
    // another article (the kit's) or with a misnamed Ktype answers nothing.
    let (linked, _) = targets(DLB_JSON, json!({}));
    let pair = |l: &Value| json!({"articleLinkId": l["articleLinkId"], "linkingTargetId": l["linkingTargetId"]});
    let mut pairs = vec![pair(&linked[1]), pair(&linked[0])];
    pairs.push(pair(&main[0]));
    pairs
        .push(json!({"articleLinkId": linked[0]["articleLinkId"], "linkingTargetId": fits[0] + 1}));
    let by_ids = |path: &str, attributes: bool| {
        call(
            &s,
            path,
            "getArticleLinkedAllLinkingTargetsByIds3",
            json!({"provider": "demo", "articleCountry": null, "articleId": id,
                "immediateAttributs": attributes, "lang": null, "linkingTargetType": "P",
                "numberplateType": null, "linkedArticlePairs": {"array": pairs}}),
        )["data"]["array"]
            .as_array()
            .unwrap()
            .clone()
    };
    for path in [DLB_JSON, DLW_JSON] {
        let details = by_ids(path, true);
        assert_eq!(details.len(), 2, "{details:?}");
        for (record, (n, linkage)) in details
            .iter()
            .zip([(1, &linkages["linkages"][1]), (0, &linkages["linkages"][0])])
        {
            assert_eq!(record["articleLinkId"], linked[n]["articleLinkId"]);
            assert_eq!(record["linkingTargetId"].as_i64().unwrap(), fits[n]);
            assert_eq!(record["linkingTargetType"], "P");
            let vehicle = &record["linkedVehicles"]["array"][0];
            assert_eq!(vehicle["carId"].as_i64().unwrap(), fits[n]);
            assert_eq!(vehicle["manuDesc"], linkage["linkageTarget"]["mfrName"]);
            assert_eq!(vehicle["modelDesc"], linkage["linkageTarget"]["model"]);
            let attributes = record["linkedArticleImmediateAttributs"]["array"]
                .as_array()
                .unwrap();
            let quantity = attributes
                .iter()
                .find(|a| a["attrName"] == "Quantity")
                .unwrap();
            assert_eq!(quantity["attrValue"], linkage["quantity"].to_string());
        }
    }
    let plain = by_ids(DLB_JSON, false);
    assert_eq!(
        plain[0]["linkedArticleImmediateAttributs"]["array"],
        json!([])
    );

    // An id the catalogue does not hold: no record. No id, or a negative one: named.
    let answer = call(
        &s,
        DLB_JSON,
        "getArticleLinkedAllLinkingTarget4",
        json!({"provider": "demo", "articleId": 99_999_999}),
    );
    assert_eq!(answer["data"]["array"], json!([]));
    for operation in [
        "getArticleLinkedAllLinkingTarget4",
        "getArticleLinkedAllLinkingTargetsByIds3",
    ] {
        for bad in [json!(null), json!(-3)] {
            let r = post_json(
                &s,
                DLB_JSON,
                DEMO_KEY,
                &json!({operation: {"provider": "demo", "articleId": bad}}),
            );
            assert_eq!(r.json()["status"], 400, "{}", r.text());
            assert!(r.text().contains("'articleId'"), "{}", r.text());
        }
    }
}

#[test]
fn articles_by_any_number_one_record_per_number() {
    let s = Served::demo(&[]);
    // As a TecDoc client sends it: every field, the unset ones null.
    let request = |extra: Value| {
        with(
            json!({"provider": "demo", "articleCountry": null, "articleNumber": null,
                "brandId": null, "genericArticleId": null, "lang": "de", "numberType": 10,
                "searchExact": true, "sortType": 1}),
            extra,
        )
    };
    let records = |path: &str, extra: Value| -> Vec<Value> {
        call(
            &s,
            path,
            "getArticleDirectSearchAllNumbersWithState",
            request(extra),
        )["data"]["array"]
            .as_array()
            .unwrap()
            .clone()
    };
    let article = call(
        &s,
        DLB_JSON,
        "getArticles",
        json!({"provider": "demo", "searchQuery": "0986478379", "searchType": 0,
            "includeAll": true, "lang": "de"}),
    )["articles"][0]
        .clone();
    for path in [DLB_JSON, DLW_JSON] {
        // By its own number, written another way.
        let own = records(
            path,
            json!({"articleNumber": "0986-478-379", "numberType": 0}),
        );
        assert_eq!(own.len(), 1, "{own:?}");
        let r = &own[0];
        assert_eq!(r["articleNo"], "0 986 478 379");
        assert_eq!(r["articleSearchNo"], "0986478379");
        assert_eq!(r["numberType"], 0);
        assert_eq!(r["brandNo"], 1);
        assert_eq!(r["brandName"], article["mfrName"]);
        assert_eq!(
            r["articleId"],
            article["genericArticles"][0]["legacyArticleId"]
        );
        assert_eq!(
            r["genericArticleId"],
            article["genericArticles"][0]["genericArticleId"]
        );
        assert_eq!(
            r["articleName"],
            article["genericArticles"][0]["genericArticleDescription"]
        );
        assert_eq!(r["articleStateId"], article["misc"]["articleStatusId"]);
        // By its OE number, under any number type: the kind that matched is named.
        let oe = records(path, json!({"articleNumber": "9N0 690 938 B"}));
        assert!(
            oe.iter().any(|r| r["articleNo"] == "0 986 478 379"
                && r["numberType"] == 1
                && r["articleSearchNo"] == "9N0690938B"),
            "{oe:?}"
        );
        assert!(
            records(
                path,
                json!({"articleNumber": "9N0 690 938 B", "numberType": 2})
            )
            .is_empty()
        );
    }
    // Not exact: numbers that start or end with it.
    let loose = records(
        DLB_JSON,
        json!({"articleNumber": "478379", "searchExact": false}),
    );
    assert!(
        loose.iter().any(|r| r["articleNo"] == "0 986 478 379"),
        "{loose:?}"
    );
    assert!(records(DLB_JSON, json!({"articleNumber": "478379"})).is_empty());
    // Narrowed by brand and by generic article.
    assert!(
        records(
            DLB_JSON,
            json!({"articleNumber": "0986478379", "brandId": 2})
        )
        .is_empty()
    );
    assert_eq!(
        records(
            DLB_JSON,
            json!({"articleNumber": "0986478379", "brandId": 1})
        )
        .len(),
        1
    );
    let other_genart = article["genericArticles"][0]["genericArticleId"]
        .as_i64()
        .unwrap()
        + 1;
    assert!(
        records(
            DLB_JSON,
            json!({"articleNumber": "0986478379", "genericArticleId": other_genart})
        )
        .is_empty()
    );
    // Bad fields are named.
    for (fields, named) in [
        (json!({"articleNumber": null}), "'articleNumber'"),
        (json!({"articleNumber": " - "}), "'articleNumber'"),
        (
            json!({"articleNumber": "0986478379", "numberType": 7}),
            "'numberType'",
        ),
    ] {
        let r = post_json(
            &s,
            DLB_JSON,
            DEMO_KEY,
            &json!({"getArticleDirectSearchAllNumbersWithState": request(fields)}),
        );
        assert_eq!(r.json()["status"], 400, "{}", r.text());
        assert!(r.text().contains(named), "{}", r.text());
    }
}

#[test]
fn free_text_finds_numbers_and_words() {
    let s = Served::demo(&[]);
    let total = |fields: Value| -> i64 {
        let mut request = json!({"provider": "demo", "perPage": 0});
        request
            .as_object_mut()
            .unwrap()
            .extend(fields.as_object().unwrap().clone());
        call(&s, DLB_JSON, "getArticles", request)["totalMatchingArticles"]
            .as_i64()
            .unwrap()
    };
    // A number: what searchType 10 finds.
    assert_eq!(
        total(json!({"searchQuery": "9N0 690 938 B", "searchType": 99})),
        total(json!({"searchQuery": "9N0 690 938 B", "searchType": 10}))
    );
    // Words: every one in the description or the generic article's name, case aside.
    let articles = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/articles.csv"
    ))
    .unwrap();
    let described = |words: &[&str]| {
        articles
            .lines()
            .skip(1)
            .filter(|l| {
                let l = l.to_lowercase();
                words.iter().all(|w| l.contains(w))
            })
            .count() as i64
    };
    let brakes = total(json!({"searchQuery": "BRAKE", "searchType": 99}));
    assert!(brakes > 0 && brakes >= described(&["brake"]), "{brakes}");
    let front = total(json!({"searchQuery": "front brake", "searchType": 99}));
    assert!(
        front > 0 && front >= described(&["brake", "front"]),
        "{front}"
    );
    assert!(
        front < brakes,
        "the rear brakes are left out: {front} of {brakes}"
    );
    // As the public TecDoc client's example sends it: a brand's articles, one id not in a list.
    let listed = call(
        &s,
        DLB_JSON,
        "getArticles",
        json!({"provider": "demo", "dataSupplierIds": 4, "lang": "de", "articleCountry": "de",
            "includeAll": true, "searchType": 99, "perPage": 100, "page": 1}),
    );
    let found = listed["articles"].as_array().unwrap();
    assert!(
        !found.is_empty() && found.iter().all(|a| a["dataSupplierId"] == 4),
        "{listed}"
    );
    // 7 (criteria) is still refused, naming the types taken.
    let r = post_json(
        &s,
        DLB_JSON,
        DEMO_KEY,
        &json!({"getArticles": {"provider": "demo", "searchQuery": "x", "searchType": 7}}),
    );
    assert_eq!(r.json()["status"], 400, "{}", r.text());
    assert!(r.text().contains("10, 99"), "{}", r.text());
}

#[test]
fn replacements_both_ways() {
    let s = Served::demo(&[]);
    // The demo's replacements, from its articles file: (brand, replaced, replacing).
    let articles = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/articles.csv"
    ))
    .unwrap();
    let mut replaced = Vec::new();
    for line in articles.lines().skip(1) {
        let cells: Vec<&str> = line.rsplitn(2, ',').collect();
        let first: Vec<&str> = line.splitn(3, ',').collect();
        for replacing in cells[0].split('|').filter(|r| !r.is_empty()) {
            replaced.push((
                first[0].to_owned(),
                first[1].to_owned(),
                replacing.to_owned(),
            ));
        }
    }
    assert!(replaced.len() > 10, "the demo replaces articles");
    let numbers = |answer: &Value, field: &str| -> Vec<String> {
        answer["articles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a[field].as_str().unwrap().to_owned())
            .collect()
    };
    let compact = |n: &str| n.replace([' ', '-', '.', '/'], "");
    let mut named = 0;
    for (brand, old, new) in &replaced {
        // searchType 5: the articles a number replaces, by exact, prefix and suffix match.
        let whole = compact(new);
        for (query, how) in [
            (whole.as_str(), "exact"),
            (&whole[..whole.len() - 1], "prefix"),
            (&whole[1..], "suffix"),
            (&whole[1..], "prefix_or_suffix"),
        ] {
            let found = call(
                &s,
                DLB_JSON,
                "getArticles",
                json!({"provider": "demo", "searchQuery": query, "searchType": 5,
                    "searchMatchType": how, "perPage": 1000}),
            );
            assert!(
                numbers(&found, "articleNumber").contains(old),
                "{how} {query}: {found}"
            );
        }
        // replacesArticles: the replacing article names the one it replaces.
        let newer = call(
            &s,
            DLB_JSON,
            "getArticles",
            json!({"provider": "demo", "searchQuery": new, "searchType": 0,
                "dataSupplierIds": [brand.parse::<u32>().unwrap()],
                "includeReplacesArticles": true}),
        );
        if newer["articles"].as_array().unwrap().is_empty() {
            continue; // a replacement the catalogue does not hold
        }
        let replaces: Vec<&Value> = newer["articles"][0]["replacesArticles"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["articleNumber"] == old.as_str())
            .collect();
        assert_eq!(replaces.len(), 1, "{new} replaces {old}: {newer}");
        assert_eq!(replaces[0]["dataSupplierId"].to_string(), *brand);
        named += 1;
    }
    assert!(named > 10, "{named} replacing articles checked");
    // Without the flag, none.
    let (_, _, new) = &replaced[0];
    let plain = call(
        &s,
        DLB_JSON,
        "getArticles",
        json!({"provider": "demo", "searchQuery": new, "searchType": 0}),
    );
    assert_eq!(plain["articles"][0]["replacesArticles"], json!([]));
}

#[test]
fn articles_by_their_numeric_ids() {
    let s = Served::demo(&[]);
    let listed = call(
        &s,
        DLB_JSON,
        "getArticles",
        json!({"provider": "demo", "dataSupplierIds": [1], "perPage": 3, "includeGenericArticles": true}),
    );
    let of = |answer: &Value| -> Vec<(i64, String)> {
        answer["articles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                (
                    a["genericArticles"][0]["legacyArticleId"].as_i64().unwrap(),
                    a["articleNumber"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let three = of(&listed);
    assert_eq!(three.len(), 3, "{listed}");
    // Without a query: the articles named, repeats merged, an id not held naming nothing.
    let (first, third) = (&three[0], &three[2]);
    for path in [DLB_JSON, DLW_JSON] {
        let named = call(
            &s,
            path,
            "getArticles",
            with(
                articles_request_all_null(),
                json!({"provider": "demo", "legacyArticleIds": [third.0, first.0, third.0, 99_999_999],
                    "includeGenericArticles": true}),
            ),
        );
        assert_eq!(named["totalMatchingArticles"], 2, "{named}");
        assert_eq!(of(&named), vec![first.clone(), third.clone()]);
    }
    // With a query: only the named articles among its matches.
    let narrowed = |ids: Value| {
        call(
            &s,
            DLB_JSON,
            "getArticles",
            json!({"provider": "demo", "searchQuery": first.1, "searchType": 0, "legacyArticleIds": ids}),
        )["totalMatchingArticles"]
            .clone()
    };
    assert_eq!(narrowed(json!([first.0])), 1);
    assert_eq!(narrowed(json!([third.0])), 0);
    // An id that cannot be an article's is named.
    for bad in [json!([0]), json!([-5]), json!([1_i64 << 33])] {
        let r = post_json(
            &s,
            DLB_JSON,
            DEMO_KEY,
            &json!({"getArticles": {"provider": "demo", "legacyArticleIds": bad}}),
        );
        assert_eq!(r.json()["status"], 400, "{}", r.text());
        assert!(r.text().contains("'legacyArticleIds'"), "{}", r.text());
    }
}

#[test]
fn vehicle_types_by_registration_plate_or_key_number() {
    // The demo catalogue, plus plates of a kind (key_system) and one key number for two types.
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo");
    let (ok, report) = common::import(&data, &[demo]);
    assert!(ok, "{report}");
    let plates = dir.path().join("plates.csv");
    std::fs::write(
        &plates,
        "country,plate,ktype,key_system\nFR,AA-123-BB,10219,7\nFR,AA-123-BB,10000,\nDE,9999/ZZZ,10219,\nDE,9999/ZZZ,10000,\n",
    )
    .unwrap();
    let (ok, report) = common::import(&data, &["--type", "plates", common::path(&plates)]);
    assert!(ok, "{report}");
    let s = Served::start(&data, &["--demo", "--demo-key", DEMO_KEY]);

    let every_field = json!({"provider": "demo", "companyName": null, "country": "DE",
        "details": false, "endCustomerPassword": null, "endCustomerUsername": null,
        "idKey": null, "initials": null, "keySystemNumber": "9999 zzz", "keySystemType": 0,
        "lang": "de", "linkingTargetType": "P", "mandatorPassword": null,
        "mandatorUsername": null, "picture": false, "productId": null, "serviceName": null});
    for path in [DLB_JSON, DLW_JSON] {
        let answer = call(
            &s,
            path,
            "getVehiclesByKeyNumberPlates",
            every_field.clone(),
        );
        let found = answer["data"]["array"].as_array().unwrap();
        let ktypes: Vec<&Value> = found.iter().map(|v| &v["carId"]).collect();
        assert_eq!(ktypes, [&json!(10000), &json!(10219)], "{answer}");
        assert!(found.iter().all(|v| v.get("vehicleDetails").is_none()));
    }
    // With details: the vehicle as getVehicleByIds3 has it, and the plate as written.
    let answer = call(
        &s,
        DLB_JSON,
        "getVehiclesByKeyNumberPlates",
        with(
            every_field.clone(),
            json!({"details": true, "keySystemNumber": "9999/ZZZ"}),
        ),
    );
    let vehicle = call(
        &s,
        DLB_JSON,
        "getVehicleByIds3",
        json!({"provider": "demo", "carIds": {"array": [10219]}}),
    );
    let by_id = &vehicle["data"]["array"][0]["vehicleDetails"];
    let details = &answer["data"]["array"][1]["vehicleDetails"];
    assert_eq!(details["KTypeNumbers"], 10219, "{answer}");
    assert_eq!(details["mark"], by_id["manuName"]);
    assert_eq!(details["model"], by_id["modelName"]);
    assert_eq!(details["registrationNumber"], "9999/ZZZ");
    assert_eq!(answer["data"]["array"][1]["manuId"], details["manuId"]);
    assert!(details["manuId"].as_i64().unwrap() > 0);

    // keySystemType: a row of another kind is left out, a row without one always matches.
    let french = |kind: i64| -> usize {
        let answer = call(
            &s,
            DLB_JSON,
            "getVehiclesByKeyNumberPlates",
            json!({"provider": "demo", "country": "fr", "keySystemNumber": "AA123BB",
                "keySystemType": kind}),
        );
        answer["data"]["array"].as_array().unwrap().len()
    };
    assert_eq!((french(0), french(7), french(3)), (2, 2, 1));

    // The demo's own plates: a British plate from its file.
    let demo_plates = std::fs::read_to_string(format!("{demo}/plates.csv")).unwrap();
    let british = demo_plates.lines().find(|l| l.starts_with("GB,")).unwrap();
    let cells: Vec<&str> = british.split(',').collect();
    let answer = call(
        &s,
        DLB_JSON,
        "getVehiclesByKeyNumberPlates",
        json!({"provider": "demo", "country": "GB", "keySystemNumber": cells[1]}),
    );
    assert_eq!(
        answer["data"]["array"][0]["carId"].to_string(),
        cells[2],
        "{answer}"
    );

    // Not held: no record. No country, no number: named.
    let answer = call(
        &s,
        DLB_JSON,
        "getVehiclesByKeyNumberPlates",
        json!({"provider": "demo", "country": "DE", "keySystemNumber": "0000/AAA"}),
    );
    assert_eq!(answer["data"]["array"], json!([]));
    for (fields, named) in [
        (
            json!({"country": null, "keySystemNumber": "9999ZZZ"}),
            "'country'",
        ),
        (
            json!({"country": "DE", "keySystemNumber": null}),
            "'keySystemNumber'",
        ),
        (
            json!({"country": "DE", "keySystemNumber": " - "}),
            "'keySystemNumber'",
        ),
    ] {
        let r = post_json(
            &s,
            DLB_JSON,
            DEMO_KEY,
            &json!({"getVehiclesByKeyNumberPlates": with(json!({"provider": "demo"}), fields)}),
        );
        assert_eq!(r.json()["status"], 400, "{}", r.text());
        assert!(r.text().contains(named), "{}", r.text());
    }
}

#[test]
fn a_kit_lists_its_components_once_each_when_asked() {
    let s = Served::demo(&[]);
    let kit = |fields: Value| {
        let answer = call(
            &s,
            DLB_JSON,
            "getArticles",
            with(
                json!({"provider": "demo", "searchQuery": "0 986 A45 240"}),
                fields,
            ),
        );
        answer["articles"][0]["partsListArticles"].clone()
    };
    assert_eq!(kit(json!({})), json!([]), "not asked, not read");
    let parts = kit(json!({"includePartsListArticles": true}));
    let parts = parts.as_array().unwrap();
    // The kit is defined for several vehicle types with the same components: each once.
    assert_eq!(parts.len(), 2, "{parts:?}");
    assert_eq!(parts[0]["articleNumber"], "0 986 478 849");
    assert_eq!(parts[0]["quantity"], 2);
    assert_eq!(parts[0]["genericArticleDescription"], "Brake Disc");
    assert!(parts[0]["legacyArticleId"].as_i64().unwrap() > 0);
    assert_eq!(parts[1]["articleNumber"], "0 986 495 455");
    assert_eq!(
        kit(json!({"includeAll": true})).as_array().unwrap().len(),
        2
    );
    // An article that is no kit holds nothing.
    let single = call(
        &s,
        DLB_JSON,
        "getArticles",
        json!({"provider": "demo", "searchQuery": "0986494958", "includePartsListArticles": true}),
    );
    assert_eq!(single["articles"][0]["partsListArticles"], json!([]));
}

#[test]
fn a_component_names_the_kits_that_hold_it_when_asked() {
    let s = Served::demo(&[]);
    let kits_of = |number: &str, fields: Value| {
        let answer = call(
            &s,
            DLB_JSON,
            "getArticles",
            with(json!({"provider": "demo", "searchQuery": number}), fields),
        );
        answer["articles"][0]["partOfKits"].clone()
    };
    assert_eq!(kits_of("0986478849", json!({})), json!([]), "not asked");
    let kits = kits_of("0986478849", json!({"includePartOfKits": true}));
    let kits = kits.as_array().unwrap();
    let kit = kits
        .iter()
        .find(|k| k["articleNumber"] == "0 986 A45 240")
        .unwrap_or_else(|| panic!("{kits:?}"));
    assert_eq!(kit["quantity"], 2);
    assert!(kit["legacyArticleId"].as_i64().unwrap() > 0);
    assert_eq!(
        kits_of("0986478849", json!({"includeAll": true})),
        Value::Array(kits.clone())
    );
    // The kit itself is in no kit.
    assert_eq!(
        kits_of("0 986 A45 240", json!({"includePartOfKits": true})),
        json!([])
    );
}
