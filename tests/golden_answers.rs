//! What clients read, held still: the answer of every `/svc` route (lookups, jobs of imports,
//! DMM and syncs) and of every SOAP/JSON operation on the demo catalogue is a golden file
//! (`tests/golden/answers/`), and so are the first lines of exports and of the change feed. A
//! change to an answer's shape fails here until the new file is reviewed and written
//! (`PARTSCAT_UPDATE_GOLDEN=1`); docs/compatibility.md says what may change (answers only gain
//! fields). Values that differ from run to run (dates, keys, addresses, the appliance's
//! version) are masked.

mod common;

use common::server::{DEMO_KEY, Served, client};
use serde_json::{Value, json};

const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";

/// Fields whose values change from one run to the next.
const VOLATILE: [&str; 9] = [
    "apiKey",
    "expiresAt",
    "dataDate",
    "build",
    "updatedAt",
    "validUntil",
    "startedAt",
    "finishedAt",
    "upstream",
];

fn masked(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            for (name, field) in fields.iter_mut() {
                if VOLATILE.contains(&name.as_str()) {
                    *field = json!("<varies>");
                } else {
                    masked(field);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(masked),
        // A media address: its origin is the test server's port, its signature the store's
        // own secret.
        Value::String(text) if text.contains("/ws/3.0/documents/") => {
            let from = text.find("/ws/3.0/").unwrap_or(0);
            let unsigned = text[from..].split("sig=").next().unwrap_or("");
            *text = format!("{{base}}{unsigned}sig=<varies>");
        }
        _ => {}
    }
}

fn golden(name: &str, mut answer: Value) {
    masked(&mut answer);
    let text = serde_json::to_string_pretty(&answer).unwrap() + "\n";
    common::assert_golden(&format!("answers/{name}.json"), &text);
}

/// The `/svc` lookups, each with a path of the demo catalogue. (Kit prices take the list
/// prices valid today: the demo's are valid from 2026-01-01 with no end, so any later day
/// answers the same.)
const LOOKUPS: [(&str, &str); 13] = [
    ("article", "/svc/getCrossRefsOrArticle/0986494958?mainref"),
    (
        "cross_references",
        "/svc/getCrossRefsOrArticle/0986494958?crossrefs",
    ),
    ("articles_by_ktype", "/svc/getArticlesByKtype/10219?limit=5"),
    (
        "articles_by_ktype_and_genart",
        "/svc/getArticlesByKtype/10219?genart=82",
    ),
    (
        "vehicle_makes",
        "/svc/getVehicleMakes?linkage_target_type=P",
    ),
    ("model_series", "/svc/getModelSeries/1"),
    ("vehicle_types", "/svc/getVehicleTypes/101?per_page=2"),
    ("assembly_groups", "/svc/getAssemblyGroups/10219"),
    (
        "articles_by_ktype_and_assembly_group",
        "/svc/getArticlesByKtype/10219?assembly_group=100010&limit=3",
    ),
    ("prices_by_ktype", "/svc/getPricesByKtype/10219?limit=3"),
    ("exhaust_kit", "/svc/e/k/10219"),
    ("kit_price", "/svc/price/3500/1/10219"),
    ("single_prices", "/svc/price/82/0/10219"),
];

/// The exports: their first lines (the whole files are the catalogue's size).
const EXPORTS: [(&str, &str); 6] = [
    ("dmm_manifest", "/svc/DMM?brand_id=2"),
    (
        "export_golda",
        "/svc/exportGolda?brand_id=2&is_csv_export=true",
    ),
    (
        "export_catalogue",
        "/svc/exportCatalogue?brand_id=2&is_csv_export=true",
    ),
    ("export_atc", "/svc/exportAtc?brand_id=2&is_csv_export=true"),
    (
        "export_competitor",
        "/svc/exportRefConcurrente?manufacturer_id=101",
    ),
    (
        "export_competitor_internal",
        "/svc/exportRefConcurrenteInterne?manufacturer_id=101&brand_id=1",
    ),
];

/// One call per SOAP/JSON operation that reads the catalogue.
fn operations() -> Vec<(&'static str, Value)> {
    vec![
        (
            "getArticles",
            json!({"searchQuery": "0986494958", "includeAll": true}),
        ),
        (
            "getArticleDirectSearchAllNumbersWithState",
            json!({"articleNumber": "0986494958", "numberType": 10, "searchExact": true}),
        ),
        (
            "getArticleLinkages",
            json!({"dataSupplierId": 1, "articleNumber": "0986494958"}),
        ),
        ("getLinkageTargets", json!({"linkageTargetIds": ["10219"]})),
        ("getVehicleByIds3", json!({"carIds": {"array": [10219]}})),
        ("getVehicleByIds4", json!({"carIds": {"array": [10219]}})),
        ("getManufacturers2", json!({"linkingTargetType": "P"})),
        (
            "getArticleIdsWithState",
            json!({"linkingTargetId": 10219, "assemblyGroupNodeId": 100010}),
        ),
        (
            "getDirectArticlesByIds6",
            json!({"articleId": {"array": [39, 84]}, "basicData": true, "attributs": true,
                   "documents": true, "eanNumbers": true, "oeNumbers": true, "prices": true,
                   "thumbnails": true, "mainArticles": true, "replacedByNumbers": true,
                   "replacedNumbers": true, "usageNumbers": true, "info": true}),
        ),
        (
            "getAutoCompleteSuggestions",
            json!({"searchQuery": "brake"}),
        ),
        ("getModelSeries", json!({"manuId": 2})),
        (
            "getModelSeries2",
            json!({"manuId": 2, "linkingTargetType": "P"}),
        ),
        (
            "getVehicleIdsByCriteria",
            json!({"modId": 201, "powerFrom": 100, "powerHpType": true}),
        ),
        (
            "getChildNodesAllLinkingTarget2",
            json!({"linkingTargetId": 10219, "linked": true, "childNodes": true}),
        ),
        (
            "getVehiclesByKeyNumberPlates",
            json!({"country": "DE", "keySystemNumber": "0603/BJQ", "keySystemType": 0}),
        ),
        ("getBrands", json!({})),
        ("getAmBrands", json!({})),
        ("getGenericArticles", json!({})),
        ("getManufacturers", json!({})),
        ("getLanguages", json!({})),
        ("getCountries", json!({})),
        ("getPricesByKtype", json!({"linkageTargetId": "10219"})),
        (
            "getKitPrice",
            json!({"genericArticleId": 82, "isKit": false, "linkageTargetId": "10219"}),
        ),
        ("getExhaustKitPrice", json!({"linkageTargetId": "10219"})),
        ("getVersionInfo", json!({})),
    ]
}

#[test]
fn every_answer_is_the_reviewed_one() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = dir.path().join("inbox");
    std::fs::create_dir(&inbox).unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/assets/samples/prices.csv"),
        inbox.join("prices.csv"),
    )
    .unwrap();
    // The import answers once its job has finished (a long wait: the answer must not depend
    // on how busy the machine is).
    let s = Served::demo_with_env(
        &["--inbox", common::path(&inbox)],
        &[("PARTSCAT_IMPORT_WAIT_MS", "120000")],
    );
    // A job's answer, as it is started and as it is polled.
    let r = s.get("/svc/importArticles?fileId=prices.csv&importType=prices&dryRun=true");
    assert_eq!(r.status, 200, "{}", r.text());
    golden("svc_import_dry_run", r.json());
    let r = s.get("/svc/jobs/1");
    assert_eq!(r.status, 200, "{}", r.text());
    golden("svc_job", r.json());
    for (name, path) in LOOKUPS {
        let r = s.get(path);
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        golden(&format!("svc_{name}"), r.json());
    }
    for (name, path) in EXPORTS {
        let r = s.get(path);
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        let text = r.text();
        let head: Vec<&str> = text.lines().take(4).collect();
        golden(&format!("svc_{name}"), json!(head));
    }
    // A brand's media package (without downloads or publishing: what the store holds).
    let r = s.get("/svc/apiDMM?brand_id=2");
    assert_eq!(r.status, 200, "{}", r.text());
    golden("svc_api_dmm", r.json());
    for (operation, fields) in operations() {
        golden(
            &format!("json_{operation}"),
            json_call(&s, operation, fields),
        );
    }
    for (operation, fields) in linked_target_operations(&s) {
        golden(
            &format!("json_{operation}"),
            json_call(&s, operation, fields),
        );
    }
    // A shop's vehicle selector: the makes, then a page of a model series' types.
    for (name, fields) in [
        (
            "makes",
            json!({"linkageTargetType": "V", "perPage": 0, "includeMfrFacets": true}),
        ),
        (
            "series_page",
            json!({"mfrIds": 2, "vehicleModelSeriesIds": [201], "perPage": 2, "page": 2,
                   "includeVehicleModelSeriesFacets": true}),
        ),
    ] {
        golden(
            &format!("json_getLinkageTargets_{name}"),
            json_call(&s, "getLinkageTargets", fields),
        );
    }
    for (operation, fields) in [
        (
            "addDynamicAddress",
            json!({"address": "127.0.0.9", "validityHours": 1}),
        ),
        ("addDynamicAPIKey", json!({"validityHours": 1})),
    ] {
        golden(
            &format!("json_{operation}"),
            json_call(&s, operation, fields),
        );
    }
}

