//! `GET /svc/mediaFile/{articleId}`: an article's picture from the local media store, through
//! a real socket. The demo draws its pictures into the store; the tests then change the store
//! as a careless or hostile source could have left it.

mod common;

use std::path::{Path, PathBuf};

use common::server::{self, Served};
use common::*;

const PADS: &str = "media/1/0986494958.jpg";

struct Appliance {
    _dir: tempfile::TempDir,
    media: PathBuf,
    served: Served,
}

fn appliance() -> Appliance {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let served = Served::start(&data, &["--demo", "--demo-key", server::DEMO_KEY]);
    Appliance {
        media: dir.path().join("data-media"),
        _dir: dir,
        served,
    }
}

/// The demo's 0 986 494 958 (brake pads, brand 1), by its id.
fn pads_id(s: &Served) -> i64 {
    let answer = s
        .fetch(
            server::client()
                .post(s.url("/ws/3.0/services/PartsToCatDLB.jsonEndpoint"))
                .header("X-Api-Key", server::DEMO_KEY)
                .json(&serde_json::json!({"getArticles": {"provider": "demo",
                    "searchQuery": "0986494958", "includeGenericArticles": true}})),
        )
        .json();
    answer["articles"][0]["genericArticles"][0]["legacyArticleId"]
        .as_i64()
        .unwrap()
}

fn media_file(s: &Served, id: i64, uri: &str) -> server::Reply {
    s.get(&format!("/svc/mediaFile/{id}?uri={uri}"))
}

/// The object file the store keeps for `uri`, from its entry.
fn object_of(media: &Path, uri: &str) -> PathBuf {
    let entry = media.join("uris").join(sha256_hex(uri.as_bytes()));
    let text = std::fs::read_to_string(entry).unwrap();
    let hash = text.split(' ').next().unwrap().to_owned();
    media.join("objects").join(&hash[..2]).join(hash)
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(bytes))
}

#[test]
fn a_picture_is_answered_with_its_type_and_kept_by_its_etag() {
    let a = appliance();
    let s = &a.served;
    let id = pads_id(s);
    let picture = media_file(s, id, PADS);
    assert_eq!(picture.status, 200, "{}", picture.text());
    assert_eq!(picture.header("content-type"), "image/png");
    assert!(picture.body.starts_with(b"\x89PNG"));
    assert_eq!(
        picture.header("etag"),
        format!("\"{}\"", sha256_hex(&picture.body))
    );
    assert!(
        picture
            .header("content-security-policy")
            .contains("sandbox")
    );
    let again = s.fetch(
        server::client()
            .get(format!(
                "{}/svc/mediaFile/{id}?provider=demo&uri={PADS}",
                s.base
            ))
            .header("X-Api-Key", server::DEMO_KEY)
            .header("If-None-Match", picture.header("etag")),
    );
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
}

#[test]
fn what_the_article_does_not_name_or_the_caller_may_not_see_is_not_found() {
    let a = appliance();
    let s = &a.served;
    let id = pads_id(s);
    // Another article's picture, by this article's id.
    let other = media_file(s, id, "media/1/0986478849.jpg");
    assert_eq!(other.status, 404, "{}", other.text());
    assert!(
        other.text().contains("has no media file"),
        "{}",
        other.text()
    );
    let missing = media_file(s, 2_000_000, PADS);
    assert_eq!(missing.status, 404);
    for bad in ["0", "x", "2147483648"] {
        let r = s.get(&format!("/svc/mediaFile/{bad}?uri={PADS}"));
        assert_eq!(r.status, 400, "{bad}: {}", r.text());
        assert!(r.text().contains("articleId"), "{}", r.text());
    }
    assert_eq!(s.get(&format!("/svc/mediaFile/{id}")).status, 400);
    // A provider of brand 2 only: brand 1's picture is as missing as no article at all.
    let created = partscat(&[
        "admin",
        "--data",
        path(&a.served.data),
        "--json",
        "provider",
        "create",
        "filters",
        "--brands",
        "2",
    ]);
    assert!(created.status.success(), "{}", text(&created));
    let key: serde_json::Value = serde_json::from_slice(&created.stdout).unwrap();
    let hidden = s.fetch(
        server::client()
            .get(format!(
                "{}/svc/mediaFile/{id}?provider=filters&uri={PADS}",
                s.base
            ))
            .header("X-Api-Key", key["key"].as_str().unwrap()),
    );
    assert_eq!(hidden.status, 404, "{}", hidden.text());
    assert_eq!(
        hidden.json()["detail"],
        format!("there is no article {id}"),
        "no word of the brand"
    );
}

#[test]
fn a_file_the_store_lacks_or_holds_as_a_link_is_refused() {
    let a = appliance();
    let s = &a.served;
    let id = pads_id(s);
    let object = object_of(&a.media, PADS);
    let size = std::fs::metadata(&object).unwrap().len() as usize;
    // A link of the same size to a file outside the store is not followed.
    let outside = a.media.parent().unwrap().join("outside");
    std::fs::write(&outside, vec![b'x'; size]).unwrap();
    std::fs::remove_file(&object).unwrap();
    std::os::unix::fs::symlink(&outside, &object).unwrap();
    let linked = media_file(s, id, PADS);
    assert_eq!(linked.status, 404, "{}", linked.text());
    assert!(linked.text().contains("is a link"), "{}", linked.text());
    // Gone altogether: said so, with how to fetch it.
    std::fs::remove_file(&object).unwrap();
    let gone = media_file(s, id, PADS);
    assert_eq!(gone.status, 404);
    assert!(
        gone.text().contains("the media store does not hold"),
        "{}",
        gone.text()
    );
}

#[test]
fn a_type_the_source_named_that_is_no_picture_is_answered_to_save() {
    let a = appliance();
    let s = &a.served;
    let id = pads_id(s);
    // The entry as a source answering text/html would have left it.
    let entry = a.media.join("uris").join(sha256_hex(PADS.as_bytes()));
    let text = std::fs::read_to_string(&entry).unwrap();
    let fields: Vec<&str> = text.trim_end().splitn(4, ' ').collect();
    std::fs::write(
        &entry,
        format!("{} {} text/html {}\n", fields[0], fields[1], fields[3]),
    )
    .unwrap();
    let r = media_file(s, id, PADS);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("content-type"), "application/octet-stream");
    assert!(r.header("content-disposition").starts_with("attachment"));
}

#[test]
fn a_store_that_holds_another_catalogue_gets_no_drawn_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let (files, data) = (dir.path().join("files"), dir.path().join("data"));
    generate(300, 7, &files);
    let (ok, report) = import(&data, &[path(&files)]);
    assert!(ok, "{report}");
    let s = Served::start(&data, &["--demo", "--demo-key", server::DEMO_KEY]);
    assert!(s.get("/health").status == 200);
    let entries = dir.path().join("data-media").join("uris");
    let drawn = std::fs::read_dir(&entries).map_or(0, |d| d.count());
    assert_eq!(drawn, 0, "the demo draws only for the demo catalogue");
}
