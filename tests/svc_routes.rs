//! An integrating developer calls every `/svc` route of the demo appliance through a real
//! socket: the happy paths, and every invalid input the service description names.

mod common;

use common::server::{DEMO_KEY, Served, client};
use serde_json::Value;

fn demo() -> Served {
    Served::demo(&[])
}

/// A problem+json answer with this status that names the parameter.
fn assert_problem(s: &Served, path: &str, status: u16, parameter: Option<&str>) -> Value {
    let r = s.get(path);
    assert_eq!(r.status, status, "{path}: {}", r.text());
    assert_eq!(
        r.header("content-type"),
        "application/problem+json",
        "{path}"
    );
    let body = r.json();
    assert_eq!(body["status"], status, "{path}");
    assert!(!body["detail"].as_str().unwrap_or("").is_empty(), "{path}");
    if let Some(p) = parameter {
        assert_eq!(body["parameter"], p, "{path}: {body}");
        assert!(
            body["detail"].as_str().unwrap().contains(p),
            "{path}: {body}"
        );
    }
    body
}

#[test]
fn an_article_is_found_by_its_reference_however_it_is_written() {
    let s = demo();
    for written in ["0 986 494 958", "0986494958", "0986-494.958", "0986 494958"] {
        let r = s.get(&format!("/svc/getCrossRefsOrArticle/{written}?mainref"));
        assert_eq!(r.status, 200, "{written}: {}", r.text());
        let body = r.json();
        let articles = body["articles"].as_array().unwrap();
        assert_eq!(articles.len(), 1);
        let a = &articles[0];
        assert_eq!(a["reference"], "0 986 494 958");
        assert_eq!(a["brandId"], 1);
        assert_eq!(a["genart"], 402);
        assert!(!a["eans"].as_array().unwrap().is_empty());
        assert!(!a["prices"].as_array().unwrap().is_empty());
        assert!(!a["criteria"].as_array().unwrap().is_empty());
        assert!(
            a["numbers"]
                .as_array()
                .unwrap()
                .iter()
                .any(|n| n["kind"] == "oe" && n["number"] == "2800 67 91")
        );
    }
    assert_problem(
        &s,
        "/svc/getCrossRefsOrArticle/NOSUCHREF?mainref",
        404,
        None,
    );
}

#[test]
fn a_reference_with_a_slash_is_found_with_the_slash_as_is_or_encoded() {
    let s = demo();
    for written in ["W%20121/86", "W%20121%2F86", "W12186"] {
        let r = s.get(&format!("/svc/getCrossRefsOrArticle/{written}?mainref"));
        assert_eq!(r.status, 200, "{written}: {}", r.text());
        assert_eq!(
            r.json()["articles"][0]["reference"],
            "W 121/86",
            "{written}"
        );
    }
    // Everything after the route's name is the reference, a trailing slash too.
    let r = s.get("/svc/getCrossRefsOrArticle/W%20121/86/?crossrefs");
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["reference"], "W 121/86/");
}

#[test]
fn cross_references_run_both_ways() {
    let s = demo();
    // From the maker's reference to its OE and competitor numbers.
    let body = s
        .get("/svc/getCrossRefsOrArticle/0986494958?crossrefs")
        .json();
    let refs = body["crossReferences"].as_array().unwrap();
    assert!(refs.iter().all(|x| x["direction"] == "from_article"));
    assert!(
        refs.iter()
            .any(|x| x["kind"] == "oe" && x["number"] == "2800 67 91")
    );
    assert!(
        refs.iter()
            .any(|x| x["kind"] == "competitor" && x["manufacturerId"] == 102)
    );

    // From an OE number back to the maker's article.
    let back = s
        .get("/svc/getCrossRefsOrArticle/2800%2067%2091?crossrefs=1")
        .json();
    let refs = back["crossReferences"].as_array().unwrap();
    assert!(
        refs.iter()
            .any(|x| x["direction"] == "to_article" && x["articleReference"] == "0 986 494 958")
    );
    assert_problem(&s, "/svc/getCrossRefsOrArticle/ZZZ999?crossrefs", 404, None);
}

#[test]
fn mainref_and_crossrefs_exclude_each_other() {
    let s = demo();
    let both = assert_problem(
        &s,
        "/svc/getCrossRefsOrArticle/0986494958?mainref&crossrefs",
        400,
        Some("mainref"),
    );
    assert!(both["detail"].as_str().unwrap().contains("crossrefs"));
    let neither = assert_problem(
        &s,
        "/svc/getCrossRefsOrArticle/0986494958",
        400,
        Some("mainref"),
    );
    assert!(neither["detail"].as_str().unwrap().contains("crossrefs"));
}

