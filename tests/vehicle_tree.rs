//! A legacy TecDoc shop's vehicle path, replayed step by step against `serve --demo` through
//! the JSON endpoint, each step's ids taken from the answer before: makes → model series →
//! vehicle types → the vehicle's details → its assembly groups with parts → a group's
//! children. And each field that partscat cannot honour refused by name.

mod common;

use common::server::{DEMO_KEY, Reply, Served, client};
use serde_json::{Value, json};

const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";
const DLB: &str = "/ws/3.0/services/PartsToCatDLB.soapEndpoint";

fn post(s: &Served, operation: &str, mut fields: Value) -> Reply {
    fields["provider"] = json!("demo");
    s.fetch(
        client()
            .post(format!("{}{DLB_JSON}?api_key={DEMO_KEY}", s.base))
            .json(&json!({ operation: fields })),
    )
}

/// A call that must answer status 200; its records.
fn records(s: &Served, operation: &str, fields: Value) -> Vec<Value> {
    let r = post(s, operation, fields);
    let answer = r.json();
    assert_eq!(answer["status"], 200, "{operation}: {}", r.text());
    answer["data"]["array"].as_array().unwrap().clone()
}

/// A call that must be refused with 400 naming `field`.
fn refused(s: &Served, operation: &str, fields: Value, field: &str) {
    let r = post(s, operation, fields);
    let answer = r.json();
    assert_eq!(answer["status"], 400, "{operation}: {}", r.text());
    let text = answer["statusText"].as_str().unwrap();
    assert!(text.contains(&format!("'{field}'")), "{operation}: {text}");
}

