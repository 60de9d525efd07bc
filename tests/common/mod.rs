//! What the integration tests share: the real binary, run as a user would run it.
#![allow(dead_code)]

pub mod nginx;
pub mod pki;
pub mod server;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_partscat"))
}

/// The longest one command of a test may run: past it, it is killed and the test fails
/// naming it, so a hang (the store engine's, once) stops the test instead of CI.
pub const COMMAND_BOUND: std::time::Duration = std::time::Duration::from_secs(300);

pub fn partscat(args: &[&str]) -> Output {
    let mut cmd = Command::new(bin());
    cmd.args(args).env_remove("PARTSCAT_DATA");
    bounded(cmd)
}

/// Runs `cmd` to its end, within `COMMAND_BOUND`.
pub fn bounded(mut cmd: Command) -> Output {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("partscat runs");
    // Read as it comes, so a full pipe never stalls the command.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > COMMAND_BOUND {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} ran over {COMMAND_BOUND:?} and was killed");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

pub fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Copies a directory tree (a store, to run the same step on several copies).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

pub fn generate(articles: usize, seed: u64, out: &Path) {
    let o = partscat(&[
        "gen",
        "--articles",
        &articles.to_string(),
        "--seed",
        &seed.to_string(),
        "--out",
        path(out),
    ]);
    assert!(o.status.success(), "{}", text(&o));
}

/// A new provider `name` of the store at `data` (running or not), made with `partscat admin
/// provider create` and `options` (`--scopes read`, `--brands 1`): its key.
pub fn provider_key(data: &Path, name: &str, options: &[&str]) -> String {
    let mut args = vec![
        "admin",
        "--data",
        path(data),
        "--json",
        "provider",
        "create",
        name,
    ];
    args.extend_from_slice(options);
    let o = partscat(&args);
    assert!(o.status.success(), "{}", text(&o));
    let created: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    created["key"].as_str().unwrap().to_owned()
}

/// Imports and returns the JSON report; panics on a usage or store failure.
pub fn import(store: &Path, args: &[&str]) -> (bool, serde_json::Value) {
    let mut all = vec!["import", "--json", "--data", path(store)];
    all.extend_from_slice(args);
    let o = partscat(&all);
    let report =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("a JSON report: {}", text(&o)));
    (o.status.success(), report)
}

/// The demo-sized generated catalogue (`gen --articles 2000`) imported into `dir/data`, its
/// files in `dir/files`: the store, the files and the checksum `check` gives (sound).
pub fn generated_store(dir: &Path) -> (PathBuf, PathBuf, String) {
    let data = dir.join("data");
    let files = dir.join("files");
    generate(2000, 2026, &files);
    let (ok, report) = import(&data, &[path(&files)]);
    assert!(ok, "{report}");
    let (sound, checksum) = check(&data);
    assert!(sound);
    (data, files, checksum)
}

/// Runs `check`: whether the store is sound, and its checksum.
pub fn check(store: &Path) -> (bool, String) {
    let o = partscat(&["check", "--json", "--data", path(store)]);
    let report: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("a JSON report: {}", text(&o)));
    let sound = report["sound"].as_bool().unwrap_or(false);
    assert_eq!(
        sound,
        o.status.success(),
        "check's exit code follows its verdict: {}",
        text(&o)
    );
    (
        sound,
        report["checksum"].as_str().unwrap_or_default().to_owned(),
    )
}

pub fn totals(report: &serde_json::Value, field: &str) -> u64 {
    report["files"].as_array().map_or(0, |files| {
        files.iter().map(|f| f[field].as_u64().unwrap_or(0)).sum()
    })
}

/// Whether `text` is the golden file `tests/golden/<name>`: what clients see, so that a change
/// to it shows up in review. `PARTSCAT_UPDATE_GOLDEN=1` rewrites the file instead.
pub fn assert_golden(name: &str, text: &str) {
    let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("PARTSCAT_UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, text).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(
        expected == text,
        "{name} changed: review it and rerun with PARTSCAT_UPDATE_GOLDEN=1"
    );
}