#[test]
fn articles_and_prices_by_ktype() {
    let s = demo();
    let body = s.get("/svc/getArticlesByKtype/10219").json();
    assert_eq!(body["vehicle"]["ktype"], "10219");
    let articles = body["articles"].as_array().unwrap();
    assert!(articles.iter().any(|a| a["reference"] == "0 986 A45 240"));

    let prices = s.get("/svc/getPricesByKtype/10219").json();
    let priced = prices["articles"].as_array().unwrap();
    assert_eq!(priced.len(), articles.len());
    let kit = priced
        .iter()
        .find(|p| p["article"]["reference"] == "0 986 A45 240")
        .unwrap();
    assert_eq!(kit["prices"][0]["amount"], "117.63");
    assert_eq!(kit["prices"][0]["currency"], "EUR");

    for route in ["getArticlesByKtype", "getPricesByKtype"] {
        assert_problem(&s, &format!("/svc/{route}/NOSUCHKTYPE"), 404, None);
        assert_problem(&s, &format!("/svc/{route}/"), 400, Some("ktype"));
    }
}

#[test]
fn kit_and_single_prices_by_genart() {
    let s = demo();
    // Brake kits (genart 3500) for 10219: the kit's own price where it has one, else the
    // sum of its components' list prices times their quantities.
    let kits = s.get("/svc/price/3500/1/10219").json();
    assert_eq!(kits["isKit"], true);
    let kits = kits["kits"].as_array().unwrap().clone();
    assert!(!kits.is_empty());
    for kit in &kits {
        match kit["source"].as_str().unwrap() {
            "own" => assert!(kit["amount"].is_string()),
            "components" => {
                let sum: f64 = kit["components"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| {
                        c["unitAmount"].as_str().unwrap().parse::<f64>().unwrap()
                            * c["quantity"].as_f64().unwrap()
                    })
                    .sum();
                let amount: f64 = kit["amount"].as_str().unwrap().parse().unwrap();
                assert!((sum - amount).abs() < 0.005, "{kit}");
            }
            other => panic!("unexpected source {other}: {kit}"),
        }
    }
    let own = kits
        .iter()
        .find(|k| k["kit"]["reference"] == "0 986 A45 240")
        .unwrap();
    assert_eq!(own["source"], "own");
    assert_eq!(own["amount"], "117.63");

    let singles = s.get("/svc/price/82/0/10219").json();
    assert_eq!(singles["isKit"], false);
    let singles = singles["articles"].as_array().unwrap();
    assert!(!singles.is_empty());
    assert!(singles.iter().all(|a| a["article"]["genart"] == 82));

    assert_problem(&s, "/svc/price/3500/2/10219", 400, Some("is_kit"));
    assert_problem(&s, "/svc/price/0/1/10219", 400, Some("genart"));
    assert_problem(&s, "/svc/price/x/1/10219", 400, Some("genart"));
    assert_problem(&s, "/svc/price/3500/1/", 400, Some("ktype"));
    assert_problem(&s, "/svc/price//1/10219", 400, Some("genart"));
    assert_problem(&s, "/svc/price/3500/1/NOSUCHKTYPE", 404, None);
    assert_problem(&s, "/svc/price/9999/1/10219", 404, None);
}

#[test]
fn the_exhaust_kit_of_a_ktype() {
    let s = demo();
    let body = s.get("/svc/e/k/10219").json();
    assert_eq!(
        body["exhaustGenarts"],
        serde_json::json!([4000, 4010, 4020, 4030, 4040])
    );
    let kits = body["kits"].as_array().unwrap();
    assert!(!kits.is_empty());
    for kit in kits {
        assert!(kit["amount"].is_string(), "{kit}");
        for c in kit["components"].as_array().unwrap() {
            let g = c["article"]["genart"].as_u64().unwrap();
            assert!((4000..=4040).contains(&g), "{kit}");
        }
    }
    assert_problem(&s, "/svc/e/k/", 400, Some("ktype"));
    assert_problem(&s, "/svc/e/k/NOSUCHKTYPE", 404, None);
}

