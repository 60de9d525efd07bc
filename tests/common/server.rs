//! A running `partscat serve` on a loopback port, as a client meets it.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::{bin, path};

pub const DEMO_KEY: &str = "pc_test_demo_key";

pub struct Served {
    child: Child,
    pub base: String,
    /// A client that trusts the server's certificate where it serves HTTPS.
    client: reqwest::blocking::Client,
    pub log: PathBuf,
    /// The store's directory.
    pub data: PathBuf,
    _dir: Option<tempfile::TempDir>,
}

pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn header(&self, name: &str) -> String {
        self.headers
            .get(name)
            .map(|v| v.to_str().unwrap_or("").to_owned())
            .unwrap_or_default()
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn client() -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

/// A client that trusts the CA certificates in the PEM file `ca` only.
pub fn client_trusting(ca: &Path) -> reqwest::blocking::Client {
    let trust = partscat::outside::tls::Trust {
        ca_file: Some(ca.to_path_buf()),
        ..Default::default()
    };
    reqwest::blocking::Client::builder()
        .tls_backend_preconfigured(trust.client_config("test").unwrap())
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

/// Sends `signal` to the process `pid`, as `kill` does.
pub fn signal(pid: u32, signal: libc::c_int) {
    // SAFETY: kill only sends a signal; the pid is one of this test's children.
    let sent = unsafe { libc::kill(pid as libc::pid_t, signal) };
    assert_eq!(sent, 0, "signal {signal} to {pid}");
}

/// Sends SIGTERM to a server process and waits (up to 30 s) for it to exit.
pub fn terminate(child: &mut std::process::Child) -> std::process::ExitStatus {
    signal(child.id(), libc::SIGTERM);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        assert!(
            Instant::now() < deadline,
            "the server did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A client whose connections come from `ip` (any 127.0.0.0/8 address works on loopback).
pub fn client_from(ip: &str) -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .local_address(ip.parse::<std::net::IpAddr>().unwrap())
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

impl Served {
    /// The demo appliance on a fresh store, ready.
    pub fn demo(extra: &[&str]) -> Served {
        Served::demo_with_env(extra, &[])
    }

    pub fn demo_with_env(extra: &[&str], vars: &[(&str, &str)]) -> Served {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        let args = [&["--demo", "--demo-key", DEMO_KEY], extra].concat();
        let mut s = Served::start_with_env(&data, &args, vars);
        s._dir = Some(dir);
        s
    }

    /// `serve` on the store at `data`, ready.
    pub fn start(data: &Path, args: &[&str]) -> Served {
        Served::start_with_env(data, args, &[])
    }

    pub fn start_with_env(data: &Path, args: &[&str], vars: &[(&str, &str)]) -> Served {
        Served::start_logging_to(data, args, vars, &data.with_extension("log"))
    }

    /// `serve` with its standard error written to `log`.
    pub fn start_logging_to(
        data: &Path,
        args: &[&str],
        vars: &[(&str, &str)],
        log: &Path,
    ) -> Served {
        Served::launch(data, args, vars, log, None)
    }

    /// `serve` over HTTPS with the certificate and key given, trusted through the CA `ca`.
    pub fn start_https(
        data: &Path,
        args: &[&str],
        vars: &[(&str, &str)],
        (cert, key, ca): (&Path, &Path, &Path),
    ) -> Served {
        let args = [args, &["--tls-cert", path(cert), "--tls-key", path(key)]].concat();
        Served::launch(data, &args, vars, &data.with_extension("log"), Some(ca))
    }

    fn launch(
        data: &Path,
        args: &[&str],
        vars: &[(&str, &str)],
        log: &Path,
        https_ca: Option<&Path>,
    ) -> Served {
        let port = free_port();
        let log = log.to_path_buf();
        let child = Command::new(bin())
            .args(["serve", "--data", path(data)])
            .args(["--listen", &format!("127.0.0.1:{port}")])
            .args(args)
            .env_remove("PARTSCAT_DATA")
            .env("PARTSCAT_LOG", "info")
            .envs(vars.iter().copied())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let scheme = if https_ca.is_some() { "https" } else { "http" };
        let served = Served {
            child,
            base: format!("{scheme}://127.0.0.1:{port}"),
            client: https_ca.map_or_else(client, client_trusting),
            log,
            data: data.to_path_buf(),
            _dir: None,
        };
        served.wait_ready();
        served
    }

    fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if let Ok(r) = self.client.get(format!("{}/ready", self.base)).send()
                && r.status().as_u16() == 200
            {
                return;
            }
            assert!(Instant::now() < deadline, "the server did not become ready");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `path` with the demo provider's credentials in the query.
    pub fn url(&self, path: &str) -> String {
        let sep = if path.contains('?') { '&' } else { '?' };
        format!("{}{path}{sep}provider=demo&api_key={DEMO_KEY}", self.base)
    }

    /// GET with credentials.
    pub fn get(&self, path: &str) -> Reply {
        self.fetch(self.client.get(self.url(path)))
    }

    /// GET without credentials.
    pub fn get_open(&self, path: &str) -> Reply {
        self.fetch(self.client.get(format!("{}{path}", self.base)))
    }

    pub fn fetch(&self, request: reqwest::blocking::RequestBuilder) -> Reply {
        let r = request.send().unwrap();
        Reply {
            status: r.status().as_u16(),
            headers: r.headers().clone(),
            body: r.bytes().unwrap().to_vec(),
        }
    }

    /// Stops the server as systemd does (SIGTERM) and waits for it to exit.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        terminate(&mut self.child)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
