//! A flood of connections does not take the service away from everyone else: at an
//! open-file limit of 1,024, 1,100 idle connections are answered or closed quickly, while
//! probes (answered 200 or 503, never a broken connection), lookups, an established client
//! and the admin socket keep working; a request body trickled a byte at a time is cut off.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::server::{DEMO_KEY, client, free_port};

/// This test process opens more sockets than a soft limit of 1,024 allows.
fn raise_own_file_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    unsafe {
        libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit);
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
}

/// `serve --demo` under a hard open-file limit of 1,024, as systemd's default soft limit.
struct Limited {
    child: std::process::Child,
    base: String,
    address: SocketAddr,
    data: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Limited {
    fn start() -> Limited {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let port = free_port();
        let log = std::fs::File::create(dir.path().join("serve.log")).unwrap();
        let script = format!(
            "ulimit -n 1024 && exec '{}' serve --demo --demo-key {DEMO_KEY} --data '{}' --listen 127.0.0.1:{port}",
            common::bin().display(),
            data.display()
        );
        let child = Command::new("sh")
            .args(["-c", &script])
            .env_remove("PARTSCAT_DATA")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .unwrap();
        let served = Limited {
            child,
            base: format!("http://127.0.0.1:{port}"),
            address: format!("127.0.0.1:{port}").parse().unwrap(),
            data,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(120);
        while client()
            .get(format!("{}/ready", served.base))
            .send()
            .map(|r| r.status().as_u16())
            .unwrap_or(0)
            != 200
        {
            assert!(Instant::now() < deadline, "the server did not become ready");
            std::thread::sleep(Duration::from_millis(50));
        }
        served
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self._dir.path().join("serve.log")).unwrap_or_default()
    }
}

impl Drop for Limited {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One GET on a new connection, with its own short time-out: the status, or why none came.
fn probe(base: &str, path: &str) -> Result<u16, String> {
    reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(3))
        .build()
        .unwrap()
        .get(format!("{base}{path}"))
        .send()
        .map(|r| r.status().as_u16())
        .map_err(|e| format!("{e:?}"))
}

#[test]
fn a_flood_of_idle_connections_does_not_starve_anyone() {
    raise_own_file_limit();
    let s = Limited::start();
    assert!(
        s.log().contains("max_connections=576"),
        "the cap follows the open-file limit: {}",
        s.log()
    );
    // An established keep-alive client, before the flood.
    let established = client();
    let lookup = format!(
        "{}/svc/getArticlesByKtype/10219?provider=demo&api_key={DEMO_KEY}",
        s.base
    );
    assert_eq!(established.get(&lookup).send().unwrap().status(), 200);

    // The established client keeps using its connection while the flood opens (on a busy
    // machine that takes seconds): near the cap, a connection idle for 2 s is closed by
    // design, and its reconnect would be refused.
    let mut flood = Vec::new();
    for i in 0..1100 {
        if i % 100 == 99 {
            let r = established.get(&lookup).send().unwrap();
            assert_eq!(r.status(), 200, "the established client is served: {r:?}");
        }
        if let Ok(stream) = TcpStream::connect_timeout(&s.address, Duration::from_secs(1)) {
            flood.push(stream);
        }
    }
    assert!(
        flood.len() >= 1000,
        "only {} connections opened",
        flood.len()
    );

    // Every probe answers quickly; within a few seconds they are served again.
    let started = Instant::now();
    let mut served = None;
    while started.elapsed() < Duration::from_secs(15) {
        let asked = Instant::now();
        let health = probe(&s.base, "/health")
            .unwrap_or_else(|e| panic!("a probe failed during the flood: {e}"));
        assert!(
            asked.elapsed() < Duration::from_secs(3),
            "a probe hung during the flood: {:?}",
            asked.elapsed()
        );
        assert!(matches!(health, 200 | 503), "{health}");
        let r = established.get(&lookup).send().unwrap();
        assert_eq!(r.status(), 200, "the established client is served: {r:?}");
        if health == 200 && probe(&s.base, &lookup.replace(&s.base, "")) == Ok(200) {
            served = Some(started.elapsed());
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let served = served.expect("probes and lookups were not served during the flood");
    assert!(served < Duration::from_secs(10), "{served:?}");

    // The admin socket answers during the flood.
    let admin = common::partscat(&[
        "admin",
        "--data",
        common::path(&s.data),
        "provider",
        "list",
        "--json",
    ]);
    assert!(admin.status.success(), "{}", common::text(&admin));

    // The idle flood is closed by the server, or answered 503 and closed: the last ones
    // (below three quarters of the cap) within the normal header time-out.
    let mut closed = vec![false; flood.len()];
    let deadline = Instant::now() + Duration::from_secs(20);
    while closed.iter().filter(|c| **c).count() < flood.len() && Instant::now() < deadline {
        for (stream, closed) in flood.iter_mut().zip(closed.iter_mut()) {
            if *closed {
                continue;
            }
            stream
                .set_read_timeout(Some(Duration::from_millis(1)))
                .unwrap();
            let mut buf = [0u8; 512];
            *closed = match stream.read(&mut buf) {
                Ok(0) => true,
                Ok(_) => buf.starts_with(b"HTTP/1.1 503"),
                Err(e) => !matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ),
            };
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let closed = closed.iter().filter(|c| **c).count();
    assert_eq!(closed, flood.len(), "idle connections left open");
}

#[test]
fn a_body_trickled_a_byte_at_a_time_is_cut_off() {
    let s = common::server::Served::demo(&[]);
    let mut slow = TcpStream::connect(s.base.trim_start_matches("http://")).unwrap();
    slow.write_all(
        format!(
            "POST /ws/3.0/services/PartsToCatDLB.soapEndpoint?api_key={DEMO_KEY} HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 100000\r\n\r\n"
        )
        .as_bytes(),
    )
    .unwrap();
    slow.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let started = Instant::now();
    let mut answer = Vec::new();
    while started.elapsed() < Duration::from_secs(45) {
        let _ = slow.write_all(b"<");
        let mut buf = [0u8; 4096];
        match slow.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(_) => break,
        }
        if answer.ends_with(b"</soap:Envelope>") {
            break;
        }
        std::thread::sleep(Duration::from_millis(1900));
    }
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within 30 s"), "{answer}");
    assert!(
        started.elapsed() < Duration::from_secs(40),
        "{:?}",
        started.elapsed()
    );
}
