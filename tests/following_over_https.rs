//! Appliances following one another across HTTPS, as across the internet: a private CA, a
//! pinned certificate, mutual TLS for the `sync` scope, and the upstream's deliveries served
//! by a real nginx. A change committed upstream reaches three followers (waiting on the feed,
//! pinned, and through nginx) to the same checksum; certificates that fail are refused by
//! name. Every wait has its own bound.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::nginx::Nginx;
use common::pki::{NOW, Pki};
use common::server::{DEMO_KEY, Served, free_port};
use common::{check, path, text};

fn pki(dir: &Path) -> Pki {
    let pki = Pki::new(dir);
    let ca = pki.ca("ca");
    pki.leaf("server", &["127.0.0.1", "localhost"], &ca, NOW);
    pki.leaf("expired", &["127.0.0.1", "localhost"], &ca, (2020, 2021));
    pki.leaf("elsewhere", &["parts.elsewhere.example"], &ca, NOW);
    let followers = pki.ca("followers-ca");
    pki.leaf("follower", &["follower.example"], &followers, NOW);
    let stranger = pki.ca("stranger-ca");
    pki.leaf("stranger", &["stranger.example"], &stranger, NOW);
    pki
}

/// The upstream: the demo catalogue over HTTPS, `sync` only with a follower's certificate,
/// its deliveries written into `deliveries`.
fn upstream(dir: &Path, pki: &Pki, deliveries: &Path) -> Served {
    let (client_ca, deliveries) = (pki.file("followers-ca.pem"), deliveries.to_owned());
    Served::start_https(
        &dir.join("up"),
        &["--demo", "--demo-key", DEMO_KEY],
        &[
            ("PARTSCAT_CLIENT_CA", path(&client_ca)),
            ("PARTSCAT_DELIVERIES_DIR", path(&deliveries)),
            ("PARTSCAT_IMPORT_WAIT_MS", "10000"),
        ],
        (
            &pki.file("server.pem"),
            &pki.file("server.key"),
            &pki.file("ca.pem"),
        ),
    )
}

/// A follower on the demo catalogue, following as `vars` say.
fn follower(dir: &Path, name: &str, vars: &[(&str, String)]) -> Served {
    let mut all: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    all.extend([
        ("PARTSCAT_SYNC_FOLLOW", "true"),
        ("PARTSCAT_SYNC_FOLLOW_WAIT_S", "30"),
    ]);
    Served::start_with_env(&dir.join(name), &["--demo", "--demo-key", DEMO_KEY], &all)
}

/// The settings of a follower of `up`'s feed, as the demo provider, with the follower
/// certificate.
fn of_feed(up: &Served, pki: &Pki) -> Vec<(&'static str, String)> {
    vec![
        ("PARTSCAT_SYNC_UPSTREAM", up.base.clone()),
        ("PARTSCAT_SYNC_PROVIDER", "demo".into()),
        ("PARTSCAT_SYNC_API_KEY", DEMO_KEY.into()),
        (
            "PARTSCAT_SYNC_CLIENT_CERT",
            path(&pki.file("follower.pem")).into(),
        ),
        (
            "PARTSCAT_SYNC_CLIENT_KEY",
            path(&pki.file("follower.key")).into(),
        ),
    ]
}

/// Waits, for at most three minutes, until `ready` holds.
fn until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(180);
    while !ready() {
        assert!(Instant::now() < deadline, "{what} did not happen in time");
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn data_version(s: &Served) -> u64 {
    s.get_open("/ready").json()["data_version"]
        .as_u64()
        .unwrap()
}

/// The upstream data version a follower serves, if it follows one.
fn following(s: &Served) -> Option<u64> {
    s.get_open("/ready").json()["following"]["data_version"].as_u64()
}

fn import_price(up: &Served, amount: &str) {
    let inbox = up.data.with_file_name("up-inbox");
    let name = format!("price-{amount}.csv");
    std::fs::write(
        inbox.join(&name),
        format!("brand_id,reference,price_type,currency,amount,valid_from\n1,0 986 A45 240,list,EUR,{amount},2026-01-01\n"),
    )
    .unwrap();
    let r = up.get(&format!(
        "/svc/importArticles?fileId={name}&importType=prices&dryRun=false"
    ));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["state"], "succeeded", "{}", r.text());
}

