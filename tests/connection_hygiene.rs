//! Clients that misbehave on the wire: headers trickled byte by byte, a connection that
//! says nothing, bodies larger than any route takes.

mod common;

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::server::{DEMO_KEY, Served};

fn connect(s: &Served) -> TcpStream {
    let stream = TcpStream::connect(s.base.trim_start_matches("http://")).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    stream
}

/// Whether the server has closed the connection (reads end or fail).
fn closed(stream: &mut TcpStream) -> bool {
    let mut buf = [0u8; 1024];
    match stream.read(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => !matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut),
    }
}

#[test]
fn a_client_trickling_its_headers_is_cut_off() {
    let s = Served::demo(&[]);
    let started = Instant::now();
    let mut trickler = connect(&s);
    let mut silent = connect(&s);
    trickler.write_all(b"GET /health HTTP/1.1\r\n").unwrap();
    let mut trickler_closed = None;
    let mut silent_closed = None;
    while started.elapsed() < Duration::from_secs(25)
        && (trickler_closed.is_none() || silent_closed.is_none())
    {
        if trickler_closed.is_none() {
            // One header byte a second: each read resets no deadline.
            if trickler.write_all(b"X").is_err() || closed(&mut trickler) {
                trickler_closed = Some(started.elapsed());
            }
        }
        if silent_closed.is_none() && closed(&mut silent) {
            silent_closed = Some(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(800));
    }
    for (who, when) in [("trickler", trickler_closed), ("silent", silent_closed)] {
        let when = when.unwrap_or_else(|| panic!("the {who} was never cut off"));
        assert!(
            when >= Duration::from_secs(9) && when < Duration::from_secs(15),
            "the {who} was cut off after {when:?}"
        );
    }
    // Meanwhile, a well-behaved client is served.
    let mut ok = connect(&s);
    ok.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    ok.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut answer = String::new();
    ok.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[test]
fn a_body_over_the_limit_is_refused_and_a_chunked_one_is_not_buffered() {
    let s = Served::demo(&[]);
    let target = format!("/svc/getArticlesByKtype/10219?provider=demo&api_key={DEMO_KEY}");

    let mut declared = connect(&s);
    write!(
        declared,
        "GET {target} HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n"
    )
    .unwrap();
    declared
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut head = [0u8; 12];
    declared.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 413");

    // 64 MiB of chunks: the server answers without holding them.
    let rss_before = rss_kib(s.pid());
    let mut chunked = connect(&s);
    write!(
        chunked,
        "GET {target} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    .unwrap();
    let chunk = vec![b'a'; 64 * 1024];
    let mut sent = 0usize;
    for _ in 0..1024 {
        if write!(chunked, "{:x}\r\n", chunk.len()).is_err()
            || chunked.write_all(&chunk).is_err()
            || chunked.write_all(b"\r\n").is_err()
        {
            break;
        }
        sent += chunk.len();
    }
    let grown = rss_kib(s.pid()).saturating_sub(rss_before);
    assert!(
        grown < 32 * 1024,
        "the server grew by {grown} KiB while {sent} bytes were sent"
    );
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}
