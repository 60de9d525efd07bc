//! The catalogue team drops a file into the import inbox and calls `importArticles`: a dry
//! run first, then the import, polled as a job when it takes a while.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::generate;
use common::server::{Served, client};
use serde_json::Value;

fn serve_with_inbox(inbox: &Path, wait_ms: &str) -> Served {
    Served::demo_with_env(
        &["--inbox", inbox.to_str().unwrap()],
        &[("PARTSCAT_IMPORT_WAIT_MS", wait_ms)],
    )
}

/// The demo's prices with one amount changed.
fn changed_prices(inbox: &Path) {
    let demo = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/prices.csv"
    ))
    .unwrap();
    let changed = demo.replacen(
        "1,0 986 A45 240,list,EUR,117.63",
        "1,0 986 A45 240,list,EUR,99.90",
        1,
    );
    assert_ne!(demo, changed);
    std::fs::write(inbox.join("prices.csv"), changed).unwrap();
}

fn kit_price(s: &Served) -> Value {
    let body = s.get("/svc/getPricesByKtype/10219").json();
    body["articles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["article"]["reference"] == "0 986 A45 240")
        .unwrap()["prices"][0]["amount"]
        .clone()
}

#[test]
fn a_dry_run_reports_and_an_import_commits() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = dir.path().join("inbox");
    std::fs::create_dir(&inbox).unwrap();
    changed_prices(&inbox);
    let s = serve_with_inbox(&inbox, "5000");

    let dry = s.get("/svc/importArticles?fileId=prices.csv&importType=prices&dryRun=true");
    assert_eq!(dry.status, 200, "{}", dry.text());
    let job = dry.json();
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(job["dryRun"], true);
    assert_eq!(job["startedBy"], "demo");
    assert_eq!(job["report"]["verdict"], "dry_run");
    assert_eq!(job["report"]["changed"], 1);
    assert_eq!(kit_price(&s), "117.63", "a dry run writes nothing");

    // Without dryRun, an import (the parameter is optional, false by default).
    let real = s.get("/svc/importArticles?fileId=prices.csv&importType=prices");
    assert_eq!(real.status, 200, "{}", real.text());
    let job = real.json();
    assert_eq!(job["dryRun"], false, "{job}");
    assert_eq!(job["report"]["verdict"], "committed", "{job}");
    assert!(job["report"]["dataVersion"].as_u64().unwrap() >= 2);
    assert_eq!(kit_price(&s), "99.90");

    // The job stays readable.
    let id = job["id"].as_u64().unwrap();
    let again = s.get(&format!("/svc/jobs/{id}")).json();
    assert_eq!(again["report"]["verdict"], "committed");
}

