//! An import that the store's disk cannot take is refused before anything is written, with a
//! message naming the bytes needed and free; the catalogue stays as it was. A disk that
//! another process fills during an import fails it with the same message, and the store opens
//! and serves its catalogue while the disk is still full. A server whose import job hit the
//! full disk recovers by itself once space is back.
//!
//! The store lives on a small tmpfs mounted for the test (root only, as CI runs).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::server::client;
use common::*;

/// A tmpfs of `mib` MiB, unmounted when dropped.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(at: &Path, mib: u32) -> Option<SmallDisk> {
        std::fs::create_dir_all(at).unwrap();
        let mounted = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={mib}m,mode=700"),
                "tmpfs",
                path(at),
            ])
            .status()
            .is_ok_and(|s| s.success());
        mounted.then(|| SmallDisk(at.into()))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
#[ignore = "needs root, to mount a tmpfs: run by tests/with-system-tools.sh as root"]
fn an_import_larger_than_the_free_disk_is_refused_before_it_writes() {
    let dir = tempfile::tempdir().unwrap();
    let Some(Stocked {
        // Bound, so the disk stays mounted until the test ends.
        disk: _disk,
        data,
        small: _,
        before,
    }) = stocked_disk(dir.path(), 150)
    else {
        return;
    };

    let large = dir.path().join("large");
    generate(60_000, 2, &large);
    let o = partscat(&["import", "--data", path(&data), path(&large)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let said = text(&o);
    assert!(
        said.contains("bytes")
            && said.contains("of free disk space in")
            && said.contains("are free"),
        "{said}"
    );
    assert_eq!(check(&data), before, "nothing was written");
    // The import still fits as a dry run, which writes only its sort runs.
    let (ok, report) = import(&data, &["--dry-run", path(&large)]);
    assert!(ok, "{report}");
}

/// A small disk whose store holds a generated catalogue of 2,000 articles.
struct Stocked {
    disk: SmallDisk,
    data: PathBuf,
    /// The catalogue's files.
    small: PathBuf,
    /// What `check` says of the store.
    before: (bool, String),
}

fn stocked_disk(dir: &Path, mib: u32) -> Option<Stocked> {
    let disk = small_disk(dir, mib)?;
    let data = disk.0.join("data");
    let small = dir.join("small");
    generate(2_000, 1, &small);
    let (ok, report) = import(&data, &[path(&small)]);
    assert!(ok, "{report}");
    let before = check(&data);
    assert!(before.0);
    Some(Stocked {
        disk,
        data,
        small,
        before,
    })
}

/// A tmpfs: the test fails where none can be mounted (it needs root), never skips itself.
fn small_disk(dir: &Path, mib: u32) -> Option<SmallDisk> {
    let disk = SmallDisk::mount(&dir.join("disk"), mib);
    assert!(
        disk.is_some(),
        "no tmpfs could be mounted (uid {}): these tests need root; tests/with-system-tools.sh runs them",
        unsafe_uid()
    );
    disk
}

fn free_bytes(on: &Path) -> u64 {
    let o = Command::new("df")
        .args(["-B1", "--output=avail", path(on)])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    text.lines().last().unwrap().trim().parse().unwrap()
}

#[test]
#[ignore = "needs root, to mount a tmpfs: run by tests/with-system-tools.sh as root"]
fn a_disk_filled_during_an_import_fails_it_and_the_store_still_opens() {
    let dir = tempfile::tempdir().unwrap();
    let Some(Stocked {
        disk,
        data,
        small,
        before,
    }) = stocked_disk(dir.path(), 200)
    else {
        return;
    };
    assert!(
        data.join("reserve").exists(),
        "the store sets its reserve aside"
    );

    // Passes the estimate, then another process takes all but 1 MiB of the disk.
    let large = dir.path().join("large");
    generate(30_000, 2, &large);
    let child = Command::new(bin())
        .args(["import", "--data", path(&data), path(&large)])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let filler = fill_once_importing(&data, &disk.0);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let said = text(&o);
    assert!(
        said.contains("of free disk space in") && said.contains("are free"),
        "{said}"
    );

    // The disk is still full: the store opens on its reserve, with the catalogue it had.
    assert!(free_bytes(&disk.0) < (4 << 20));
    assert_eq!(check(&data), before);
    let s = server::Served::start(&data, &["--demo", "--demo-key", server::DEMO_KEY]);
    let vehicles = std::fs::read_to_string(small.join("vehicles.csv")).unwrap();
    let ktype = vehicles.lines().nth(1).unwrap().split(',').next().unwrap();
    let served = s.get(&format!("/svc/getArticlesByKtype/{ktype}?limit=1"));
    assert_eq!(served.status, 200, "{}", served.text());
    drop(s);

    // Space back: imports work again and the reserve is set aside again.
    std::fs::remove_file(&filler).unwrap();
    let (ok, report) = import(&data, &[path(&small)]);
    assert!(ok, "{report}");
    assert!(data.join("reserve").exists());
    assert_eq!(check(&data), before);
}

/// A prices file for the generated catalogue in `catalogue`: `per_article` prices of every
/// article, each valid from another day, so every row is a new key.
fn many_prices(catalogue: &Path, per_article: usize, out: &Path) {
    let articles = std::fs::read_to_string(catalogue.join("articles.csv")).unwrap();
    let mut prices =
        String::from("brand_id,reference,price_type,currency,amount,valid_from,valid_to\n");
    for line in articles.lines().skip(1) {
        let mut cells = line.split(',');
        let (brand, reference) = (cells.next().unwrap(), cells.next().unwrap());
        for day in 0..per_article {
            let (year, yday) = (2000 + day / 336, day % 336);
            let (month, mday) = (1 + yday / 28, 1 + yday % 28);
            prices.push_str(&format!(
                "{brand},{reference},list,EUR,{}.25,{year}-{month:02}-{mday:02},\n",
                10 + day % 50
            ));
        }
    }
    std::fs::write(out, prices).unwrap();
}

/// Waits until the import writing into `data` has begun, then takes all but 1 MiB of `disk`.
fn fill_once_importing(data: &Path, disk: &Path) -> PathBuf {
    let sorting = || {
        std::fs::read_dir(data)
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with(".sort-"))
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !sorting() {
        assert!(
            std::time::Instant::now() < deadline,
            "the import never began"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let filler = disk.join("filler");
    // The import writes meanwhile: what was free a moment ago may be gone, so leave a
    // margin, wider each time the space had already shrunk below it.
    let filled = (0..8).any(|attempt| {
        let take = free_bytes(disk).saturating_sub((1 << 20) << attempt);
        Command::new("fallocate")
            .args(["-l", &take.to_string(), path(&filler)])
            .status()
            .unwrap()
            .success()
    });
    assert!(filled, "the disk could not be filled");
    filler
}

#[test]
#[ignore = "needs root, to mount a tmpfs: run by tests/with-system-tools.sh as root"]
fn a_server_whose_import_hit_a_full_disk_recovers_when_space_is_back() {
    let dir = tempfile::tempdir().unwrap();
    let Some(Stocked {
        disk,
        data,
        small,
        before,
    }) = stocked_disk(dir.path(), 200)
    else {
        return;
    };
    let inbox = dir.path().join("inbox");
    std::fs::create_dir(&inbox).unwrap();
    many_prices(&small, 300, &inbox.join("prices.csv"));

    // The server logs beside its store: on the disk that fills, where lines are lost and
    // the server lives on.
    let s = server::Served::start_with_env(
        &data,
        &[
            "--demo",
            "--demo-key",
            server::DEMO_KEY,
            "--inbox",
            path(&inbox),
        ],
        &[("PARTSCAT_IMPORT_WAIT_MS", "0")],
    );
    let started = s.get("/svc/importArticles?fileId=prices.csv&importType=prices&dryRun=false");
    assert!(
        started.status == 200 || started.status == 202,
        "{}",
        started.text()
    );
    let id = started.json()["id"].as_u64().unwrap();
    let filler = fill_once_importing(&data, &disk.0);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let job = loop {
        let job = s.get(&format!("/svc/jobs/{id}")).json();
        if job["state"] != "running" && job["state"] != "queued" {
            break job;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the job never ended: {job}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert_eq!(job["state"], "failed", "{job}");
    assert!(
        job["error"].as_str().unwrap().contains("free disk space"),
        "{job}"
    );

    let add_key = || {
        // The JSON endpoint answers its status in the body, as Pegasus does.
        let url = format!("{}/ws/3.0/services/PartsToCatDLB.jsonEndpoint", s.base);
        let body = serde_json::json!({ "addDynamicAPIKey": { "provider": "demo" } });
        s.fetch(
            client()
                .post(url)
                .header("X-Api-Key", server::DEMO_KEY)
                .json(&body),
        )
    };
    // Space back, no restart: writes work again and the catalogue is the one it was.
    std::fs::remove_file(&filler).unwrap();
    let added = add_key().json();
    assert_eq!(added["status"], 200, "{added}");
    let key = added["apiKey"].as_str().unwrap().to_owned();
    let vehicles = std::fs::read_to_string(small.join("vehicles.csv")).unwrap();
    let ktype = vehicles.lines().nth(1).unwrap().split(',').next().unwrap();
    let with_new_key = s.fetch(
        client()
            .get(format!(
                "{}/svc/getArticlesByKtype/{ktype}?provider=demo&limit=1",
                s.base
            ))
            .header("X-Api-Key", key),
    );
    assert_eq!(with_new_key.status, 200, "{}", with_new_key.text());
    drop(s);
    assert_eq!(check(&data), before);
}

#[test]
fn a_server_whose_log_cannot_be_written_keeps_serving() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // Every write to /dev/full fails as on a full disk: each log line, and the access log
    // line of every request, is lost.
    let s = server::Served::start_logging_to(
        &data,
        &["--demo", "--demo-key", server::DEMO_KEY],
        &[("PARTSCAT_LOG", "debug")],
        Path::new("/dev/full"),
    );
    for _ in 0..50 {
        let r = s.get("/svc/getArticlesByKtype/10219");
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(s.get("/svc/nope").status, 404);
    }
    assert_eq!(
        client()
            .get(format!("{}/health", s.base))
            .send()
            .unwrap()
            .status(),
        200
    );
}

fn unsafe_uid() -> u32 {
    let o = Command::new("id").arg("-u").output().unwrap();
    String::from_utf8_lossy(&o.stdout).trim().parse().unwrap()
}

#[test]
#[ignore = "needs root, to mount a tmpfs: run by tests/with-system-tools.sh as root"]
fn an_upload_the_disk_cannot_hold_is_refused_naming_the_disk() {
    let dir = tempfile::tempdir().unwrap();
    let Some(Stocked {
        disk,
        data,
        small,
        before,
    }) = stocked_disk(dir.path(), 200)
    else {
        return;
    };
    let s = server::Served::start(&data, &[]);
    // All but 2 MiB of the disk taken; the upload is about 10 MiB.
    let prices = dir.path().join("upload");
    std::fs::create_dir(&prices).unwrap();
    many_prices(&small, 60, &prices.join("prices.csv"));
    let filler = disk.0.join("filler");
    let take = free_bytes(&disk.0).saturating_sub(2 << 20);
    assert!(
        Command::new("fallocate")
            .args(["-l", &take.to_string(), path(&filler)])
            .status()
            .unwrap()
            .success()
    );
    let o = partscat(&["import", "--data", path(&data), path(&prices)]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let said = text(&o);
    assert!(
        said.contains(&format!("the disk holding {} is full", data.display()))
            && said.contains("the upload needs")
            && said.contains("MiB are free"),
        "{said}"
    );
    assert!(!said.contains("could not be read"), "{said}");
    // Its scratch space is gone, and the catalogue is as it was.
    std::fs::remove_file(&filler).unwrap();
    let left: Vec<_> = std::fs::read_dir(&data)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".spill") || n.starts_with(".upload"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    drop(s);
    assert_eq!(check(&data), before);
}
