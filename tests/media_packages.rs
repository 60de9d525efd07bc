//! apiDMM from the outside: the demo catalogue's 360 sets point at a media server started
//! beside the appliance (some frames missing, one slow, one answering 500 then 200, one
//! cut off mid-file, one of the wrong type, one too large); the package is published to a
//! directory and to an HTTP endpoint and compared file by file with the source; kill -9
//! while frames arrive and while the package is published leaves whole files and the
//! previously published package.

mod common;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::server::{DEMO_KEY, Served, free_port};
use common::{partscat, path, text};
use poem::http::Method;
use poem::{Body, Request, Response};
use serde_json::Value;
use sha2::{Digest, Sha256};

const PUBLISH_USER: &str = "dmm";
const PUBLISH_PASSWORD: &str = "s3cret-publish";

/// The demo catalogue's 360 frames of a brand, by URI.
fn frames_of(brand: u32) -> Vec<String> {
    let mut file = csv::Reader::from_path(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/demo/media.csv"
    ))
    .unwrap();
    file.records()
        .map(|r| r.unwrap())
        .filter(|r| r[0] == *brand.to_string() && &r[2] == "spin360")
        .map(|r| r[5].to_owned())
        .collect()
}

/// A frame's content: 24 different pictures (by position in the set), which every set of
/// the brand shares, so the package holds each once.
fn frame_content(uri: &str) -> Vec<u8> {
    let name = uri.rsplit('/').next().unwrap();
    let position: u64 = name.trim_end_matches(".jpg").parse().unwrap();
    let mut x = position.wrapping_mul(2_654_435_761) + 1;
    (0..30_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// How the media server answers.
#[derive(Default)]
struct Behaviour {
    /// Path → content and content type.
    files: HashMap<String, (Vec<u8>, &'static str)>,
    slow: HashMap<String, Duration>,
    /// Answered 500 the first time.
    fail_once: HashSet<String>,
    /// Cut off half way the first time.
    cut_once: HashSet<String>,
    /// Cut off half way the first time, then replaced at the source by this content.
    cut_then_changed: HashMap<String, Vec<u8>>,
}

/// A media server and publish target on loopback: GET serves frames (with `Range`), PUT
/// under `/publish/` keeps what it receives, with HTTP Basic credentials.
struct MediaServer {
    base: String,
    behaviour: Mutex<Behaviour>,
    /// A wait before every GET, and before every PUT.
    get_delay_ms: AtomicU64,
    put_delay_ms: AtomicU64,
    /// Each GET's path and `Range`.
    gets: Mutex<Vec<(String, Option<String>)>>,
    /// Each accepted PUT's path, in order, and what it carried.
    puts: Mutex<Vec<String>>,
    received: Mutex<BTreeMap<String, Vec<u8>>>,
}

impl MediaServer {
    fn start(behaviour: Behaviour) -> Arc<MediaServer> {
        let port = free_port();
        let server = Arc::new(MediaServer {
            base: format!("http://127.0.0.1:{port}"),
            behaviour: Mutex::new(behaviour),
            get_delay_ms: AtomicU64::new(0),
            put_delay_ms: AtomicU64::new(0),
            gets: Mutex::default(),
            puts: Mutex::default(),
            received: Mutex::default(),
        });
        let serving = server.clone();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Runtime::new().unwrap();
            let endpoint = poem::endpoint::make(move |req: Request| {
                let server = serving.clone();
                async move { server.answer(req).await }
            });
            runtime
                .block_on(
                    poem::Server::new(poem::listener::TcpListener::bind(format!(
                        "127.0.0.1:{port}"
                    )))
                    .run(endpoint),
                )
                .unwrap();
        });
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "the media server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    }

    /// Serves every frame of `brand`.
    fn with_frames_of(brand: u32) -> Arc<MediaServer> {
        let files = frames_of(brand)
            .into_iter()
            .map(|uri| {
                let content = frame_content(&uri);
                (uri, (content, "image/jpeg"))
            })
            .collect();
        MediaServer::start(Behaviour {
            files,
            ..Behaviour::default()
        })
    }

    fn gets_of(&self, prefix: &str) -> Vec<(String, Option<String>)> {
        let gets = self.gets.lock().unwrap();
        gets.iter()
            .filter(|(p, _)| p.starts_with(prefix))
            .cloned()
            .collect()
    }

    fn received(&self, path: &str) -> Option<Vec<u8>> {
        self.received.lock().unwrap().get(path).cloned()
    }

    async fn answer(&self, req: Request) -> Response {
        let path = req.uri().path().trim_start_matches('/').to_owned();
        if req.method() == Method::PUT {
            let expected = format!(
                "Basic {}",
                base64::Engine::encode(
                    &base64::engine::general_purpose::STANDARD,
                    format!("{PUBLISH_USER}:{PUBLISH_PASSWORD}")
                )
            );
            if req.header("authorization") != Some(expected.as_str()) {
                return Response::builder().status(401.try_into().unwrap()).finish();
            }
            let wait = self.put_delay_ms.load(Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(wait)).await;
            let body = req.into_body().into_vec().await.unwrap();
            self.puts.lock().unwrap().push(path.clone());
            self.received.lock().unwrap().insert(path, body);
            return Response::builder().status(201.try_into().unwrap()).finish();
        }
        let range = req.header("range").map(str::to_owned);
        let if_range = req.header("if-range").map(str::to_owned);
        self.gets
            .lock()
            .unwrap()
            .push((path.clone(), range.clone()));
        let wait = self.get_delay_ms.load(Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let (found, slow, fail, cut) = {
            let mut b = self.behaviour.lock().unwrap();
            let found = b.files.get(&path).cloned();
            let slow = b.slow.get(&path).copied();
            let mut cut = b.cut_once.remove(&path);
            if let Some(changed) = b.cut_then_changed.remove(&path) {
                b.files.get_mut(&path).unwrap().0 = changed;
                cut = true;
            }
            (found, slow, b.fail_once.remove(&path), cut)
        };
        if let Some(slow) = slow {
            tokio::time::sleep(slow).await;
        }
        if fail {
            return Response::builder().status(500.try_into().unwrap()).finish();
        }
        let Some((content, content_type)) = found else {
            return Response::builder().status(404.try_into().unwrap()).finish();
        };
        // The version of the file, so that a resume can ask for the rest of this one.
        let etag = format!("\"{}\"", &sha256(&content)[..16]);
        let answer = Response::builder()
            .content_type(content_type)
            .header("etag", &etag);
        let same_version = if_range.is_none_or(|v| v == etag);
        if let Some(from) = range
            .as_deref()
            .filter(|_| same_version)
            .and_then(|r| r.strip_prefix("bytes="))
            .and_then(|r| r.strip_suffix('-'))
            .and_then(|n| n.parse::<usize>().ok())
        {
            return answer
                .status(206.try_into().unwrap())
                .header(
                    "content-range",
                    format!("bytes {from}-{}/{}", content.len() - 1, content.len()),
                )
                .body(content[from..].to_vec());
        }
        if cut {
            // Half the file, a pause, then the connection breaks.
            let half = bytes::Bytes::from(content[..content.len() / 2].to_vec());
            let stream = futures_util::StreamExt::chain(
                futures_util::stream::iter([Ok::<_, std::io::Error>(half)]),
                futures_util::stream::once(async {
                    tokio::time::sleep(Duration::from_millis(300)).await;
                    Err(std::io::Error::other("cut off"))
                }),
            );
            return answer
                .header("content-length", content.len())
                .body(Body::from_bytes_stream(stream));
        }
        answer.body(content)
    }
}

/// The demo appliance with its media store at `media` and the given media settings.
fn serve(data: &Path, media: &Path, vars: &[(&str, &str)]) -> Served {
    let mut all = vec![
        ("PARTSCAT_MEDIA_DIR", path(media)),
        ("PARTSCAT_IMPORT_WAIT_MS", "100"),
    ];
    all.extend_from_slice(vars);
    Served::start_with_env(data, &["--demo", "--demo-key", DEMO_KEY], &all)
}

/// The job an apiDMM call started (200 finished, 202 running).
fn start_dmm(s: &Served, query: &str) -> Value {
    let r = s.get(&format!("/svc/apiDMM?{query}"));
    assert!(r.status == 200 || r.status == 202, "{query}: {}", r.text());
    let job = r.json();
    assert_eq!(job["kind"], "dmm", "{job}");
    job
}

/// Polls a job to its end; also the progress seen on the way.
fn finish(s: &Served, mut job: Value) -> (Value, Vec<Value>) {
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut seen = Vec::new();
    while job["state"] == "running" {
        assert!(Instant::now() < deadline, "the job did not finish: {job}");
        seen.push(job["progress"].clone());
        std::thread::sleep(Duration::from_millis(25));
        job = s.get(&format!("/svc/jobs/{}", job["id"])).json();
    }
    (job, seen)
}

fn dmm(s: &Served, query: &str) -> Value {
    let job = start_dmm(s, query);
    finish(s, job).0
}

/// A manifest's rows as column → value.
fn manifest_rows(text: &[u8]) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_reader(text);
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_owned(), v.to_owned()))
                .collect()
        })
        .collect()
}