#[test]
fn a_legacy_shop_walks_make_series_type_and_assembly_groups() {
    let s = Served::demo(&[]);
    let base = json!({"lang": "de", "country": "DE", "countryGroupFlag": false});

    let makes = records(
        &s,
        "getManufacturers2",
        json!({"linkingTargetType": "P", "lang": "de", "country": "DE", "countryGroupFlag": false, "favouredList": 0}),
    );
    assert_eq!(makes.len(), 12, "{makes:?}");
    let vw = makes.iter().find(|m| m["manuName"] == "VW").unwrap();
    assert_eq!(vw["linkingTargetTypes"], "P");
    assert!(records(&s, "getManufacturers2", json!({"linkingTargetType": "O"})).is_empty());

    let mut request = base.clone();
    request["manuId"] = vw["manuId"].clone();
    request["linkingTargetType"] = json!("P");
    let series = records(&s, "getModelSeries", request.clone());
    assert!(!series.is_empty());
    let golf = series
        .iter()
        .find(|m| m["modelname"].as_str().unwrap().starts_with("GOLF"))
        .unwrap();
    assert_eq!(golf["yearOfConstrFrom"], 201201, "{golf}");
    let series2 = records(&s, "getModelSeries2", request);
    assert_eq!(series2[0]["favorFlag"], 0);

    let types = records(
        &s,
        "getVehicleIdsByCriteria",
        json!({"manuId": vw["manuId"], "modId": golf["modelId"], "countryGroupFlag": false, "carType": "P"}),
    );
    assert!(!types.is_empty());
    let car_id = types[0]["carId"].clone();
    let diesel = records(
        &s,
        "getVehicleIdsByCriteria",
        json!({"modId": golf["modelId"], "powerFrom": 100, "powerHpType": true}),
    );
    assert!(diesel.len() < types.len(), "the power narrows: {diesel:?}");

    let details = records(
        &s,
        "getVehicleByIds3",
        json!({"carIds": {"array": [car_id]}, "motorCodes": true, "country": "DE", "lang": "de", "countryGroupFlag": false}),
    );
    let details = &details[0]["vehicleDetails"];
    assert_eq!(details["manuId"], vw["manuId"], "{details}");
    assert_eq!(details["modId"], golf["modelId"], "{details}");

    let roots = records(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"linkingTargetId": car_id, "linkingTargetType": "P", "linked": true, "childNodes": false, "articleCountry": "DE", "lang": "de"}),
    );
    assert!(!roots.is_empty());
    assert!(
        roots
            .iter()
            .all(|n| n.get("parentNodeId").is_none() && n["articleCount"].as_u64() > Some(0))
    );
    let parent = roots.iter().find(|n| n["hasChilds"] == true).unwrap();
    let children = records(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"linkingTargetId": car_id, "linked": true, "childNodes": false, "parentNodeId": parent["assemblyGroupNodeId"]}),
    );
    assert!(!children.is_empty());
    assert!(
        children
            .iter()
            .all(|n| n["parentNodeId"] == parent["assemblyGroupNodeId"])
    );
    let counted: u64 = children
        .iter()
        .map(|n| n["articleCount"].as_u64().unwrap())
        .sum();
    assert!(
        counted >= parent["articleCount"].as_u64().unwrap(),
        "children hold the parent's parts"
    );

    // A category page: the vehicle's parts under one node, as getArticles narrows them.
    let linked = records(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"linkingTargetId": car_id, "linked": true, "childNodes": true}),
    );
    let leaf = linked.iter().find(|n| n["hasChilds"] == false).unwrap();
    let articles = |nodes: Value| {
        let r = post(
            &s,
            "getArticles",
            json!({"linkageTargetId": car_id.to_string(), "linkageTargetType": "P", "assemblyGroupNodeIds": nodes, "perPage": 100}),
        );
        r.json()
    };
    let page = articles(json!([leaf["assemblyGroupNodeId"]]));
    assert_eq!(page["status"], 200, "{page}");
    assert_eq!(
        page["totalMatchingArticles"], leaf["articleCount"],
        "{page}"
    );
    let all = articles(json!([]));
    assert!(
        all["totalMatchingArticles"].as_u64() > leaf["articleCount"].as_u64(),
        "{all}"
    );
    let unknown = articles(json!([42]));
    assert_eq!(unknown["status"], 400, "{unknown}");
    assert!(
        unknown["statusText"]
            .as_str()
            .unwrap()
            .contains("'assemblyGroupNodeIds'")
    );

    // The same counts as facets of the vehicle's articles.
    let facets = |options: Value| {
        let r = post(
            &s,
            "getArticles",
            json!({"linkageTargetId": car_id.to_string(), "perPage": 0, "assemblyGroupFacetOptions": options}),
        );
        r.json()
    };
    let answer = facets(json!({"enabled": true, "assemblyGroupType": "P"}));
    let counts = answer["assemblyGroupFacets"]["counts"].as_array().unwrap();
    assert_eq!(counts.len(), linked.len(), "{answer}");
    for (facet, node) in counts.iter().zip(&linked) {
        assert_eq!(facet["assemblyGroupNodeId"], node["assemblyGroupNodeId"]);
        assert_eq!(facet["count"], node["articleCount"], "{facet} {node}");
    }
    let complete = facets(json!({"enabled": true, "includeCompleteTree": true}));
    assert_eq!(complete["assemblyGroupFacets"]["total"], 32, "{complete}");
    let roots_only = facets(json!({"enabled": true, "maxDepth": 1}));
    let roots_only = roots_only["assemblyGroupFacets"]["counts"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(roots_only.len(), roots.len());
    assert!(facets(json!({"enabled": false}))["assemblyGroupFacets"].is_null());
    // TecDoc's group P is the passenger cars' tree; two trees at once are refused.
    let group = facets(json!({"enabled": true, "assemblyGroupType": "P"}));
    assert_eq!(group["assemblyGroupFacets"], answer["assemblyGroupFacets"]);
    let two = facets(json!({"enabled": true, "assemblyGroupType": "PO"}));
    assert_eq!(two["status"], 400, "{two}");

    // The tree without a vehicle: every node, unlinked.
    let whole = records(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"childNodes": true, "linkingTargetType": "P"}),
    );
    assert_eq!(whole.len(), 32);
    assert!(whole.iter().all(|n| n.get("articleCount").is_none()));

    // The shortcuts are the tree's first level; each opens its part of the tree.
    let tree_roots = records(&s, "getChildNodesAllLinkingTarget2", json!({}));
    let shortcuts = records(&s, "getShortCuts2", json!({"lang": "de"}));
    assert_eq!(shortcuts.len(), tree_roots.len(), "{shortcuts:?}");
    let shortcut = &shortcuts[0];
    assert_eq!(shortcut["shortCutId"], tree_roots[0]["assemblyGroupNodeId"]);
    assert!(shortcut["shortCutName"].is_string());
    let by_parent = records(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"parentNodeId": shortcut["shortCutId"], "childNodes": true}),
    );
    let by_shortcut = records(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"shortCutId": shortcut["shortCutId"], "childNodes": true}),
    );
    assert!(!by_shortcut.is_empty());
    assert_eq!(by_shortcut, by_parent);
    // A parent within the shortcut is answered as asked; one outside it has no nodes there.
    let inner = &by_shortcut[0]["assemblyGroupNodeId"];
    let within = json!({"shortCutId": shortcut["shortCutId"], "parentNodeId": inner});
    assert_eq!(
        records(&s, "getChildNodesAllLinkingTarget2", within),
        records(
            &s,
            "getChildNodesAllLinkingTarget2",
            json!({"parentNodeId": inner})
        )
    );
    let elsewhere = json!({"shortCutId": shortcuts[1]["shortCutId"], "parentNodeId": inner});
    assert!(records(&s, "getChildNodesAllLinkingTarget2", elsewhere).is_empty());
    // Of a vehicle, linked: the shortcuts with its parts, as its linked roots.
    let linked_shortcuts = records(
        &s,
        "getShortCuts2",
        json!({"linkingTargetId": car_id, "linked": true}),
    );
    let ids = |nodes: &[Value], field: &str| -> Vec<Value> {
        nodes.iter().map(|n| n[field].clone()).collect()
    };
    assert_eq!(
        ids(&linked_shortcuts, "shortCutId"),
        ids(&roots, "assemblyGroupNodeId")
    );
    refused(&s, "getShortCuts2", json!({"linked": true}), "linked");

    // The same over SOAP.
    let envelope = format!(
        r#"<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tns="urn:partscat:ws:3.0:PartsToCatDLB"><soapenv:Body><tns:getModelSeries><manuId>{}</manuId><provider>demo</provider></tns:getModelSeries></soapenv:Body></soapenv:Envelope>"#,
        vw["manuId"]
    );
    let r = s.fetch(
        client()
            .post(format!("{}{DLB}?api_key={DEMO_KEY}", s.base))
            .header("content-type", "text/xml; charset=utf-8")
            .header("SOAPAction", "getModelSeries")
            .body(envelope),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(r.text().contains("GOLF VII"), "{}", r.text());
}

