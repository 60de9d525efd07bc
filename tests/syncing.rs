//! Two appliances on loopback, started as a sysadmin starts them: the maker's central one gets
//! imports, a distributor's follows it with `syncTecdoc`, and both stores end with the same
//! content checksum. Faults on the wire (a refused key, nobody listening, a feed that breaks
//! off or is malformed, a version the feed no longer keeps) and kill -9 leave the follower's
//! catalogue as it was.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::server::{DEMO_KEY, Served, client, free_port};
use common::{check, generate, import, path};
use serde_json::Value;

/// The settings that make an appliance follow `upstream` as the demo provider.
fn following(upstream: &str) -> Vec<(&'static str, String)> {
    vec![
        ("PARTSCAT_SYNC_UPSTREAM", upstream.to_owned()),
        ("PARTSCAT_SYNC_PROVIDER", "demo".to_owned()),
        ("PARTSCAT_SYNC_API_KEY", DEMO_KEY.to_owned()),
        ("PARTSCAT_IMPORT_WAIT_MS", "100".to_owned()),
    ]
}

fn serve_following(data: &Path, upstream: &str, key: &str) -> Served {
    let mut vars = following(upstream);
    vars[2].1 = key.to_owned();
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    Served::start_with_env(data, &["--demo", "--demo-key", DEMO_KEY], &vars)
}

/// The demo appliance whose change feed keeps only the last data version's changes.
fn upstream_keeping_one_version(data: &Path) -> Served {
    Served::start_with_env(
        data,
        &["--demo", "--demo-key", DEMO_KEY],
        &[
            ("PARTSCAT_CHANGE_FEED_VERSIONS", "1"),
            ("PARTSCAT_IMPORT_WAIT_MS", "5000"),
        ],
    )
}

/// Polls a job to its end.
fn finished(s: &Served, mut job: Value) -> Value {
    let deadline = Instant::now() + Duration::from_secs(300);
    while job["state"] == "running" {
        assert!(Instant::now() < deadline, "the job did not finish: {job}");
        std::thread::sleep(Duration::from_millis(50));
        job = s.get(&format!("/svc/jobs/{}", job["id"])).json();
    }
    job
}

fn sync(s: &Served, import_type: &str, refresh: bool) -> Value {
    let r = s.get(&format!(
        "/svc/syncTecdoc?importType={import_type}&refresh={refresh}"
    ));
    assert!(r.status == 200 || r.status == 202, "{}", r.text());
    let job = finished(s, r.json());
    assert_eq!(job["kind"], "sync");
    job
}

fn changed(job: &Value, import_type: &str, field: &str) -> u64 {
    job["sync"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["importType"] == import_type)
        .map(|f| f[field].as_u64().unwrap())
        .sum()
}

fn import_over_http(s: &Served, inbox: &Path, name: &str, text: &str, query: &str) -> Value {
    std::fs::write(inbox.join(name), text).unwrap();
    let r = s.get(&format!(
        "/svc/importArticles?fileId={name}&{query}&dryRun=false"
    ));
    let job = finished(s, r.json());
    assert_eq!(job["state"], "succeeded", "{job}");
    job
}

fn data_version(s: &Served) -> u64 {
    s.get("/ready").json()["data_version"].as_u64().unwrap()
}

fn checksum_after_stop(s: &mut Served) -> String {
    s.terminate();
    let (sound, checksum) = check(&s.data);
    assert!(sound);
    checksum
}

