//! A provider limited to some brands sees nothing of the others' articles, even where an
//! article of its own brands is made of them: a kit's components.

mod common;

use common::path;
use common::server::{Served, client};
use serde_json::{Value, json};

/// The sample catalogue, its brand-1 brake set (generic article 3500 for Ktype 10219) also
/// holding brand 2's oil filter, served.
fn cross_brand_kit() -> (Served, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir(&files).unwrap();
    let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/samples");
    for entry in std::fs::read_dir(samples).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), files.join(entry.file_name())).unwrap();
    }
    let mut kits = std::fs::read_to_string(files.join("kits.csv")).unwrap();
    kits.push_str("1,0 986 A45 240,10219,2,W 121/86,1\n");
    std::fs::write(files.join("kits.csv"), kits).unwrap();
    let data = dir.path().join("data");
    let (ok, report) = common::import(&data, &[path(&files)]);
    assert!(ok, "{report}");
    (Served::start(&data, &[]), dir)
}

fn kit_price(s: &Served, name: &str, key: &str) -> (Value, Value) {
    let svc = s.fetch(
        client()
            .get(format!("{}/svc/price/3500/1/10219?provider={name}", s.base))
            .header("X-Api-Key", key),
    );
    assert_eq!(svc.status, 200, "{}", svc.text());
    let pegasus = s.fetch(
        client()
            .post(format!(
                "{}/ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key={key}",
                s.base
            ))
            .json(&json!({"getKitPrice": {
                "provider": name, "genericArticleId": 3500, "isKit": true,
                "linkageTargetId": "10219"
            }})),
    );
    assert_eq!(pegasus.status, 200, "{}", pegasus.text());
    (svc.json(), pegasus.json())
}

fn components(answer: &Value) -> Vec<(u64, String)> {
    answer["kits"][0]["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let a = &c["article"];
            (
                a["brandId"].as_u64().unwrap(),
                a["reference"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_kit_shows_a_restricted_provider_only_the_components_of_its_brands() {
    let (s, _dir) = cross_brand_kit();
    let every = common::provider_key(&s.data, "every", &[]);
    let brand_one = common::provider_key(&s.data, "brand-one", &["--brands", "1"]);

    for answer in [
        kit_price(&s, "every", &every).0,
        kit_price(&s, "every", &every).1,
    ] {
        assert!(
            components(&answer).contains(&(2, "W 121/86".into())),
            "a provider of every brand sees the whole kit: {answer}"
        );
        assert_eq!(answer["kits"][0]["source"], "components", "{answer}");
    }
    let (svc, pegasus) = kit_price(&s, "brand-one", &brand_one);
    for answer in [svc, pegasus] {
        let shown = components(&answer);
        assert!(
            !shown.is_empty() && shown.iter().all(|(brand, _)| *brand == 1),
            "{answer}"
        );
        let text = answer.to_string();
        for word in ["W 121/86", "Norvik", "Oil Filter"] {
            assert!(
                !text.contains(word),
                "{word} shown to brand 1's provider: {text}"
            );
        }
        // Without the hidden component's price the kit has no sum to give.
        let kit = &answer["kits"][0];
        assert_eq!(kit["source"], "incomplete", "{answer}");
        assert!(kit["amount"].is_null(), "{answer}");
    }
}
