//! TecDoc's documents route, `/ws/3.0/documents/{provider}/{docId}/{type}`, through a real
//! socket: the numbers answers give, the addresses TecDoc's clients build from them (the key
//! as they pass it) and the signed addresses answers give themselves (an `<img>` sends no
//! key), pictures at each size scaled once and kept, and what a caller may not see.

mod common;

use common::server::{self, Served};
use common::*;

const ENDPOINT: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";

struct Appliance {
    dir: tempfile::TempDir,
    served: Served,
}

fn appliance() -> Appliance {
    let dir = tempfile::tempdir().unwrap();
    let served = Served::start(
        &dir.path().join("data"),
        &["--demo", "--demo-key", server::DEMO_KEY],
    );
    Appliance { dir, served }
}

fn call(s: &Served, body: serde_json::Value) -> serde_json::Value {
    s.fetch(
        server::client()
            .post(s.url(ENDPOINT))
            .header("X-Api-Key", server::DEMO_KEY)
            .json(&body),
    )
    .json()
}

/// An address as a browser fetches it: nothing but the address.
fn fetch_bare(url: &str) -> server::Reply {
    let r = server::client().get(url).send().unwrap();
    server::Reply {
        status: r.status().as_u16(),
        headers: r.headers().clone(),
        body: r.bytes().unwrap().to_vec(),
    }
}

fn dimensions(png: &[u8]) -> (u32, u32) {
    let picture = image::load_from_memory(png).unwrap();
    (picture.width(), picture.height())
}

/// The demo's shock absorber 345 526 (brand 4): a picture and a mounting leaflet.
fn shock_absorber(s: &Served) -> serde_json::Value {
    let answer = call(
        s,
        serde_json::json!({"getArticles": {"provider": "demo", "searchQuery": "345 526",
            "searchType": 0, "includeImages": true, "includePDFs": true,
            "includeGenericArticles": true}}),
    );
    answer["articles"][0].clone()
}

#[test]
fn the_numbers_of_the_legacy_answers_lead_to_the_files_the_way_tecdoc_clients_build_it() {
    let a = appliance();
    let s = &a.served;
    let id = shock_absorber(s)["genericArticles"][0]["legacyArticleId"].clone();
    let answer = call(
        s,
        serde_json::json!({"getDirectArticlesByIds6": {"provider": "demo", "articleCountry": "DE",
            "lang": "en", "articleId": {"array": [id]}, "documents": true, "thumbnails": true}}),
    );
    let record = &answer["data"]["array"][0];
    let documents = record["articleDocuments"]["array"].as_array().unwrap();
    assert_eq!(documents.len(), 2, "{record}");
    for d in documents {
        let doc_id = d["docId"].as_str().unwrap();
        assert!(doc_id.parse::<u64>().unwrap() < 1 << 52, "{d}");
        // As a client builds it: the base beside `services/`, the key as it passes it.
        let built = format!("/ws/3.0/documents/demo/{doc_id}/0");
        let file = s.fetch(
            server::client()
                .get(format!("{}{built}?api_key={}", s.base, server::DEMO_KEY))
                .header("Accept", "*/*"),
        );
        assert_eq!(file.status, 200, "{built}: {}", file.text());
        // The answer's own address, signed, fetched with nothing else.
        let signed = fetch_bare(d["docUrl"].as_str().unwrap());
        assert_eq!(signed.status, 200, "{d}: {}", signed.text());
        assert_eq!(signed.body, file.body);
        match d["docFileTypeName"].as_str().unwrap() {
            "document" => {
                assert_eq!(file.header("content-type"), "application/pdf");
                assert!(file.body.starts_with(b"%PDF-"));
                // A document has no thumbnail, and says so.
                let thumb = s.get(&format!("/ws/3.0/documents/demo/{doc_id}/1"));
                assert_eq!(thumb.status, 404, "{}", thumb.text());
                assert!(thumb.text().contains("not a picture"), "{}", thumb.text());
            }
            _ => assert_eq!(file.header("content-type"), "image/png"),
        }
    }
    let thumb_id = record["articleThumbnails"]["array"][0]["thumbDocId"]
        .as_str()
        .unwrap();
    let thumbnail = s.get(&format!("/ws/3.0/documents/demo/{thumb_id}/1"));
    assert_eq!(thumbnail.status, 200, "{}", thumbnail.text());
    let (w, h) = dimensions(&thumbnail.body);
    assert!(w <= 200 && h <= 200, "{w}×{h}");
    // Kept by its tag.
    let again = s.fetch(
        server::client()
            .get(s.url(&format!("/ws/3.0/documents/demo/{thumb_id}/1")))
            .header("If-None-Match", thumbnail.header("etag")),
    );
    assert_eq!(again.status, 304);
}