#[test]
fn imports_on_the_upstream_reach_the_downstream_incrementally_and_in_full() {
    let dir = tempfile::tempdir().unwrap();
    let mut up = Served::start(&dir.path().join("up"), &["--demo", "--demo-key", DEMO_KEY]);
    let up_inbox = dir.path().join("up-inbox");
    let mut down = serve_following(&dir.path().join("down"), &up.base, DEMO_KEY);

    // Never synchronised: an incremental sync says to refresh first.
    let job = sync(&down, "all", false);
    assert_eq!(job["state"], "failed", "{job}");
    assert!(
        job["error"].as_str().unwrap().contains("refresh=true"),
        "{job}"
    );
    let job = sync(&down, "all", true);
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(job["refresh"], true);

    // A merge on the upstream (a price), then a replace (brand 4's links but one).
    let prices = "brand_id,reference,price_type,currency,amount,valid_from\n1,0 986 A45 240,list,EUR,99.90,2026-01-01\n";
    import_over_http(&up, &up_inbox, "p.csv", prices, "importType=prices");
    let links = std::fs::read_to_string(up_inbox.join("links.csv")).unwrap();
    let one_of_brand_4 = links.lines().find(|l| l.starts_with("4,")).unwrap();
    let replaced = import_over_http(
        &up,
        &up_inbox,
        "l.csv",
        &format!("brand_id,reference,ktype,position,quantity,notes\n{one_of_brand_4}\n"),
        "importType=links&mode=replace",
    );
    let withdrawn = replaced["report"]["removed"].as_u64().unwrap();
    assert!(withdrawn > 100, "{replaced}");

    // The downstream serves on while it syncs.
    let serving = Arc::new(AtomicBool::new(true));
    let answers = Arc::new(Mutex::new(Vec::new()));
    let reader = {
        let (serving, answers) = (serving.clone(), answers.clone());
        let url = down.url("/svc/getArticlesByKtype/10219");
        std::thread::spawn(move || {
            let c = client();
            while serving.load(Ordering::Relaxed) {
                let status = c.get(&url).send().map(|r| r.status().as_u16()).unwrap_or(0);
                answers.lock().unwrap().push(status);
            }
        })
    };
    let job = sync(&down, "all", false);
    serving.store(false, Ordering::Relaxed);
    reader.join().unwrap();
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(changed(&job, "links", "removed"), withdrawn, "{job}");
    assert_eq!(changed(&job, "prices", "changed"), 1, "{job}");
    let answers = answers.lock().unwrap();
    assert!(
        !answers.is_empty() && answers.iter().all(|&s| s == 200),
        "{answers:?}"
    );

    // Nothing new: a sync changes nothing; a refresh of one data set neither.
    let job = sync(&down, "all", false);
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(job["sync"]["from"], job["sync"]["reached"], "{job}");
    let job = sync(&down, "prices", true);
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(changed(&job, "prices", "changed"), 0, "{job}");

    // One data set alone, incrementally: a price withdrawn by a replace of brand 1's prices.
    let brand_1_prices = std::fs::read_to_string(up_inbox.join("prices.csv")).unwrap();
    let kept: Vec<&str> = brand_1_prices
        .lines()
        .filter(|l| l.starts_with("1,"))
        .skip(1)
        .collect();
    import_over_http(
        &up,
        &up_inbox,
        "p1.csv",
        &format!(
            "{}\n{}\n",
            brand_1_prices.lines().next().unwrap(),
            kept.join("\n")
        ),
        "importType=prices&mode=replace",
    );
    let job = sync(&down, "prices", false);
    assert_eq!(job["state"], "succeeded", "{job}");
    assert!(changed(&job, "prices", "removed") >= 1, "{job}");

    // From the command line, while the downstream runs: its job, over the admin socket.
    let o = common::partscat(&["sync", "--data", path(&down.data)]);
    assert!(o.status.success(), "{}", common::text(&o));
    assert!(
        common::text(&o).contains("of the running server"),
        "{}",
        common::text(&o)
    );

    let (up_sum, down_sum) = (checksum_after_stop(&mut up), checksum_after_stop(&mut down));
    assert_eq!(up_sum, down_sum);
}

