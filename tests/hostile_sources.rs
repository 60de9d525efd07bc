//! What partscat takes from outside, tried as an attacker would: a hostile upstream, media
//! server and publish target of the test's own on loopback, crafted folders, links, FIFOs
//! and backups. Each attempt must come out harmless: a clear error, nothing followed or
//! written, the catalogue's checksum unchanged. Every command runs with a bound of its own.

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::server::{DEMO_KEY, Served, client};
use common::{check, import, path, text};
use serde_json::{Value, json};

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo");

/// Runs `cmd`, killing it and failing the test should it take over two minutes.
fn run(mut cmd: Command) -> Output {
    cmd.env_remove("PARTSCAT_DATA")
        .env("PARTSCAT_ADMIN_SOCKET", "")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("{cmd:?} ran over two minutes");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn partscat(args: &[&str], vars: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(common::bin());
    cmd.args(args);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    run(cmd)
}

/// A store holding the demo catalogue, and its checksum.
fn demo_store(at: &Path) -> String {
    assert!(import(at, &[DEMO]).0);
    let (sound, checksum) = check(at);
    assert!(sound);
    checksum
}

/// A server of the test's own: each request's head is recorded and answered by `answer`.
struct Hostile {
    base: String,
    heads: Arc<Mutex<Vec<String>>>,
}

impl Hostile {
    fn start(answer: impl Fn(&str, &mut TcpStream) + Send + Sync + 'static) -> Hostile {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let heads = Arc::new(Mutex::new(Vec::new()));
        let (recorded, answer) = (heads.clone(), Arc::new(answer));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let (recorded, answer) = (recorded.clone(), answer.clone());
                std::thread::spawn(move || {
                    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                    let head = read_head(&mut stream);
                    recorded.lock().unwrap().push(head.clone());
                    // The body is read before the answer: a request body left unread when
                    // the connection closes makes the kernel reset it, and the client may
                    // then see the reset instead of the answer.
                    read_body(&head, &mut stream);
                    answer(&head, &mut stream);
                });
            }
        });
        Hostile { base, heads }
    }

    /// A server that answers every request with `head` and `body`.
    fn answering(head: String, body: Vec<u8>) -> Hostile {
        Hostile::start(move |_, stream| {
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        })
    }

    /// A server that redirects every request to the same path on `to`.
    fn redirecting(status: u16, to: &str) -> Hostile {
        let to = to.to_owned();
        Hostile::start(move |head, stream| {
            let target = head.split_whitespace().nth(1).unwrap_or("/");
            let _ = write!(
                stream,
                "HTTP/1.1 {status} Moved\r\nlocation: {to}{target}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
            );
        })
    }

    fn requests(&self) -> Vec<String> {
        self.heads.lock().unwrap().clone()
    }
}

fn read_head(stream: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&head).into_owned()
}

/// Reads and drops the body its head announces (`content-length`), up to 64 MiB.
fn read_body(head: &str, stream: &mut TcpStream) {
    let length = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(name, _)| name.trim().eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.trim().parse::<u64>().ok())
        .unwrap_or(0)
        .min(64 << 20);
    let _ = std::io::copy(&mut stream.take(length), &mut std::io::sink());
}

/// A witness: records whoever comes, answers a plausible feed, media file or PUT.
fn witness() -> Hostile {
    let prices = std::fs::read(Path::new(DEMO).join("prices.csv")).unwrap();
    Hostile::answering(
        format!(
            "HTTP/1.1 200 OK\r\ncontent-type: image/jpeg\r\nx-partscat-store: elsewhere\r\nx-data-version: 99\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            prices.len()
        ),
        prices,
    )
}

/// The settings that make `partscat sync` follow `upstream`.
fn following(upstream: &str) -> Vec<(&'static str, String)> {
    vec![
        ("PARTSCAT_SYNC_UPSTREAM", upstream.to_owned()),
        ("PARTSCAT_SYNC_PROVIDER", "demo".to_owned()),
        ("PARTSCAT_SYNC_API_KEY", "the-upstream-key".to_owned()),
    ]
}