/// A call that must answer status 200.
fn answered(s: &Served, operation: &str, fields: Value) -> Value {
    let r = post(s, operation, fields);
    let answer = r.json();
    assert_eq!(answer["status"], 200, "{operation}: {}", r.text());
    answer
}

#[test]
fn a_modern_shop_walks_linkage_target_facets_to_a_category_page() {
    let s = Served::demo(&[]);
    let base = json!({"linkageTargetCountry": "DE", "lang": "de", "linkageTargetType": "V"});
    let with = |extra: Value| {
        let mut fields = base.clone();
        for (k, v) in extra.as_object().unwrap() {
            fields[k] = v.clone();
        }
        fields
    };

    // Makes: the maker facet alone, the same makers as getManufacturers2 names.
    let makes = answered(
        &s,
        "getLinkageTargets",
        with(json!({"perPage": 0, "page": 1, "includeMfrFacets": true})),
    );
    assert!(makes["linkageTargets"].as_array().unwrap().is_empty());
    let counts = makes["mfrFacets"]["counts"].as_array().unwrap();
    let legacy = records(&s, "getManufacturers2", json!({"linkingTargetType": "V"}));
    assert_eq!(counts.len(), legacy.len(), "{makes}");
    let total: u64 = counts.iter().map(|c| c["count"].as_u64().unwrap()).sum();
    assert_eq!(makes["total"].as_u64(), Some(total));
    let vw = counts.iter().find(|c| c["name"] == "VW").unwrap();

    // Model series: the series facet of one make, as getModelSeries lists them.
    let series = answered(
        &s,
        "getLinkageTargets",
        with(json!({"perPage": 0, "mfrIds": vw["id"], "includeVehicleModelSeriesFacets": true})),
    );
    let series = series["vehicleModelSeriesFacets"]["counts"]
        .as_array()
        .unwrap()
        .clone();
    let legacy = records(&s, "getModelSeries", json!({"manuId": vw["id"]}));
    let ids = |list: &[Value], field: &str| -> Vec<u64> {
        let mut ids: Vec<u64> = list.iter().map(|r| r[field].as_u64().unwrap()).collect();
        ids.sort();
        ids
    };
    assert_eq!(ids(&series, "id"), ids(&legacy, "modelId"));
    // Each series with the years it was built, as getModelSeries gives them.
    for count in &series {
        let named = legacy.iter().find(|r| r["modelId"] == count["id"]).unwrap();
        assert_eq!(
            count["beginYearMonth"], named["yearOfConstrFrom"],
            "{count}"
        );
        assert_eq!(
            count.get("endYearMonth"),
            named.get("yearOfConstrTo"),
            "{count}"
        );
    }
    // Only a model series has years of construction, not a maker.
    assert!(
        counts.iter().all(|c| c.get("beginYearMonth").is_none()),
        "{makes}"
    );
    let golf = series
        .iter()
        .find(|c| c["name"].as_str().unwrap().starts_with("GOLF VII"))
        .unwrap();

    // The series' types, page by page: every type once, as many as the facet counted.
    let mut types = Vec::new();
    for page in 1.. {
        let answer = answered(
            &s,
            "getLinkageTargets",
            with(
                json!({"mfrIds": [vw["id"]], "vehicleModelSeriesIds": golf["id"], "perPage": 2, "page": page}),
            ),
        );
        assert_eq!(answer["total"], golf["count"]);
        let rows = answer["linkageTargets"].as_array().unwrap().clone();
        if rows.is_empty() {
            break;
        }
        types.extend(rows);
    }
    assert_eq!(Some(types.len() as u64), golf["count"].as_u64());
    let mut distinct = ids(&types, "linkageTargetId");
    distinct.dedup();
    assert_eq!(distinct.len(), types.len(), "pages overlap");
    let by_criteria = records(&s, "getVehicleIdsByCriteria", json!({"modId": golf["id"]}));
    assert_eq!(ids(&types, "linkageTargetId"), ids(&by_criteria, "carId"));
    let car = &types[0];
    // TecDoc's group and the type's own kind: a passenger car of the group P.
    assert_eq!(car["linkageTargetType"], "P");
    assert_eq!(car["subLinkageTargetType"], "V");
    assert_eq!(car["mfrName"], "VW");
    assert_eq!(car["vehicleModelSeriesName"], golf["name"]);
    assert!(car["engines"][0]["code"].is_string(), "{car}");
    assert!(car["beginYearMonth"].as_str().unwrap().len() >= 4);

    // By id, as a number, a text or a typed id; a typed id of another kind is not answered.
    let car_id = car["linkageTargetId"].clone();
    for named in [
        json!(car_id),
        json!(car_id.to_string()),
        json!({"type": "P", "id": car_id}),
    ] {
        let one = answered(
            &s,
            "getLinkageTargets",
            json!({"linkageTargetIds": [named]}),
        );
        assert_eq!(one["total"], 1, "{named}: {one}");
        assert_eq!(one["linkageTargets"][0]["linkageTargetId"], car_id);
    }
    let other_kind = answered(
        &s,
        "getLinkageTargets",
        json!({"linkageTargetIds": [{"type": "O", "id": car_id}]}),
    );
    assert_eq!(other_kind["total"], 0, "{other_kind}");

    // The category page: the vehicle's assembly-group facets, then one node's parts.
    let kind = car["subLinkageTargetType"].clone();
    let facets = answered(
        &s,
        "getArticles",
        json!({"linkageTargetId": car_id, "linkageTargetType": kind, "perPage": 0,
               "assemblyGroupFacetOptions": {"enabled": true, "assemblyGroupType": "P"}}),
    );
    let nodes = facets["assemblyGroupFacets"]["counts"].as_array().unwrap();
    let node = nodes
        .iter()
        .find(|n| n["count"].as_u64() > Some(0))
        .unwrap();
    let page = answered(
        &s,
        "getArticles",
        json!({"linkageTargetId": car_id, "linkageTargetType": kind,
               "assemblyGroupNodeIds": node["assemblyGroupNodeId"], "perPage": 100}),
    );
    assert_eq!(page["totalMatchingArticles"], node["count"], "{page}");

    // Over SOAP, with a typed id.
    let envelope = format!(
        r#"<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tns="urn:partscat:ws:3.0:PartsToCatDLB"><soapenv:Body><tns:getLinkageTargets><tns:provider>demo</tns:provider><tns:linkageTargetIds><tns:type>P</tns:type><tns:id>{car_id}</tns:id></tns:linkageTargetIds></tns:getLinkageTargets></soapenv:Body></soapenv:Envelope>"#
    );
    let r = s.fetch(
        client()
            .post(format!("{}{DLB}?api_key={DEMO_KEY}", s.base))
            .header("content-type", "text/xml; charset=utf-8")
            .header("SOAPAction", "getLinkageTargets")
            .body(envelope),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(
        r.text().contains("<tns:vehicleModelSeriesName>GOLF VII"),
        "{}",
        r.text()
    );
    // And as the first WSDL typed it, a bare number: a request once accepted stays so.
    let bare = format!(
        r#"<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tns="urn:partscat:ws:3.0:PartsToCatDLB"><soapenv:Body><tns:getLinkageTargets><tns:provider>demo</tns:provider><tns:linkageTargetIds>{car_id}</tns:linkageTargetIds></tns:getLinkageTargets></soapenv:Body></soapenv:Envelope>"#
    );
    let by_number = s.fetch(
        client()
            .post(format!("{}{DLB}?api_key={DEMO_KEY}", s.base))
            .header("content-type", "text/xml; charset=utf-8")
            .body(bare),
    );
    assert_eq!(by_number.status, 200, "{}", by_number.text());
    assert!(
        by_number
            .text()
            .contains("<tns:vehicleModelSeriesName>GOLF VII"),
        "{}",
        by_number.text()
    );

    // What it cannot honour, refused by name.
    for (fields, field) in [
        (
            json!({"linkageTargetCountry": "DEU"}),
            "linkageTargetCountry",
        ),
        (json!({"linkageTargetType": "X"}), "linkageTargetType"),
        (
            json!({"linkageTargetIds": [{"type": "X", "id": 1}]}),
            "linkageTargetIds",
        ),
        (json!({"perPage": 101}), "perPage"),
        (json!({"page": 0}), "page"),
        (json!({"sort": "description"}), "sort"),
    ] {
        refused(&s, "getLinkageTargets", fields, field);
    }
}

#[test]
fn a_legacy_shop_lists_a_category_then_opens_its_articles() {
    let s = Served::demo(&[]);
    let car_id = 10219;
    let linked = records(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"linkingTargetId": car_id, "linked": true, "childNodes": true}),
    );
    let root = linked.iter().find(|n| n["parentNodeId"].is_null()).unwrap();
    let category = |extra: Value| {
        let mut fields = json!({"linkingTargetId": car_id, "linkingTargetType": "P",
            "articleCountry": "DE", "lang": "de",
            "assemblyGroupNodeId": root["assemblyGroupNodeId"]});
        for (k, v) in extra.as_object().unwrap() {
            fields[k] = v.clone();
        }
        records(&s, "getArticleIdsWithState", fields)
    };

    // The category page: as many parts as the tree counted, by brand then number.
    let parts = category(json!({}));
    assert_eq!(
        Some(parts.len() as u64),
        root["articleCount"].as_u64(),
        "{parts:?}"
    );
    let order: Vec<(String, String)> = parts
        .iter()
        .map(|p| (p["brandName"].to_string(), p["articleNo"].to_string()))
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted);
    assert_eq!(parts[0]["sortNo"], 1);
    // Narrowed by generic article and brand; ordered by generic article.
    let genart = parts[0]["genericArticleId"].clone();
    let brand = parts[0]["brandNo"].clone();
    let narrowed =
        category(json!({"genericArticleId": {"array": [genart]}, "brandNo": {"array": [brand]}}));
    assert!(!narrowed.is_empty() && narrowed.len() < parts.len());
    assert!(
        narrowed
            .iter()
            .all(|p| p["genericArticleId"] == genart && p["brandNo"] == brand)
    );
    let by_genart = category(json!({"sort": 2}));
    let names: Vec<String> = by_genart
        .iter()
        .map(|p| p["genericArticleName"].to_string())
        .collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    // Without a node: every part of the vehicle.
    let every = category(json!({"assemblyGroupNodeId": null}));
    assert!(every.len() > parts.len());

    // The article page: each part by id, with what each flag asks for.
    let ids: Vec<Value> = parts.iter().map(|p| p["articleId"].clone()).collect();
    let flags = json!({"articleId": {"array": ids}, "basicData": true, "attributs": true,
        "documents": true, "eanNumbers": true, "oeNumbers": true, "prices": true,
        "thumbnails": true, "immediateAttributs": false, "immediateInfo": false, "info": false,
        "mainArticles": false, "normalAustauschPrice": false, "replacedByNumbers": false,
        "replacedNumbers": false, "usageNumbers": false, "articleCountry": "DE", "lang": "de"});
    let articles = records(&s, "getDirectArticlesByIds6", flags);
    assert_eq!(articles.len(), parts.len());
    for (article, part) in articles.iter().zip(&parts) {
        let basic = &article["directArticle"];
        assert_eq!(basic["articleId"], part["articleId"]);
        assert_eq!(basic["articleNo"], part["articleNo"]);
        assert_eq!(basic["hasVehicleLink"], true);
        assert!(article["articleAttributes"]["array"].is_array());
        assert!(article.get("mainArticle").is_none(), "{article}");
    }
    assert!(
        articles
            .iter()
            .any(|a| !a["oenNumbers"]["array"].as_array().unwrap().is_empty())
    );
    assert!(
        articles
            .iter()
            .any(|a| !a["eanNumber"]["array"].as_array().unwrap().is_empty())
    );

    // Replacements and kits agree with each other across the demo catalogue's first articles.
    let mut all = Vec::new();
    for first in [1, 101, 201] {
        let ids: Vec<u32> = (first..first + 100).collect();
        all.extend(records(
            &s,
            "getDirectArticlesByIds6",
            json!({"articleId": {"array": ids}, "basicData": true, "mainArticles": true,
                   "replacedByNumbers": true, "replacedNumbers": true, "usageNumbers": true}),
        ));
    }
    let by_id = |id: &Value| all.iter().find(|a| a["directArticle"]["articleId"] == *id);
    let mut replacements = 0;
    for a in &all {
        for newer in a["replacedByNumber"]["array"].as_array().unwrap() {
            let Some(b) = by_id(&newer["replaceArticleId"]) else {
                continue;
            };
            let older = b["replacedNumber"]["array"].as_array().unwrap();
            assert!(
                older
                    .iter()
                    .any(|o| o["replaceArticleId"] == a["directArticle"]["articleId"]),
                "{a} {b}"
            );
            replacements += 1;
        }
    }
    assert!(replacements > 0);
    let kit = all
        .iter()
        .flat_map(|a| a["mainArticle"]["array"].as_array().unwrap())
        .next()
        .unwrap();
    let kit = records(
        &s,
        "getDirectArticlesByIds6",
        json!({"articleId": {"array": [kit["articleId"]]}, "basicData": true}),
    );
    assert_eq!(kit[0]["directArticle"]["hasPartList"], true, "{kit:?}");
    assert!(
        all.iter()
            .any(|a| !a["usageNumbers2"]["array"].as_array().unwrap().is_empty())
    );

    // What the two cannot honour, refused by name.
    for (operation, fields, field) in [
        ("getArticleIdsWithState", json!({}), "linkingTargetId"),
        (
            "getArticleIdsWithState",
            json!({"linkingTargetId": 999999999}),
            "linkingTargetId",
        ),
        (
            "getArticleIdsWithState",
            json!({"linkingTargetId": car_id, "sort": 3}),
            "sort",
        ),
        (
            "getArticleIdsWithState",
            json!({"linkingTargetId": car_id, "linkingTargetType": "O"}),
            "linkingTargetType",
        ),
        (
            "getArticleIdsWithState",
            json!({"linkingTargetId": car_id, "assemblyGroupNodeId": 42}),
            "assemblyGroupNodeId",
        ),
        (
            "getArticleIdsWithState",
            json!({"linkingTargetId": car_id, "articleCountry": "DEU"}),
            "articleCountry",
        ),
        (
            "getDirectArticlesByIds6",
            json!({"articleId": {"array": [1]}, "priceDate": 2026}),
            "priceDate",
        ),
        (
            "getDirectArticlesByIds6",
            json!({"articleId": {"array": (1..=101).collect::<Vec<u32>>()}}),
            "array",
        ),
        ("getAutoCompleteSuggestions", json!({}), "searchQuery"),
        (
            "getAutoCompleteSuggestions",
            json!({"searchQuery": " -- "}),
            "searchQuery",
        ),
    ] {
        refused(&s, operation, fields, field);
    }
}

