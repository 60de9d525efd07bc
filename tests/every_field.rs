//! No silent no-ops: every field of every operation's request type (read from the schema the
//! server publishes) either changes the answer or is refused with 400 naming it. Each field is
//! tried on a request that works, with values of its type (or the values a field needs to
//! show its effect); a field none of whose values changes the answer fails the test.
//! `provider` names the caller; `lang` is tried as German, which the demo holds in full; the
//! grant operations answer fresh keys each call and are tested on their own
//! (tests/end_user_rights.rs).

mod common;

use std::collections::HashMap;

use common::server::{DEMO_KEY, Served, client};
use quick_xml::events::Event;
use quick_xml::reader::Reader;
use serde_json::{Value, json};

const DLB: &str = "/ws/3.0/services/PartsToCatDLB";

/// Each request type's fields (name, XSD type).
type Fields = HashMap<String, Vec<(String, String)>>;

/// Each request type's fields, and each operation's request type.
fn schema(xsd: &str) -> (Fields, HashMap<String, String>) {
    let mut reader = Reader::from_str(xsd);
    let mut types: Fields = HashMap::new();
    let mut operations = HashMap::new();
    let mut current: Option<String> = None;
    // Start tags open; empty elements do not.
    let mut depth = 0;
    loop {
        let event = reader.read_event().unwrap();
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let attr = |name: &str| {
                    e.try_get_attribute(name)
                        .unwrap()
                        .map(|a| a.value.into_owned())
                };
                match (e.name().as_ref(), &current) {
                    ("xs:complexType", _) => current = attr("name"),
                    ("xs:element", Some(c)) => {
                        if let (Some(n), Some(t)) = (attr("name"), attr("type")) {
                            types.entry(c.clone()).or_default().push((n, t));
                        }
                    }
                    ("xs:element", None) if depth == 1 => {
                        if let (Some(n), Some(t)) = (attr("name"), attr("type")) {
                            operations.insert(n, t.trim_start_matches("tns:").to_owned());
                        }
                    }
                    _ => {}
                }
                if matches!(event, Event::Start(_)) {
                    depth += 1;
                }
            }
            Event::End(e) => {
                depth -= 1;
                if e.name().as_ref() == "xs:complexType" {
                    current = None;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    (types, operations)
}

fn call(s: &Served, operation: &str, fields: &Value) -> Value {
    let mut fields = fields.clone();
    fields["provider"] = json!("demo");
    let r = s.fetch(
        client()
            .post(format!("{}{DLB}.jsonEndpoint?api_key={DEMO_KEY}", s.base))
            .json(&json!({ operation: fields })),
    );
    let mut answer = r.json();
    // What differs call by call whatever is asked.
    if let Some(map) = answer.as_object_mut() {
        map.remove("dataVersion");
    }
    answer
}

/// A request that works, per operation, and where a field shows its effect only on another,
/// that one for the field.
fn base(operation: &str, field: &str) -> Value {
    // The flag says the request's country is a country group: shown on a country.
    if field == "countryGroupFlag" {
        let mut request = base(operation, "");
        let place = match operation {
            "getVehicleByIds3"
            | "getVehicleByIds4"
            | "getVehicleIdsByCriteria"
            | "getVehicleIdsByMotor2" => "countriesCarSelection",
            _ => "country",
        };
        request[place] = json!("DE");
        return request;
    }
    match (operation, field) {
        ("getArticles", "searchMatchType") => return json!({"searchQuery": "0986478"}),
        ("getArticles", "linkagesPerPage") => {
            return json!({"searchQuery": "0986478849", "includeLinkages": true});
        }
        ("getArticles", "linkagesPage") => {
            return json!({"searchQuery": "0986478849", "includeLinkages": true, "linkagesPerPage": 1});
        }
        ("getArticles", "includePartsListArticles") => return json!({"searchQuery": "0986A45240"}),
        ("getArticles", "includePDFs") => return json!({"searchQuery": "345526"}),
        ("getArticleDirectSearchAllNumbersWithState", "searchExact") => {
            return json!({"articleNumber": "478379"});
        }
        ("getChildNodesAllLinkingTarget2", "linked") => {
            return json!({"linkingTargetId": 10219, "childNodes": true});
        }
        ("getDirectArticlesByIds6" | "getDirectArticlesByIds7", "basicData") => {
            return json!({"articleId": {"array": [39]}});
        }
        ("getDirectArticlesByIds6" | "getDirectArticlesByIds7", "priceDate") => {
            return json!({"articleId": {"array": [39]}, "prices": true});
        }
        // The kind of the vehicle type asked, which only a Ktype asked names.
        ("getArticlePartList", "linkingTargetType") => {
            return json!({"articleId": 610, "linkingTargetId": 10219});
        }
        ("getShortCuts2", "linkingTargetId") => {
            return json!({"linked": true, "linkingTargetId": 10219});
        }
        ("getGenericArticles", "linkingTargetId") => {
            return json!({"linked": true, "linkingTargetId": 10219});
        }
        ("getVehicleIdsByCriteria", "powerHpType") => {
            return json!({"manuId": 2, "powerFrom": 100});
        }
        ("getMotorIdsByManuIdCriteria2", "powerHpType") => {
            return json!({"manuId": 2, "motorCode": "CHZD", "powerFrom": 80});
        }
        ("getMotorIdsByManuIdCriteria2", "searchExactCode") => {
            return json!({"manuId": 2, "motorCode": "CH"});
        }
        // Where the answer shows a text only when asked for.
        ("getArticleLinkedAllLinkingTargetsByIds3", "lang") => {
            return json!({"articleId": 84, "immediateAttributs": true,
                "linkedArticlePairs": {"array": [{"articleLinkId": 360777263083i64, "linkingTargetId": 10219}]}});
        }
        ("getVehiclesByKeyNumberPlates", "lang") => {
            return json!({"country": "DE", "keySystemNumber": "0696/SZ7", "details": true});
        }
        // The demo's maker 4 has model series whose names are words (`C-KLASSE`).
        ("getModelSeries" | "getModelSeries2", "lang") => return json!({"manuId": 4}),
        // A VIN of its C-CLASS 3.0 d.
        ("getVehiclesByVIN", "lang") => return json!({"vin": "WDD3RGY0XGA000001"}),
        _ => {}
    }
    match operation {
        // Many articles, so that every include flag and the paging have something to show.
        "getArticles" => {
            json!({"searchQuery": "0986478", "searchMatchType": "prefix", "perPage": 100})
        }
        "getArticleDirectSearchAllNumbersWithState" => json!({"articleNumber": "0986478379"}),
        "getVehicleByIds3" | "getVehicleByIds4" => json!({"carIds": {"array": [10219]}}),
        "getArticleLinkages" => json!({"dataSupplierId": 1, "articleNumber": "0986478849"}),
        "getArticleLinkedAllLinkingTarget4"
        | "getArticleLinkedAllLinkingTarget3"
        | "getArticleLinkedAllLinkingTargetManufacturer"
        | "getArticleLinkedAllLinkingTargetManufacturer2" => json!({"articleId": 84}),
        "getArticleLinkedAllLinkingTargetsByIds3" => json!({"articleId": 84,
            "linkedArticlePairs": {"array": [{"articleLinkId": 360777263083i64, "linkingTargetId": 10219}]}}),
        "getVehiclesByKeyNumberPlates" => json!({"country": "DE", "keySystemNumber": "0696/SZ7"}),
        "getLinkageTargets" => json!({"mfrIds": [2], "perPage": 3}),
        "getModelSeries" | "getModelSeries2" => json!({"manuId": 2}),
        "getVehicleIdsByCriteria" => json!({"manuId": 2}),
        "getChildNodesAllLinkingTarget2" => json!({"linkingTargetId": 10219}),
        "getArticleIdsWithState" => json!({"linkingTargetId": 10219}),
        "getDirectArticlesByIds6" | "getDirectArticlesByIds7" => {
            json!({"articleId": {"array": [39]}, "basicData": true})
        }
        // The demo's kit 0 986 A45 240.
        "getArticlePartList" => json!({"articleId": 610}),
        "getAutoCompleteSuggestions" => json!({"searchQuery": "fil"}),
        // The demo's key table of shock absorber types.
        "getKeyValues" => json!({"keyTableId": 1}),
        "getAmBrandAddress" => json!({"brandNo": 1}),
        // The demo's AUDI A3 Sportback 1.0 TSI.
        "getVehiclesByVIN" | "getOEArticlesByVIN" => json!({"vin": "WAUKSK2X5MA123456"}),
        // The demo's AUDI engine CHZD, and its number.
        "getMotorIdsByManuIdCriteria2" => json!({"manuId": 2, "motorCode": "CHZD"}),
        "getVehicleIdsByMotor2" => json!({"motorId": 6496379095573538i64}),
        "getPricesByKtype" | "getExhaustKitPrice" => json!({"linkageTargetId": "10219"}),
        "getKitPrice" => {
            json!({"genericArticleId": 82, "isKit": false, "linkageTargetId": "10219"})
        }
        _ => json!({}),
    }
}

/// Values that show a field's effect where its type's own values cannot.
fn probes(operation: &str, field: &str, xsd_type: &str) -> Vec<Value> {
    let special = match (operation, field) {
        // Every article and vehicle is valid in every country (the catalogue restricts
        // none), so any country code is answered alike; the field is read all the same, and
        // a value that is no country code is refused by name.
        (_, "articleCountry" | "linkageTargetCountry" | "country" | "countriesCarSelection") => {
            vec![json!("FR"), json!("Hungary")]
        }
        (_, "linkingTargetType" | "linkageTargetType" | "carType" | "assemblyGroupType") => {
            vec![json!("O"), json!("X")]
        }
        ("getArticles", "searchQuery") => vec![json!("0986494958")],
        ("getArticles", "legacyArticleIds") => vec![json!([84])],
        ("getArticles", "dataSupplierIds") => vec![json!([2])],
        ("getArticles", "genericArticleIds") => vec![json!([7])],
        ("getArticles", "assemblyGroupNodeIds") => vec![json!([100100])],
        ("getArticles", "linkageTargetId") => vec![json!("10536")],
        ("getArticles", "searchMatchType") => vec![json!("prefix")],
        ("getArticles", "linkagesPerPage") => vec![json!(1)],
        ("getArticles", "linkagesPage") => vec![json!(2)],
        ("getArticles", "searchType") => vec![json!(1)],
        ("getArticles", "cursor") => vec![json!("???")],
        ("getArticles", "sort") => vec![json!([{"field": "mfrName", "direction": "desc"}])],
        ("getArticles", "criteriaFilters") => vec![json!([{"criteriaId": 1, "rawValue": "1"}])],
        ("getArticles", "perPage") => vec![json!(5)],
        ("getArticles", "page") => vec![json!(2)],
        (_, "assemblyGroupFacetOptions") => vec![json!({"enabled": true})],
        ("getArticleDirectSearchAllNumbersWithState", "articleNumber") => vec![json!("0986494958")],
        ("getArticleDirectSearchAllNumbersWithState", "brandId") => vec![json!(2)],
        ("getArticleDirectSearchAllNumbersWithState", "genericArticleId") => vec![json!(7)],
        ("getArticleDirectSearchAllNumbersWithState", "searchExact") => vec![json!(false)],
        ("getArticleDirectSearchAllNumbersWithState", "numberType") => vec![json!(0), json!(1)],
        (_, "carIds") => vec![json!({"array": [10536]})],
        ("getArticleLinkages", "articleNumber") => vec![json!("0986494958")],
        ("getArticleLinkages", "dataSupplierId") => vec![json!(2)],
        (_, "articleId") if operation.starts_with("getDirectArticlesByIds") => {
            vec![json!({"array": [84]})]
        }
        (_, "articleId") => vec![json!(39)],
        // The kit's link to a vehicle type it holds no components for: 610 × 2³² + 10536.
        ("getArticlePartList", "articleLinkId") => vec![json!(2619930061096i64)],
        (_, "linkingTargetId" | "linkageTargetId") => vec![json!(10536), json!("10536")],
        (_, "linkingTargetManuId") => vec![json!(3)],
        ("getArticleLinkedAllLinkingTargetsByIds3", "linkedArticlePairs") => {
            vec![json!({"array": []})]
        }
        ("getVehiclesByKeyNumberPlates", "keySystemNumber") => vec![json!("ZZ99ZZZ")],
        ("getVehiclesByKeyNumberPlates", "keySystemType") => vec![json!(7)],
        ("getLinkageTargets", "linkageTargetIds") => vec![json!([10219])],
        ("getLinkageTargets", "mfrIds") => vec![json!([3])],
        ("getLinkageTargets", "vehicleModelSeriesIds") => vec![json!([201])],
        ("getLinkageTargets", "mfrName") => vec![json!("BMW")],
        ("getLinkageTargets", "page") => vec![json!(2)],
        (_, "manuId") => vec![json!(3)],
        (_, "modId") => vec![json!(202)],
        ("getVehicleIdsByCriteria", "modelDescription") => vec![json!("TDI")],
        ("getVehicleIdsByCriteria", "yearOfConstruction") => vec![json!(1995)],
        ("getVehicleIdsByCriteria", "powerHpType") => vec![json!(true)],
        ("getChildNodesAllLinkingTarget2", "parentNodeId") => vec![json!(100001)],
        ("getArticleIdsWithState", "assemblyGroupNodeId") => vec![json!(100100)],
        ("getArticleIdsWithState", "brandNo") => vec![json!({"array": [2]})],
        ("getArticleIdsWithState", "genericArticleId") => vec![json!({"array": [82]})],
        ("getArticleIdsWithState", "sort") => vec![json!(2)],
        ("getDirectArticlesByIds6" | "getDirectArticlesByIds7", "priceDate") => {
            vec![json!(20000101)]
        }
        ("getAutoCompleteSuggestions", "searchQuery") => vec![json!("brake")],
        ("getGenericArticles", "linked") => vec![json!(true)],
        ("getBrands" | "getAmBrands", "dataSupplierId") => vec![json!(2)],
        ("getAmBrandAddress", "brandNo") => vec![json!(2)],
        // The demo names one type per VIN: tests/tecdoc_calls.rs shows the bound on several.
        ("getVehiclesByVIN", "maxVehiclesToReturn") => vec![json!(-1)],
        ("getKitPrice", "genericArticleId") => vec![json!(402)],
        ("getOEArticlesByVIN", "aftermarketDataSupplierIds") => vec![json!([2])],
        ("getOEArticlesByVIN", "genericArticleIds") => vec![json!([7])],
        ("getOEArticlesByVIN", "assemblyGroupNodeIds") => vec![json!([100100])],
        ("getOEArticlesByVIN", "sort") => {
            vec![json!([{"field": "articleNumber", "direction": "desc"}])]
        }
        ("getOEArticlesByVIN", "perPage") => vec![json!(1)],
        // A language the demo holds in full: every text of the answer in German.
        (_, "lang") => vec![json!("de")],
        _ => Vec::new(),
    };
    if !special.is_empty() {
        return special;
    }
    match xsd_type {
        "xs:boolean" => vec![json!(true), json!(false)],
        "xs:string" => vec![json!("X")],
        t if t.starts_with("xs:") => vec![json!(1), json!(2), json!(1000)],
        _ => Vec::new(),
    }
}

#[test]
fn every_accepted_field_changes_the_answer_or_is_refused_by_name() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_CATALOGUE_COUNTRIES", "DE,AT")]);
    let xsd = s
        .fetch(client().get(format!("{}{DLB}.soapEndpoint?xsd=1", s.base)))
        .text();
    let (types, operations) = schema(&xsd);
    let mut silent = Vec::new();
    let mut walked = 0;
    let mut names: Vec<&String> = operations.keys().collect();
    names.sort();
    for operation in names {
        if matches!(operation.as_str(), "addDynamicAddress" | "addDynamicAPIKey") {
            continue;
        }
        for (field, xsd_type) in &types[&operations[operation.as_str()]] {
            if field == "provider" {
                continue;
            }
            walked += 1;
            let request = &base(operation, field);
            let before = call(&s, operation, request);
            assert_eq!(before["status"], 200, "{operation}.{field}: {before}");
            let honoured = probes(operation, field, xsd_type).into_iter().any(|value| {
                let mut asked = request.clone();
                asked[field.as_str()] = value;
                let after = call(&s, operation, &asked);
                let refused = after["status"] == 400
                    && after["statusText"]
                        .as_str()
                        .is_some_and(|t| t.contains(&format!("'{field}'")));
                // Another answer, or another status than a refusal naming some other field.
                refused || (after["status"] != 400 && after != before)
            });
            if !honoured {
                silent.push(format!("{operation}.{field}"));
            }
        }
    }
    assert!(walked > 150, "{walked} fields walked");
    assert_eq!(silent, TAKEN_WITHOUT_EFFECT, "fields taken and ignored");
}

/// The fields no value of which changes an answer on the demo catalogue, and why that is
/// their definition rather than a field ignored.
const TAKEN_WITHOUT_EFFECT: [&str; 25] = [
    // Every detail partscat keeps of a brand is always answered; logos are included where
    // the catalogue keeps them, and it keeps none.
    "getAmBrandAddress.lang",
    "getAmBrands.lang",
    "getAmBrands.includeAll",
    "getAmBrands.includeDataSupplierLogo",
    "getArticleLinkedAllLinkingTarget3.lang",
    "getArticleLinkedAllLinkingTarget4.lang",
    // Links are included where the catalogue keeps them (`links`, always there): it keeps
    // none.
    "getArticles.includeLinks",
    "getBrands.lang",
    "getBrands.includeAll",
    "getBrands.includeDataSupplierLogo",
    "getManufacturers.lang",
    "getManufacturers2.lang",
    "getMotorIdsByManuIdCriteria2.lang",
    "getVehicleIdsByCriteria.lang",
    "getVehicleIdsByMotor2.lang",
    // `lang` above: answers of proper names (brands, makes, vehicle types) and ids only,
    // which read the same in every language.
    // A plate service's credentials: partscat is its own plate service and needs none.
    "getVehiclesByKeyNumberPlates.companyName",
    "getVehiclesByKeyNumberPlates.endCustomerPassword",
    "getVehiclesByKeyNumberPlates.endCustomerUsername",
    "getVehiclesByKeyNumberPlates.idKey",
    "getVehiclesByKeyNumberPlates.initials",
    // The demo's plates name no kinds, which match any; tests/tecdoc_requests.rs shows the
    // field on plates that do.
    "getVehiclesByKeyNumberPlates.keySystemType",
    "getVehiclesByKeyNumberPlates.mandatorPassword",
    "getVehiclesByKeyNumberPlates.mandatorUsername",
    "getVehiclesByKeyNumberPlates.productId",
    "getVehiclesByKeyNumberPlates.serviceName",
];
