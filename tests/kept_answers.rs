//! An operation's answer is kept in the form its endpoint writes it (JSON, partscat's SOAP
//! elements, TecDoc's), and a kept answer goes out as it was kept: the same bytes as when it
//! was built, and never another form's.

mod common;

use common::server::{DEMO_KEY, Served, client};

const DLB: &str = "/ws/3.0/services/PartsToCatDLB.soapEndpoint";
const DLW: &str = "/ws/3.0/services/PartsToCatDLW.soapEndpoint";
const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";
const SOAP11: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const TECDOC_NS: &str = "http://server.cat.tecdoc.net";

fn post(s: &Served, path: &str, content_type: &str, body: String) -> (u16, String) {
    let reply = s.fetch(
        client()
            .post(format!("{}{path}?provider=demo&api_key={DEMO_KEY}", s.base))
            .header("content-type", content_type)
            .body(body),
    );
    (reply.status, reply.text())
}

fn soap(s: &Served, path: &str, operation: &str) -> (u16, String) {
    let body = format!(
        r#"<?xml version="1.0"?><s:Envelope xmlns:s="{SOAP11}"><s:Body>{operation}</s:Body></s:Envelope>"#
    );
    post(s, path, "text/xml; charset=utf-8", body)
}

/// A call, made again as asked: its status and body.
type Call<'a> = dyn Fn() -> (u16, String) + 'a;

/// Hits of the answer cache so far.
fn hits(s: &Served) -> u64 {
    s.fetch(client().get(s.url("/metrics")))
        .text()
        .lines()
        .find(|l| l.starts_with("partscat_answer_cache_lookups_total{outcome=\"hit\"}"))
        .and_then(|l| l.rsplit(' ').next())
        .map_or(0, |n| n.parse().unwrap())
}

#[test]
fn each_form_is_kept_apart_and_served_as_it_was_written() {
    let s = Served::demo(&[]);
    let search = r#"<searchQuery>0986494958</searchQuery><includeAll>true</includeAll>"#;
    let own = format!("<getArticles>{search}</getArticles>");
    let wrapped = format!("<getArticles><arg0>{search}</arg0></getArticles>");
    let tecdoc = format!(r#"<getArticles xmlns="{TECDOC_NS}">{search}</getArticles>"#);
    let json = r#"{"getArticles":{"searchQuery":"0986494958","includeAll":true}}"#;
    let kit = r#"{"getKitPrice":{"linkageTargetId":"10219","genericArticleId":82,"isKit":false}}"#;
    let calls: [(&str, Box<Call>); 5] = [
        (
            "json",
            Box::new(|| post(&s, DLB_JSON, "application/json", json.into())),
        ),
        ("soap", Box::new(|| soap(&s, DLB, &own))),
        ("wrapped", Box::new(|| soap(&s, DLW, &wrapped))),
        ("tecdoc", Box::new(|| soap(&s, DLB, &tecdoc))),
        (
            "kit price",
            Box::new(|| post(&s, DLB_JSON, "application/json", kit.into())),
        ),
    ];
    for (form, call) in &calls {
        let before = hits(&s);
        let (status, built) = call();
        assert_eq!(status, 200, "{form}: {built}");
        let (status, kept) = call();
        assert_eq!(status, 200, "{form}: {kept}");
        // The wrapped endpoint's elements are the bare one's: kept once, for both.
        let expected = if *form == "wrapped" { 2 } else { 1 };
        assert_eq!(hits(&s), before + expected, "{form}: the cache's");
        assert_eq!(
            built, kept,
            "{form}: a kept answer goes out as it was built"
        );
        match *form {
            "json" | "kit price" => {
                let answer: serde_json::Value = serde_json::from_str(&kept).unwrap();
                assert_eq!(answer["status"], 200, "{kept}");
                assert!(
                    kept.starts_with(r#"{"status":200,"statusText":"OK","#),
                    "{kept}"
                );
            }
            "soap" | "wrapped" => {
                assert!(kept.contains("<tns:getArticlesResponse"), "{kept}");
                assert!(kept.contains("<tns:status>200</tns:status>"), "{kept}");
                assert!(kept.contains("<tns:articles>"), "{form}: {kept}");
            }
            _ => {
                assert!(
                    kept.contains(&format!(r#"xmlns:ns1="{TECDOC_NS}""#)),
                    "{kept}"
                );
                assert!(kept.contains("<status>200</status>"), "{kept}");
                assert!(!kept.contains("<tns:"), "{kept}");
            }
        }
    }
    // The bare and the wrapped endpoint each wrap them in their own namespace.
    let (bare, wrapped) = (calls[1].1().1, calls[2].1().1);
    assert!(bare.contains("PartsToCatDLB"), "{bare}");
    assert!(wrapped.contains("PartsToCatDLW"), "{wrapped}");
}