#[test]
fn each_size_is_its_own_address_scaled_once_and_kept() {
    let a = appliance();
    let s = &a.served;
    let article = shock_absorber(s);
    let image = &article["images"][0];
    let mut seen = Vec::new();
    for size in [50u32, 100, 200, 400, 800] {
        let url = image[format!("imageURL{size}")].as_str().unwrap();
        assert!(
            url.starts_with(&format!("{}/ws/3.0/documents/demo/", s.base)),
            "{url}"
        );
        assert!(!seen.contains(&url.to_owned()), "{url}");
        seen.push(url.to_owned());
        let picture = fetch_bare(url);
        assert_eq!(picture.status, 200, "{url}: {}", picture.text());
        let (w, h) = dimensions(&picture.body);
        // The demo draws at 200 pixels: larger sizes are the picture itself.
        assert_eq!((w, h), (size.min(200), size.min(200)), "{url}");
    }
    let kept = a.dir.path().join("data-media").join("sizes");
    let scaled: Vec<_> = ["50", "100"]
        .iter()
        .map(|size| std::fs::read_dir(kept.join(size)).unwrap().count())
        .collect();
    assert_eq!(scaled, [1, 1]);
    let pdf = fetch_bare(article["pdfs"][0]["url"].as_str().unwrap());
    assert_eq!(pdf.status, 200, "{}", pdf.text());
    assert_eq!(pdf.header("content-type"), "application/pdf");
}

#[test]
fn a_signed_address_opens_its_one_file_for_its_provider_while_it_may_see_it() {
    let a = appliance();
    let s = &a.served;
    let article = shock_absorber(s);
    let url = article["images"][0]["imageURL100"]
        .as_str()
        .unwrap()
        .to_owned();
    let (path, sig) = url.split_once("&sig=").unwrap();
    let refused = |address: &str, status: u16| {
        let r = fetch_bare(address);
        assert_eq!(r.status, status, "{address}: {}", r.text());
    };
    refused(&url, 200);
    // Another size, another type, a changed signature, no signature: refused.
    refused(
        &format!("{}&sig={sig}", path.replace("size=100", "size=400")),
        401,
    );
    let (stem, _) = path.split('?').next().unwrap().rsplit_once('/').unwrap();
    refused(&format!("{stem}/1?sig={sig}"), 401);
    refused(&format!("{path}&sig=AAAA{}", &sig[4..]), 401);
    refused(path, 401);
    // Bad numbers, types and sizes are named.
    let number = path.split('/').nth(7).unwrap();
    for (wrong, named) in [
        (format!("/ws/3.0/documents/demo/x{number}/0"), "docId"),
        (format!("/ws/3.0/documents/demo/{number}/3"), "type"),
        (
            format!("/ws/3.0/documents/demo/{number}/0?size=120"),
            "size",
        ),
    ] {
        let r = s.get(&wrong);
        assert_eq!(r.status, 400, "{wrong}: {}", r.text());
        assert_eq!(r.json()["parameter"], named, "{}", r.text());
    }
    let nothing = s.get("/ws/3.0/documents/demo/2097152/0");
    assert_eq!(nothing.status, 404, "{}", nothing.text());
    // A provider of brand 2 only: brand 4's file is as missing as none at all, by its key.
    let created = partscat(&[
        "admin",
        "--data",
        path_of(s),
        "--json",
        "provider",
        "create",
        "brake-only",
        "--brands",
        "2",
    ]);
    assert!(created.status.success(), "{}", text(&created));
    let key: serde_json::Value = serde_json::from_slice(&created.stdout).unwrap();
    let hidden = fetch_bare(&format!(
        "{}/ws/3.0/documents/brake-only/{number}/0?api_key={}",
        s.base,
        key["key"].as_str().unwrap()
    ));
    assert_eq!(hidden.status, 404, "{}", hidden.text());
    // The demo's signature does not open the file for another provider.
    refused(
        &url.replace("/documents/demo/", "/documents/brake-only/"),
        401,
    );
    // A disabled provider's addresses stop working.
    let disabled = partscat(&["admin", "--data", path_of(s), "provider", "disable", "demo"]);
    assert!(disabled.status.success(), "{}", text(&disabled));
    refused(&url, 401);
}

fn path_of(s: &Served) -> &str {
    path(&s.data)
}