#[test]
fn a_replace_withdraws_what_the_file_no_longer_holds() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = dir.path().join("inbox");
    std::fs::create_dir(&inbox).unwrap();
    // Brand 1 keeps one price, its kit's list price; brand 2's prices are not named.
    std::fs::write(
        inbox.join("prices.csv"),
        "brand_id,reference,price_type,currency,amount,valid_from\n1,0 986 A45 240,list,EUR,117.63,2026-01-01\n",
    )
    .unwrap();
    let s = serve_with_inbox(&inbox, "5000");
    let priced = |brand: u32| -> usize {
        let body = s.get("/svc/getPricesByKtype/10219").json();
        body["articles"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["article"]["brandId"] == brand)
            .map(|a| a["prices"].as_array().unwrap().len())
            .sum()
    };
    let (brand_1, brand_2) = (priced(1), priced(2));
    assert!(brand_1 > 1 && brand_2 > 0, "{brand_1} {brand_2}");

    let dry = s
        .get("/svc/importArticles?fileId=prices.csv&importType=prices&mode=replace&dryRun=true")
        .json();
    assert_eq!(dry["report"]["verdict"], "dry_run", "{dry}");
    assert_eq!(dry["mode"], "replace");
    let removed = dry["report"]["removed"].as_u64().unwrap();
    assert!(removed > 0, "{dry}");
    assert_eq!(priced(1), brand_1, "a dry run writes nothing");

    let real = s
        .get("/svc/importArticles?fileId=prices.csv&importType=prices&mode=replace&dryRun=false")
        .json();
    assert_eq!(real["report"]["verdict"], "committed", "{real}");
    assert_eq!(real["report"]["removed"], removed);
    assert_eq!(priced(1), 1);
    assert_eq!(priced(2), brand_2);

    // Articles others still refer to are not withdrawn: the job says why, nothing changes.
    std::fs::write(
        inbox.join("articles.csv"),
        "brand_id,reference,genart_id\n1,0 986 A45 240,3500\n",
    )
    .unwrap();
    let refused = s
        .get(
            "/svc/importArticles?fileId=articles.csv&importType=articles&mode=replace&dryRun=false",
        )
        .json();
    assert_eq!(refused["state"], "failed", "{refused}");
    let error = refused["error"].as_str().unwrap();
    assert!(error.contains("still refer to"), "{error}");
    assert_eq!(priced(2), brand_2);

    let bad =
        s.get("/svc/importArticles?fileId=prices.csv&importType=prices&mode=purge&dryRun=true");
    assert_eq!(bad.status, 400);
    let body = bad.json();
    assert_eq!(body["parameter"], "mode");
    assert!(
        body["detail"].as_str().unwrap().contains("replace"),
        "{body}"
    );
}

#[test]
fn a_file_with_invalid_rows_is_rejected_with_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = dir.path().join("inbox");
    std::fs::create_dir(&inbox).unwrap();
    std::fs::write(
        inbox.join("bad.csv"),
        "brand_id,reference,price_type,currency,amount,valid_from,valid_to\n\
         1,0 986 A45 240,list,EUR,12.50,2026-01-01,\n\
         1,0 986 A45 240,list,EUR,twelve,2026-01-01,\n",
    )
    .unwrap();
    let s = serve_with_inbox(&inbox, "5000");
    let job = s
        .get("/svc/importArticles?fileId=bad.csv&importType=prices&dryRun=false")
        .json();
    assert_eq!(job["state"], "rejected", "{job}");
    assert_eq!(job["report"]["verdict"], "rejected");
    assert_eq!(job["report"]["errors"][0]["line"], 3, "{job}");
    assert_eq!(
        job["report"]["added"], 0,
        "a rejected import adds nothing: {job}"
    );
    assert_eq!(kit_price(&s), "117.63", "nothing was written");

    // What a spreadsheet writes: CRLF line ends, and a quoted cell over two lines. The bad
    // row is on the file's line 5.
    std::fs::write(
        inbox.join("crlf.csv"),
        "brand_id,reference,price_type,currency,amount,valid_from,valid_to\r\n\
         1,0 986 A45 240,list,EUR,12.50,2026-01-01,\r\n\
         1,\"0 986\r\nA45 240\",list,EUR,12.50,2026-01-01,\r\n\
         1,0 986 A45 240,list,EUR,twelve,2026-01-01,\r\n",
    )
    .unwrap();
    let job = s
        .get("/svc/importArticles?fileId=crlf.csv&importType=prices&dryRun=true")
        .json();
    assert_eq!(job["report"]["verdict"], "rejected", "{job}");
    let lines: Vec<u64> = job["report"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines.last(), Some(&5), "{job}");
}