fn sync_cli(store: &Path, upstream: &str, args: &[&str], extra: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(common::bin());
    cmd.args(["sync", "--data", path(store)]).args(args);
    for (k, v) in following(upstream) {
        cmd.env(k, v);
    }
    for (k, v) in extra {
        cmd.env(k, v);
    }
    run(cmd)
}

/// A feed of the demo's prices as an upstream at `version` of store `abc` answers it.
fn prices_feed(version: &str) -> Hostile {
    let body = std::fs::read(Path::new(DEMO).join("prices.csv")).unwrap();
    Hostile::answering(
        format!(
            "HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\nx-partscat-store: abc\r\nx-data-version: {version}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        ),
        body,
    )
}

#[test]
fn an_upstream_cannot_send_the_sync_elsewhere_drown_it_or_take_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("down");
    let before = demo_store(&store);
    let failed = |o: &Output, want: &str| {
        let said = text(o);
        assert!(!o.status.success(), "{said}");
        assert!(said.contains(want), "wanted '{want}' in: {said}");
        assert_eq!(check(&store).1, before, "{said}");
    };

    // 3: a redirect to another port is not followed, and the key goes nowhere else.
    let elsewhere = witness();
    let upstream = Hostile::redirecting(302, &elsewhere.base);
    let o = sync_cli(
        &store,
        &upstream.base,
        &["--type", "prices", "--refresh"],
        &[],
    );
    failed(&o, "another origin, which is not followed");
    assert!(
        elsewhere.requests().is_empty(),
        "{:?}",
        elsewhere.requests()
    );
    assert!(upstream.requests()[0].contains("the-upstream-key"));

    // 6: an error's body is read only to its first few KiB.
    let sent = Arc::new(Mutex::new(0u64));
    let counted = sent.clone();
    let upstream = Hostile::start(move |_, stream| {
        let _ = stream.write_all(
            b"HTTP/1.1 500 Oops\r\ncontent-type: text/plain\r\ncontent-length: 268435456\r\n\r\n",
        );
        let chunk = vec![b'x'; 64 * 1024];
        for _ in 0..4096 {
            if stream.write_all(&chunk).is_err() {
                break;
            }
            *counted.lock().unwrap() += chunk.len() as u64;
        }
    });
    let o = sync_cli(
        &store,
        &upstream.base,
        &["--type", "prices", "--refresh"],
        &[],
    );
    failed(&o, "failed (500)");
    let sent = *sent.lock().unwrap();
    assert!(sent < 64 << 20, "{sent} bytes of the error body were taken");

    // 7: a feed over the size limit, said in advance or found while it arrives.
    let announced = Hostile::answering(
        "HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\nx-partscat-store: abc\r\nx-data-version: 9\r\ncontent-length: 2147483648\r\n\r\n".into(),
        Vec::new(),
    );
    let small = [("PARTSCAT_LIMIT_FEED_MB", "1")];
    let o = sync_cli(
        &store,
        &announced.base,
        &["--type", "prices", "--refresh"],
        &small,
    );
    failed(&o, "limits.feed_mb");
    let mut endless = b"brand_id,reference,price_type,currency,amount\n".to_vec();
    while endless.len() < 3 << 20 {
        endless.extend_from_slice(b"1,0 986 494 958,retail,EUR,1.00\n");
    }
    let streamed = Hostile::answering(
        "HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\nx-partscat-store: abc\r\nx-data-version: 9\r\nconnection: close\r\n\r\n".into(),
        endless,
    );
    let o = sync_cli(
        &store,
        &streamed.base,
        &["--type", "prices", "--refresh"],
        &small,
    );
    failed(&o, "limits.feed_mb");
    let scratch: Vec<_> = std::fs::read_dir(&store)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".sort-"))
        .collect();
    assert!(scratch.is_empty(), "the feed's scratch was left behind");

    // 7: one field of a feed longer than a row may be.
    let mut long_field = b"brand_id,reference,price_type,currency,amount\n1,\"".to_vec();
    long_field.extend(std::iter::repeat_n(b'9', 2 << 20));
    long_field.extend_from_slice(b"\",retail,EUR,1.00\n");
    let upstream = Hostile::answering(
        format!(
            "HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\nx-partscat-store: abc\r\nx-data-version: 9\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            long_field.len()
        ),
        long_field,
    );
    let o = sync_cli(
        &store,
        &upstream.base,
        &["--type", "prices", "--refresh"],
        &[],
    );
    failed(&o, "limits.row_bytes");

    // 11: the data version may not go back within one upstream store, nor pass 2^53 - 1.
    let at_50 = prices_feed("50");
    let o = sync_cli(&store, &at_50.base, &["--type", "prices", "--refresh"], &[]);
    assert!(o.status.success(), "{}", text(&o));
    let synced = check(&store).1;
    let at_10 = prices_feed("10");
    let o = sync_cli(&store, &at_10.base, &["--type", "prices"], &[]);
    let said = text(&o);
    assert!(
        !o.status.success() && said.contains("went back from 50"),
        "{said}"
    );
    let huge = prices_feed("18446744073709551615");
    let o = sync_cli(&store, &huge.base, &["--type", "prices"], &[]);
    let said = text(&o);
    assert!(!o.status.success() && said.contains("malformed"), "{said}");
    assert_eq!(check(&store).1, synced);
    // Still at 50: the next asks since=50.
    let again = prices_feed("50");
    let o = sync_cli(&store, &again.base, &["--type", "prices"], &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        again.requests()[0].contains("since=50"),
        "{:?}",
        again.requests()
    );
}