#[test]
fn a_search_box_is_completed_with_names_then_numbers() {
    let s = Served::demo(&[]);
    let complete = |typed: &str| -> Vec<String> {
        let r = post(
            &s,
            "getAutoCompleteSuggestions",
            json!({"searchQuery": typed, "lang": "de"}),
        );
        let answer = r.json();
        assert_eq!(answer["status"], 200, "{}", r.text());
        serde_json::from_value(answer["suggestions"].clone()).unwrap()
    };
    let names = complete("fil");
    assert!(names.contains(&"Oil Filter".to_owned()), "{names:?}");
    assert!(
        names.iter().all(|n| n.to_lowercase().contains("fil")),
        "{names:?}"
    );
    // A name that starts with the text comes before one with a later word that does.
    let first_later = names
        .iter()
        .position(|n| !n.to_lowercase().starts_with("fil"));
    let last_starting = names
        .iter()
        .rposition(|n| n.to_lowercase().starts_with("fil"));
    if let (Some(later), Some(starting)) = (first_later, last_starting) {
        assert!(starting < later, "{names:?}");
    }
    let numbers = complete("0 986 47");
    assert_eq!(numbers.len(), 20, "{numbers:?}");
    assert!(
        numbers
            .iter()
            .all(|n| n.replace(' ', "").starts_with("098647")),
        "{numbers:?}"
    );
    // What a completion gives, a search finds.
    let found = post(
        &s,
        "getArticles",
        json!({"searchQuery": numbers[0], "searchType": 10}),
    );
    assert!(found.json()["totalMatchingArticles"].as_u64() >= Some(1));
    assert!(complete("zzqx").is_empty());
}

