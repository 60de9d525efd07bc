//! The soak: a generated catalogue served by the real binary, first driven closed-loop to
//! find the peak of a mixed load, then open-loop at 80 % of that peak for ten minutes:
//! `/svc` lookups and SOAP `getArticles` calls, one CSV export and one `addDynamicAPIKey`
//! a second. Every 10 s the server's resident memory and open file descriptors are sampled.
//! It prints errors, p50/p99 per kind of call, and the samples. The load generator keeps at
//! most 256 calls in flight: a call due while all are busy is counted as not sent, so an
//! overloaded machine shows as a shortfall, not as a pile of client-side time-outs.
//!
//!   cargo bench --bench soak
//!   SOAK_SECONDS=120 SOAK_ARTICLES=20000 cargo bench --bench soak

use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use std::sync::Mutex;

const KEY: &str = "pc_soak_key";

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(dir: &std::path::Path, articles: u64) -> Server {
    let bin = env!("CARGO_BIN_EXE_partscat");
    let csv = dir.join("csv");
    let data = dir.join("data");
    let run = |args: &[&str]| {
        let out = Command::new(bin)
            .args(args)
            .output()
            .expect("partscat runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
    };
    run(&[
        "gen",
        "--articles",
        &articles.to_string(),
        "--out",
        csv.to_str().unwrap(),
    ]);
    run(&[
        "import",
        "--data",
        data.to_str().unwrap(),
        csv.to_str().unwrap(),
    ]);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(bin)
        .args(["serve", "--demo", "--demo-key", KEY, "--data"])
        .arg(&data)
        .args(["--listen", &format!("127.0.0.1:{port}")])
        .env("PARTSCAT_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = Server {
        child,
        base: format!("http://127.0.0.1:{port}"),
    };
    let client = reqwest::blocking::Client::new();
    while client
        .get(format!("{}/ready", server.base))
        .send()
        .map(|r| r.status().as_u16())
        .unwrap_or(0)
        != 200
    {
        std::thread::sleep(Duration::from_millis(100));
    }
    server
}

/// What the load asks, in the mix's proportions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Lookup,
    Soap,
    Export,
    DynamicKey,
}

const KINDS: [Kind; 4] = [Kind::Lookup, Kind::Soap, Kind::Export, Kind::DynamicKey];

/// Calls in flight at most.
const IN_FLIGHT: usize = 256;

struct Load {
    base: String,
    slots: Arc<tokio::sync::Semaphore>,
    not_sent: AtomicU64,
    client: reqwest::Client,
    references: Vec<String>,
    next: AtomicU64,
    errors: AtomicU64,
    latencies: Mutex<Vec<Vec<u32>>>,
}