#[test]
fn the_feed_is_import_files_with_a_change_column_and_410_before_its_history() {
    let dir = tempfile::tempdir().unwrap();
    let up = upstream_keeping_one_version(&dir.path().join("up"));
    let inbox = dir.path().join("up-inbox");
    let loaded = up.get("/svc/changes?importType=prices");
    assert_eq!(loaded.status, 200);
    let version: u64 = loaded.header("x-data-version").parse().unwrap();
    assert!(!loaded.header("x-partscat-store").is_empty());
    assert!(loaded.text().starts_with("brand_id,reference,price_type"));

    let prices = "brand_id,reference,price_type,currency,amount,valid_from\n1,0 986 A45 240,list,EUR,99.90,2026-01-01\n";
    import_over_http(&up, &inbox, "p.csv", prices, "importType=prices");
    let feed = up.get(&format!("/svc/changes?importType=prices&since={version}"));
    assert_eq!(feed.status, 200, "{}", feed.text());
    assert_eq!(
        feed.text(),
        "brand_id,reference,price_type,currency,amount,valid_from,valid_to,change\n1,0 986 A45 240,list,EUR,99.90,2026-01-01,,upsert\n"
    );
    // Every data set at once: a tar of their files.
    let all = up.get(&format!("/svc/changes?importType=all&since={version}"));
    assert_eq!(all.header("content-type"), "application/x-tar");
    let mut archive = tar::Archive::new(all.body.as_slice());
    let names: Vec<String> = archive
        .entries()
        .unwrap()
        .map(|e| e.unwrap().path().unwrap().display().to_string())
        .collect();
    assert_eq!(names.len(), 21, "{names:?}");
    assert!(names.contains(&"article_texts.csv".to_owned()));
    assert!(names.contains(&"prices.csv".to_owned()));

    // Retention keeps one version: after another import, the first is out of reach.
    let again = prices.replace("99.90", "89.90");
    import_over_http(&up, &inbox, "p2.csv", &again, "importType=prices");
    let gone = up.get(&format!("/svc/changes?importType=prices&since={version}"));
    assert_eq!(gone.status, 410, "{}", gone.text());
    assert_eq!(gone.header("content-type"), "application/problem+json");
    assert!(
        gone.json()["detail"]
            .as_str()
            .unwrap()
            .contains("refresh in full")
    );
    // A provider limited to some brands may not read a feed of every brand.
    let o = common::partscat(&["admin", "brands", "demo", "1", "--data", path(&up.data)]);
    assert!(o.status.success(), "{}", common::text(&o));
    let limited = up.get("/svc/changes?importType=prices");
    assert_eq!(limited.status, 403, "{}", limited.text());
    assert!(
        limited.json()["detail"]
            .as_str()
            .unwrap()
            .contains("every brand")
    );
}

#[test]
fn a_refused_key_nobody_listening_and_a_gap_fail_with_the_cause_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let up = upstream_keeping_one_version(&dir.path().join("up"));
    let inbox = dir.path().join("up-inbox");

    let refused = serve_following(&dir.path().join("refused"), &up.base, "pc_wrong_key");
    let before = data_version(&refused);
    let job = sync(&refused, "all", true);
    assert_eq!(job["state"], "failed");
    let error = job["error"].as_str().unwrap();
    assert!(error.contains("refused provider `demo` (401)"), "{error}");
    assert_eq!(data_version(&refused), before);

    let nowhere = format!("http://127.0.0.1:{}", free_port());
    let lonely = serve_following(&dir.path().join("lonely"), &nowhere, DEMO_KEY);
    let job = sync(&lonely, "prices", true);
    assert_eq!(job["state"], "failed");
    assert!(
        job["error"].as_str().unwrap().contains("cannot be reached"),
        "{job}"
    );

    let down = serve_following(&dir.path().join("down"), &up.base, DEMO_KEY);
    assert_eq!(sync(&down, "all", true)["state"], "succeeded");
    let prices = "brand_id,reference,price_type,currency,amount,valid_from\n1,0 986 A45 240,list,EUR,99.90,2026-01-01\n";
    import_over_http(&up, &inbox, "p.csv", prices, "importType=prices");
    import_over_http(
        &up,
        &inbox,
        "p2.csv",
        &prices.replace("99.90", "89.90"),
        "importType=prices",
    );
    let before = data_version(&down);
    let job = sync(&down, "prices", false);
    assert_eq!(job["state"], "failed");
    let error = job["error"].as_str().unwrap();
    assert!(
        error.contains("no longer has the changes") && error.contains("refresh=true"),
        "{error}"
    );
    assert_eq!(data_version(&down), before);
    // Asked to, a refresh closes the gap.
    let job = sync(&down, "prices", true);
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(changed(&job, "prices", "changed"), 1, "{job}");
}