#[test]
#[ignore = "needs nginx: run by tests/with-system-tools.sh, which installs it"]
fn a_change_reaches_followers_over_https_directly_pinned_and_through_nginx() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pki = pki(d);
    let deliveries = d.join("deliveries");
    let mut up = upstream(d, &pki, &deliveries);
    until("the first delivery", || {
        deliveries.join("index.json").exists()
    });
    let nginx_port = free_port();
    let _nginx = Nginx::start(d, nginx_port, &pki, ("/deliveries/", &deliveries));

    let mut direct = of_feed(&up, &pki);
    direct.push(("PARTSCAT_SYNC_CA_FILE", path(&pki.file("ca.pem")).into()));
    let mut pinned = of_feed(&up, &pki);
    pinned.push(("PARTSCAT_SYNC_PIN_SHA256", pki.fingerprint("server")));
    let through_nginx = vec![
        (
            "PARTSCAT_SYNC_SOURCE_URL",
            format!("https://127.0.0.1:{nginx_port}/deliveries/"),
        ),
        ("PARTSCAT_SYNC_CA_FILE", path(&pki.file("ca.pem")).into()),
    ];
    let mut followers = [
        follower(d, "direct", &direct),
        follower(d, "pinned", &pinned),
        follower(d, "via-nginx", &through_nginx),
    ];
    let first = data_version(&up);
    for f in &followers {
        until(
            &format!("{} following version {first}", f.data.display()),
            || following(f) == Some(first),
        );
    }

    // A change upstream: each follower serves it, without an interval to wait out.
    import_price(&up, "123.45");
    let changed = data_version(&up);
    assert!(changed > first);
    until("the delivery of the change", || {
        std::fs::read_to_string(deliveries.join("index.json"))
            .is_ok_and(|t| t.contains(&format!("\"version\": {changed}")))
    });
    for f in &followers {
        until(
            &format!("{} following version {changed}", f.data.display()),
            || following(f) == Some(changed),
        );
    }
    let price = |s: &Served| {
        s.get("/svc/getCrossRefsOrArticle/0 986 A45 240?mainref")
            .text()
    };
    for f in &followers {
        assert_eq!(price(f), price(&up), "{}", f.data.display());
    }

    let mut checksums = Vec::new();
    for s in followers.iter_mut().chain(std::iter::once(&mut up)) {
        s.terminate();
        let (sound, checksum) = check(&s.data);
        assert!(sound, "{}", s.data.display());
        checksums.push(checksum);
    }
    assert!(checksums.windows(2).all(|w| w[0] == w[1]), "{checksums:?}");
}

/// `partscat sync --refresh` on a stopped follower's store with `vars`: its output.
fn sync_once(dir: &Path, vars: &[(&str, String)]) -> (bool, String) {
    let o = Command::new(common::bin())
        .args(["sync", "--refresh", "--data", path(&dir.join("refused"))])
        .env_remove("PARTSCAT_DATA")
        .env("PARTSCAT_ADMIN_SOCKET", "")
        .envs(vars.iter().map(|(k, v)| (*k, v.as_str())))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (o.status.success(), text(&o))
}

#[test]
fn certificates_that_fail_are_refused_by_name_on_both_sides() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pki = pki(d);
    let up = upstream(d, &pki, &d.join("deliveries"));
    let ca = (
        "PARTSCAT_SYNC_CA_FILE",
        path(&pki.file("ca.pem")).to_owned(),
    );
    let with = |extra: &[(&'static str, String)]| {
        let mut vars = of_feed(&up, &pki);
        vars.extend(extra.iter().cloned());
        vars
    };

    // The follower's certificate and the private CA: admitted.
    let (ok, said) = sync_once(d, &with(std::slice::from_ref(&ca)));
    assert!(ok, "{said}");
    let name = up.base.trim_start_matches("https://");

    // Without a client certificate, the upstream refuses the `sync` scope.
    let mut bare = with(std::slice::from_ref(&ca));
    bare.retain(|(k, _)| !k.starts_with("PARTSCAT_SYNC_CLIENT_"));
    let (ok, said) = sync_once(d, &bare);
    assert!(!ok);
    assert!(said.contains("client certificate"), "{said}");
    assert!(said.contains(name), "{said}");

    // A client certificate another CA signed fails the handshake.
    let mut stranger = bare.clone();
    stranger.push((
        "PARTSCAT_SYNC_CLIENT_CERT",
        path(&pki.file("stranger.pem")).into(),
    ));
    stranger.push((
        "PARTSCAT_SYNC_CLIENT_KEY",
        path(&pki.file("stranger.key")).into(),
    ));
    let (ok, said) = sync_once(d, &stranger);
    assert!(!ok);
    assert!(
        said.contains("refused this appliance's client certificate"),
        "{said}"
    );

    // Without the private CA (the system's roots) and with another pin.
    let (ok, said) = sync_once(d, &with(&[]));
    assert!(!ok);
    assert!(
        said.contains("issuer is not trusted") && said.contains(name),
        "{said}"
    );
    let (ok, said) = sync_once(
        d,
        &with(&[("PARTSCAT_SYNC_PIN_SHA256", pki.fingerprint("elsewhere"))]),
    );
    assert!(!ok);
    assert!(said.contains("not the one pinned"), "{said}");

    // The upstream's certificate renewed in place, first with an expired one, then with one
    // for another name: the follower refuses each, saying which.
    for (renewal, why) in [
        ("expired", "it has expired"),
        ("elsewhere", "for another name"),
    ] {
        std::fs::copy(pki.file(&format!("{renewal}.pem")), pki.file("server.pem")).unwrap();
        std::fs::copy(pki.file(&format!("{renewal}.key")), pki.file("server.key")).unwrap();
        common::server::signal(up.pid(), libc::SIGHUP);
        let mut last = String::new();
        until(&format!("the refusal of the {renewal} certificate"), || {
            let (ok, said) = sync_once(d, &with(std::slice::from_ref(&ca)));
            last = said;
            !ok && last.contains(why)
        });
        assert!(last.contains(name), "{last}");
    }
}
