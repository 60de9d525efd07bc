//! `partscat admin`, as a sysadmin runs it: against a running server through its admin
//! socket, and on the store directly when the server is stopped. Every change is checked
//! through the `/svc` routes as a client sees it, and in the audit trail.

mod common;

use std::path::Path;
use std::process::Output;

use common::server::{DEMO_KEY, Served, client, client_from};
use common::{partscat, path, text};
use partscat::clock::SystemClock;
use partscat::service::access::add_dynamic_key;
use partscat::store::Store;

const ROUTE: &str = "/svc/getArticlesByKtype/10219";

fn admin(data: &Path, args: &[&str]) -> Output {
    let mut all = vec!["admin", "--data", path(data)];
    all.extend_from_slice(args);
    partscat(&all)
}

/// Runs an admin command that must succeed with `--json`, and returns its answer.
fn admin_json(data: &Path, args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let o = admin(data, &all);
    assert!(o.status.success(), "admin {args:?}: {}", text(&o));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o)))
}

/// Runs an admin command that must fail, and returns what it said.
fn admin_refused(data: &Path, args: &[&str]) -> String {
    let o = admin(data, args);
    assert_eq!(o.status.code(), Some(2), "admin {args:?}: {}", text(&o));
    text(&o)
}

fn status(s: &Served, from: &str, query: &str) -> u16 {
    s.fetch(client_from(from).get(format!("{}{ROUTE}?{query}", s.base)))
        .status
}

#[test]
fn the_admin_command_manages_providers_of_a_running_server() {
    let s = Served::demo(&[]);
    let data = s.data.clone();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(data.join("admin.sock"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "only the service's user may connect");
    }

    // Create: the key is shown once and admits at once.
    let made = admin_json(&data, &["provider", "create", "shop", "--scopes", "read"]);
    let key = made["key"].as_str().unwrap().to_owned();
    let key_id = made["provider"]["keys"][0].as_str().unwrap().to_owned();
    assert_eq!(
        status(&s, "127.0.0.1", &format!("provider=shop&api_key={key}")),
        200
    );
    // Another provider's key is not shop's.
    assert_eq!(
        status(
            &s,
            "127.0.0.1",
            &format!("provider=shop&api_key={DEMO_KEY}")
        ),
        401
    );
    assert!(admin_refused(&data, &["provider", "create", "shop"]).contains("exists already"));

    // A second key for rotation; the first revoked by its id is refused from then on.
    let second = admin_json(&data, &["key", "add", "shop"])["key"]
        .as_str()
        .unwrap()
        .to_owned();
    admin_json(&data, &["key", "revoke", "shop", &key_id]);
    assert_eq!(
        status(&s, "127.0.0.1", &format!("provider=shop&api_key={key}")),
        401
    );
    assert_eq!(
        status(&s, "127.0.0.1", &format!("provider=shop&api_key={second}")),
        200
    );
    assert!(admin_refused(&data, &["key", "revoke", "shop", &key_id]).contains("has no key"));

    // A CIDR entry admits its whole range without a key, and nothing outside it.
    admin_json(&data, &["whitelist", "add", "shop", "127.0.0.4/30"]);
    for (from, expected) in [("127.0.0.4", 200), ("127.0.0.7", 200), ("127.0.0.8", 401)] {
        assert_eq!(status(&s, from, "provider=shop"), expected, "from {from}");
    }
    admin_json(&data, &["whitelist", "remove", "shop", "127.0.0.4/30"]);
    assert_eq!(status(&s, "127.0.0.5", "provider=shop"), 401);
    assert!(admin_refused(&data, &["whitelist", "add", "shop", "::1"]).contains("IPv6"));
    assert!(
        admin_refused(&data, &["whitelist", "remove", "shop", "10.9.9.9"])
            .contains("not in the whitelist")
    );

    // Scopes: an export needs `export`.
    let export = format!("/svc/exportAtc?brand_id=1&provider=shop&api_key={second}");
    assert_eq!(
        s.fetch(client().get(format!("{}{export}", s.base))).status,
        403
    );
    admin_json(&data, &["scopes", "shop", "read,export"]);
    assert_eq!(
        s.fetch(client().get(format!("{}{export}", s.base))).status,
        200
    );
    assert!(admin_refused(&data, &["scopes", "shop", "write"]).contains("not a scope"));

    // Brands: restricted to brand 2, brand 1 is refused; `all` lifts it.
    admin_json(&data, &["brands", "shop", "2"]);
    assert_eq!(
        s.fetch(client().get(format!("{}{export}", s.base))).status,
        403
    );
    let listed = admin_json(&data, &["provider", "show", "shop"]);
    assert_eq!(listed["brands"], serde_json::json!([2]));
    admin_json(&data, &["brands", "shop", "all"]);
    assert_eq!(
        s.fetch(client().get(format!("{}{export}", s.base))).status,
        200
    );

    // Limits.
    let limited = admin_json(&data, &["limits", "shop", "--max-grant-hours", "6"]);
    assert_eq!(limited["provider"]["max_grant_hours"], 6);
    assert!(
        admin_refused(&data, &["limits", "shop", "--max-grant-hours", "25"])
            .contains("between 1 and 24")
    );

    let renamed = admin_json(&data, &["provider", "rename", "shop", "Shop & Co"]);
    assert_eq!(renamed["provider"]["name"], "Shop & Co");

    // Disable and enable.
    admin_json(&data, &["provider", "disable", "shop"]);
    assert_eq!(
        status(&s, "127.0.0.1", &format!("provider=shop&api_key={second}")),
        401
    );
    admin_json(&data, &["provider", "enable", "shop"]);
    assert_eq!(
        status(&s, "127.0.0.1", &format!("provider=shop&api_key={second}")),
        200
    );

    let all = admin_json(&data, &["provider", "list"]);
    let ids: Vec<&str> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["demo", "shop"]);

    // Delete: its keys stop at once.
    admin_json(&data, &["provider", "delete", "shop"]);
    assert_eq!(
        status(&s, "127.0.0.1", &format!("provider=shop&api_key={second}")),
        401
    );
    assert!(admin_refused(&data, &["provider", "show", "shop"]).contains("no provider `shop`"));

    // Every action is in the audit trail, with who did it; no key is.
    let trail = admin_json(&data, &["audit", "--limit", "100"]);
    let actions: Vec<&str> = trail
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        [
            // The demo provider, by `serve --demo`.
            "provider.create",
            "provider.create",
            "key.add",
            "key.revoke",
            "whitelist.add",
            "whitelist.remove",
            "scopes.set",
            "brands.set",
            "brands.set",
            "limits.set",
            "provider.rename",
            "provider.disable",
            "provider.enable",
            "provider.delete"
        ]
    );
    assert_eq!(trail[0]["operator"], "serve --demo");
    assert!(
        trail[1]["operator"]
            .as_str()
            .unwrap()
            .starts_with("admin socket")
    );
    let written = trail.to_string();
    assert!(!written.contains(&key) && !written.contains(&second));
}