#[test]
fn a_dripping_upstream_fails_by_its_deadline_and_frees_the_import_slot() {
    let dir = tempfile::tempdir().unwrap();
    let upstream = Hostile::start(|_, stream| {
        let _ = stream.write_all(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\nx-partscat-store: abc\r\nx-data-version: 9\r\nconnection: close\r\n\r\nbrand_id",
        );
        for _ in 0..600 {
            std::thread::sleep(Duration::from_millis(200));
            if stream.write_all(b",").is_err() {
                return;
            }
        }
    });
    let mut vars: Vec<(&str, String)> = following(&upstream.base);
    vars.push(("PARTSCAT_LIMIT_TRANSFER_DEADLINE_S", "2".into()));
    vars.push(("PARTSCAT_IMPORT_WAIT_MS", "100".into()));
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let s = Served::start_with_env(
        &dir.path().join("data"),
        &["--demo", "--demo-key", DEMO_KEY],
        &vars,
    );
    let job = job_of(&s, "/svc/syncTecdoc?importType=prices&refresh=true");
    assert_eq!(job["state"], "failed", "{job}");
    let error = job["error"].as_str().unwrap();
    assert!(error.contains("limits.transfer_deadline_s"), "{error}");
    // The slot is free again: the next sync starts (and fails the same way) rather than 409.
    let r = s.get("/svc/syncTecdoc?importType=prices&refresh=true");
    assert!(r.status == 200 || r.status == 202, "{}", r.text());
}

/// Starts a job by `route` and polls it to its end, for at most a minute.
fn job_of(s: &Served, route: &str) -> Value {
    let r = s.get(route);
    assert!(r.status == 200 || r.status == 202, "{}", r.text());
    let mut job = r.json();
    let started = Instant::now();
    while job["state"] == "running" || job["state"] == "queued" {
        assert!(started.elapsed() < Duration::from_secs(60), "{job}");
        std::thread::sleep(Duration::from_millis(100));
        job = s.get(&format!("/svc/jobs/{}", job["id"])).json();
    }
    job
}