/// Every present row's file, read with `file`, is the source's content for its URI and has
/// the manifest's hash and size; the rows the store lacks are `missing`. The rows present.
fn assert_package_matches(
    manifest: &[u8],
    file: impl Fn(&str) -> Option<Vec<u8>>,
    source: impl Fn(&str) -> Option<Vec<u8>>,
) -> usize {
    let mut present = 0;
    for row in manifest_rows(manifest) {
        if row["status"] == "missing" {
            assert!(row["file"].is_empty(), "{row:?}");
            continue;
        }
        assert_eq!(row["status"], "present", "{row:?}");
        let content = file(&row["file"]).unwrap_or_else(|| panic!("no file for {row:?}"));
        assert_eq!(sha256(&content), row["sha256"], "{row:?}");
        assert_eq!(content.len().to_string(), row["size"], "{row:?}");
        assert_eq!(Some(content), source(&row["uri"]), "{}", row["uri"]);
        present += 1;
    }
    present
}

/// Every object of the media store is whole (its content hashes to its name) and every URI
/// entry names an object of its size; the objects.
fn assert_media_store_whole(media: &Path) -> usize {
    let mut objects = 0;
    for prefix in std::fs::read_dir(media.join("objects")).unwrap().flatten() {
        for object in std::fs::read_dir(prefix.path()).unwrap().flatten() {
            let content = std::fs::read(object.path()).unwrap();
            assert_eq!(
                sha256(&content),
                object.file_name().to_string_lossy(),
                "a half file in the store"
            );
            objects += 1;
        }
    }
    for entry in std::fs::read_dir(media.join("uris")).unwrap().flatten() {
        let line = std::fs::read_to_string(entry.path()).unwrap();
        let mut parts = line.split(' ');
        let (hash, size) = (parts.next().unwrap(), parts.next().unwrap());
        let object = media.join("objects").join(&hash[..2]).join(hash);
        assert_eq!(
            std::fs::metadata(&object).unwrap().len().to_string(),
            size,
            "{line}"
        );
    }
    objects
}