#[test]
fn people_walk_make_series_type_and_category_to_parts_over_svc() {
    let s = Served::demo(&[]);
    let get = |path: &str| -> Value {
        let r = s.get(path);
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        r.json()
    };
    let makes = get("/svc/getVehicleMakes?linkage_target_type=V");
    let makes = makes["makes"].as_array().unwrap();
    assert_eq!(makes.len(), 12);
    let vw = makes.iter().find(|m| m["name"] == "VW").unwrap();
    let series = get(&format!("/svc/getModelSeries/{}", vw["mfrId"]));
    let series = series["modelSeries"].as_array().unwrap();
    let counted: u64 = series
        .iter()
        .map(|s| s["vehicleTypes"].as_u64().unwrap())
        .sum();
    assert_eq!(Some(counted), vw["vehicleTypes"].as_u64());

    // A series' types, a page at a time: every type once.
    let golf = &series[0];
    let mut types = Vec::new();
    for page in 1.. {
        let answer = get(&format!(
            "/svc/getVehicleTypes/{}?per_page=2&page={page}",
            golf["id"]
        ));
        assert_eq!(answer["modelSeries"]["vehicleTypes"], golf["vehicleTypes"]);
        let rows = answer["vehicleTypes"].as_array().unwrap().clone();
        if rows.is_empty() {
            break;
        }
        types.extend(rows);
    }
    assert_eq!(Some(types.len() as u64), golf["vehicleTypes"].as_u64());

    // The vehicle's categories with counts, then one category's parts, page by page.
    let ktype = types[0]["ktype"].as_str().unwrap();
    let groups = get(&format!("/svc/getAssemblyGroups/{ktype}"));
    let groups = groups["assemblyGroups"].as_array().unwrap().clone();
    assert!(groups.iter().all(|g| g["articles"].as_u64() > Some(0)));
    let every = get(&format!("/svc/getAssemblyGroups/{ktype}?linked=false"));
    assert!(every["assemblyGroups"].as_array().unwrap().len() > groups.len());
    let leaf = groups.iter().find(|g| g["hasChildren"] == false).unwrap();
    let mut parts = Vec::new();
    let mut after = String::new();
    loop {
        let page = get(&format!(
            "/svc/getArticlesByKtype/{ktype}?assembly_group={}&limit=2{after}",
            leaf["id"]
        ));
        parts.extend(page["articles"].as_array().unwrap().clone());
        match page["next"].as_str() {
            Some(next) => after = format!("&after={next}"),
            None => break,
        }
    }
    assert_eq!(Some(parts.len() as u64), leaf["articles"].as_u64());
    // The same category with a generic-article filter keeps only that generic article.
    let genart = &parts[0]["genart"];
    let narrowed = get(&format!(
        "/svc/getArticlesByKtype/{ktype}?assembly_group={}&genart={genart}",
        leaf["id"]
    ));
    let narrowed = narrowed["articles"].as_array().unwrap();
    assert!(!narrowed.is_empty() && narrowed.iter().all(|a| a["genart"] == *genart));

    // Unknown ids are 404, bad ones 400 naming the parameter.
    for (path, status, parameter) in [
        ("/svc/getModelSeries/999", 404, None),
        ("/svc/getVehicleTypes/999", 404, None),
        ("/svc/getAssemblyGroups/999999", 404, None),
        (
            "/svc/getVehicleMakes?linkage_target_type=Q",
            400,
            Some("linkage_target_type"),
        ),
        ("/svc/getModelSeries/x", 400, Some("mfr_id")),
        (
            "/svc/getVehicleTypes/101?per_page=101",
            400,
            Some("per_page"),
        ),
        (
            "/svc/getArticlesByKtype/10219?assembly_group=42",
            400,
            Some("assembly_group"),
        ),
    ] {
        let r = s.get(path);
        assert_eq!(r.status, status, "{path}: {}", r.text());
        if let Some(parameter) = parameter {
            assert_eq!(r.json()["parameter"], parameter, "{path}");
        }
    }
}