#[test]
fn delivery_folders_give_only_regular_files_inside_them() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("down");
    let before = demo_store(&store);
    let outside = dir.path().join("outside.csv");
    std::fs::write(&outside, "brand_id,name\n1,Taken From Outside\n").unwrap();
    let deliveries = dir.path().join("deliveries");
    let delivery = deliveries.join("2026-11-01");
    std::fs::create_dir_all(&delivery).unwrap();
    let sync = || {
        partscat(
            &[
                "sync",
                "--data",
                path(&store),
                "--type",
                "brands",
                "--refresh",
            ],
            &[("PARTSCAT_SYNC_SOURCE_DIR", path(&deliveries))],
        )
    };

    // 12: a FIFO is refused at once, without waiting for a writer.
    let fifo = delivery.join("brands.csv");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let o = sync();
    assert!(!o.status.success());
    assert!(text(&o).contains("not a regular file"), "{}", text(&o));
    std::fs::remove_file(&fifo).unwrap();

    // 12: a link to a file outside the folder is not read.
    std::os::unix::fs::symlink(&outside, &fifo).unwrap();
    let o = sync();
    assert!(!o.status.success());
    assert!(text(&o).contains("is a link"), "{}", text(&o));
    std::fs::remove_file(&fifo).unwrap();

    // A delivery that is itself a link to a directory outside.
    std::fs::remove_dir(&delivery).unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::copy(&outside, elsewhere.join("brands.csv")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &delivery).unwrap();
    let o = sync();
    assert!(!o.status.success());
    assert!(text(&o).contains("is a link"), "{}", text(&o));
    assert_eq!(check(&store).1, before);

    // The inbox takes the same care (importArticles).
    let inbox = dir.path().join("inbox");
    std::fs::create_dir(&inbox).unwrap();
    std::os::unix::fs::symlink(&outside, inbox.join("brands.csv")).unwrap();
    let s = Served::start_with_env(
        &dir.path().join("served"),
        &["--demo", "--demo-key", DEMO_KEY],
        &[("PARTSCAT_INBOX", path(&inbox))],
    );
    let r = s.get("/svc/importArticles?fileId=brands.csv&importType=brands&dryRun=false");
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(r.text().contains("not a regular file"), "{}", r.text());
}

/// The spin frames of brand 2 in the demo catalogue.
fn frames_of_brand_2() -> Vec<String> {
    let mut file = csv::Reader::from_path(Path::new(DEMO).join("media.csv")).unwrap();
    file.records()
        .map(|r| r.unwrap())
        .filter(|r| &r[0] == "2" && &r[2] == "spin360")
        .map(|r| r[5].to_owned())
        .collect()
}

/// Every file under `dir`, read.
fn contents_under(dir: &Path) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let kind = e.file_type().unwrap();
        if kind.is_dir() {
            out.extend(contents_under(&e.path()));
        } else if kind.is_file() {
            out.push(std::fs::read(e.path()).unwrap());
        }
    }
    out
}