/// The package published in a directory target, read through its link.
fn published_in(dir: &Path, brand: u32) -> PathBuf {
    let link = dir.join(format!("dmm-{brand}"));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    link
}

#[test]
fn frames_arrive_despite_faults_and_the_package_is_published_over_http_manifest_last() {
    let frames = frames_of(1);
    assert_eq!(frames.len(), 240);
    let (missing, slow, failing, cut, changed, wrong_type, too_large) = (
        &frames[3..6],
        &frames[30],
        &frames[50],
        &frames[70],
        &frames[130],
        &frames[90],
        &frames[110],
    );
    let server = MediaServer::with_frames_of(1);
    {
        let mut b = server.behaviour.lock().unwrap();
        for uri in missing {
            b.files.remove(uri);
        }
        b.slow.insert(slow.clone(), Duration::from_secs(2));
        b.fail_once.insert(failing.clone());
        b.cut_once.insert(cut.clone());
        // Replaced at the source after the break: the resume must not splice two versions.
        let replacement = frame_content(&frames[131]);
        assert_ne!(replacement, frame_content(changed));
        b.cut_then_changed.insert(changed.clone(), replacement);
        b.files.get_mut(wrong_type).unwrap().1 = "text/html";
        b.files.get_mut(too_large).unwrap().0 = vec![7u8; 1_500_000];
    }
    let dir = tempfile::tempdir().unwrap();
    let password = dir.path().join("publish-password");
    std::fs::write(&password, format!("{PUBLISH_PASSWORD}\n")).unwrap();
    let media = dir.path().join("media");
    let target = format!("{}/publish", server.base);
    let s = serve(
        &dir.path().join("data"),
        &media,
        &[
            ("PARTSCAT_MEDIA_SOURCE", &server.base),
            ("PARTSCAT_PUBLISH_TARGET", &target),
            ("PARTSCAT_PUBLISH_USER", PUBLISH_USER),
            ("PARTSCAT_PUBLISH_PASSWORD_FILE", path(&password)),
            ("PARTSCAT_MEDIA_MAX_FILE_MB", "1"),
            ("PARTSCAT_MEDIA_CONCURRENCY", "4"),
        ],
    );

    let job = start_dmm(&s, "brand_id=1&download360=true&publish=true");
    assert_eq!(job["brandId"], 1);
    // The same brand's package once at a time; another brand's beside it.
    let again = s.get("/svc/apiDMM?brand_id=1");
    assert_eq!(again.status, 409, "{}", again.text());
    assert!(
        again.text().contains("already being built"),
        "{}",
        again.text()
    );
    let other = dmm(&s, "brand_id=2");
    assert_eq!(other["state"], "succeeded", "{other}");
    let (job, seen) = finish(&s, job);
    assert_eq!(job["state"], "succeeded", "{job}");
    assert!(
        seen.iter()
            .any(|p| p["phase"] == "downloading media" && p["filesTotal"] == 240),
        "no download progress seen: {seen:?}"
    );
    let r = &job["dmm"];
    assert_eq!(r["downloaded"], 235, "{r}");
    assert_eq!(r["notFetchedCount"], 5, "{r}");
    let reasons: HashMap<&str, &str> = r["notFetched"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["uri"].as_str().unwrap(), n["reason"].as_str().unwrap()))
        .collect();
    for uri in missing {
        assert!(reasons[uri.as_str()].contains("404"), "{reasons:?}");
    }
    assert!(
        reasons[wrong_type.as_str()].contains("text/html"),
        "{reasons:?}"
    );
    assert!(reasons[too_large.as_str()].contains("limit"), "{reasons:?}");
    // The 500 was tried again; the cut-off file was resumed from where it broke.
    assert_eq!(server.gets_of(failing).len(), 2);
    let cut_gets = server.gets_of(cut);
    assert_eq!(cut_gets.len(), 2, "{cut_gets:?}");
    assert_eq!(
        cut_gets[1].1.as_deref(),
        Some("bytes=15000-"),
        "{cut_gets:?}"
    );
    // The file replaced after the break was asked for from where it broke, for the old
    // version; the source sent the new one whole, and that is what was kept (the package
    // check below compares it with the source).
    let changed_gets = server.gets_of(changed);
    assert_eq!(changed_gets.len(), 2, "{changed_gets:?}");
    assert_eq!(changed_gets[1].1.as_deref(), Some("bytes=15000-"));
    // 24 different pictures among the brand's 240 frames: 24 files.
    assert_eq!(r["files"], 24, "{r}");
    assert_eq!(r["bytes"], 24 * 30_000, "{r}");
    assert_eq!(
        r["publishedTo"],
        format!("{target}/dmm-1/manifest.csv"),
        "{r}"
    );

    // The receiver got every file, then the manifest, last.
    let puts = server.puts.lock().unwrap().clone();
    assert_eq!(puts.len(), 25, "{puts:?}");
    assert_eq!(puts.last().unwrap(), "publish/dmm-1/manifest.csv");
    let manifest = server.received("publish/dmm-1/manifest.csv").unwrap();
    let source = |uri: &str| {
        let b = server.behaviour.lock().unwrap();
        b.files.get(uri).map(|(c, _)| c.clone())
    };
    let present = assert_package_matches(
        &manifest,
        |file| server.received(&format!("publish/dmm-1/{file}")),
        source,
    );
    assert_eq!(present, 235);
    assert_eq!(
        manifest_rows(&manifest)
            .iter()
            .filter(|r| r["status"] == "missing")
            .count() as u64,
        r["missing"].as_u64().unwrap()
    );

    // A second run fetches only what is still missing, and asks nothing else.
    let before = server.gets_of("media/1/").len();
    let job = dmm(&s, "brand_id=1&download360=true");
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(job["dmm"]["downloaded"], 0, "{job}");
    assert_eq!(job["dmm"]["notFetchedCount"], 5, "{job}");
    assert_eq!(server.gets_of("media/1/").len() - before, 5);

    // The operator's view of the media store, through the running server's admin socket.
    let o = partscat(&[
        "media",
        "--data",
        path(&s.data),
        "--brand",
        "1",
        "--missing",
        "1000",
        "--json",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let inventory: Value = serde_json::from_slice(&o.stdout).unwrap();
    let spins = inventory["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == "360")
        .unwrap()
        .clone();
    assert_eq!(spins["entries"], 240, "{inventory}");
    assert_eq!(spins["present"], 235, "{inventory}");
    assert_eq!(spins["missing"], 5, "{inventory}");
    assert!(
        inventory["missing"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["uri"] == missing[0].as_str()),
        "{inventory}"
    );
    assert_media_store_whole(&media);

    // A publish the target refuses (a wrong password) fails by name; the published package
    // stays as it was.
    std::fs::write(&password, "wrong").unwrap();
    let job = dmm(&s, "brand_id=1&publish=true");
    assert_eq!(job["state"], "failed", "{job}");
    let error = job["error"].as_str().unwrap();
    assert!(
        error.contains("previous package stays published") && error.contains("401"),
        "{error}"
    );
    assert_eq!(
        server.received("publish/dmm-1/manifest.csv").unwrap(),
        manifest
    );
}

#[test]
fn each_flag_combination_with_a_directory_source_and_target_and_a_brand_without_media() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("source");
    for uri in frames_of(2) {
        let file = source.join(&uri);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, frame_content(&uri)).unwrap();
    }
    let target = dir.path().join("published");
    let media = dir.path().join("media");
    let data = dir.path().join("data");
    let s = serve(
        &data,
        &media,
        &[
            ("PARTSCAT_MEDIA_SOURCE", path(&source)),
            ("PARTSCAT_PUBLISH_TARGET", path(&target)),
        ],
    );
    let from_source = |uri: &str| std::fs::read(source.join(uri)).ok();

    // Neither flag: the package from what the store holds (nothing yet).
    let job = dmm(&s, "brand_id=2");
    let r = &job["dmm"];
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(
        (&r["downloaded"], &r["files"]),
        (&0.into(), &0.into()),
        "{r}"
    );
    assert_eq!(r["missing"], r["entries"], "{r}");
    assert!(r.get("publishedTo").is_none(), "{r}");
    let entries = r["entries"].as_u64().unwrap();
    assert!(entries > 264, "{r}");

    // publish alone: an all-missing package, published.
    let job = dmm(&s, "brand_id=2&publish=true");
    assert_eq!(job["state"], "succeeded", "{job}");
    let published = published_in(&target, 2);
    let manifest = std::fs::read(published.join("manifest.csv")).unwrap();
    assert_eq!(manifest_rows(&manifest).len() as u64, entries);
    assert_eq!(assert_package_matches(&manifest, |_| None, from_source), 0);

    // download360 alone: the frames arrive; nothing is published anew.
    let job = dmm(&s, "brand_id=2&download360=true");
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(job["dmm"]["downloaded"], 264, "{job}");
    assert_eq!(job["dmm"]["files"], 24, "{job}");
    assert_eq!(
        std::fs::read(published.join("manifest.csv")).unwrap(),
        manifest
    );

    // Both: nothing left to fetch, the new package replaces the old in one step.
    let job = dmm(&s, "brand_id=2&download360=true&publish=true");
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(job["dmm"]["downloaded"], 0, "{job}");
    let manifest = std::fs::read(published.join("manifest.csv")).unwrap();
    let present = assert_package_matches(
        &manifest,
        |file| std::fs::read(published.join(file)).ok(),
        from_source,
    );
    assert_eq!(present, 264);
    let names: Vec<String> = std::fs::read_dir(&target)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "the old package stayed: {names:?}");

    // A brand without media: an empty manifest, published all the same.
    let inbox = data.with_file_name("data-inbox");
    std::fs::write(inbox.join("b.csv"), "brand_id,name\n9,Quiet Parts\n").unwrap();
    std::fs::write(
        inbox.join("a.csv"),
        "brand_id,reference,genart_id,description,status,eans,packaging_unit,replaced_by\n9,Q 1,9,Fuel Filter,active,,1,\n",
    )
    .unwrap();
    for (file, data_set) in [("b.csv", "brands"), ("a.csv", "articles")] {
        let r = s.get(&format!(
            "/svc/importArticles?fileId={file}&importType={data_set}&dryRun=false"
        ));
        let (job, _) = finish(&s, r.json());
        assert_eq!(job["state"], "succeeded", "{job}");
    }
    let job = dmm(&s, "brand_id=9&download360=true&publish=true");
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(job["dmm"]["entries"], 0, "{job}");
    let manifest = std::fs::read(published_in(&target, 9).join("manifest.csv")).unwrap();
    assert!(manifest_rows(&manifest).is_empty());
    assert!(
        String::from_utf8(manifest)
            .unwrap()
            .starts_with("brand_id,")
    );

    // Bad input: an unknown brand, a brand id that is no number.
    assert_eq!(s.get("/svc/apiDMM?brand_id=77").status, 404);
    let r = s.get("/svc/apiDMM?brand_id=x");
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(r.text().contains("brand_id"), "{}", r.text());

    // From the command line: as the running server's job, then on the stopped store.
    let o = partscat(&["dmm", "--data", path(&data), "--brand", "2", "--publish"]);
    assert!(o.status.success(), "{}", text(&o));
    let printed = text(&o);
    assert!(
        printed.contains("24 files") && printed.contains("of the running server"),
        "{printed}"
    );
    drop(s);
    std::fs::remove_dir_all(&media).unwrap();
    let o = std::process::Command::new(common::bin())
        .args(["dmm", "--data", path(&data), "--brand", "2"])
        .args(["--download360", "--publish"])
        .env_remove("PARTSCAT_DATA")
        .env("PARTSCAT_MEDIA_DIR", &media)
        .env("PARTSCAT_MEDIA_SOURCE", &source)
        .env("PARTSCAT_PUBLISH_TARGET", &target)
        .output()
        .unwrap();
    let printed = text(&o);
    assert!(o.status.success(), "{printed}");
    assert!(printed.contains("264 downloaded, 0 not"), "{printed}");
    assert!(printed.contains("published to"), "{printed}");
    let published = published_in(&target, 2);
    let manifest = std::fs::read(published.join("manifest.csv")).unwrap();
    let present = assert_package_matches(
        &manifest,
        |file| std::fs::read(published.join(file)).ok(),
        from_source,
    );
    assert_eq!(present, 264);
}