#[test]
fn file_ids_outside_the_inbox_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = dir.path().join("inbox");
    std::fs::create_dir(&inbox).unwrap();
    std::fs::write(dir.path().join("outside.csv"), "x\n").unwrap();
    std::fs::write(inbox.join(".hidden.csv"), "x\n").unwrap();
    std::fs::create_dir(inbox.join("sub")).unwrap();
    // Links are not followed, whatever they point at; a FIFO does not hold the request.
    std::os::unix::fs::symlink(dir.path().join("outside.csv"), inbox.join("link.csv")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", inbox.join("passwd.csv")).unwrap();
    let fifo = std::ffi::CString::new(common::path(&inbox.join("pipe.csv"))).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let s = serve_with_inbox(&inbox, "5000");
    for bad in ["link.csv", "passwd.csv", "pipe.csv"] {
        let r = s.get(&format!(
            "/svc/importArticles?fileId={bad}&importType=prices&dryRun=true"
        ));
        assert_eq!(r.status, 400, "{bad}: {}", r.text());
        assert!(r.text().contains("is not a regular file"), "{}", r.text());
        assert!(!r.text().contains(common::path(&inbox)), "{}", r.text());
    }
    for bad in [
        "../x",
        "..",
        "../outside.csv",
        "/etc/passwd",
        "%2Fetc%2Fpasswd",
        "sub%2Fx.csv",
        "..%5Coutside.csv",
        ".hidden.csv",
        "sub",
        "",
    ] {
        let r = s.get(&format!(
            "/svc/importArticles?fileId={bad}&importType=prices&dryRun=true"
        ));
        assert_eq!(r.status, 400, "{bad}: {}", r.text());
        assert_eq!(r.json()["parameter"], "fileId", "{bad}");
    }
    let missing = s.get("/svc/importArticles?fileId=none.csv&importType=prices&dryRun=true");
    assert_eq!(missing.status, 404);
    // It says where it looked.
    assert!(
        missing.json()["detail"]
            .as_str()
            .unwrap()
            .contains(&format!(
                "the import inbox {} has no file 'none.csv'",
                common::path(&inbox)
            )),
        "{}",
        missing.text()
    );

    let bad_type = s.get("/svc/importArticles?fileId=x.csv&importType=parts&dryRun=true");
    assert_eq!(bad_type.status, 400);
    let body = bad_type.json();
    assert_eq!(body["parameter"], "importType");
    assert!(
        body["detail"].as_str().unwrap().contains("competitor_refs"),
        "{body}"
    );
    for dry in ["", "yes", "1"] {
        let r = s.get(&format!(
            "/svc/importArticles?fileId=x.csv&importType=prices&dryRun={dry}"
        ));
        assert_eq!(r.status, 400);
        assert_eq!(r.json()["parameter"], "dryRun");
    }
    // Without dryRun, an import: of a file the inbox lacks here.
    let r = s.get("/svc/importArticles?fileId=x.csv&importType=prices");
    assert_eq!(r.status, 404, "{}", r.text());
    // A parameter the route does not take is named, with the closest one it does.
    let r = s.get("/svc/importArticles?fileId=x.csv&importType=prices&dryrun=true");
    assert_eq!(r.status, 400, "{}", r.text());
    let body = r.json();
    assert_eq!(body["parameter"], "dryrun");
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("no parameter `dryrun` (did you mean `dryRun`?)"),
        "{body}"
    );
    assert_eq!(s.get("/svc/jobs/12345").status, 404);
    assert_eq!(s.get("/svc/jobs/x").json()["parameter"], "id");
}

#[test]
fn a_long_import_is_a_job_and_a_second_one_meanwhile_is_409() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = dir.path().join("inbox");
    generate(200_000, 11, &inbox);
    // Answer with the job at once, however quick the import.
    let s = serve_with_inbox(&inbox, "0");
    let c = client();
    let first = s.get("/svc/importArticles?fileId=articles.csv&importType=articles&dryRun=false");
    assert_eq!(first.status, 202, "{}", first.text());
    let job = first.json();
    assert_eq!(job["state"], "running");
    let location = first.header("location");
    assert_eq!(location, format!("/svc/jobs/{}", job["id"]));
    assert_eq!(job["statusUrl"], location.as_str());

    let second = s.get("/svc/importArticles?fileId=articles.csv&importType=articles&dryRun=true");
    assert_eq!(second.status, 409, "{}", second.text());
    assert_eq!(second.header("content-type"), "application/problem+json");

    // Lookups go on while it runs.
    assert_eq!(s.get("/svc/getArticlesByKtype/10219").status, 200);

    let deadline = Instant::now() + Duration::from_secs(120);
    let done = loop {
        let status = s.fetch(c.get(s.url(&location))).json();
        if status["state"] != "running" {
            break status;
        }
        assert!(Instant::now() < deadline, "the job did not finish");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(done["state"], "succeeded", "{done}");
    assert_eq!(done["report"]["verdict"], "committed");
    assert_eq!(
        done["progress"]["bytesRead"],
        done["progress"]["bytesTotal"]
    );
    assert!(done["finishedAt"].as_u64().unwrap() >= done["startedAt"].as_u64().unwrap());

    // Once it has finished, the next import may run.
    let next = s.get("/svc/importArticles?fileId=articles.csv&importType=articles&dryRun=true");
    assert_eq!(next.status, 202);
}