/// A JSON call of the DLB endpoint as the demo provider, which must succeed.
fn json_call(s: &Served, operation: &str, mut fields: Value) -> Value {
    fields["provider"] = json!("demo");
    let r = s.fetch(
        client()
            .post(format!("{}{DLB_JSON}?api_key={DEMO_KEY}", s.base))
            .json(&json!({ operation: fields })),
    );
    assert_eq!(r.status, 200, "{operation}: {}", r.text());
    let answer = r.json();
    assert_eq!(answer["status"], 200, "{operation}: {answer}");
    answer
}

/// The vehicle links of an article by its numeric id, and two of them by their link ids, as
/// a Pegasus client asks for them (each takes ids the one before answered).
fn linked_target_operations(s: &Served) -> Vec<(&'static str, Value)> {
    let found = json_call(
        s,
        "getArticles",
        json!({"searchQuery": "0986494958", "includeGenericArticles": true}),
    );
    let article_id = found["articles"][0]["genericArticles"][0]["legacyArticleId"].clone();
    let linked = json!({"articleId": article_id, "linkingTargetType": "P"});
    let links = json_call(s, "getArticleLinkedAllLinkingTarget4", linked.clone());
    let pairs: Vec<Value> = links["data"]["array"][0]["articleLinkages"]["array"]
        .as_array()
        .unwrap()
        .iter()
        .take(2)
        .map(|l| json!({"articleLinkId": l["articleLinkId"], "linkingTargetId": l["linkingTargetId"]}))
        .collect();
    assert_eq!(pairs.len(), 2, "{links}");
    vec![
        ("getArticleLinkedAllLinkingTarget4", linked),
        (
            "getArticleLinkedAllLinkingTargetsByIds3",
            json!({"articleId": article_id, "linkingTargetType": "P",
                   "immediateAttributs": true, "linkedArticlePairs": {"array": pairs}}),
        ),
    ]
}