#[test]
fn with_the_server_stopped_the_admin_command_works_on_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let key = {
        let mut s = Served::start(&data, &["--demo", "--demo-key", DEMO_KEY]);
        assert!(s.terminate().success());
        assert!(
            !data.join("admin.sock").exists(),
            "the socket is removed on stop"
        );
        let made = admin_json(
            &data,
            &[
                "provider",
                "create",
                "fleet",
                "--scopes",
                "read",
                "--whitelist",
                "127.0.0.9",
            ],
        );
        made["key"].as_str().unwrap().to_owned()
    };
    // A dynamic key an application handed to an end user (as the library issues it).
    let dynamic = {
        let store = Store::open(&data).unwrap();
        let fleet = store.provider("fleet").unwrap().unwrap();
        add_dynamic_key(&store, &SystemClock, &fleet, Some(2))
            .unwrap()
            .api_key
    };
    // Keys are stored as hashes only.
    for file in walk(&data) {
        let bytes = std::fs::read(&file).unwrap();
        for secret in [&key, &dynamic, &DEMO_KEY.to_owned()] {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "a key in plain text in {}",
                file.display()
            );
        }
    }
    let s = Served::start(&data, &[]);
    let by_dynamic = format!("provider=fleet&api_key={dynamic}");
    assert_eq!(status(&s, "127.0.0.3", &by_dynamic), 200);
    admin_json(&data, &["key", "revoke", "fleet", &dynamic]);
    assert_eq!(status(&s, "127.0.0.3", &by_dynamic), 401);
    assert_eq!(
        status(&s, "127.0.0.1", &format!("provider=fleet&api_key={key}")),
        200
    );
    assert_eq!(status(&s, "127.0.0.9", "provider=fleet"), 200);
    let trail = admin_json(&data, &["audit"]);
    let entries = trail.as_array().unwrap();
    let created = entries
        .iter()
        .find(|e| e["action"] == "provider.create" && e["provider"] == "fleet")
        .unwrap();
    let operator = created["operator"].as_str().unwrap();
    assert!(operator.starts_with("command line"), "{operator}");
    let actions: Vec<&str> = entries
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert!(
        actions.ends_with(&["grant.key", "dynamic_key.revoke"]),
        "{actions:?}"
    );

    // A server that was killed leaves its socket behind: nothing answers there, so the
    // command works on the store, and the next server replaces the stale socket.
    drop(s);
    assert!(data.join("admin.sock").exists());
    admin_json(&data, &["provider", "disable", "fleet"]);
    let s = Served::start(&data, &[]);
    assert_eq!(status(&s, "127.0.0.9", "provider=fleet"), 401);
    admin_json(&data, &["provider", "enable", "fleet"]);
    assert_eq!(status(&s, "127.0.0.9", "provider=fleet"), 200);

    // No store at all: said so, nothing created.
    let nowhere = dir.path().join("nowhere");
    assert!(admin_refused(&nowhere, &["provider", "list"]).contains("there is no store"));
    assert!(!nowhere.exists());
}