/// `partscat import` while the server runs: the files go over the admin socket, the server
/// imports them as its job, and the command prints the report; a rejected file exits 1 with
/// its rows named; an upload that is not a tar of import files is a 400 naming it.
#[test]
fn the_import_command_goes_through_the_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let inbox = dir.path().join("inbox");
    std::fs::create_dir(&inbox).unwrap();
    changed_prices(&inbox);
    let s = serve_with_inbox(&inbox, "5000");
    assert_eq!(kit_price(&s), "117.63");
    let data = common::path(&s.data).to_owned();
    let file = common::path(&inbox.join("prices.csv")).to_owned();

    let o = common::partscat(&["import", "--data", &data, "--type", "prices", &file]);
    let said = common::text(&o);
    assert!(o.status.success(), "{said}");
    assert!(
        said.contains("imported through the running server"),
        "{said}"
    );
    assert_eq!(
        kit_price(&s),
        "99.90",
        "the running server serves the import"
    );

    // A directory of files, as a dry run: every file's report, nothing written.
    let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/samples");
    let o = common::partscat(&["import", "--data", &data, "--dry-run", "--json", samples]);
    assert!(o.status.success(), "{}", common::text(&o));
    let job: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(job["report"]["verdict"], "dry_run", "{job}");
    assert_eq!(job["files"].as_array().unwrap().len(), 19, "{job}");
    assert_eq!(job["dryRun"], true);

    let bad = dir.path().join("prices.csv");
    std::fs::write(
        &bad,
        "brand_id,reference,price_type,currency,amount\n9,NOPE,list,EUR,1\n",
    )
    .unwrap();
    let o = common::partscat(&[
        "import",
        "--data",
        &data,
        "--type",
        "prices",
        common::path(&bad),
    ]);
    let said = common::text(&o);
    assert_eq!(o.status.code(), Some(1), "{said}");
    assert!(said.contains("line 2: refers to article brand 9"), "{said}");

    let socket = reqwest::blocking::Client::builder()
        .unix_socket(s.data.join("admin.sock"))
        .build()
        .unwrap();
    let r = socket
        .post("http://partscat/admin/import")
        .body("not a tar")
        .send()
        .unwrap();
    assert_eq!(r.status(), 400);
    let body: Value = r.json().unwrap();
    assert_eq!(body["parameter"], "files", "{body}");
}

