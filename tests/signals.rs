//! The signals operators send, as systemd and a shell send them: SIGHUP reloads what can
//! change while serving (the TLS pair) and never stops the server, with HTTPS or without;
//! a FIFO or a huge file put in place of the certificate is refused and logged while the
//! server goes on answering; SIGTERM stops it cleanly and takes its admin socket away.

mod common;

use std::time::{Duration, Instant};

use common::pki::{NOW, Pki};
use common::server::{DEMO_KEY, Served, signal};

/// Waits (up to 30 s) until the server's log says `what`.
fn logged(s: &Served, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !s.log_text().contains(what) {
        assert!(
            Instant::now() < deadline,
            "the log never said {what:?}: {}",
            s.log_text()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn sighup_on_plain_http_reloads_nothing_and_stops_nothing() {
    let mut s = Served::demo(&[]);
    let socket = s.data.join("admin.sock");
    assert!(socket.exists());
    for _ in 0..3 {
        signal(s.pid(), libc::SIGHUP);
    }
    logged(&s, "SIGHUP: nothing to reload without HTTPS");
    assert_eq!(s.get("/svc/getArticlesByKtype/10219").status, 200);
    assert!(socket.exists());
    let stopped = s.terminate();
    assert!(stopped.success(), "{stopped:?}");
    assert!(s.log_text().contains("shutting down"));
    assert!(!socket.exists(), "the admin socket is removed on SIGTERM");
}

#[test]
fn a_fifo_or_a_huge_file_in_place_of_the_certificate_keeps_the_pair_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let pki = Pki::new(dir.path());
    let ca = pki.ca("ca");
    pki.leaf("server", &["localhost", "127.0.0.1"], &ca, NOW);
    let mut s = Served::start_https(
        &dir.path().join("data"),
        &["--demo", "--demo-key", DEMO_KEY],
        &[],
        (
            &pki.file("server.pem"),
            &pki.file("server.key"),
            &pki.file("ca.pem"),
        ),
    );
    let certificate = pki.file("server.pem");
    std::fs::remove_file(&certificate).unwrap();
    let name = std::ffi::CString::new(certificate.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    signal(s.pid(), libc::SIGHUP);
    logged(&s, "not a regular file");
    assert!(s.log_text().contains("the one in use is kept"));
    assert_eq!(s.get("/health").status, 200);
    assert_eq!(s.get("/svc/getArticlesByKtype/10219").status, 200);

    // A file that keeps growing (here larger than any certificate) is refused by its size.
    std::fs::remove_file(&certificate).unwrap();
    std::fs::write(&certificate, vec![b'A'; 2 << 20]).unwrap();
    signal(s.pid(), libc::SIGHUP);
    logged(&s, "larger than 1024 KiB");
    assert_eq!(s.get("/health").status, 200);
    let stopped = s.terminate();
    assert!(stopped.success(), "{stopped:?}");
}
