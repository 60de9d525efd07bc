//! A sysadmin starts `partscat serve`, probes it, and stops it with SIGTERM.

mod common;

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

fn free_port(ip: &str) -> Option<SocketAddr> {
    TcpListener::bind(format!("{ip}:0")).ok()?.local_addr().ok()
}

struct Server {
    child: Child,
    stdout: Vec<String>,
}

impl Server {
    fn start(data: &Path, args: &[&str]) -> Server {
        let mut child = Command::new(bin())
            .args(["serve", "--data", path(data)])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // What `serve` prints at start, up to its last line, the inbox.
        let mut stdout = Vec::new();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        while let Some(Ok(line)) = lines.next() {
            let last = line.starts_with("import inbox:");
            stdout.push(line);
            if last {
                break;
            }
        }
        Server { child, stdout }
    }

    fn terminate(&mut self) -> std::process::ExitStatus {
        common::server::terminate(&mut self.child)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn get(url: &str) -> Option<(u16, serde_json::Value, String)> {
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let response = client.get(url).send().ok()?;
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap_or("").to_owned())
        .unwrap_or_default();
    Some((status, response.json().ok()?, content_type))
}

fn wait_for(url: &str, status: u16) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some((s, body, _)) = get(url)
            && s == status
        {
            return body;
        }
        assert!(Instant::now() < deadline, "{url} did not answer {status}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_demo_appliance_serves_probes_on_every_address_and_stops_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let v4 = free_port("127.0.0.1").unwrap();
    let mut args = vec![
        "--demo".to_owned(),
        "--demo-key".into(),
        "k-123".into(),
        "--listen".into(),
        v4.to_string(),
    ];
    let v6 = free_port("[::1]");
    if let Some(v6) = v6 {
        args.extend(["--listen".into(), v6.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut server = Server::start(&data, &args);
    assert_eq!(
        server.stdout[0],
        "demo provider:      demo (or 1, for clients that send an integer)"
    );
    assert!(server.stdout[1].ends_with(" k-123"), "{:?}", server.stdout);
    // Where to start from: the UI, the document, both WSDLs, and the inbox, created, absolute.
    let printed = server.stdout.join("\n");
    for address in [
        format!("http://{v4}/docs"),
        format!("http://{v4}/openapi.json"),
        format!("http://{v4}/ws/3.0/services/PartsToCatDLB.soapEndpoint?wsdl"),
        format!("http://{v4}/ws/3.0/services/PartsToCatDLW.soapEndpoint?wsdl"),
    ] {
        assert!(printed.contains(&address), "{address} in {printed}");
    }
    let inbox = dir.path().join("data-inbox");
    assert!(printed.ends_with(path(&inbox)), "{printed}");

    assert_eq!(
        wait_for(&format!("http://{v4}/health"), 200)["status"],
        "ok"
    );
    let ready = wait_for(&format!("http://{v4}/ready"), 200);
    assert_eq!(ready["data_version"], 1);
    if let Some(v6) = v6 {
        assert_eq!(
            wait_for(&format!("http://{v6}/health"), 200)["status"],
            "ok"
        );
    }
    assert!(inbox.is_dir());
    // The demo's own files, for importArticles (and its example in /docs) to try.
    assert!(inbox.join("prices.csv").is_file());
    let root = reqwest::blocking::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(format!("http://{v4}/"))
        .send()
        .unwrap();
    // `/` links the catalogue for people and the documentation for developers.
    assert_eq!(root.status().as_u16(), 200);
    let landing = root.text().unwrap();
    assert!(landing.contains(r#"href="/catalogue""#), "{landing}");
    assert!(landing.contains(r#"href="/docs""#), "{landing}");

    // The store is the server's while it runs; the CLI says so instead of failing obscurely.
    let o = partscat(&["check", "--data", path(&data)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("in use by another process"),
        "{}",
        text(&o)
    );

    assert!(server.terminate().success());
    let (sound, checksum) = check(&data);
    assert!(sound);

    // The embedded demo is what the generator makes for its size and seed.
    let files = dir.path().join("demo-files");
    let o = partscat(&[
        "gen",
        "--articles",
        "2000",
        "--translated",
        "--out",
        path(&files),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let fresh = dir.path().join("fresh");
    assert!(import(&fresh, &[path(&files)]).0);
    assert_eq!(check(&fresh).1, checksum);

    // What an operator changes on the demo provider while it is stopped...
    let o = partscat(&["admin", "--data", path(&data), "brands", "demo", "1"]);
    assert!(o.status.success(), "{}", text(&o));

    // ...survives a restart, which keeps the catalogue, does not load the demo over it, and
    // keeps the key: scripts and the UI's authorisation go on working.
    let port = free_port("127.0.0.1").unwrap().to_string();
    let mut again = Server::start(&data, &["--demo", "--listen", &port]);
    assert!(again.stdout[1].contains("unchanged"), "{:?}", again.stdout);
    assert_eq!(
        wait_for(&format!("http://{port}/ready"), 200)["data_version"],
        1
    );
    let brands = wait_for(
        &format!("http://{port}/svc/exportAtc?provider=demo&api_key=k-123&brand_id=2"),
        403,
    );
    assert!(
        brands["detail"].as_str().unwrap().contains("brand"),
        "{brands}"
    );
    assert!(again.terminate().success());
    let o = partscat(&["admin", "--data", path(&data), "audit"]);
    assert_eq!(
        text(&o).matches("provider.create").count(),
        1,
        "{}",
        text(&o)
    );
}

#[test]
fn a_busy_port_stops_serve_before_it_writes_anything() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().to_string();
    let o = Command::new(bin())
        .args(["serve", "--demo", "--data", path(&data), "--listen", &port])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains(&format!("cannot listen on {port}")),
        "{}",
        text(&o)
    );
    assert!(!text(&o).contains("demo key"), "{}", text(&o));
    assert!(!data.exists(), "no store was created");
    assert!(
        !dir.path().join("data-inbox").exists(),
        "no inbox was created"
    );
}

#[test]
fn serve_refuses_a_store_that_is_not_a_sound_partscat_store() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port("127.0.0.1").unwrap().to_string();

    let foreign = dir.path().join("foreign");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
    let o = Command::new(bin())
        .args(["serve", "--data", path(&foreign), "--listen", &port])
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(text(&o).contains("is not a partscat store"), "{}", text(&o));
    assert_eq!(
        std::fs::read_dir(&foreign).unwrap().count(),
        1,
        "nothing was written into it"
    );

    let corrupt = dir.path().join("corrupt");
    let files = dir.path().join("files");
    generate(200, 3, &files);
    assert!(import(&corrupt, &[path(&files)]).0);
    let db = corrupt.join("engine").join("db");
    let mut bytes = std::fs::read(&db).unwrap();
    for b in bytes.iter_mut().take(4096) {
        *b ^= 0x5A;
    }
    std::fs::write(&db, bytes).unwrap();
    let o = Command::new(bin())
        .args(["serve", "--data", path(&corrupt), "--listen", &port])
        .output()
        .unwrap();
    assert!(!o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("corrupt"), "{}", text(&o));
}

#[test]
fn help_describes_every_argument_setting_and_data_set() {
    let help = |args: &[&str]| {
        let o = partscat(&[args, &["--help"]].concat());
        assert!(o.status.success(), "{args:?}: {}", text(&o));
        text(&o)
    };
    let commands: [&[&str]; 21] = [
        &["serve"],
        &["import"],
        &["check"],
        &["gen"],
        &["admin"],
        &["admin", "provider", "create"],
        &["admin", "provider", "list"],
        &["admin", "provider", "show"],
        &["admin", "provider", "disable"],
        &["admin", "provider", "enable"],
        &["admin", "provider", "delete"],
        &["admin", "provider", "rename"],
        &["admin", "key", "add"],
        &["admin", "key", "revoke"],
        &["admin", "whitelist", "add"],
        &["admin", "whitelist", "remove"],
        &["admin", "scopes"],
        &["admin", "brands"],
        &["admin", "limits"],
        &["admin", "audit"],
        &["admin", "provider"],
    ];
    for command in commands {
        let text = help(command);
        // Each argument and option line says what it is: a name alone is not help.
        for line in text.lines() {
            let trimmed = line.trim_start();
            if trimmed.starts_with('<') || trimmed.starts_with('-') {
                let described = trimmed
                    .split_once("  ")
                    .is_some_and(|(_, about)| !about.trim().is_empty());
                assert!(described, "{command:?}: {line:?} is not described");
            }
        }
    }
    let serve = help(&["serve"]);
    for setting in partscat::config::every_setting() {
        assert!(serve.contains(setting.key), "{}", setting.key);
        assert!(serve.contains(setting.env), "{}", setting.env);
    }
    assert!(serve.contains("[default: 127.0.0.1:8080]"), "{serve}");
    let import = help(&["import"]);
    for data_set in partscat::import::ImportType::ALL {
        assert!(import.contains(data_set.name()), "{}", data_set.name());
    }
}