#[test]
fn a_running_server_without_an_admin_socket_is_reported_not_bypassed() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_ADMIN_SOCKET", "")]);
    assert!(!s.data.join("admin.sock").exists());
    let said = admin_refused(&s.data, &["provider", "list"]);
    assert!(said.contains("in use"), "{said}");
}

#[test]
fn the_admin_api_over_http_needs_the_admin_scope_and_loopback() {
    let s = Served::demo(&[]);
    let c = client();
    let admin_url = |query: &str| format!("{}/admin/providers?{query}", s.base);

    let listed = s.fetch(c.get(admin_url(&format!("provider=demo&api_key={DEMO_KEY}"))));
    assert_eq!(listed.status, 200, "{}", listed.text());
    assert_eq!(listed.header("cache-control"), "no-store");

    let made = s.fetch(
        c.post(admin_url(&format!("provider=demo&api_key={DEMO_KEY}")))
            .json(&serde_json::json!({"id": "reader", "scopes": ["read"]})),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    assert_eq!(made.header("location"), "/admin/providers/reader");
    let reader_key = made.json()["key"].as_str().unwrap().to_owned();

    // A provider without `admin` is refused; so is a request relayed by a proxy.
    let no_scope = s.fetch(c.get(admin_url(&format!("provider=reader&api_key={reader_key}"))));
    assert_eq!(no_scope.status, 403);
    let relayed = s.fetch(
        c.get(admin_url(&format!("provider=demo&api_key={DEMO_KEY}")))
            .header("X-Forwarded-For", "203.0.113.9"),
    );
    assert_eq!(relayed.status, 403);
    assert!(relayed.text().contains("loopback"));
    let no_key = s.fetch(c.get(admin_url("provider=demo")));
    assert_eq!(no_key.status, 401);

    // Bad bodies are 400 naming what is wrong; unknown providers 404.
    let patch = |id: &str, body: &str| {
        s.fetch(
            c.patch(format!(
                "{}/admin/providers/{id}?provider=demo&api_key={DEMO_KEY}",
                s.base
            ))
            .header("content-type", "application/json")
            .body(body.to_owned()),
        )
    };
    let unknown_action = patch("reader", r#"{"action":"promote"}"#);
    assert_eq!(unknown_action.status, 400);
    assert!(unknown_action.text().contains("promote"));
    assert_eq!(patch("reader", "not json").status, 400);
    let bad_brand = patch("reader", r#"{"action":"set_brands","brands":[0]}"#);
    assert_eq!(bad_brand.status, 400);
    assert_eq!(patch("ghost", r#"{"action":"enable"}"#).status, 404);
    let audit = s.fetch(c.get(format!(
        "{}/admin/audit?limit=0&provider=demo&api_key={DEMO_KEY}",
        s.base
    )));
    assert_eq!(audit.status, 400);
    assert_eq!(audit.json()["parameter"], "limit");

    // The HTTP caller is the audit's operator (after `serve --demo`, which made the provider).
    let trail = s.fetch(c.get(format!(
        "{}/admin/audit?provider=demo&api_key={DEMO_KEY}",
        s.base
    )));
    assert_eq!(
        trail.json()[0]["operator"].as_str().unwrap(),
        "serve --demo"
    );
    assert_eq!(
        trail.json()[1]["operator"].as_str().unwrap(),
        "provider demo from 127.0.0.1"
    );
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else if path.is_file() {
            files.push(path);
        }
    }
    files
}

/// TecDoc clients name their provider by an integer (Pegasus's ProviderId): a provider's
/// numeric alias reaches it through every way a call names a provider, by key and by
/// address, and survives a restart; a number is one provider's only.
#[test]
fn a_provider_is_reached_by_its_numeric_alias() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut s = Served::start(&data, &["--demo", "--demo-key", DEMO_KEY]);
    let jsoned = |s: &Served, provider: serde_json::Value| {
        let body = serde_json::json!({"getLanguages": {"provider": provider}});
        let url = format!(
            "{}/ws/3.0/services/PartsToCatDLB.jsonEndpoint?api_key={DEMO_KEY}",
            s.base
        );
        s.fetch(client().post(url).json(&body)).json()["status"].clone()
    };
    // The demo provider's number is 1: as a query parameter, as a JSON integer and as text.
    assert_eq!(
        status(&s, "127.0.0.1", &format!("provider=1&api_key={DEMO_KEY}")),
        200
    );
    assert_eq!(jsoned(&s, serde_json::json!(1)), 200);
    assert_eq!(jsoned(&s, serde_json::json!("1")), 200);
    assert_eq!(jsoned(&s, serde_json::json!(2)), 401);

    let made = admin_json(
        &data,
        &[
            "provider",
            "create",
            "shop",
            "--number",
            "7",
            "--whitelist",
            "127.0.0.9",
        ],
    );
    assert_eq!(made["provider"]["number"], 7);
    let key = made["key"].as_str().unwrap().to_owned();
    assert_eq!(
        status(&s, "127.0.0.1", &format!("provider=7&api_key={key}")),
        200
    );
    // The demo's key is not shop's, whichever way shop is named.
    assert_eq!(
        status(&s, "127.0.0.1", &format!("provider=7&api_key={DEMO_KEY}")),
        401
    );
    assert_eq!(status(&s, "127.0.0.9", "provider=7"), 200);

    assert!(admin_refused(&data, &["number", "shop", "1"]).contains("names provider `demo`"));
    assert!(admin_refused(&data, &["number", "shop", "0"]).contains("positive integer"));
    assert!(admin_refused(&data, &["number", "shop", "x"]).contains("or `none`"));
    assert!(admin_refused(&data, &["provider", "create", "7"]).contains("names provider `shop`"));
    assert!(text(&admin(&data, &["provider", "list"])).contains("NUMBER"));

    // Moved to another number: the old one names nobody.
    admin_json(&data, &["number", "shop", "22610"]);
    assert_eq!(status(&s, "127.0.0.9", "provider=7"), 401);
    assert_eq!(status(&s, "127.0.0.9", "provider=22610"), 200);

    // The numbers are read back from the store after a restart.
    assert!(s.terminate().success());
    let s = Served::start(&data, &[]);
    assert_eq!(status(&s, "127.0.0.9", "provider=22610"), 200);
    assert_eq!(jsoned(&s, serde_json::json!(1)), 200);
    let cleared = admin_json(&data, &["number", "shop", "none"]);
    assert!(cleared["provider"].get("number").is_none());
    assert_eq!(status(&s, "127.0.0.9", "provider=22610"), 401);
    assert_eq!(status(&s, "127.0.0.9", "provider=shop"), 200);

    let trail = admin_json(&data, &["audit"]);
    let numbered: Vec<&str> = trail
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "number.set")
        .map(|e| e["detail"].as_str().unwrap())
        .collect();
    assert_eq!(numbered, ["number 22610", "no number"]);
}

/// A store the service's account made, opened by another account (an operator who forgot
/// `sudo -u partscat`), is named as that: whose it is and how to run the command, never as a
/// corrupt store to restore nor as a missing one.
#[test]
fn a_store_of_another_account_is_named_as_such_not_as_damage() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let data = dir.path().join("store");
    let o = partscat(&[
        "import",
        "--data",
        path(&data),
        concat!(env!("CARGO_MANIFEST_DIR"), "/assets/demo"),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    // SAFETY: geteuid has no failure.
    let root = unsafe { libc::geteuid() } == 0;
    let run = |args: &[&str]| {
        let mut command = if root {
            // Root may read anything: the command runs as `nobody`, from a copy it may run.
            let own = dir.path().join("partscat");
            if !own.exists() {
                std::fs::copy(common::bin(), &own).unwrap();
                std::fs::set_permissions(&own, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
            let mut c = std::process::Command::new(own);
            c.uid(65534).gid(65534);
            c
        } else {
            std::process::Command::new(common::bin())
        };
        command.args(args).env_remove("PARTSCAT_DATA");
        common::bounded(command)
    };
    if !root {
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/samples/prices.csv");
    for args in [
        vec!["import", "--data", path(&data), "--type", "prices", samples],
        vec!["admin", "--data", path(&data), "provider", "list"],
        vec!["check", "--data", path(&data)],
    ] {
        let o = run(&args);
        let said = text(&o);
        assert!(!o.status.success(), "{args:?}: {said}");
        assert!(said.contains("belongs to the account"), "{args:?}: {said}");
        assert!(said.contains("may not read and write"), "{args:?}: {said}");
        assert!(!said.contains("corrupt"), "{args:?}: {said}");
        assert!(!said.contains("no store"), "{args:?}: {said}");
    }
    if !root {
        std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let (sound, said) = common::check(&data);
    assert!(sound, "the store is untouched: {said}");
}
