//! Followers' long polls held on one upstream, and what its lookups cost meanwhile: WAITERS
//! clients (each its own connection, as followers are) keep a `changes?wait=` open, asking
//! again as each is answered, while one client asks a lookup in a loop; then the lookups'
//! p50/p99 and the server's RSS, beside the same with no waiters, in one run.
//!
//!   cargo bench --bench held_waits -- BASE KEY SERVER_PID PROTOCOL [WAITERS] [SECONDS]
//!
//! PROTOCOL: `h1` (HTTP/1.1), `h2c` (HTTP/2 in clear), `h2` (HTTP/2 over TLS by ALPN),
//! each with `:CA_FILE` to trust that CA over TLS; BASE as `http://127.0.0.1:8080` or
//! `https://localhost:8443`.

use std::time::{Duration, Instant};

fn client(protocol: &str) -> reqwest::Client {
    let (kind, ca) = protocol.split_once(':').unwrap_or((protocol, ""));
    let mut builder = reqwest::Client::builder().timeout(Duration::from_secs(120));
    if !ca.is_empty() {
        let pem = std::fs::read(ca).expect("the CA file");
        builder = builder.add_root_certificate(reqwest::Certificate::from_pem(&pem).expect("PEM"));
    }
    let builder = match kind {
        "h2c" => builder.http2_prior_knowledge(),
        "h1" => builder.http1_only(),
        // Over TLS, HTTP/2 by ALPN.
        _ => builder,
    };
    builder.build().expect("a client")
}

fn rss_mib(pid: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0)
}

/// Lookups one after another for `seconds`: their count, p50 and p99 in ms, and errors.
async fn lookups(client: &reqwest::Client, url: &str, seconds: u64) -> (usize, f64, f64, usize) {
    let until = Instant::now() + Duration::from_secs(seconds);
    let (mut times, mut errors) = (Vec::new(), 0);
    while Instant::now() < until {
        let started = Instant::now();
        match client.get(url).send().await {
            Ok(r) if r.status() == 200 => {
                let _ = r.bytes().await;
                times.push(started.elapsed().as_secs_f64() * 1000.0);
            }
            _ => errors += 1,
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| {
        times
            .get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1)))
            .copied()
            .unwrap_or(f64::NAN)
    };
    (times.len(), at(0.5), at(0.99), errors)
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let [base, key, pid, protocol, ..] = &args[..] else {
        eprintln!("usage: held_waits BASE KEY SERVER_PID PROTOCOL [WAITERS] [SECONDS]");
        std::process::exit(2);
    };
    let waiters: usize = args.get(4).map_or(1000, |n| n.parse().expect("WAITERS"));
    let seconds: u64 = args.get(5).map_or(20, |n| n.parse().expect("SECONDS"));
    let credentials = format!("provider=demo&api_key={key}");
    let ready: serde_json::Value = client(protocol)
        .get(format!("{base}/ready"))
        .send()
        .await
        .expect("ready")
        .json()
        .await
        .expect("JSON");
    let since = ready["data_version"].as_u64().expect("a data version");
    let lookup = format!("{base}/svc/getCrossRefsOrArticle/0986494958?mainref&{credentials}");
    let asker = client(protocol);
    let (n, p50, p99, errors) = lookups(&asker, &lookup, seconds).await;
    println!(
        "{protocol} none held:  {n} lookups, p50 {p50:.3} ms, p99 {p99:.3} ms, {errors} errors; RSS {:.1} MiB",
        rss_mib(pid)
    );
    let wait = format!("{base}/svc/changes?importType=prices&since={since}&wait=60&{credentials}");
    let refused = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let mut held = Vec::new();
    for _ in 0..waiters {
        let (client, wait, refused) = (client(protocol), wait.clone(), refused.clone());
        held.push(tokio::spawn(async move {
            loop {
                match client.get(&wait).send().await {
                    Ok(r) if r.status() == 204 => {}
                    _ => {
                        refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        }));
    }
    // Every waiter connected and waiting before the lookups are measured.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let (n, p50, p99, errors) = lookups(&asker, &lookup, seconds).await;
    println!(
        "{protocol} {waiters} held: {n} lookups, p50 {p50:.3} ms, p99 {p99:.3} ms, {errors} errors; RSS {:.1} MiB; waits refused or failed {}",
        rss_mib(pid),
        refused.load(std::sync::atomic::Ordering::Relaxed)
    );
    for task in held {
        task.abort();
    }
}