#[test]
fn kill_9_while_frames_arrive_and_while_the_package_is_published() {
    let server = MediaServer::with_frames_of(1);
    let source = |uri: &str| {
        let b = server.behaviour.lock().unwrap();
        b.files.get(uri).map(|(c, _)| c.clone())
    };
    let dir = tempfile::tempdir().unwrap();
    let (data, media, target) = (
        dir.path().join("data"),
        dir.path().join("media"),
        dir.path().join("published"),
    );
    let to_directory = [
        ("PARTSCAT_MEDIA_SOURCE", server.base.as_str()),
        ("PARTSCAT_PUBLISH_TARGET", path(&target)),
        ("PARTSCAT_MEDIA_CONCURRENCY", "2"),
    ];
    // A first package, published whole.
    let s = serve(&data, &media, &to_directory);
    let job = dmm(&s, "brand_id=1&download360=true&publish=true");
    assert_eq!(job["state"], "succeeded", "{job}");
    let first = std::fs::read(published_in(&target, 1).join("manifest.csv")).unwrap();
    drop(s);

    // The media store emptied, the frames slow: killed while they arrive.
    std::fs::remove_dir_all(&media).unwrap();
    server.get_delay_ms.store(40, Ordering::Relaxed);
    let s = serve(&data, &media, &to_directory);
    let before = server.gets_of("media/1/").len();
    let job = start_dmm(&s, "brand_id=1&download360=true&publish=true");
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.gets_of("media/1/").len() - before < 30 {
        assert!(Instant::now() < deadline, "the frames were not asked for");
        std::thread::sleep(Duration::from_millis(5));
    }
    unsafe { libc::kill(s.pid() as i32, libc::SIGKILL) };
    drop(s);
    assert_eq!(job["state"], "running", "{job}");
    // Whole files only; the published package is the first one, whole.
    assert_media_store_whole(&media);
    let fetched = std::fs::read_dir(media.join("uris")).unwrap().count();
    assert!(
        (1..240).contains(&fetched),
        "{fetched} fetched before the kill"
    );
    let published = published_in(&target, 1);
    assert_eq!(
        std::fs::read(published.join("manifest.csv")).unwrap(),
        first
    );
    assert_package_matches(
        &first,
        |file| std::fs::read(published.join(file)).ok(),
        source,
    );
    // The next run fetches the rest.
    server.get_delay_ms.store(0, Ordering::Relaxed);
    let s = serve(&data, &media, &to_directory);
    let job = dmm(&s, "brand_id=1&download360=true&publish=true");
    assert_eq!(job["state"], "succeeded", "{job}");
    assert_eq!(job["dmm"]["downloaded"], 240 - fetched as u64, "{job}");
    drop(s);

    // Published over HTTP: first a package without frames, then killed while the next one,
    // with frames, is sent; the receiver still has the first manifest and its files.
    let password = dir.path().join("publish-password");
    std::fs::write(&password, PUBLISH_PASSWORD).unwrap();
    let http_target = format!("{}/publish", server.base);
    let to_http = [
        ("PARTSCAT_MEDIA_SOURCE", server.base.as_str()),
        ("PARTSCAT_PUBLISH_TARGET", http_target.as_str()),
        ("PARTSCAT_PUBLISH_USER", PUBLISH_USER),
        ("PARTSCAT_PUBLISH_PASSWORD_FILE", path(&password)),
    ];
    let bare_media = dir.path().join("bare-media");
    let s = serve(&data, &bare_media, &to_http);
    let job = dmm(&s, "brand_id=1&publish=true");
    assert_eq!(job["state"], "succeeded", "{job}");
    drop(s);
    let bare = server.received("publish/dmm-1/manifest.csv").unwrap();
    assert!(
        manifest_rows(&bare)
            .iter()
            .all(|r| r["status"] == "missing")
    );
    server.put_delay_ms.store(300, Ordering::Relaxed);
    let s = serve(&data, &media, &to_http);
    let job = start_dmm(&s, "brand_id=1&publish=true");
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.puts.lock().unwrap().len() < 4 {
        assert!(Instant::now() < deadline, "nothing was published");
        std::thread::sleep(Duration::from_millis(5));
    }
    let progress = s.get(&format!("/svc/jobs/{}", job["id"])).json();
    unsafe { libc::kill(s.pid() as i32, libc::SIGKILL) };
    drop(s);
    assert_eq!(progress["progress"]["phase"], "publishing", "{progress}");
    assert_eq!(progress["progress"]["filesTotal"], 24, "{progress}");
    assert_eq!(server.received("publish/dmm-1/manifest.csv").unwrap(), bare);
    // Started again, it publishes the whole package.
    server.put_delay_ms.store(0, Ordering::Relaxed);
    let s = serve(&data, &media, &to_http);
    let job = dmm(&s, "brand_id=1&publish=true");
    assert_eq!(job["state"], "succeeded", "{job}");
    let manifest = server.received("publish/dmm-1/manifest.csv").unwrap();
    let present = assert_package_matches(
        &manifest,
        |file| server.received(&format!("publish/dmm-1/{file}")),
        source,
    );
    assert_eq!(present, 240);
}

