//! HTTPS on the listen addresses, through real sockets: curl trusting the certificate,
//! openssl's client for the protocol versions, a key others may read refused at start, HSTS,
//! and a renewed certificate taken on SIGHUP without a restart. Every wait has its own bound.

mod common;

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::server::{DEMO_KEY, free_port, terminate};
use common::{path, text};

/// A self-signed certificate for 127.0.0.1 and localhost, and its key (mode 0600).
fn certificate(dir: &Path, name: &str) {
    let o = Command::new("openssl")
        .args(["req", "-x509", "-newkey", "ec", "-pkeyopt"])
        .args(["ec_paramgen_curve:P-256", "-nodes", "-days", "30"])
        .args(["-subj", &format!("/CN={name}")])
        .args(["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        .arg("-keyout")
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    chmod(&dir.join("key.pem"), 0o600);
}

fn chmod(file: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn serve(dir: &Path, port: u16) -> Command {
    let mut cmd = Command::new(common::bin());
    cmd.args(["serve", "--demo", "--demo-key", DEMO_KEY])
        .args(["--data", path(&dir.join("data"))])
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .args(["--tls-cert", path(&dir.join("cert.pem"))])
        .args(["--tls-key", path(&dir.join("key.pem"))])
        .env_remove("PARTSCAT_DATA")
        .env("PARTSCAT_ADMIN_SOCKET", "");
    cmd
}

/// curl with the certificate as its only trust anchor, for at most 20 s.
fn curl(dir: &Path, args: &[&str]) -> Output {
    Command::new("curl")
        .args([
            "-s",
            "--max-time",
            "20",
            "--cacert",
            path(&dir.join("cert.pem")),
        ])
        .args(args)
        .output()
        .unwrap()
}

/// The status `/ready` answers over HTTPS.
fn ready_status(dir: &Path, base: &str) -> String {
    let o = curl(
        dir,
        &[
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            &format!("{base}/ready"),
        ],
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The SHA-256 fingerprint of the certificate the server presents.
fn presented(port: u16, version: &str) -> Option<String> {
    let mut client = Command::new("timeout")
        .args(["20", "openssl", "s_client", version])
        .args(["-connect", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let x509 = Command::new("openssl")
        .args(["x509", "-noout", "-fingerprint", "-sha256"])
        .stdin(client.stdout.take().unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    client.wait().unwrap();
    let out = x509.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn fingerprint_of(dir: &Path) -> String {
    let o = Command::new("openssl")
        .args(["x509", "-noout", "-fingerprint", "-sha256", "-in"])
        .arg(dir.join("cert.pem"))
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout).trim().to_owned()
}

/// Waits, for at most two minutes, until `ready` holds.
fn until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !ready() {
        assert!(Instant::now() < deadline, "{what} did not happen in time");
        std::thread::sleep(Duration::from_millis(100));
    }
}

struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        terminate(&mut self.0);
    }
}

#[test]
#[ignore = "needs curl and openssl: run by tests/with-system-tools.sh, which installs it"]
fn every_listen_address_serves_https_with_a_certificate_renewed_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    certificate(d, "first");

    // A key others may read is refused at start, naming the file.
    chmod(&d.join("key.pem"), 0o644);
    let o = serve(d, free_port()).output().unwrap();
    assert!(!o.status.success());
    let said = text(&o);
    assert!(said.contains("key.pem") && said.contains("chmod"), "{said}");
    chmod(&d.join("key.pem"), 0o600);
    // One without the other is refused too.
    let o = Command::new(common::bin())
        .args(["serve", "--data", path(&d.join("data"))])
        .env("PARTSCAT_TLS_CERT", d.join("cert.pem"))
        .env("PARTSCAT_ADMIN_SOCKET", "")
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        text(&o).contains("tls_cert and tls_key go together"),
        "{}",
        text(&o)
    );

    let port = free_port();
    let _server = Running(
        serve(d, port)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let base = format!("https://127.0.0.1:{port}");
    until("the HTTPS server's readiness", || {
        ready_status(d, &base) == "200"
    });

    // A lookup over HTTPS, with HSTS.
    let o = curl(
        d,
        &[
            "-i",
            &format!("{base}/svc/getArticlesByKtype/10219?provider=demo&api_key={DEMO_KEY}"),
        ],
    );
    let answer = String::from_utf8_lossy(&o.stdout).to_ascii_lowercase();
    let status_line = answer.lines().next().unwrap_or("");
    assert!(
        status_line.ends_with(" 200") || status_line.contains(" 200 "),
        "{answer}"
    );
    assert!(
        answer.contains("strict-transport-security: max-age="),
        "{answer}"
    );
    // HTTPS only: plain HTTP on the same address gets no answer.
    let o = Command::new("curl")
        .args([
            "-s",
            "--max-time",
            "10",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
        ])
        .arg(format!("http://127.0.0.1:{port}/ready"))
        .output()
        .unwrap();
    assert_ne!(String::from_utf8_lossy(&o.stdout), "200");

    // TLS 1.2 and 1.3; nothing older.
    let first = fingerprint_of(d);
    // `partscat tls` shows the fingerprint clients compare, as openssl writes it.
    let o = Command::new(common::bin())
        .args(["tls", "--tls-cert", path(&d.join("cert.pem"))])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let shown = text(&o);
    let hex = first.rsplit('=').next().unwrap();
    assert!(shown.contains(hex), "{shown} lacks {hex}");
    assert_eq!(presented(port, "-tls1_3").as_deref(), Some(first.as_str()));
    assert_eq!(presented(port, "-tls1_2").as_deref(), Some(first.as_str()));
    assert_eq!(presented(port, "-tls1_1"), None);
    assert_eq!(presented(port, "-tls1"), None);

    // A renewed certificate: on SIGHUP the next handshakes get it, no restart.
    certificate(d, "renewed");
    let renewed = fingerprint_of(d);
    assert_ne!(renewed, first);
    let pid = _server.0.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-HUP", &pid])
            .status()
            .unwrap()
            .success()
    );
    until("the renewed certificate", || {
        presented(port, "-tls1_3").as_deref() == Some(renewed.as_str())
    });
    assert_eq!(ready_status(d, &base), "200");
}

/// Requests in flight while the certificate is renewed: a keep-alive client and one that
/// opens a new connection for each request, both trusting the CA that signed the old and
/// the new certificate. None fails; new connections get the new certificate.
#[test]
#[ignore = "needs openssl: run by tests/with-system-tools.sh, which installs it"]
fn a_certificate_renewed_under_load_fails_no_request() {
    use common::pki::{NOW, Pki};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pki = Pki::new(d);
    let ca = pki.ca("ca");
    pki.leaf("first", &["127.0.0.1"], &ca, NOW);
    pki.leaf("renewed", &["127.0.0.1"], &ca, NOW);
    for (from, to) in [("first.pem", "cert.pem"), ("first.key", "key.pem")] {
        std::fs::copy(pki.file(from), d.join(to)).unwrap();
    }
    let port = free_port();
    let server = Running(
        serve(d, port)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let url = format!(
        "https://127.0.0.1:{port}/svc/getArticlesByKtype/10219?provider=demo&api_key={DEMO_KEY}"
    );
    let keep_alive = common::server::client_trusting(&pki.file("ca.pem"));
    until("the HTTPS server's readiness", || {
        keep_alive
            .get(format!("https://127.0.0.1:{port}/ready"))
            .send()
            .is_ok_and(|r| r.status() == 200)
    });

    let (stop, failed, done) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
    );
    let workers: Vec<_> = [false, true]
        .into_iter()
        .map(|new_connections| {
            let (stop, failed, done, url) =
                (stop.clone(), failed.clone(), done.clone(), url.clone());
            let ca = pki.file("ca.pem");
            std::thread::spawn(move || {
                let mut client = common::server::client_trusting(&ca);
                // At most 20,000 requests each: the loop ends by itself.
                for _ in 0..20_000 {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if new_connections {
                        client = common::server::client_trusting(&ca);
                    }
                    let answered = client
                        .get(&url)
                        .send()
                        .is_ok_and(|r| r.status() == 200 && r.bytes().is_ok());
                    if !answered {
                        failed.fetch_add(1, Ordering::Relaxed);
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();

    until("requests before the renewal", || {
        done.load(Ordering::Relaxed) >= 100
    });
    for (from, to) in [("renewed.pem", "cert.pem"), ("renewed.key", "key.pem")] {
        std::fs::copy(pki.file(from), d.join(to)).unwrap();
    }
    let renewed = pki.fingerprint("renewed");
    assert!(
        Command::new("kill")
            .args(["-HUP", &server.0.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    until("the renewed certificate", || {
        presented(port, "-tls1_3").is_some_and(|f| f.ends_with(&renewed))
    });
    let at_renewal = done.load(Ordering::Relaxed);
    until("requests after the renewal", || {
        done.load(Ordering::Relaxed) >= at_renewal + 100
    });
    stop.store(true, Ordering::Relaxed);
    for worker in workers {
        worker.join().unwrap();
    }
    assert_eq!(
        failed.load(Ordering::Relaxed),
        0,
        "of {} requests",
        done.load(Ordering::Relaxed)
    );
}