/// An upstream that answers one request with `head` and `body`, then hangs up.
fn fake_upstream(head: &'static str, body: &'static [u8]) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(4) {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(body);
            let _ = stream.flush();
        }
    });
    format!("http://{address}")
}

#[test]
fn a_feed_that_breaks_off_or_is_malformed_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // The upstream stops mid-stream: a chunked body without its last chunk.
    let broken = fake_upstream(
        "HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\nx-partscat-store: abc\r\nx-data-version: 9\r\ntransfer-encoding: chunked\r\n\r\n",
        b"40\r\nbrand_id,reference,price_type,currency,amount,valid_from,change\n1,",
    );
    let down = serve_following(&dir.path().join("a"), &broken, DEMO_KEY);
    let before = data_version(&down);
    let job = sync(&down, "prices", true);
    assert_eq!(job["state"], "failed");
    assert!(
        job["error"].as_str().unwrap().contains("broke off"),
        "{job}"
    );
    assert_eq!(data_version(&down), before);

    // Whole, but not a feed: no store header; or a file of unknown columns.
    let headless = fake_upstream(
        "HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\ncontent-length: 4\r\n\r\n",
        b"a,b\n",
    );
    let down = serve_following(&dir.path().join("b"), &headless, DEMO_KEY);
    let job = sync(&down, "prices", true);
    assert!(
        job["error"].as_str().unwrap().contains("malformed feed"),
        "{job}"
    );
    let strange = fake_upstream(
        "HTTP/1.1 200 OK\r\ncontent-type: text/csv\r\nx-partscat-store: abc\r\nx-data-version: 9\r\ncontent-length: 12\r\n\r\n",
        b"colour,size\n",
    );
    let down = serve_following(&dir.path().join("c"), &strange, DEMO_KEY);
    let before = data_version(&down);
    let job = sync(&down, "prices", true);
    let error = job["error"].as_str().unwrap();
    assert!(
        error.contains("the feed's prices.csv") && error.contains("colour"),
        "{error}"
    );
    assert_eq!(data_version(&down), before);
}

#[test]
fn kill_9_during_a_sync_leaves_the_old_or_the_new_catalogue() {
    let dir = tempfile::tempdir().unwrap();
    let up_data = dir.path().join("up");
    let generated = dir.path().join("gen");
    generate(30_000, 7, &generated);
    let (ok, _) = import(&up_data, &[path(&generated)]);
    assert!(ok);
    let (_, new_sum) = check(&up_data);
    let up = Served::start(&up_data, &["--demo", "--demo-key", DEMO_KEY]);

    let down_data = dir.path().join("down");
    let mut down = serve_following(&down_data, &up.base, DEMO_KEY);
    down.terminate();
    let (_, old_sum) = check(&down_data);
    // Killed while the job fetches, then while it imports what it fetched.
    for fetching in [true, false] {
        let down = serve_following(&down_data, &up.base, DEMO_KEY);
        let mut job = down
            .get("/svc/syncTecdoc?importType=all&refresh=true")
            .json();
        // One import or sync at a time.
        for busy in [
            "/svc/syncTecdoc?importType=prices&refresh=false",
            "/svc/importArticles?fileId=prices.csv&importType=prices&dryRun=true",
        ] {
            let r = down.get(busy);
            assert_eq!(r.status, 409, "{busy}: {}", r.text());
            assert!(r.text().contains("already running"), "{}", r.text());
        }
        let phase = |job: &Value| job["progress"]["phase"].as_str().unwrap().to_owned();
        while phase(&job) == "starting" || phase(&job).starts_with("fetching") != fetching {
            assert_eq!(
                job["state"], "running",
                "the sync ended before the kill: {job}"
            );
            std::thread::sleep(Duration::from_millis(5));
            job = down.get(&format!("/svc/jobs/{}", job["id"])).json();
        }
        unsafe { libc::kill(down.pid() as i32, libc::SIGKILL) };
        eprintln!("killed while {}", phase(&job));
        drop(down);
        let (sound, sum) = check(&down_data);
        assert!(sound);
        assert!(
            sum == old_sum || sum == new_sum,
            "killed at {}: neither the old nor the new catalogue",
            job["progress"]["phase"]
        );
    }
    // The next start syncs to the end.
    let down = serve_following(&down_data, &up.base, DEMO_KEY);
    assert_eq!(sync(&down, "all", true)["state"], "succeeded");
    drop(down);
    assert_eq!(check(&down_data).1, new_sum);
}

