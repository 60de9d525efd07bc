//! The Ktype routes narrowed by `genart` and `brand_id`, paged by a cursor that a client
//! follows to the end, and streamed whole for a vehicle with thousands of articles, all
//! through a real socket.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::server::Served;
use common::*;
use serde_json::Value;

const ROUTES: [&str; 2] = ["/svc/getArticlesByKtype/", "/svc/getPricesByKtype/"];

/// (brand, reference) of every article of an answer, in order.
fn articles(answer: &Value) -> Vec<(u64, String)> {
    answer["articles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            let a = if a["article"].is_object() {
                &a["article"]
            } else {
                a
            };
            (
                a["brandId"].as_u64().unwrap(),
                a["reference"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Every page of a route, followed by its cursors.
fn follow(s: &Served, route: &str, query: &str, limit: usize) -> (Vec<(u64, String)>, usize) {
    let mut all = Vec::new();
    let mut pages = 0;
    let mut after: Option<String> = None;
    loop {
        let cursor = after.map(|a| format!("&after={a}")).unwrap_or_default();
        let reply = s.get(&format!("{route}?limit={limit}{query}{cursor}"));
        assert_eq!(reply.status, 200, "{}", reply.text());
        let page = reply.json();
        let these = articles(&page);
        assert!(these.len() <= limit);
        all.extend(these);
        pages += 1;
        match page["next"].as_str() {
            Some(next) => after = Some(next.to_owned()),
            None => return (all, pages),
        }
    }
}

#[test]
fn pages_and_filters_give_the_whole_list_once() {
    let s = Served::demo(&[]);
    for route in ROUTES {
        let route = format!("{route}10033");
        let whole = s.get(&route).json();
        assert!(whole.get("next").is_none(), "{whole}");
        let everything = articles(&whole);
        assert!(everything.len() > 20, "{route}");
        let (paged, pages) = follow(&s, &route, "", 7);
        assert_eq!(paged, everything, "{route}");
        assert_eq!(pages, everything.len().div_ceil(7), "{route}");

        let brand = everything[0].0;
        let (of_brand, _) = follow(&s, &route, &format!("&brand_id={brand}"), 5);
        let expected: Vec<_> = everything
            .iter()
            .filter(|a| a.0 == brand)
            .cloned()
            .collect();
        assert_eq!(of_brand, expected, "{route}");

        let genart = s.get("/svc/getArticlesByKtype/10033").json()["articles"][0]["genart"]
            .as_u64()
            .unwrap();
        let narrowed = s.get(&format!("{route}?genart={genart}")).json();
        let narrowed = articles(&narrowed);
        assert!(
            !narrowed.is_empty() && narrowed.len() < everything.len(),
            "{route}"
        );
        let all: BTreeSet<_> = everything.iter().collect();
        assert!(narrowed.iter().all(|a| all.contains(a)), "{route}");
    }
}

#[test]
fn bad_paging_parameters_are_refused_with_their_name() {
    let s = Served::demo(&[]);
    for route in ROUTES {
        for (query, parameter) in [
            ("limit=0", "limit"),
            ("limit=10001", "limit"),
            ("after=not-a-cursor!", "after"),
            ("after=eDpZ", "after"),
            ("genart=abc", "genart"),
        ] {
            let reply = s.get(&format!("{route}10033?{query}"));
            assert_eq!(reply.status, 400, "{route}?{query}: {}", reply.text());
            assert!(
                reply.text().contains(parameter),
                "{route}?{query}: {}",
                reply.text()
            );
        }
        assert_eq!(s.get(&format!("{route}99999999?limit=5")).status, 404);
    }
}

/// One vehicle linked to `count` articles of one brand.
fn popular_vehicle(dir: &Path, count: usize) {
    let write =
        |name: &str, text: String| std::fs::write(dir.join(format!("{name}.csv")), text).unwrap();
    write("brands", "brand_id,name\n7,Popular Parts\n".into());
    write("genarts", "genart_id,name\n82,Brake Disc\n".into());
    write(
        "vehicles",
        "ktype,make,model,type,engine,fuel,kw,hp,ccm,year_from,year_to\n\
         555,OPEL,ASTRA,1.4,X,Petrol,92,125,1395,2018-04,\n"
            .into(),
    );
    let mut articles = String::from(
        "brand_id,reference,genart_id,description,status,eans,packaging_unit,replaced_by\n",
    );
    let mut links = String::from("brand_id,reference,ktype,position,quantity,notes\n");
    let mut prices =
        String::from("brand_id,reference,price_type,currency,amount,valid_from,valid_to\n");
    for i in 0..count {
        articles.push_str(&format!("7,PP {i:05},82,Disc {i},active,,1,\n"));
        links.push_str(&format!("7,PP {i:05},555,,1,\n"));
        prices.push_str(&format!(
            "7,PP {i:05},list,EUR,{}.50,2026-01-01,\n",
            10 + i % 90
        ));
    }
    write("articles", articles);
    write("links", links);
    write("prices", prices);
}

#[test]
fn a_vehicle_with_thousands_of_articles_streams_whole_and_pages_alike() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    popular_vehicle(&files, 2500);
    let data = dir.path().join("data");
    let (ok, report) = import(&data, &[path(&files)]);
    assert!(ok, "{report}");
    let s = Served::start(&data, &["--demo", "--demo-key", server::DEMO_KEY]);
    for route in ROUTES {
        let route = format!("{route}555");
        let reply = s.get(&route);
        assert_eq!(reply.status, 200);
        // Streamed: sent in chunks, without a length announced up front.
        assert!(reply.headers.get("content-length").is_none(), "{route}");
        let whole = reply.json();
        assert!(whole.get("next").is_none(), "{whole}");
        let everything = articles(&whole);
        assert_eq!(everything.len(), 2500, "{route}");
        let (paged, pages) = follow(&s, &route, "", 1000);
        assert_eq!((paged, pages), (everything, 3), "{route}");
    }
}