#[test]
fn exports_reject_bad_identifiers_and_booleans() {
    let s = demo();
    for route in ["exportGolda", "exportCatalogue", "exportAtc", "DMM"] {
        for bad in ["0", "-1", "x", "1.5", "99999999999"] {
            assert_problem(
                &s,
                &format!("/svc/{route}?brand_id={bad}"),
                400,
                Some("brand_id"),
            );
        }
        assert_problem(&s, &format!("/svc/{route}"), 400, Some("brand_id"));
        assert_problem(&s, &format!("/svc/{route}?brand_id=77"), 404, None);
    }
    for route in ["exportGolda", "exportCatalogue", "exportAtc"] {
        for bad in ["yes", "1", "TRUE", ""] {
            assert_problem(
                &s,
                &format!("/svc/{route}?brand_id=1&is_csv_export={bad}"),
                400,
                Some("is_csv_export"),
            );
        }
    }
    assert_problem(
        &s,
        "/svc/exportCatalogue?brand_id=1&is_flat_export=no",
        400,
        Some("is_flat_export"),
    );
    assert_problem(
        &s,
        "/svc/exportRefConcurrente?manufacturer_id=0",
        400,
        Some("manufacturer_id"),
    );
    assert_problem(
        &s,
        "/svc/exportRefConcurrente",
        400,
        Some("manufacturer_id"),
    );
    // A vehicle maker is no competitor.
    assert_problem(&s, "/svc/exportRefConcurrente?manufacturer_id=6", 404, None);
    assert_problem(
        &s,
        "/svc/exportRefConcurrente?manufacturer_id=999",
        404,
        None,
    );
    assert_problem(
        &s,
        "/svc/exportRefConcurrenteInterne?manufacturer_id=102",
        400,
        Some("brand_id"),
    );
}

#[test]
fn sync_and_packages_say_what_they_need_that_is_not_configured() {
    let s = demo();
    let body = assert_problem(
        &s,
        "/svc/syncTecdoc?importType=articles&refresh=true",
        409,
        None,
    );
    let detail = body["detail"].as_str().unwrap();
    assert!(detail.contains("no upstream is configured"), "{detail}");
    assert_problem(
        &s,
        "/svc/changes?importType=articles&since=-1",
        400,
        Some("since"),
    );
    assert_problem(
        &s,
        "/svc/changes?importType=gadgets",
        400,
        Some("importType"),
    );
    // apiDMM: what it needs and is not configured is a 409 naming the setting.
    let body = assert_problem(&s, "/svc/apiDMM?brand_id=1&publish=true", 409, None);
    assert!(body["detail"].as_str().unwrap().contains("publish_target"));
    let body = assert_problem(&s, "/svc/apiDMM?brand_id=1&download360=true", 409, None);
    assert!(body["detail"].as_str().unwrap().contains("media_source"));
    assert_problem(&s, "/svc/apiDMM?brand_id=999", 404, None);
    assert_problem(
        &s,
        "/svc/syncTecdoc?importType=articles&refresh=maybe",
        400,
        Some("refresh"),
    );
    // A data set the import does not take is named with the ones it does.
    let body = assert_problem(
        &s,
        "/svc/syncTecdoc?importType=widgets&refresh=true",
        400,
        Some("importType"),
    );
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("brands") && detail.contains("media"),
        "{detail}"
    );
}

#[test]
fn a_call_without_valid_credentials_is_401() {
    let s = demo();
    let c = client();
    let route = format!("{}/svc/getArticlesByKtype/10219", s.base);
    for url in [
        route.clone(),
        format!("{route}?provider=demo"),
        format!("{route}?provider=demo&api_key=wrong"),
        format!("{route}?provider=other&api_key={DEMO_KEY}"),
        format!("{route}?api_key={DEMO_KEY}"),
        format!("{route}?provider=demo&api_key={DEMO_KEY}&api_key={DEMO_KEY}"),
        format!("{route}?provider=demo&api_key={DEMO_KEY}&api_key=other"),
    ] {
        let r = s.fetch(c.get(&url));
        assert_eq!(r.status, 401, "{url}");
        assert_eq!(r.header("content-type"), "application/problem+json");
    }
    // The key in the header, and as the Basic user name.
    let with_header = c
        .get(format!("{route}?provider=demo"))
        .header("X-Api-Key", DEMO_KEY);
    assert_eq!(s.fetch(with_header).status, 200);
    let with_basic = c
        .get(format!("{route}?provider=demo"))
        .basic_auth(DEMO_KEY, Some(""));
    assert_eq!(s.fetch(with_basic).status, 200);
    let malformed = c
        .get(format!("{route}?provider=demo"))
        .header("Authorization", "Basic !!!");
    assert_eq!(s.fetch(malformed).status, 401);
    // Probes and documents stay open.
    for open in [
        "/health",
        "/ready",
        "/openapi.json",
        "/openapi.yaml",
        "/docs",
    ] {
        assert_eq!(
            s.fetch(c.get(format!("{}{open}", s.base))).status,
            200,
            "{open}"
        );
    }
}