#[test]
fn fields_the_catalogue_cannot_honour_are_refused_by_name() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_CATALOGUE_COUNTRIES", "DE,AT")]);
    // Any country is answered alike: no vehicle is restricted to some countries.
    assert_eq!(
        records(&s, "getManufacturers2", json!({"country": "FR"})).len(),
        12
    );
    refused(
        &s,
        "getManufacturers2",
        json!({"country": "Germany"}),
        "country",
    );
    // With countryGroupFlag, `country` names a country group, and each is answered alike.
    assert_eq!(
        records(
            &s,
            "getManufacturers2",
            json!({"country": "eea", "countryGroupFlag": true})
        )
        .len(),
        12
    );
    refused(
        &s,
        "getManufacturers2",
        json!({"country": "DE", "countryGroupFlag": true}),
        "country",
    );
    // No provider favours a list of makers of its own: 1 answers every maker, as TecDoc
    // answers a provider without one; what is neither 0 nor 1 is refused.
    assert_eq!(
        records(&s, "getManufacturers2", json!({"favouredList": 1})),
        records(&s, "getManufacturers2", json!({"favouredList": 0}))
    );
    refused(
        &s,
        "getManufacturers2",
        json!({"favouredList": 2}),
        "favouredList",
    );
    refused(
        &s,
        "getManufacturers2",
        json!({"linkingTargetType": "X"}),
        "linkingTargetType",
    );
    assert_eq!(
        records(&s, "getManufacturers2", json!({"country": "at"})).len(),
        12
    );
    refused(
        &s,
        "getManufacturers",
        json!({"favouredList": -1}),
        "favouredList",
    );
    let vehicle_makers = records(&s, "getManufacturers", json!({"linkingTargetType": "P"}));
    assert_eq!(vehicle_makers.len(), 12, "the parts makers are left out");
    assert!(records(&s, "getManufacturers", json!({})).len() > 12);
    let ids = json!({"array": [10219]});
    refused(
        &s,
        "getVehicleByIds3",
        json!({"carIds": ids, "axles": true}),
        "axles",
    );
    refused(
        &s,
        "getVehicleByIds3",
        json!({"carIds": ids, "numberplateType": 2}),
        "numberplateType",
    );
    refused(
        &s,
        "getVehicleByIds3",
        json!({"carIds": ids, "country": "France"}),
        "country",
    );
    refused(
        &s,
        "getGenericArticles",
        json!({"linked": true, "linkingTargetId": "10219", "linkingTargetType": "O"}),
        "linkingTargetType",
    );
    assert_eq!(
        records(
            &s,
            "getArticleLinkedAllLinkingTarget4",
            json!({"articleId": 84, "country": "EU", "countryGroupFlag": true})
        ),
        records(
            &s,
            "getArticleLinkedAllLinkingTarget4",
            json!({"articleId": 84})
        )
    );
    refused(
        &s,
        "getArticleLinkedAllLinkingTarget4",
        json!({"articleId": 84, "country": "DE", "countryGroupFlag": true}),
        "country",
    );
    // A kind narrows an article's vehicle types: the demo's are all passenger cars.
    let of_kind = |kind: &str| {
        let found = records(
            &s,
            "getArticleLinkedAllLinkingTarget4",
            json!({"articleId": 84, "linkingTargetType": kind}),
        );
        found[0]["articleLinkages"]["array"]
            .as_array()
            .unwrap()
            .len()
    };
    assert!(of_kind("P") > 0);
    assert_eq!(of_kind("O"), 0);
    // A plate's vehicle types, narrowed by kind; no pictures of vehicles.
    let plate = json!({"country": "DE", "keySystemNumber": "0696/SZ7"});
    let by_plate = |kind: &str| {
        let mut fields = plate.clone();
        fields["linkingTargetType"] = json!(kind);
        records(&s, "getVehiclesByKeyNumberPlates", fields).len()
    };
    assert!(by_plate("V") > 0);
    assert_eq!(by_plate("O"), 0);
    let mut with_picture = plate.clone();
    with_picture["picture"] = json!(true);
    refused(&s, "getVehiclesByKeyNumberPlates", with_picture, "picture");
    refused(&s, "getModelSeries", json!({}), "manuId");
    refused(&s, "getModelSeries", json!({"manuId": -1}), "manuId");
    refused(
        &s,
        "getVehicleIdsByCriteria",
        json!({"manuId": 1, "fuelTypeId": 3}),
        "fuelTypeId",
    );
    refused(
        &s,
        "getVehicleIdsByCriteria",
        json!({"manuId": 1, "tonnageTo": 3}),
        "tonnageTo",
    );
    refused(
        &s,
        "getVehicleIdsByCriteria",
        json!({"manuId": 1, "yearOfConstruction": 20}),
        "yearOfConstruction",
    );
    refused(
        &s,
        "getVehicleIdsByCriteria",
        json!({"powerFrom": 3}),
        "manuId",
    );
    refused(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"linked": true}),
        "linkingTargetId",
    );
    refused(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"linkingTargetId": 1}),
        "linkingTargetId",
    );
    refused(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"parentNodeId": 42}),
        "parentNodeId",
    );
    refused(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"linkingTargetType": "PO"}),
        "linkingTargetType",
    );
    refused(
        &s,
        "getChildNodesAllLinkingTarget2",
        json!({"articleCountry": "FRA"}),
        "articleCountry",
    );
}