#[test]
fn media_sources_lead_nowhere_outside_and_publishing_removes_only_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    demo_store(&data);
    let secret = b"\xff\xd8 the secret outside the source".to_vec();
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(outside.join("360")).unwrap();
    std::fs::write(outside.join("secret.jpg"), &secret).unwrap();
    for i in 0..24 {
        std::fs::write(outside.join(format!("360/{i:02}.jpg")), &secret).unwrap();
    }

    // 5: a directory source whose files and directories link outside it.
    let source = dir.path().join("source");
    let frames = frames_of_brand_2();
    let mut directories: Vec<PathBuf> = frames
        .iter()
        .map(|uri| source.join(uri).parent().unwrap().to_owned())
        .collect();
    directories.dedup();
    // The first article's frames directory is a link out; in the others, every fifth frame.
    std::fs::create_dir_all(directories[0].parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(outside.join("360"), &directories[0]).unwrap();
    for (i, uri) in frames.iter().enumerate() {
        let file = source.join(uri);
        if file.starts_with(&directories[0]) {
            continue;
        }
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        if i % 5 == 0 {
            std::os::unix::fs::symlink(outside.join("secret.jpg"), &file).unwrap();
        } else {
            std::fs::write(&file, format!("\u{ff}frame {uri}")).unwrap();
        }
    }
    let media = dir.path().join("media");
    let o = partscat(
        &[
            "dmm",
            "--data",
            path(&data),
            "--brand",
            "2",
            "--download360",
        ],
        &[
            ("PARTSCAT_MEDIA_DIR", path(&media)),
            ("PARTSCAT_MEDIA_SOURCE", path(&source)),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("is a link"), "{}", text(&o));
    assert!(
        !contents_under(&media).contains(&secret),
        "an outside file reached the media store"
    );

    // 4: a media server that redirects to another port is not followed there.
    let elsewhere = witness();
    let server = Hostile::redirecting(302, &elsewhere.base);
    let media2 = dir.path().join("media2");
    let o = partscat(
        &[
            "dmm",
            "--data",
            path(&data),
            "--brand",
            "1",
            "--download360",
        ],
        &[
            ("PARTSCAT_MEDIA_DIR", path(&media2)),
            ("PARTSCAT_MEDIA_SOURCE", &server.base),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("another origin"), "{}", text(&o));
    assert!(elsewhere.requests().is_empty());
    assert!(!server.requests().is_empty());

    // 1: a `dmm-1` that links to a directory elsewhere, absolute or relative; and a
    // leftover of the publisher's naming that is a link.
    let target = dir.path().join("published");
    std::fs::create_dir(&target).unwrap();
    let victim = dir.path().join("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("keep.txt"), "keep").unwrap();
    for link in [victim.clone(), PathBuf::from("../victim")] {
        let _ = std::fs::remove_file(target.join("dmm-1"));
        std::os::unix::fs::symlink(&link, target.join("dmm-1")).unwrap();
        let _ = std::fs::remove_file(target.join(".dmm-1-7.partial"));
        std::os::unix::fs::symlink(&victim, target.join(".dmm-1-7.partial")).unwrap();
        let o = partscat(
            &["dmm", "--data", path(&data), "--brand", "1", "--publish"],
            &[
                ("PARTSCAT_MEDIA_DIR", path(&media2)),
                ("PARTSCAT_PUBLISH_TARGET", path(&target)),
            ],
        );
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(
            std::fs::read_to_string(victim.join("keep.txt")).unwrap(),
            "keep"
        );
        let now = std::fs::read_link(target.join("dmm-1")).unwrap();
        assert!(now.to_string_lossy().starts_with(".dmm-1-"), "{now:?}");
    }
    // The publisher's own previous package goes once replaced.
    let first = std::fs::read_link(target.join("dmm-1")).unwrap();
    let o = partscat(
        &["dmm", "--data", path(&data), "--brand", "1", "--publish"],
        &[
            ("PARTSCAT_MEDIA_DIR", path(&media2)),
            ("PARTSCAT_PUBLISH_TARGET", path(&target)),
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(!target.join(&first).exists());
    assert!(victim.join("keep.txt").exists());

    // 13: an HTTP target that answers a PUT with a 307 elsewhere gets no second PUT there.
    let elsewhere = witness();
    let put_target = Hostile::redirecting(307, &elsewhere.base);
    let o = partscat(
        &["dmm", "--data", path(&data), "--brand", "1", "--publish"],
        &[
            ("PARTSCAT_MEDIA_DIR", path(&media2)),
            ("PARTSCAT_PUBLISH_TARGET", &put_target.base),
        ],
    );
    assert!(!o.status.success());
    assert!(text(&o).contains("another origin"), "{}", text(&o));
    assert!(
        elsewhere.requests().is_empty(),
        "{:?}",
        elsewhere.requests()
    );
}

#[test]
fn over_long_fields_are_rejected_rows_and_answers_stay_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("data");
    let before = demo_store(&store);
    let brands = dir.path().join("brands.csv");

    // 2: a name over the text bound is a rejected row naming line, column and limit.
    std::fs::write(
        &brands,
        format!("brand_id,name\n1,Fine\n2,{}\n", "N".repeat(600)),
    )
    .unwrap();
    let (ok, report) = import(&store, &["--type", "brands", path(&brands)]);
    assert!(!ok, "{report}");
    let error = &report["files"][0]["errors"][0];
    assert_eq!(error["line"], 3, "{report}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("column 'name'") && message.contains("limits.text_bytes"),
        "{message}"
    );
    // 2 and 7: a row of megabytes stops the file at that row.
    std::fs::write(
        &brands,
        format!("brand_id,name\n1,\"{}\"\n", "N".repeat(8 << 20)),
    )
    .unwrap();
    let o = common::partscat(&[
        "import",
        "--data",
        path(&store),
        "--type",
        "brands",
        path(&brands),
    ]);
    assert!(!o.status.success());
    assert!(text(&o).contains("limits.row_bytes"), "{}", text(&o));
    assert_eq!(check(&store).1, before);

    // Where the limits were looser when the names came in, `check` reports them, and the
    // answers stay within their bound: a clear 413, not gigabytes.
    let loose = [
        ("PARTSCAT_LIMIT_TEXT_BYTES", "20000000"),
        ("PARTSCAT_LIMIT_ROW_BYTES", "20000000"),
    ];
    // 16 MiB: a hundred articles carrying it would be 1.6 GiB of answer.
    let long_name = "L".repeat(16 << 20);
    std::fs::write(&brands, format!("brand_id,name\n1,{long_name}\n")).unwrap();
    let mut cmd = Command::new(common::bin());
    cmd.args(["import", "--data", path(&store), "--type", "brands"])
        .arg(&brands)
        .envs(loose);
    let o = run(cmd);
    assert!(o.status.success(), "{}", text(&o));
    let o = partscat(&["check", "--json", "--data", path(&store)], &[]);
    let report: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["sound"], true, "{report}");
    assert_eq!(report["over_limit_count"], 1, "{report}");

    let s = Served::start_with_env(&store, &["--demo", "--demo-key", DEMO_KEY], &[]);
    let r = s.fetch(
        client()
            .post(format!(
                "{}/ws/3.0/services/PartsToCatDLB.jsonEndpoint?provider=demo&api_key={DEMO_KEY}",
                s.base
            ))
            .json(&json!({"getArticles": {"dataSupplierIds": [1], "perPage": 100}})),
    );
    let said = r.text();
    assert!(
        said.contains("limits.answer_mb") && said.contains("413"),
        "{said}"
    );
    // A page small enough is answered.
    let r = s.fetch(
        client()
            .post(format!(
                "{}/ws/3.0/services/PartsToCatDLB.jsonEndpoint?provider=demo&api_key={DEMO_KEY}",
                s.base
            ))
            .json(&json!({"getArticles": {"dataSupplierIds": [1], "perPage": 1}})),
    );
    assert_eq!(r.json()["status"], 200, "{}", r.text());
    // The article by reference writes the long name whole within the bound; under a bound
    // below it, the same lookup is the 413 too.
    let mainref = "/svc/getCrossRefsOrArticle/0%20986%20494%20958?mainref&provider=demo";
    let r = s.fetch(client().get(format!("{}{mainref}&api_key={DEMO_KEY}", s.base)));
    assert_eq!(r.status, 200);
    assert!(r.body.len() > long_name.len(), "{}", r.body.len());
    // Within the default 64 MiB bound, the server never held the 1.6 GiB.
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.pid())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap();
    assert!(peak_kib < 512 * 1024, "the server peaked at {peak_kib} KiB");
    drop(s);
    let tight = Served::start_with_env(
        &store,
        &["--demo", "--demo-key", DEMO_KEY],
        &[("PARTSCAT_LIMIT_ANSWER_MB", "8")],
    );
    let r = tight.fetch(client().get(format!("{}{mainref}&api_key={DEMO_KEY}", tight.base)));
    assert_eq!(r.status, 413, "{}", r.text());
    assert!(r.text().contains("limits.answer_mb"), "{}", r.text());
}

#[test]
fn backup_partials_are_private_and_never_written_through_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("data");
    demo_store(&store);
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "keep").unwrap();
    let out = dir.path().join("out.bak");
    std::os::unix::fs::symlink(&victim, dir.path().join("out.bak.partial")).unwrap();
    let o = partscat(
        &["backup", "--data", path(&store), "--out", path(&out)],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&out).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}

