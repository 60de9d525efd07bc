//! Requests held open, as followers and HTTP/2 clients hold them: a long poll lasts as long
//! as it asked over HTTP/1.1, HTTP/2 over TLS (ALPN) and HTTP/2 in clear (h2c); an HTTP/2
//! connection is told how many streams it may open; and held waits never take the
//! connections that probes and lookups need.

mod common;

use std::time::{Duration, Instant};

use common::pki::{NOW, Pki};
use common::server::{DEMO_KEY, Served};

/// The data version a server is at.
fn version(s: &Served) -> u64 {
    s.get("/ready").json()["data_version"].as_u64().unwrap()
}

/// A long poll of `wait` seconds at `since` = the server's version, over `client`: its
/// status, protocol and how long it took.
fn long_poll(
    client: &reqwest::blocking::Client,
    base: &str,
    since: u64,
    wait: u64,
) -> (u16, reqwest::Version, Duration) {
    let started = Instant::now();
    let r = client
        .get(format!(
            "{base}/svc/changes?importType=prices&since={since}&wait={wait}&provider=demo&api_key={DEMO_KEY}"
        ))
        .send()
        .unwrap();
    (r.status().as_u16(), r.version(), started.elapsed())
}

fn patient() -> reqwest::blocking::ClientBuilder {
    reqwest::blocking::Client::builder().timeout(Duration::from_secs(60))
}

/// The header deadline (10 s) bounds a request's headers, never a connection's life: a wait
/// of 12 s is answered 204 after 12 s over h2c and h2 alike, and the same connection then
/// answers a lookup.
#[test]
fn a_long_poll_over_http2_lasts_as_long_as_over_http1() {
    let dir = tempfile::tempdir().unwrap();
    let pki = Pki::new(dir.path());
    let ca = pki.ca("ca");
    pki.leaf("server", &["localhost", "127.0.0.1"], &ca, NOW);
    let plain = Served::demo(&[]);
    let https = Served::start_https(
        &dir.path().join("tls"),
        &["--demo", "--demo-key", DEMO_KEY],
        &[],
        (
            &pki.file("server.pem"),
            &pki.file("server.key"),
            &pki.file("ca.pem"),
        ),
    );
    let h2c = patient().http2_prior_knowledge().build().unwrap();
    let certificate = std::fs::read(pki.file("ca.pem")).unwrap();
    let h2 = patient()
        .add_root_certificate(reqwest::Certificate::from_pem(&certificate).unwrap())
        .build()
        .unwrap();
    let h1 = patient().http1_only().build().unwrap();
    let (plain_since, https_since) = (version(&plain), version(&https));
    std::thread::scope(|scope| {
        let polls = [
            (&h2c, &plain.base, plain_since, reqwest::Version::HTTP_2),
            (&h2, &https.base, https_since, reqwest::Version::HTTP_2),
            (&h1, &plain.base, plain_since, reqwest::Version::HTTP_11),
        ]
        .map(|(client, base, since, expected)| {
            scope.spawn(move || {
                let (status, protocol, took) = long_poll(client, base, since, 12);
                assert_eq!(protocol, expected, "{base}");
                assert_eq!(status, 204, "{base} over {protocol:?}");
                assert!(took >= Duration::from_secs(12), "{base}: {took:?}");
                let again = client
                    .get(format!(
                        "{base}/svc/getArticlesByKtype/10219?provider=demo&api_key={DEMO_KEY}"
                    ))
                    .send()
                    .unwrap();
                assert_eq!(again.status(), 200);
                assert_eq!(again.version(), expected);
            })
        });
        for poll in polls {
            poll.join().unwrap();
        }
    });
}

/// An HTTP/2 client learns from the server's settings how many streams it may open.
#[test]
fn an_http2_connection_is_told_its_stream_limit() {
    let s = Served::demo(&[]);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let address = s.base.trim_start_matches("http://").to_owned();
    let limit = runtime.block_on(async move {
        use futures_util::FutureExt;
        let tcp = tokio::net::TcpStream::connect(address).await.unwrap();
        let (mut client, mut connection) = h2::client::handshake(tcp).await.unwrap();
        let request = http::Request::get("http://127.0.0.1/health")
            .body(())
            .unwrap();
        let (response, _) = client.send_request(request, true).unwrap();
        let mut response = Box::pin(response);
        let answered = std::future::poll_fn(|cx| {
            let _ = connection.poll_unpin(cx);
            response.poll_unpin(cx)
        })
        .await
        .unwrap();
        assert_eq!(answered.status(), 200);
        connection.max_concurrent_send_streams()
    });
    assert_eq!(limit, 100);
}

/// Held waits may take half the connections (`max_connections` 8: four); the next wait is
/// a 503 with `Retry-After` at once, while probes and lookups are answered.
#[test]
fn held_waits_leave_room_for_probes_and_lookups() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_MAX_CONNECTIONS", "8")]);
    let since = version(&s);
    let base = s.base.clone();
    for _ in 0..4 {
        let base = base.clone();
        // Each holds its connection until the server stops (asking again while refused).
        std::thread::spawn(move || {
            let client = patient().build().unwrap();
            let url = format!(
                "{base}/svc/changes?importType=prices&since={since}&wait=120&provider=demo&api_key={DEMO_KEY}"
            );
            while client.get(&url).send().is_ok_and(|r| r.status() == 503) {
                std::thread::sleep(Duration::from_millis(20));
            }
        });
    }
    let client = patient().build().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    // A wait from an older version, answered at once where it is not refused: it holds a
    // place only for a moment, so the four take theirs.
    let refused = loop {
        let r = client
            .get(format!(
                "{base}/svc/changes?importType=prices&since={}&wait=1&provider=demo&api_key={DEMO_KEY}",
                since - 1
            ))
            .send()
            .unwrap();
        if r.status() == 503 {
            break r;
        }
        assert!(
            Instant::now() < deadline,
            "the four waits were never all held"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(refused.headers()["retry-after"], "2");
    let said = refused.text().unwrap();
    assert!(
        said.contains("4 requests wait for changes already"),
        "{said}"
    );
    assert_eq!(s.get("/health").status, 200);
    assert_eq!(s.get("/svc/getArticlesByKtype/10219").status, 200);
}
