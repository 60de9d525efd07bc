//! Fields TecDoc does not define, as production clients send them: ignored as TecDoc ignores
//! them and named in the answer's header, the log (once per provider and field) and a
//! metric; refused for a provider set `strict`. `/svc` stays strict.

mod common;

use common::server::{DEMO_KEY, Reply, Served, client};
use serde_json::{Value, json};

const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";
const DLW_JSON: &str = "/ws/3.0/services/PartsToCatDLW.jsonEndpoint";
const DLB: &str = "/ws/3.0/services/PartsToCatDLB.soapEndpoint";
const IGNORED: &str = "partscat-ignored-fields";

fn post_json(s: &Served, path: &str, body: &Value) -> Reply {
    s.fetch(
        client()
            .post(format!("{}{path}?api_key={DEMO_KEY}", s.base))
            .json(body),
    )
}

fn post_soap(s: &Served, body: &str) -> Reply {
    s.fetch(
        client()
            .post(format!("{}{DLB}?api_key={DEMO_KEY}", s.base))
            .header("content-type", "text/xml; charset=utf-8")
            .body(format!(
                r#"<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>{body}</soapenv:Body></soapenv:Envelope>"#
            )),
    )
}

fn articles(extra: Value) -> Value {
    let mut fields =
        json!({"provider": "demo", "lang": "en", "searchQuery": "0 986 494 524", "searchType": 10});
    fields
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    json!({ "getArticles": fields })
}

fn without_status(mut answer: Value) -> Value {
    answer.as_object_mut().unwrap().remove("statusText");
    answer
}

#[test]
fn fields_tecdoc_does_not_define_are_ignored_and_named() {
    let s = Served::demo(&[]);
    let plain = post_json(&s, DLB_JSON, &articles(json!({})));
    assert_eq!(plain.json()["status"], 200, "{}", plain.text());
    assert!(plain.headers.get(IGNORED).is_none());

    // A connector's nightly sync: a country, paging of its own, the provider by another
    // name, include flags misspelt, and a sort with a key of its own.
    let sent = articles(json!({
        "country": "de", "pageSize": 100, "pageNumber": 1, "providerId": 22610,
        "includeOemNumbers": true, "includeEanNumbers": true,
        "sort": [{"field": "mfrName", "direction": "asc", "nullsFirst": true}]
    }));
    for path in [DLB_JSON, DLW_JSON] {
        let body = if path == DLW_JSON {
            json!({"getArticles": {"arg0": sent["getArticles"].clone()}})
        } else {
            sent.clone()
        };
        let lenient = post_json(&s, path, &body);
        assert_eq!(lenient.status, 200, "{path}: {}", lenient.text());
        assert_eq!(lenient.json()["status"], 200, "{path}: {}", lenient.text());
        assert_eq!(
            lenient.header(IGNORED),
            "country, pageSize, pageNumber, providerId, includeOemNumbers, includeEanNumbers, \
             sort.nullsFirst",
            "{path}"
        );
        // The answer is the one without them, sorted as asked.
        let sorted = post_json(
            &s,
            DLB_JSON,
            &articles(json!({"sort": [{"field": "mfrName", "direction": "asc"}]})),
        );
        assert_eq!(
            without_status(lenient.json()),
            without_status(sorted.json())
        );
    }

    // SOAP alike: an element TecDoc's request does not have.
    let soap = post_soap(
        &s,
        r#"<getAutoCompleteSuggestions xmlns="urn:partscat:ws:3.0:PartsToCatDLB"><provider>demo</provider><lang>en</lang><searchQuery>brake</searchQuery><shopId>7</shopId></getAutoCompleteSuggestions>"#,
    );
    assert_eq!(soap.status, 200, "{}", soap.text());
    assert!(
        soap.text().contains("<tns:status>200</tns:status>"),
        "{}",
        soap.text()
    );
    assert_eq!(soap.header(IGNORED), "shopId");

    // Counted by operation, and logged once per provider and field however often given.
    post_json(&s, DLB_JSON, &articles(json!({"country": "de"})));
    let metrics = s.get_open("/metrics").text();
    let counted = metrics
        .lines()
        .find(|l| l.starts_with("partscat_ignored_fields_total{operation=\"getArticles\"}"))
        .unwrap_or_else(|| panic!("{metrics}"));
    assert!(counted.ends_with(" 15"), "{counted}");
    let log = s.log_text();
    let named = |field: &str| {
        log.lines()
            .filter(|l| l.contains("ignored a field") && l.contains(&format!("\"{field}\"")))
            .count()
    };
    assert_eq!(named("country"), 1, "{log}");
    assert_eq!(named("sort.nullsFirst"), 1, "{log}");
    assert_eq!(named("shopId"), 1, "{log}");
}