/// The answers that need a second appliance: a downstream's syncTecdoc, in full and then
/// incrementally, and the upstream's change feed between them, after a merge of the sample
/// prices.
#[test]
fn the_sync_and_change_feed_answers_are_the_reviewed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = dir.path().join("inbox");
    std::fs::create_dir(&inbox).unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/assets/samples/prices.csv"),
        inbox.join("prices.csv"),
    )
    .unwrap();
    // Jobs answer once they have finished (a long wait, for busy machines).
    let wait = ("PARTSCAT_IMPORT_WAIT_MS", "120000");
    let demo = ["--demo", "--demo-key", DEMO_KEY];
    let up = Served::start_with_env(
        &dir.path().join("up"),
        &[&demo[..], &["--inbox", common::path(&inbox)]].concat(),
        &[wait],
    );
    let down = Served::start_with_env(
        &dir.path().join("down"),
        &demo,
        &[
            wait,
            ("PARTSCAT_SYNC_UPSTREAM", &up.base),
            ("PARTSCAT_SYNC_PROVIDER", "demo"),
            ("PARTSCAT_SYNC_API_KEY", DEMO_KEY),
        ],
    );
    let answered = |s: &Served, path: &str| {
        let r = s.get(path);
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        r
    };
    golden(
        "svc_sync_refresh",
        answered(&down, "/svc/syncTecdoc?importType=all&refresh=true").json(),
    );
    let import = answered(
        &up,
        "/svc/importArticles?fileId=prices.csv&importType=prices&dryRun=false",
    )
    .json();
    assert_eq!(import["state"], "succeeded", "{import}");
    for (name, path) in [
        ("changes", "/svc/changes?since=1&importType=prices"),
        ("changes_in_full", "/svc/changes?importType=prices"),
    ] {
        let text = answered(&up, path).text();
        let head: Vec<&str> = text.lines().take(4).collect();
        golden(&format!("svc_{name}"), json!(head));
    }
    golden(
        "svc_sync_incremental",
        answered(&down, "/svc/syncTecdoc?importType=prices&refresh=false").json(),
    );
}
