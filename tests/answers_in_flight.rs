//! Many clients asking for large answers at once: what the answers hold together stays
//! within `limits.answers_in_flight_mb` (a refused one is a 503 with `Retry-After`, never a
//! grown process), and a call whose client goes away stops its work.

mod common;

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use common::server::{Served, client};
use serde_json::{Value, json};

/// A catalogue whose every article fits 300 vehicle types: a page of a vehicle's articles
/// with their linkages is tens of megabytes. Returns the store and a reading key.
fn link_heavy_store(dir: &Path) -> (std::path::PathBuf, String) {
    let files = dir.join("files");
    let o = common::partscat(&[
        "gen",
        "--articles",
        "2000",
        "--links-per-article",
        "300",
        "--vehicles",
        "300",
        "--out",
        common::path(&files),
    ]);
    assert!(o.status.success(), "{}", common::text(&o));
    let data = dir.join("data");
    let (ok, report) = common::import(&data, &[common::path(&files)]);
    assert!(ok, "{report}");
    let key = common::provider_key(&data, "shop", &["--scopes", "read"]);
    (data, key)
}

fn vehicle_page(per_page: u32) -> Value {
    json!({"getArticles": {
        "provider": "shop", "linkageTargetId": "10000", "linkageTargetType": "P",
        "perPage": per_page, "includeAll": true
    }})
}

fn endpoint(s: &Served, key: &str) -> String {
    format!(
        "{}/ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key={key}",
        s.base
    )
}

/// The server's peak resident memory so far, in KiB.
fn peak_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap()
}

fn metric(s: &Served, name: &str) -> f64 {
    let text = s.fetch(client().get(format!("{}/metrics", s.base))).text();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in /metrics:\n{text}"))
}

#[test]
fn many_large_answers_at_once_stay_within_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let (data, key) = link_heavy_store(dir.path());
    let s = Served::start_with_env(&data, &[], &[("PARTSCAT_LIMIT_ANSWERS_IN_FLIGHT_MB", "64")]);
    let url = endpoint(&s, &key);
    // One answer alone (17 MB of text): what the server's peak is with one.
    let alone = s.fetch(client().post(&url).json(&vehicle_page(100)));
    assert_eq!(alone.status, 200, "{}", alone.text());
    let size = alone.body.len();
    assert!(size > 10 << 20, "a large answer: {size} bytes");
    let peak_alone = peak_kib(s.pid());

    // Twelve at once. Unbounded, they held 2.1 GB more than one (a 2.3 GB peak, measured).
    let replies: Vec<_> = std::thread::scope(|scope| {
        let asking: Vec<_> = (0..12)
            .map(|_| scope.spawn(|| s.fetch(client().post(&url).json(&vehicle_page(100)))))
            .collect();
        asking.into_iter().map(|a| a.join().unwrap()).collect()
    });
    let grown_mib = peak_kib(s.pid()).saturating_sub(peak_alone) >> 10;
    assert!(
        grown_mib < 600,
        "twelve large answers at once raised the peak by {grown_mib} MiB over one"
    );
    let served = replies.iter().filter(|r| r.status == 200).count();
    assert!(served >= 1, "the oldest large answer always goes on");
    for r in &replies {
        match r.status {
            200 => assert_eq!(r.body.len(), size, "a whole answer"),
            503 => {
                assert_eq!(r.header("retry-after"), "2");
                let answer = r.json();
                assert_eq!(answer["status"], 503);
                assert!(
                    answer["statusText"]
                        .as_str()
                        .unwrap()
                        .contains("limits.answers_in_flight_mb"),
                    "{answer}"
                );
            }
            other => panic!("{other}: {}", r.text()),
        }
    }
    // Everything given back once the bodies are out: a refused client that retries is
    // answered.
    let bound = Instant::now() + Duration::from_secs(30);
    while metric(&s, "partscat_answers_in_flight_bytes") > 0.0 {
        assert!(Instant::now() < bound, "the answers sent kept their memory");
        std::thread::sleep(Duration::from_millis(20));
    }
    let again = s.fetch(client().post(&url).json(&vehicle_page(100)));
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(again.body.len(), size);
}

#[test]
fn a_call_whose_client_goes_away_stops_its_work() {
    let dir = tempfile::tempdir().unwrap();
    let (data, key) = link_heavy_store(dir.path());
    // Pages of 1,000 articles with 300 linkages each: about 170 MB of text and several
    // seconds of work each, allowed here so that only the clients' leaving stops them.
    let s = Served::start_with_env(
        &data,
        &[],
        &[
            ("PARTSCAT_LIMIT_ANSWER_MB", "1024"),
            ("PARTSCAT_LIMIT_ANSWERS_IN_FLIGHT_MB", "65536"),
            ("PARTSCAT_WORK_BUDGET_MS", "0"),
        ],
    );
    let address = s.base.trim_start_matches("http://").to_owned();
    let body = vehicle_page(1000).to_string();
    let request = format!(
        "POST /ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key={key} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let asking = 4;
    for _ in 0..asking {
        let mut socket = std::net::TcpStream::connect(&address).unwrap();
        socket.write_all(request.as_bytes()).unwrap();
        // Gone as soon as asked.
        drop(socket);
    }
    // Each call's work stops short (counted when it ends in an error after its client left)
    // and gives back what it held; done, they would run on for tens of seconds.
    let bound = Instant::now() + Duration::from_secs(60);
    while metric(&s, "partscat_calls_abandoned_total") < f64::from(asking) {
        assert!(
            Instant::now() < bound,
            "the calls ran on after their clients left"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    while metric(&s, "partscat_answers_in_flight_bytes") > 0.0 {
        assert!(Instant::now() < bound, "the calls held their memory");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(s.log_text().contains("call stopped: its client went away"));
}