#[test]
fn a_strict_provider_is_refused_them_by_name() {
    let s = Served::demo(&[]);
    let strict = |on: bool| {
        let r = s.fetch(
            client()
                .patch(format!(
                    "{}/admin/providers/demo?provider=demo&api_key={DEMO_KEY}",
                    s.base
                ))
                .json(&json!({"action": "set_strict", "strict": on})),
        );
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(r.json()["provider"]["strict"], on);
    };
    strict(true);
    let refused = post_json(&s, DLB_JSON, &articles(json!({"country": "de"})));
    assert_eq!(refused.status, 400);
    let text = refused.json()["statusText"].as_str().unwrap().to_owned();
    assert!(
        text.starts_with("Unable to parse request: Field 'country' is not part of")
            && text.contains("strict"),
        "{text}"
    );
    assert!(refused.headers.get(IGNORED).is_none());
    // What TecDoc defines is still taken.
    let defined = post_json(&s, DLB_JSON, &articles(json!({"articleCountry": null})));
    assert_eq!(defined.json()["status"], 200, "{}", defined.text());
    strict(false);
    let lenient = post_json(&s, DLB_JSON, &articles(json!({"country": "de"})));
    assert_eq!(lenient.json()["status"], 200, "{}", lenient.text());
}

#[test]
fn svc_stays_strict_and_a_body_of_the_other_style_is_still_refused() {
    let s = Served::demo(&[]);
    let svc = s.get("/svc/getCrossRefsOrArticle/0986494524?mainref&country=de");
    assert_eq!(svc.status, 400, "{}", svc.text());
    assert!(svc.text().contains("country"), "{}", svc.text());
    // DLB given DLW's `arg0`: the fields are in the wrong place, not unknown.
    let wrapped_in_bare = post_json(
        &s,
        DLB_JSON,
        &json!({"getBrands": {"arg0": {"provider": "demo"}}}),
    );
    assert_eq!(wrapped_in_bare.status, 400, "{}", wrapped_in_bare.text());
    let soap = post_soap(
        &s,
        r#"<getBrands xmlns="urn:partscat:ws:3.0:PartsToCatDLB"><arg0><provider>demo</provider></arg0></getBrands>"#,
    );
    assert_eq!(soap.status, 400, "{}", soap.text());
}

/// A country is any ISO 3166-1 code, as TecDoc takes it: the catalogue restricts none of its
/// articles to some countries, so a shop in Budapest is answered what a shop in Vienna is,
/// even where `catalogue.countries` names only others; only a value that is no country code
/// is refused, by name.
#[test]
fn any_country_code_is_answered_alike() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_CATALOGUE_COUNTRIES", "DE,AT")]);
    let filter = json!({"searchQuery": "WK 138", "searchType": 0});
    let plain = post_json(&s, DLB_JSON, &articles(filter.clone()));
    assert_eq!(plain.json()["status"], 200, "{}", plain.text());
    assert_eq!(plain.json()["totalMatchingArticles"], 1, "{}", plain.text());
    for country in ["AT", "hu", "Fr"] {
        let mut fields = filter.clone();
        fields["articleCountry"] = json!(country);
        let asked = post_json(&s, DLB_JSON, &articles(fields));
        assert_eq!(
            without_status(asked.json()),
            without_status(plain.json()),
            "{country}"
        );
    }
    let listed = post_json(&s, DLB_JSON, &json!({"getCountries": {"provider": "demo"}}));
    let codes: Vec<Value> = listed.json()["data"]["array"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["countryCode"].clone())
        .collect();
    assert_eq!(
        codes,
        [json!("DE"), json!("AT")],
        "getCountries lists the setting's"
    );
    let refused = post_json(
        &s,
        DLB_JSON,
        &articles(json!({"articleCountry": "Hungary"})),
    );
    assert_eq!(refused.json()["status"], 400, "{}", refused.text());
    assert!(
        refused.text().contains("articleCountry"),
        "{}",
        refused.text()
    );
}