#[test]
fn unknown_paths_and_methods_are_problems_too() {
    let s = demo();
    assert_problem(&s, "/svc/getArticlesByKtype/%FF", 400, Some("ktype"));
    assert_problem(&s, "/svc/price/3500/%C3%28/10219", 400, Some("is_kit"));
    assert_problem(
        &s,
        "/svc/exportGolda?brand_id=1&brand_id=2",
        400,
        Some("brand_id"),
    );
    assert_problem(
        &s,
        "/svc/getCrossRefsOrArticle/0986494958?mainref&mainref",
        400,
        Some("mainref"),
    );
    assert_problem(&s, "/svc/nothingHere", 404, None);
    let r = s.fetch(client().post(s.url("/svc/exportGolda?brand_id=1")));
    assert_eq!(r.status, 405);
    assert_eq!(r.header("content-type"), "application/problem+json");
}

#[test]
fn a_kept_lookup_answers_as_built_for_its_caller_until_a_commit_changes_it() {
    let s = demo();
    let path = "/svc/getCrossRefsOrArticle/0 986 494 958?mainref";
    let built = s.get(path);
    let kept = s.get(path);
    assert_eq!((built.status, kept.status), (200, 200), "{}", built.text());
    assert_eq!(kept.text(), built.text());
    assert_eq!(kept.header("content-type"), built.header("content-type"));
    // The answer echoes the reference as written: another spelling is an answer of its own.
    let other = s.get("/svc/getCrossRefsOrArticle/0986-494.958?mainref");
    assert_eq!(other.json()["reference"], "0986-494.958");
    // A kept answer still needs what the route needs.
    assert_eq!(
        s.get("/svc/getCrossRefsOrArticle/0 986 494 958?mainref&crossrefs")
            .status,
        400
    );
    let unknown = s.fetch(
        client()
            .get(format!("{}{path}&provider=demo", s.base))
            .header("X-Api-Key", "wrong"),
    );
    assert_eq!(unknown.status, 401);

    let inbox = s.data.with_file_name("data-inbox");
    std::fs::create_dir_all(&inbox).unwrap();
    std::fs::write(
        inbox.join("price.csv"),
        "brand_id,reference,price_type,currency,amount,valid_from\n\
         1,0 986 494 958,list,EUR,77.70,2026-01-01\n",
    )
    .unwrap();
    let job = s.get("/svc/importArticles?fileId=price.csv&importType=prices&dryRun=false");
    assert_eq!(job.json()["state"], "succeeded", "{}", job.text());
    let after = s.get(path);
    assert!(after.text().contains("\"77.70\""), "{}", after.text());
    assert!(!built.text().contains("\"77.70\""));

    let metrics = s.fetch(client().get(s.url("/metrics"))).text();
    for line in [
        r#"partscat_answer_cache_lookups_total{outcome="missing"} 2"#,
        r#"partscat_answer_cache_lookups_total{outcome="hit"} 1"#,
        r#"partscat_answer_cache_lookups_total{outcome="stale"} 1"#,
    ] {
        assert!(
            metrics.lines().any(|l| l == line),
            "{line} not in\n{metrics}"
        );
    }
}

#[test]
fn suggestions_lead_from_a_typed_number_to_articles_exact_first() {
    let s = demo();
    let answer = s.get("/svc/suggestNumbers/0986%20494%20958").json();
    assert_eq!(answer["normalisedNumber"], "0986494958");
    let first = &answer["suggestions"][0];
    assert_eq!(first["exact"], true, "{answer}");
    assert_eq!(first["kind"], "reference");
    assert_eq!(first["reference"], "0 986 494 958");
    assert_eq!(first["number"], "0 986 494 958");
    assert_eq!(first["brandName"], "Veltra Brakes");

    // A start shared by many references: a screenful, each starting with it.
    let many = s.get("/svc/suggestNumbers/0986-49?limit=7").json();
    let list = many["suggestions"].as_array().unwrap();
    assert_eq!(list.len(), 7, "{many}");
    assert!(list.iter().all(|x| {
        x["exact"] == false
            && x["number"]
                .as_str()
                .unwrap()
                .replace(' ', "")
                .starts_with("098649")
    }));

    // An OE number written with its spaces, found by its start, named by its kind.
    let oe = s.get("/svc/suggestNumbers/2800%2067").json();
    assert!(
        oe["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["kind"] == "oe"
                && x["number"] == "2800 67 91"
                && x["reference"] == "0 986 494 958"),
        "{oe}"
    );

    assert_problem(&s, "/svc/suggestNumbers/--", 400, Some("number"));
    assert_problem(&s, "/svc/suggestNumbers/0986?limit=0", 400, Some("limit"));
    assert_problem(&s, "/svc/suggestNumbers/0986?limit=51", 400, Some("limit"));
}
