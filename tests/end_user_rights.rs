//! An end user's dynamic key or address grant reads, and (where the provider allows it)
//! exports; it never imports, administers, reads guarded metrics or issues more grants. Every
//! `/svc` route, every JSON operation, `/admin` and `/metrics` is walked with each kind of
//! credential.

mod common;

use common::server::{DEMO_KEY, Reply, Served, client, client_from};
use serde_json::{Value, json};

/// One call per `/svc` route (every path of the OpenAPI document), with the scope it needs.
const SVC_ROUTES: [(&str, &str); 22] = [
    ("/svc/getCrossRefsOrArticle/0986494958?mainref", "read"),
    ("/svc/suggestNumbers/0986", "read"),
    ("/svc/mediaFile/462?uri=media/1/0986494958.jpg", "read"),
    ("/svc/getArticlesByKtype/10219", "read"),
    ("/svc/getVehicleMakes", "read"),
    ("/svc/getModelSeries/1", "read"),
    ("/svc/getVehicleTypes/101", "read"),
    ("/svc/getAssemblyGroups/10219", "read"),
    ("/svc/getPricesByKtype/10219", "read"),
    ("/svc/price/82/0/10219", "read"),
    ("/svc/e/k/10219", "read"),
    ("/svc/exportCatalogue?brand_id=1", "export"),
    ("/svc/exportGolda?brand_id=1", "export"),
    ("/svc/exportAtc?brand_id=1", "export"),
    ("/svc/exportRefConcurrente?manufacturer_id=101", "export"),
    (
        "/svc/exportRefConcurrenteInterne?manufacturer_id=101&brand_id=1",
        "export",
    ),
    ("/svc/DMM?brand_id=1", "export"),
    (
        "/svc/importArticles?fileId=prices.csv&importType=prices&dryRun=true",
        "admin",
    ),
    ("/svc/jobs/1", "admin"),
    ("/svc/syncTecdoc?importType=articles", "admin"),
    ("/svc/changes?importType=articles", "sync"),
    ("/svc/apiDMM?brand_id=1", "admin"),
];

/// One call per JSON operation; `true`: it issues grants (static credentials only).
fn operations() -> Vec<(&'static str, Value, bool)> {
    vec![
        ("addDynamicAddress", json!({"address": "127.0.0.9"}), true),
        ("addDynamicAPIKey", json!({}), true),
        ("getArticles", json!({"searchQuery": "0986494958"}), false),
        (
            "getArticleLinkages",
            json!({"dataSupplierId": 1, "articleNumber": "0986494958"}),
            false,
        ),
        (
            "getLinkageTargets",
            json!({"linkageTargetIds": ["10219"]}),
            false,
        ),
        (
            "getManufacturers2",
            json!({"linkingTargetType": "P"}),
            false,
        ),
        ("getModelSeries", json!({"manuId": 1}), false),
        (
            "getChildNodesAllLinkingTarget2",
            json!({"linkingTargetId": 10219, "linked": true}),
            false,
        ),
        (
            "getArticleIdsWithState",
            json!({"linkingTargetId": 10219, "assemblyGroupNodeId": 100010}),
            false,
        ),
        (
            "getDirectArticlesByIds6",
            json!({"articleId": {"array": [39]}, "basicData": true}),
            false,
        ),
        (
            "getAutoCompleteSuggestions",
            json!({"searchQuery": "fil"}),
            false,
        ),
        ("getBrands", json!({}), false),
        ("getAmBrands", json!({}), false),
        ("getGenericArticles", json!({}), false),
        ("getManufacturers", json!({}), false),
        (
            "getPricesByKtype",
            json!({"linkageTargetId": "10219"}),
            false,
        ),
        (
            "getKitPrice",
            json!({"genericArticleId": 82, "isKit": false, "linkageTargetId": "10219"}),
            false,
        ),
        (
            "getExhaustKitPrice",
            json!({"linkageTargetId": "10219"}),
            false,
        ),
        ("getVersionInfo", json!({}), false),
    ]
}

/// How a call presents itself.
enum Credential {
    StaticKey,
    DynamicKey(String),
    /// No key, from an address under a grant.
    AddressGrant(&'static str),
}

impl Credential {
    fn name(&self) -> &'static str {
        match self {
            Credential::StaticKey => "static key",
            Credential::DynamicKey(_) => "dynamic key",
            Credential::AddressGrant(_) => "address grant",
        }
    }

    fn get(&self, s: &Served, path: &str) -> Reply {
        let sep = if path.contains('?') { '&' } else { '?' };
        match self {
            Credential::StaticKey => s.fetch(client().get(s.url(path))),
            Credential::DynamicKey(key) => {
                s.fetch(client().get(format!("{}{path}{sep}provider=demo&api_key={key}", s.base)))
            }
            Credential::AddressGrant(ip) => {
                s.fetch(client_from(ip).get(format!("{}{path}{sep}provider=demo", s.base)))
            }
        }
    }

    fn call(&self, s: &Served, operation: &str, mut fields: Value) -> Value {
        fields["provider"] = "demo".into();
        let url = format!("{}/ws/3.0/services/PartsToCatDLB.jsonEndpoint", s.base);
        let body = json!({ operation: fields });
        let request = match self {
            Credential::StaticKey => client().post(url).header("X-Api-Key", DEMO_KEY),
            Credential::DynamicKey(key) => client().post(url).header("X-Api-Key", key.as_str()),
            Credential::AddressGrant(ip) => client_from(ip).post(url),
        };
        s.fetch(request.json(&body)).json()
    }
}