/// A backup's frames: `T` a tree, `E` an entry; rewritten with a fresh checksum.
#[derive(Clone)]
enum Frame {
    Tree(Vec<u8>),
    Entry(Vec<u8>, Vec<u8>),
}

const HEAD: usize = 16 + 8;

fn frames_of(backup: &[u8]) -> Vec<Frame> {
    let bytes = |at: &mut usize| {
        let len = u32::from_be_bytes(backup[*at..*at + 4].try_into().unwrap()) as usize;
        *at += 4 + len;
        backup[*at - len..*at].to_vec()
    };
    let (mut at, mut frames) = (HEAD, Vec::new());
    loop {
        let kind = backup[at];
        at += 1;
        match kind {
            b'T' => frames.push(Frame::Tree(bytes(&mut at))),
            b'E' => {
                let k = bytes(&mut at);
                let v = bytes(&mut at);
                frames.push(Frame::Entry(k, v));
            }
            _ => return frames,
        }
    }
}

fn backup_of(head: &[u8], frames: &[Frame]) -> Vec<u8> {
    use sha2::Digest;
    let mut out = head[..HEAD].to_vec();
    let put = |out: &mut Vec<u8>, b: &[u8]| {
        out.extend_from_slice(&(b.len() as u32).to_be_bytes());
        out.extend_from_slice(b);
    };
    for f in frames {
        match f {
            Frame::Tree(name) => {
                out.push(b'T');
                put(&mut out, name);
            }
            Frame::Entry(k, v) => {
                out.push(b'E');
                put(&mut out, k);
                put(&mut out, v);
            }
        }
    }
    out.push(b'Z');
    let digest = sha2::Sha256::digest(&out);
    out.extend_from_slice(&digest);
    out
}