#[test]
fn a_directory_of_deliveries_is_followed_in_order_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let demo = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo"));
    let deliveries = dir.path().join("deliveries");
    let first = deliveries.join("2026-11-01");
    std::fs::create_dir_all(&first).unwrap();
    for entry in std::fs::read_dir(demo).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), first.join(entry.file_name())).unwrap();
    }
    // The second delivery changes a price and withdraws another, as a change feed writes it.
    let prices = std::fs::read_to_string(demo.join("prices.csv")).unwrap();
    let mut rows = prices.lines().skip(1);
    let (one, two) = (rows.next().unwrap(), rows.next().unwrap());
    let header = prices.lines().next().unwrap();
    let second = deliveries.join("2026-11-02");
    std::fs::create_dir_all(&second).unwrap();
    let changed_amount = {
        let mut cells: Vec<&str> = one.split(',').collect();
        cells[4] = "1.23";
        cells.join(",")
    };
    std::fs::write(
        second.join("prices.csv"),
        format!("{header},change\n{changed_amount},upsert\n{two},remove\n"),
    )
    .unwrap();
    // A delivery still being written is left alone.
    let third = deliveries.join(".2026-11-03");
    std::fs::create_dir_all(&third).unwrap();
    std::fs::write(third.join("prices.csv"), "not,yet\n").unwrap();

    let down = dir.path().join("down");
    let sync = |args: &[&str]| {
        let mut cmd = std::process::Command::new(common::bin());
        cmd.args(["sync", "--data", path(&down)])
            .args(args)
            .env_remove("PARTSCAT_DATA")
            .env("PARTSCAT_SYNC_SOURCE_DIR", &deliveries)
            .env("PARTSCAT_ADMIN_SOCKET", "");
        cmd.output().unwrap()
    };
    let o = sync(&[]);
    assert!(o.status.success(), "{}", common::text(&o));
    let said = common::text(&o);
    assert!(said.contains("nothing → 2026-11-02"), "{said}");
    assert!(said.contains("1 removed"), "{said}");

    // The same files imported by hand give the same catalogue.
    let by_hand = dir.path().join("by-hand");
    assert!(import(&by_hand, &[path(&first)]).0);
    assert!(import(&by_hand, &[path(&second)]).0);
    assert_eq!(check(&down).1, check(&by_hand).1);

    // Once complete, the third delivery is taken; a bad one is refused, nothing written.
    std::fs::rename(&third, deliveries.join("2026-11-03")).unwrap();
    let before = check(&down).1;
    let o = sync(&["--type", "prices"]);
    assert!(!o.status.success());
    assert!(
        common::text(&o).contains("unknown column 'not'"),
        "{}",
        common::text(&o)
    );
    assert_eq!(check(&down).1, before);
    std::fs::write(
        deliveries.join("2026-11-03/prices.csv"),
        format!("{header}\n{two}\n"),
    )
    .unwrap();
    let o = sync(&["--type", "prices"]);
    assert!(o.status.success(), "{}", common::text(&o));
    assert!(
        common::text(&o).contains("2026-11-02 → 2026-11-03"),
        "{}",
        common::text(&o)
    );
    assert!(import(&by_hand, &[path(&deliveries.join("2026-11-03"))]).0);
    assert_eq!(check(&down).1, check(&by_hand).1);

    // A refresh takes the newest delivery's prices as the whole data set: the others go.
    let o = sync(&["--type", "prices", "--refresh"]);
    let said = common::text(&o);
    assert!(o.status.success(), "{said}");
    let line = said.lines().find(|l| l.starts_with("prices")).unwrap();
    let removed: u64 = line
        .split(',')
        .find(|c| c.contains("removed"))
        .and_then(|c| c.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let demo_prices = prices.lines().count() as u64 - 1;
    assert_eq!(removed, demo_prices - 1, "{said}");
}
