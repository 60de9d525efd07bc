//! `/metrics` in the Prometheus text format: open by default, behind an `admin` key when the
//! `metrics` setting says so, gone when it is `off`.

mod common;

use common::server::{DEMO_KEY, Served, client};

#[test]
fn metrics_count_requests_by_route_and_status() {
    let s = Served::demo(&[]);
    assert_eq!(s.get("/svc/getArticlesByKtype/10219").status, 200);
    assert_eq!(s.get("/svc/getArticlesByKtype/999999999").status, 404);
    assert_eq!(s.get("/svc/no-such-route/x").status, 404);
    let r = s.fetch(client().get(format!("{}/metrics", s.base)));
    assert_eq!(r.status, 200);
    assert!(
        r.header("content-type")
            .starts_with("application/openmetrics-text")
    );
    let text = r.text();
    for line in [
        r#"partscat_http_requests_total{route="getArticlesByKtype",status="200"} 1"#,
        r#"partscat_http_requests_total{route="getArticlesByKtype",status="404"} 1"#,
        r#"partscat_http_requests_total{route="svc_unknown",status="404"} 1"#,
        r#"partscat_http_request_duration_seconds_count{route="getArticlesByKtype"} 2"#,
        "partscat_ready 1",
        "partscat_providers 1",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} not in\n{text}");
    }
    assert!(text.trim_end().ends_with("# EOF"));
    // A path a client made up is not a label of its own.
    assert!(!text.contains("no-such-route"));
}

#[test]
fn metrics_count_how_lookups_met_the_answer_cache() {
    let s = Served::demo(&[]);
    for _ in 0..3 {
        assert_eq!(s.get("/svc/getArticlesByKtype/10219").status, 200);
    }
    // An error is never kept: each is built and counted missing.
    assert_eq!(s.get("/svc/getArticlesByKtype/999999999").status, 404);
    let text = s.fetch(client().get(format!("{}/metrics", s.base))).text();
    for line in [
        r#"partscat_answer_cache_lookups_total{outcome="missing"} 2"#,
        r#"partscat_answer_cache_lookups_total{outcome="hit"} 2"#,
        r#"partscat_answer_cache_lookups_total{outcome="stale"} 0"#,
    ] {
        assert!(text.lines().any(|l| l == line), "{line} not in\n{text}");
    }
}

#[test]
fn metrics_can_need_an_admin_key_or_be_off() {
    let guarded = Served::demo_with_env(&[], &[("PARTSCAT_METRICS", "admin")]);
    let c = client();
    let url = format!("{}/metrics", guarded.base);
    assert_eq!(guarded.fetch(c.get(&url)).status, 401);
    let with_key = guarded.fetch(c.get(format!("{url}?provider=demo&api_key={DEMO_KEY}")));
    assert_eq!(with_key.status, 200);
    assert!(with_key.text().contains("partscat_ready 1"));
    // A Prometheus on another machine (here relayed, as a proxy would) scrapes with the key:
    // `metrics = admin` needs the scope, not loopback (which the admin API needs).
    let remote = guarded.fetch(
        c.get(format!("{url}?provider=demo&api_key={DEMO_KEY}"))
            .header("X-Forwarded-For", "203.0.113.9"),
    );
    assert_eq!(remote.status, 200, "{}", remote.text());
    let remote_without = guarded.fetch(c.get(&url).header("X-Forwarded-For", "203.0.113.9"));
    assert_eq!(remote_without.status, 401);

    let off = Served::demo_with_env(&[], &[("PARTSCAT_METRICS", "off")]);
    let gone = off.fetch(c.get(format!("{}/metrics", off.base)));
    assert_eq!(gone.status, 404);
    assert!(gone.text().contains("turned off"));
}

#[test]
fn a_wrong_metrics_setting_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(common::bin())
        .args(["serve", "--data", common::path(&dir.path().join("d"))])
        .env("PARTSCAT_METRICS", "public")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        common::text(&o).contains("PARTSCAT_METRICS"),
        "{}",
        common::text(&o)
    );
}