#[test]
fn a_restore_takes_only_partscats_own_trees_and_leaves_nothing_when_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("data");
    demo_store(&store);
    let good = dir.path().join("good.bak");
    let o = partscat(
        &["backup", "--data", path(&store), "--out", path(&good)],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    let original = std::fs::read(&good).unwrap();
    let frames = frames_of(&original);
    // The unchanged frames rewritten restore: the test's writer is the backup's.
    assert_eq!(backup_of(&original, &frames), original);

    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut noise = |len: usize| -> Vec<u8> {
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect()
    };
    let mut in_meta = false;
    let random_values: Vec<Frame> = frames
        .iter()
        .map(|f| match f {
            Frame::Tree(name) => {
                in_meta = name == b"meta";
                f.clone()
            }
            Frame::Entry(k, v) if !in_meta => Frame::Entry(k.clone(), noise(v.len())),
            f => f.clone(),
        })
        .collect();
    let mut climbing = vec![Frame::Tree(b"../../escape".to_vec())];
    climbing.extend(frames.iter().cloned());
    let twice: Vec<Frame> = frames.iter().flat_map(|f| [f.clone(), f.clone()]).collect();
    let mut junk = frames.clone();
    let meta_at = junk
        .iter()
        .position(|f| matches!(f, Frame::Tree(n) if n == b"meta"))
        .unwrap();
    for i in 0..20_000 {
        junk.insert(
            meta_at,
            Frame::Tree(format!("brandid_brand@{}", 900_000 + i).into()),
        );
    }
    let mut early = vec![Frame::Entry(b"k".to_vec(), b"v".to_vec())];
    early.extend(frames.iter().cloned());

    for (name, crafted, want) in [
        ("random values", random_values, "does not check out"),
        ("a climbing tree name", climbing, "'../../escape'"),
        ("every frame twice", twice, "twice"),
        ("20,000 junk trees", junk, "brandid_brand@9"),
        ("an entry before any tree", early, "before any tree"),
    ] {
        let file = dir.path().join("crafted.bak");
        std::fs::write(&file, backup_of(&original, &crafted)).unwrap();
        // Into a directory made for it, and into one the restore makes.
        let given = dir.path().join("given");
        std::fs::create_dir(&given).unwrap();
        for target in [given.clone(), dir.path().join("made")] {
            let o = partscat(&["restore", "--data", path(&target), path(&file)], &[]);
            let said = text(&o);
            assert!(!o.status.success(), "{name}: {said}");
            assert!(said.contains(want), "{name}: wanted '{want}' in {said}");
            if target == given {
                assert_eq!(std::fs::read_dir(&target).unwrap().count(), 0, "{name}");
            } else {
                assert!(!target.exists(), "{name}: the restore left {target:?}");
            }
        }
        std::fs::remove_dir(&given).unwrap();
    }
    // The good one still restores.
    let restored = dir.path().join("restored");
    let o = partscat(&["restore", "--data", path(&restored), path(&good)], &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(check(&restored).1, check(&store).1);
}

/// Deliveries as an upstream writes them (`partscat deliveries`), tampered with: a file that
/// is not what the index says, an index that names a path outside, an index too large. Each
/// is refused by name, and the follower's catalogue stays as it was.
#[test]
fn tampered_deliveries_are_refused_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (upstream, follower, deliveries) = (
        dir.path().join("up"),
        dir.path().join("down"),
        dir.path().join("deliveries"),
    );
    demo_store(&upstream);
    let o = partscat(
        &[
            "deliveries",
            "--data",
            path(&upstream),
            "--out",
            path(&deliveries),
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("the whole data sets"), "{}", text(&o));
    let before = demo_store(&follower);
    let sync = || {
        partscat(
            &["sync", "--refresh", "--data", path(&follower)],
            &[("PARTSCAT_SYNC_SOURCE_DIR", path(&deliveries))],
        )
    };

    // A file changed after the index named it.
    let index: Value =
        serde_json::from_slice(&std::fs::read(deliveries.join("index.json")).unwrap()).unwrap();
    let full = index["full"]["name"].as_str().unwrap().to_owned();
    let prices = deliveries.join(&full).join("prices.csv");
    let original = std::fs::read(&prices).unwrap();
    let mut tampered = original.clone();
    tampered.extend_from_slice(b"1,0 986 A45 240,list,EUR,0.01,2026-01-01\n");
    std::fs::write(&prices, &tampered).unwrap();
    let o = sync();
    assert!(!o.status.success());
    assert!(
        text(&o).contains("SHA-256") && text(&o).contains("prices.csv"),
        "{}",
        text(&o)
    );
    assert_eq!(check(&follower).1, before);
    std::fs::write(&prices, &original).unwrap();

    // An index naming a delivery outside the folder.
    let mut outside = index.clone();
    outside["full"]["name"] = json!("../up");
    std::fs::write(deliveries.join("index.json"), outside.to_string()).unwrap();
    let o = sync();
    assert!(!o.status.success());
    assert!(
        text(&o).contains("not a plain directory name"),
        "{}",
        text(&o)
    );
    assert_eq!(check(&follower).1, before);

    // An index over its bound.
    std::fs::write(deliveries.join("index.json"), vec![b' '; 2 << 20]).unwrap();
    let o = sync();
    assert!(!o.status.success());
    assert!(text(&o).contains("index.json is over"), "{}", text(&o));
    assert_eq!(check(&follower).1, before);

    // As written, it is taken: the follower ends with the upstream's catalogue.
    std::fs::write(deliveries.join("index.json"), index.to_string()).unwrap();
    let o = sync();
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(check(&follower).1, check(&upstream).1);
}