/// A maker's catalogue is far larger than any other request body: `partscat import` streams
/// its files to the running server (here about 29 MB, over the 16 MiB bound of other bodies),
/// which serves them once imported. Over the server's `limits.import_mb` the command says so
/// before it sends a byte, and a raw upload over it is a 413 naming the setting.
#[test]
fn a_catalogue_larger_than_any_other_body_imports_through_the_running_server() {
    let dir = tempfile::tempdir().unwrap();
    let catalogue = dir.path().join("catalogue");
    generate(60_000, 7, &catalogue);
    let total: u64 = std::fs::read_dir(&catalogue)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert!(total > 16 << 20, "{total} bytes");
    let s = Served::demo(&[]);
    let data = common::path(&s.data).to_owned();
    let o = common::partscat(&["import", "--data", &data, common::path(&catalogue)]);
    let said = common::text(&o);
    assert!(o.status.success(), "{said}");
    assert!(
        said.contains("imported through the running server"),
        "{said}"
    );
    let articles = std::fs::read_to_string(catalogue.join("articles.csv")).unwrap();
    let last = articles.lines().last().unwrap();
    let reference = last.split(',').nth(1).unwrap();
    let found = s.get(&format!("/svc/getCrossRefsOrArticle/{reference}?mainref"));
    assert_eq!(found.status, 200, "{reference}: {}", found.text());

    let small = Served::demo_with_env(&[], &[("PARTSCAT_LIMIT_IMPORT_MB", "1")]);
    let data = common::path(&small.data).to_owned();
    let links = common::path(&catalogue.join("links.csv")).to_owned();
    let o = common::partscat(&["import", "--data", &data, "--type", "links", &links]);
    let said = common::text(&o);
    assert!(!o.status.success(), "{said}");
    assert!(
        said.contains("over the running server's limit of 1 MiB (limits.import_mb)"),
        "{said}"
    );
    // A sender that declares more is answered at once, before its body.
    let mut raw = std::os::unix::net::UnixStream::connect(small.data.join("admin.sock")).unwrap();
    raw.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    std::io::Write::write_all(
        &mut raw,
        b"POST /admin/import HTTP/1.1\r\nHost: partscat\r\nContent-Length: 2097153\r\n\r\n",
    )
    .unwrap();
    let mut answer = [0u8; 4096];
    let n = std::io::Read::read(&mut raw, &mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("(limits.import_mb)"), "{answer}");
}

/// Sends the head of an upload of `length` bytes to `/admin/import` over loopback, and as
/// much of its body as `body`; the connection stays open.
fn upload_head(s: &Served, length: u64, body: &[u8]) -> std::net::TcpStream {
    use std::io::Write;
    let address = s.base.trim_start_matches("http://");
    let mut socket = std::net::TcpStream::connect(address).unwrap();
    let head = format!(
        "POST /admin/import?provider=demo&api_key={} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/x-tar\r\nContent-Length: {length}\r\n\r\n",
        common::server::DEMO_KEY
    );
    socket.write_all(head.as_bytes()).unwrap();
    socket.write_all(body).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    socket
}

#[test]
fn a_second_upload_is_refused_from_its_headers_while_one_is_received() {
    let s = Served::demo(&[]);
    // The first upload's body trickles: a tar entry's header, then nothing more for now.
    let mut header = tar::Header::new_gnu();
    header.set_path("prices.csv").unwrap();
    header.set_size(1 << 29);
    header.set_mode(0o600);
    header.set_entry_type(tar::EntryType::Regular);
    header.set_cksum();
    let mut first = upload_head(&s, 1 << 30, header.as_bytes());
    let scratch = || {
        std::fs::read_dir(&s.data)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(".sort-"))
            .count()
    };
    let bound = Instant::now() + Duration::from_secs(30);
    while scratch() == 0 {
        assert!(
            Instant::now() < bound,
            "the first upload was never received"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The second sends its headers alone, announcing 2 GiB: answered at once.
    let mut second = upload_head(&s, 2 << 30, b"");
    let mut answer = String::new();
    std::io::Read::read_to_string(&mut second, &mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 409"), "{answer}");
    assert!(
        answer.contains("an import or sync is already running")
            && answer.contains("files from provider demo from 127.0.0.1 are being received"),
        "{answer}"
    );
    assert_eq!(scratch(), 1, "nothing of the second upload was stored");
    // The first one's slot is given back when its sender goes: the next import runs.
    std::io::Write::flush(&mut first).unwrap();
    drop(first);
    let bound = Instant::now() + Duration::from_secs(30);
    while scratch() > 0 {
        assert!(
            Instant::now() < bound,
            "the abandoned upload kept its scratch space"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let inbox_free = s.fetch(client().get(format!(
        "{}/admin/import?provider=demo&api_key={}",
        s.base,
        common::server::DEMO_KEY
    )));
    assert_eq!(inbox_free.status, 200, "{}", inbox_free.text());
    assert!(inbox_free.json()["busy"].is_null(), "{}", inbox_free.text());
}