#[test]
fn a_kept_answer_about_makes_and_series_gives_way_to_a_vehicle_import() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = dir.path().join("inbox");
    std::fs::create_dir(&inbox).unwrap();
    // Answers kept (the answer cache is on by default); the import answers once done.
    let s = Served::demo_with_env(
        &["--inbox", common::path(&inbox)],
        &[("PARTSCAT_IMPORT_WAIT_MS", "120000")],
    );
    let counts = || {
        let answer = answered(
            &s,
            "getLinkageTargets",
            json!({"mfrIds": [8], "perPage": 0, "includeVehicleModelSeriesFacets": true}),
        );
        answer["total"].as_u64().unwrap()
    };
    // The vehicle summary read first by another question, so the kept answer reads it ready.
    assert_eq!(s.get("/svc/getVehicleMakes").status, 200);
    let before = counts();
    assert_eq!(counts(), before);
    std::fs::write(
        inbox.join("vehicles.csv"),
        "ktype,make,model,type,engine,fuel,kw,hp,ccm,year_from,year_to,model_series_id,target_type,body_style,construction_type,engine_kind,kw_to,hp_to\n99001,OPEL,INSIGNIA B (Z18),2.0 CDTI,B20DTH,Diesel,125,170,1956,2018-04,,803,passenger_car,Saloon,Saloon,Diesel,,\n",
    )
    .unwrap();
    let r = s.get("/svc/importArticles?fileId=vehicles.csv&importType=vehicles&dryRun=false");
    assert_eq!(r.json()["state"], "succeeded", "{}", r.text());
    assert_eq!(counts(), before + 1);
}
