//! What clients read, held still: the answer of every `/svc` lookup, of an import job and of
//! every SOAP/JSON operation on the demo catalogue is a golden file (`tests/golden/answers/`),
//! and so are an export's first lines. A change to an answer's shape fails here until the new file is
//! reviewed and written (`PARTSCAT_UPDATE_GOLDEN=1`); docs/compatibility.md says what may
//! change (answers only gain fields). Values that differ from run to run (dates, keys, the
//! appliance's version) are masked.

mod common;

use common::server::{DEMO_KEY, Served, client};
use serde_json::{Value, json};

const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";

/// Fields whose values change from one run to the next.
const VOLATILE: [&str; 8] = [
    "apiKey",
    "expiresAt",
    "dataDate",
    "build",
    "updatedAt",
    "validUntil",
    "startedAt",
    "finishedAt",
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
const LOOKUPS: [(&str, &str); 8] = [
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
    for (operation, fields) in operations() {
        let mut fields = fields;
        fields["provider"] = json!("demo");
        let r = s.fetch(
            client()
                .post(format!("{}{DLB_JSON}?api_key={DEMO_KEY}", s.base))
                .json(&json!({ operation: fields })),
        );
        assert_eq!(r.status, 200, "{operation}: {}", r.text());
        let answer = r.json();
        assert_eq!(answer["status"], 200, "{operation}: {answer}");
        golden(&format!("json_{operation}"), answer);
    }
}