impl Load {
    async fn call(&self, kind: Kind) {
        let n = self.next.fetch_add(1, Ordering::Relaxed) as usize;
        let reference = &self.references[n % self.references.len()];
        let started = Instant::now();
        let sent = match kind {
            Kind::Lookup => self
                .client
                .get(format!(
                    "{}/svc/getCrossRefsOrArticle/{reference}?mainref&provider=demo&api_key={KEY}",
                    self.base
                ))
                .send(),
            Kind::Soap => self
                .client
                .post(format!(
                    "{}/ws/3.0/services/PartsToCatDLB.soapEndpoint?api_key={KEY}",
                    self.base
                ))
                .header("Content-Type", "text/xml; charset=utf-8")
                .body(format!(
                    r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><p:getArticles xmlns:p="urn:partscat:ws:3.0:PartsToCatDLB"><p:provider>demo</p:provider><p:searchQuery>{reference}</p:searchQuery><p:includeAll>true</p:includeAll></p:getArticles></s:Body></s:Envelope>"#
                ))
                .send(),
            Kind::Export => self
                .client
                .get(format!(
                    "{}/svc/exportGolda?brand_id={}&is_csv_export=true&provider=demo&api_key={KEY}",
                    self.base,
                    n % 4 + 1
                ))
                .send(),
            Kind::DynamicKey => self
                .client
                .post(format!(
                    "{}/ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key={KEY}",
                    self.base
                ))
                .body(r#"{"addDynamicAPIKey": {"provider": "demo", "validityHours": 1}}"#)
                .send(),
        };
        let ok = match sent.await {
            Ok(r) if r.status().is_success() => match r.bytes().await {
                Ok(body) => match kind {
                    Kind::Soap => body
                        .windows(28)
                        .any(|w| w == b"<tns:status>200</tns:status>"),
                    Kind::DynamicKey => body.starts_with(br#"{"status":200"#),
                    Kind::Lookup | Kind::Export => true,
                },
                Err(_) => false,
            },
            _ => false,
        };
        if !ok {
            self.errors.fetch_add(1, Ordering::Relaxed);
        }
        let micros = started.elapsed().as_micros().min(u32::MAX as u128) as u32;
        if let Ok(mut latencies) = self.latencies.lock() {
            latencies[kind as usize].push(micros);
        }
    }
}

/// Resident memory (KiB) and open descriptors of a process.
fn sample(pid: u32) -> (u64, usize) {
    let rss = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0);
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|d| d.count())
        .unwrap_or(0);
    (rss, fds)
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

/// The load generator holds hundreds of sockets: its soft open-file limit goes to the hard.
fn raise_open_file_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the struct passed, nothing else.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is taken from the command line.
    raise_open_file_limit();
    let articles = env_or("SOAK_ARTICLES", 45_000);
    let seconds = env_or("SOAK_SECONDS", 600);
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), articles);
    let pid = server.child.id();
    let references: Vec<String> = csv::Reader::from_path(dir.path().join("csv/articles.csv"))
        .unwrap()
        .records()
        .filter_map(Result::ok)
        .filter_map(|r| {
            r.get(1)
                .map(|s| s.chars().filter(char::is_ascii_alphanumeric).collect())
        })
        .collect();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let load = Arc::new(Load {
        base: server.base.clone(),
        client: reqwest::Client::builder()
            .pool_max_idle_per_host(IN_FLIGHT)
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap(),
        references,
        slots: Arc::new(tokio::sync::Semaphore::new(IN_FLIGHT)),
        not_sent: AtomicU64::new(0),
        next: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        latencies: Mutex::new(vec![Vec::new(); KINDS.len()]),
    });

    // The peak: 64 callers back to back for 10 s, lookups and SOAP calls three to one.
    let peak = runtime.block_on(async {
        let until = Instant::now() + Duration::from_secs(10);
        let done = Arc::new(AtomicU64::new(0));
        let mut callers = Vec::new();
        for c in 0..64u64 {
            let (load, done) = (load.clone(), done.clone());
            callers.push(tokio::spawn(async move {
                let mut i = c;
                while Instant::now() < until {
                    let kind = if i % 4 == 3 { Kind::Soap } else { Kind::Lookup };
                    load.call(kind).await;
                    done.fetch_add(1, Ordering::Relaxed);
                    i += 1;
                }
            }));
        }
        for c in callers {
            let _ = c.await;
        }
        done.load(Ordering::Relaxed) as f64 / 10.0
    });
    let rate = (peak * 0.8).max(1.0);
    println!(
        "catalogue: {articles} articles; peak of the lookup/SOAP mix {peak:.0} req/s; soak at {rate:.0} req/s for {seconds} s, plus 1 export and 1 dynamic key a second"
    );
    load.errors.store(0, Ordering::Relaxed);
    for kind in load.latencies.lock().unwrap().iter_mut() {
        kind.clear();
    }

    let samples = runtime.block_on(async {
        let started = Instant::now();
        let end = started + Duration::from_secs(seconds);
        let mut samples = vec![(0u64, sample(pid))];
        let mut tick = tokio::time::interval(Duration::from_millis(10));
        let per_tick = rate / 100.0;
        let (mut owed, mut ticks) = (0.0f64, 0u64);
        let mut in_flight = tokio::task::JoinSet::new();
        while Instant::now() < end {
            tick.tick().await;
            ticks += 1;
            owed += per_tick;
            let mut due = Vec::new();
            while owed >= 1.0 {
                owed -= 1.0;
                let n = load.next.load(Ordering::Relaxed) + due.len() as u64;
                due.push(if n % 4 == 3 { Kind::Soap } else { Kind::Lookup });
            }
            if ticks.is_multiple_of(100) {
                due.extend([Kind::Export, Kind::DynamicKey]);
            }
            for kind in due {
                let Ok(slot) = load.slots.clone().try_acquire_owned() else {
                    load.not_sent.fetch_add(1, Ordering::Relaxed);
                    continue;
                };
                let load = load.clone();
                in_flight.spawn(async move {
                    load.call(kind).await;
                    drop(slot);
                });
            }
            if ticks.is_multiple_of(1000) {
                samples.push((started.elapsed().as_secs(), sample(pid)));
            }
            while in_flight.try_join_next().is_some() {}
        }
        while in_flight.join_next().await.is_some() {}
        samples.push((started.elapsed().as_secs(), sample(pid)));
        samples
    });

    let mut latencies = load.latencies.lock().unwrap().clone();
    let total: usize = latencies.iter().map(Vec::len).sum();
    println!(
        "requests: {total}, errors: {}, not sent (all {IN_FLIGHT} slots busy): {}",
        load.errors.load(Ordering::Relaxed),
        load.not_sent.load(Ordering::Relaxed)
    );
    for kind in KINDS {
        let l = &mut latencies[kind as usize];
        l.sort_unstable();
        println!(
            "{:<12} {:>8} calls  p50 {:>8.2} ms  p99 {:>8.2} ms",
            format!("{kind:?}"),
            l.len(),
            percentile(l, 0.5),
            percentile(l, 0.99)
        );
    }
    println!("{:>6}  {:>10}  {:>6}", "s", "RSS MiB", "fds");
    for (at, (rss, fds)) in samples {
        println!("{at:>6}  {:>10.1}  {fds:>6}", rss as f64 / 1024.0);
    }
}