fn denied(status: u64) -> bool {
    status == 401 || status == 403
}

fn end_user_credentials(s: &Served) -> Vec<Credential> {
    let key = Credential::StaticKey.call(s, "addDynamicAPIKey", json!({}));
    assert_eq!(key["status"], 200, "{key}");
    let grant = Credential::StaticKey.call(s, "addDynamicAddress", json!({"address": "127.0.0.7"}));
    assert_eq!(grant["status"], 200, "{grant}");
    vec![
        Credential::DynamicKey(key["apiKey"].as_str().unwrap().to_owned()),
        Credential::AddressGrant("127.0.0.7"),
    ]
}

fn walk(s: &Served, credential: &Credential, may_export: bool) {
    let who = credential.name();
    let static_key = matches!(credential, Credential::StaticKey);
    for (path, scope) in SVC_ROUTES {
        let allowed = static_key || scope == "read" || (scope == "export" && may_export);
        let r = credential.get(s, path);
        assert_eq!(
            !denied(u64::from(r.status)),
            allowed,
            "{who} on {path}: {} {}",
            r.status,
            r.text()
        );
        if !allowed {
            assert!(
                r.text().contains("Access denied"),
                "{who} {path}: {}",
                r.text()
            );
        }
    }
    for (operation, fields, issues_grants) in operations() {
        let allowed = static_key || !issues_grants;
        let answer = credential.call(s, operation, fields);
        let status = answer["status"].as_u64().unwrap();
        assert_eq!(
            !denied(status),
            allowed,
            "{who} calls {operation}: {answer}"
        );
    }
    let admin = credential.get(s, "/admin/providers");
    assert_eq!(
        !denied(u64::from(admin.status)),
        static_key,
        "{who} on /admin"
    );
    let minted = s.fetch(
        match credential {
            Credential::StaticKey => client()
                .patch(format!("{}/admin/providers/demo?provider=demo", s.base))
                .header("X-Api-Key", DEMO_KEY),
            Credential::DynamicKey(key) => client()
                .patch(format!("{}/admin/providers/demo?provider=demo", s.base))
                .header("X-Api-Key", key.as_str()),
            Credential::AddressGrant(ip) => {
                client_from(ip).patch(format!("{}/admin/providers/demo?provider=demo", s.base))
            }
        }
        .json(&json!({"action": "add_key"})),
    );
    assert_eq!(
        !denied(u64::from(minted.status)),
        static_key,
        "{who} mints a key: {} {}",
        minted.status,
        minted.text()
    );
    let metrics = credential.get(s, "/metrics");
    assert_eq!(
        !denied(u64::from(metrics.status)),
        static_key,
        "{who} on /metrics"
    );
}

#[test]
fn end_users_read_and_nothing_more_on_every_surface() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_METRICS", "admin")]);
    // The route table covers every path of the document.
    let document = s
        .fetch(client().get(format!("{}/openapi.json", s.base)))
        .json();
    for path in document["paths"].as_object().unwrap().keys() {
        let first = path
            .trim_start_matches("/svc/")
            .split(['/', '{'])
            .next()
            .unwrap();
        assert!(
            SVC_ROUTES.iter().any(
                |(p, _)| p.trim_start_matches("/svc/").split(['/', '?']).next() == Some(first)
            ),
            "{path} is not walked"
        );
    }
    walk(&s, &Credential::StaticKey, false);
    let end_users = end_user_credentials(&s);
    for credential in &end_users {
        walk(&s, credential, false);
    }

    // The provider lets its end users export; they still never administer.
    let allowed = s.fetch(
        client()
            .patch(format!("{}/admin/providers/demo?provider=demo", s.base))
            .header("X-Api-Key", DEMO_KEY)
            .json(&json!({"action": "set_limits", "dynamic_export": true})),
    );
    assert_eq!(allowed.status, 200, "{}", allowed.text());
    assert_eq!(allowed.json()["provider"]["dynamic_export"], true);
    for credential in &end_users {
        walk(&s, credential, true);
    }
}

#[test]
fn a_repeated_provider_is_refused_everywhere() {
    let s = Served::demo(&[]);
    let svc = s.fetch(client().get(format!(
        "{}/svc/getArticlesByKtype/10219?provider=other&provider=demo&api_key={DEMO_KEY}",
        s.base
    )));
    assert_eq!(svc.status, 400);
    for style in ["DLB", "DLW"] {
        let body = if style == "DLB" {
            json!({"getBrands": {}})
        } else {
            json!({"getBrands": {"arg0": {}}})
        };
        let r = s.fetch(
            client()
                .post(format!(
                    "{}/ws/3.0/services/PartsToCat{style}.jsonEndpoint?provider=other&provider=demo&api_key={DEMO_KEY}",
                    s.base
                ))
                .json(&body),
        );
        let answer = r.json();
        assert_eq!(answer["status"], 400, "{style}: {answer}");
        assert!(
            answer["statusText"].as_str().unwrap().contains("provider"),
            "{answer}"
        );
    }
}