/// A media source over HTTPS, served by nginx: trusted through its private CA
/// (`media_ca_file`), refused by name without it.
#[test]
#[ignore = "needs nginx: run by tests/with-system-tools.sh, which installs it"]
fn frames_come_over_https_from_a_source_trusted_by_its_ca() {
    use common::nginx::Nginx;
    use common::pki::{NOW, Pki};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let source = d.join("source");
    for uri in frames_of(2) {
        let file = source.join(&uri);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, frame_content(&uri)).unwrap();
    }
    let pki = Pki::new(d);
    let ca = pki.ca("ca");
    pki.leaf("server", &["127.0.0.1"], &ca, NOW);
    let port = common::server::free_port();
    let _nginx = Nginx::start(d, port, &pki, ("/media/", &source));
    let data = d.join("data");
    assert!(
        common::import(
            &data,
            &[concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo")]
        )
        .0
    );
    let dmm = |trust: &[(&str, &Path)]| {
        let mut cmd = std::process::Command::new(common::bin());
        cmd.args([
            "dmm",
            "--data",
            path(&data),
            "--brand",
            "2",
            "--download360",
        ])
        .env_remove("PARTSCAT_DATA")
        .env("PARTSCAT_ADMIN_SOCKET", "")
        .env("PARTSCAT_MEDIA_DIR", d.join("media"))
        .env(
            "PARTSCAT_MEDIA_SOURCE",
            format!("https://127.0.0.1:{port}/media"),
        );
        for (k, v) in trust {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    // Until nginx listens, the source cannot be reached; then the CA is what matters.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let refused = loop {
        let o = dmm(&[]);
        if text(&o).contains("issuer is not trusted") {
            break o;
        }
        assert!(std::time::Instant::now() < deadline, "{}", text(&o));
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    assert!(
        text(&refused).contains("0 downloaded"),
        "{}",
        text(&refused)
    );
    let o = dmm(&[("PARTSCAT_MEDIA_CA_FILE", &pki.file("ca.pem"))]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("264 downloaded, 0 not"), "{}", text(&o));
}
