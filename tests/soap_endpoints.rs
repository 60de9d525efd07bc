//! The SOAP and JSON endpoints through real sockets, as raw HTTP: WSDL and XSD, both SOAP
//! versions, both styles, faults for hostile envelopes, in-band failures, authentication as
//! for `/svc`, and getArticles' match modes and cursor.

mod common;

use common::server::{DEMO_KEY, Reply, Served, client, client_from};
use serde_json::{Value, json};

const DLB: &str = "/ws/3.0/services/PartsToCatDLB.soapEndpoint";
const DLW: &str = "/ws/3.0/services/PartsToCatDLW.soapEndpoint";
const DLB_JSON: &str = "/ws/3.0/services/PartsToCatDLB.jsonEndpoint";
const DLW_JSON: &str = "/ws/3.0/services/PartsToCatDLW.jsonEndpoint";
const SOAP11: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const SOAP12: &str = "http://www.w3.org/2003/05/soap-envelope";
const BARE_NS: &str = "urn:partscat:ws:3.0:PartsToCatDLB";
const WRAPPED_NS: &str = "urn:partscat:ws:3.0:PartsToCatDLW";

const OPERATIONS: [&str; 40] = [
    "addDynamicAddress",
    "addDynamicAPIKey",
    "getArticles",
    "getArticleDirectSearchAllNumbersWithState",
    "getVehicleByIds3",
    "getVehicleByIds4",
    "getArticleLinkages",
    "getArticleLinkedAllLinkingTarget4",
    "getArticleLinkedAllLinkingTargetsByIds3",
    "getVehiclesByKeyNumberPlates",
    "getLinkageTargets",
    "getManufacturers2",
    "getModelSeries",
    "getModelSeries2",
    "getVehicleIdsByCriteria",
    "getMotorIdsByManuIdCriteria2",
    "getVehicleIdsByMotor2",
    "getChildNodesAllLinkingTarget2",
    "getArticleIdsWithState",
    "getDirectArticlesByIds6",
    "getDirectArticlesByIds7",
    "getArticlePartList",
    "getAutoCompleteSuggestions",
    "getBrands",
    "getAmBrands",
    "getAmBrandAddress",
    "getLanguages",
    "getCountries",
    "getCountryGroups",
    "getCriteria2",
    "getKeyValues",
    "getShortCuts2",
    "getVehiclesByVIN",
    "getOEArticlesByVIN",
    "getGenericArticles",
    "getManufacturers",
    "getPricesByKtype",
    "getKitPrice",
    "getExhaustKitPrice",
    "getVersionInfo",
];

fn envelope(ns: &str, body: &str) -> String {
    format!(
        r#"<?xml version="1.0"?><s:Envelope xmlns:s="{ns}"><s:Body>{body}</s:Body></s:Envelope>"#
    )
}

fn post_soap(s: &Served, path: &str, version: &str, xml: String) -> Reply {
    let content_type = if version == SOAP12 {
        "application/soap+xml; charset=utf-8"
    } else {
        "text/xml; charset=utf-8"
    };
    s.fetch(
        client()
            .post(format!("{}{path}?api_key={DEMO_KEY}", s.base))
            .header("content-type", content_type)
            .header("SOAPAction", "\"\"")
            .body(xml),
    )
}

fn post_json(s: &Served, path: &str, body: &Value) -> Reply {
    s.fetch(
        client()
            .post(format!("{}{path}?api_key={DEMO_KEY}", s.base))
            .json(body),
    )
}

/// The text of the first element with this local name.
fn element<'a>(xml: &'a str, name: &str) -> Option<&'a str> {
    let open = format!(":{name}>");
    let start = xml.find(&open)? + open.len();
    let end = xml[start..].find("</")? + start;
    Some(&xml[start..end])
}

#[test]
fn the_wsdls_and_schemas_describe_every_operation_at_the_configured_address() {
    let s = Served::demo_with_env(&[], &[("PARTSCAT_BASE_URL", "https://parts.example.lan/")]);
    for (path, ns) in [(DLB, BARE_NS), (DLW, WRAPPED_NS)] {
        let wsdl = s.fetch(client().get(format!("{}{path}?wsdl", s.base)));
        assert_eq!(wsdl.status, 200);
        assert!(wsdl.header("content-type").starts_with("text/xml"));
        let text = wsdl.text();
        assert!(text.contains(&format!(
            r#"location="https://parts.example.lan/ws/3.0/services/{}""#,
            path.rsplit('/').next().unwrap()
        )));
        assert!(text.contains("<soap12:binding") && text.contains("<soap:binding"));
        assert!(text.contains(&format!(r#"targetNamespace="{ns}""#)));
        let xsd = s.fetch(client().get(format!("{}{path}?xsd=1", s.base)));
        assert_eq!(xsd.status, 200);
        let schema = xsd.text();
        for op in OPERATIONS {
            assert!(
                schema.contains(&format!(r#"<xs:element name="{op}""#)),
                "{op}"
            );
            assert!(schema.contains(&format!(r#"<xs:element name="{op}Response">"#)));
            assert!(text.contains(&format!(r#"<wsdl:operation name="{op}">"#)));
        }
        assert!(schema.contains("<xs:documentation>"));
        assert!(!schema.contains("<!DOCTYPE"));
        // What stock clients compile their stubs from: a change shows up in review (one
        // element a line, so that the diff says which).
        let service = path
            .rsplit('/')
            .next()
            .unwrap()
            .trim_end_matches(".soapEndpoint");
        let lines = |xml: &str| xml.replace("><", ">\n<") + "\n";
        common::assert_golden(&format!("{service}.wsdl"), &lines(&text));
        common::assert_golden(&format!("{service}.xsd"), &lines(&schema));
    }
    // The wrapped style puts the fields in arg0.
    let xsd = s
        .fetch(client().get(format!("{}{DLW}?xsd=1", s.base)))
        .text();
    assert!(xsd.contains(r#"<xs:element name="arg0" type="tns:GetArticlesRequest">"#));
    let put = s.fetch(client().put(format!("{}{DLB}", s.base)));
    assert_eq!(
        (put.status, put.header("allow").as_str()),
        (405, "GET, HEAD, POST")
    );
    let get_json = s.fetch(client().get(format!("{}{DLB_JSON}", s.base)));
    assert_eq!(
        (get_json.status, get_json.header("allow").as_str()),
        (405, "POST")
    );
    let plain_get = s.fetch(client().get(format!("{}{DLB}", s.base)));
    assert_eq!(plain_get.status, 400);
    assert!(plain_get.text().contains("?wsdl"));
}

#[test]
fn both_soap_versions_and_both_styles_answer_with_status() {
    let s = Served::demo(&[]);
    for version in [SOAP11, SOAP12] {
        let bare = post_soap(
            &s,
            DLB,
            version,
            envelope(
                version,
                &format!(
                    r#"<p:getVersionInfo xmlns:p="{BARE_NS}"><p:provider>demo</p:provider></p:getVersionInfo>"#
                ),
            ),
        );
        assert_eq!(bare.status, 200, "{}", bare.text());
        let text = bare.text();
        assert!(
            text.contains(version),
            "the answer is of the request's version"
        );
        assert_eq!(element(&text, "status"), Some("200"));
        assert_eq!(element(&text, "build"), Some(env!("CARGO_PKG_VERSION")));
        let expected_type = if version == SOAP12 {
            "application/soap+xml"
        } else {
            "text/xml"
        };
        assert!(bare.header("content-type").starts_with(expected_type));

        let wrapped = post_soap(
            &s,
            DLW,
            version,
            envelope(
                version,
                &format!(
                    r#"<p:getBrands xmlns:p="{WRAPPED_NS}"><p:arg0><p:provider>demo</p:provider></p:arg0></p:getBrands>"#
                ),
            ),
        );
        assert_eq!(wrapped.status, 200);
        assert_eq!(element(&wrapped.text(), "status"), Some("200"));
        assert!(wrapped.text().contains("<tns:brandId>1</tns:brandId>"));
    }
    // JSON: unwrapped answers with status first.
    let bare = post_json(&s, DLB_JSON, &json!({"getBrands": {"provider": "demo"}}));
    assert_eq!(bare.status, 200);
    let answer = bare.json();
    assert_eq!(answer["status"], 200);
    assert_eq!(answer["statusText"], "OK");
    assert!(bare.text().starts_with(r#"{"status":200"#));
    assert_eq!(answer["data"]["array"][0]["brandId"], 1);
    // The first releases' shape, kept beside Pegasus's (docs/compatibility.md): the same
    // brands, in the same order.
    let pegasus: Vec<(Value, Value)> = answer["data"]["array"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["brandId"].clone(), b["brandName"].clone()))
        .collect();
    let first: Vec<(Value, Value)> = answer["dataSuppliers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["dataSupplierId"].clone(), b["name"].clone()))
        .collect();
    assert_eq!(first, pegasus);
    assert_eq!(pegasus.len(), 4);
    let am = post_json(&s, DLB_JSON, &json!({"getAmBrands": {"provider": "demo"}})).json();
    assert_eq!(
        am["data"]["array"][0]["brandName"],
        answer["data"]["array"][0]["brandName"]
    );
    assert!(am["data"]["array"][0].get("mfrName").is_none(), "{am}");
    assert!(
        am.get("dataSuppliers").is_none(),
        "Pegasus's own operation, Pegasus's shape"
    );
    // What a TecDoc client's getBrands request holds besides: one brand, every detail
    // partscat keeps, and details it does not keep.
    let one = post_json(
        &s,
        DLB_JSON,
        &json!({"getBrands": {"provider": "demo", "dataSupplierId": 2, "includeAll": true,
            "includeAddressDetails": false, "includeDataSupplierLogo": false}}),
    )
    .json();
    assert_eq!(one["status"], 200, "{one}");
    assert_eq!(one["data"]["array"].as_array().unwrap().len(), 1, "{one}");
    let record = &one["data"]["array"][0];
    assert_eq!(record["brandId"], 2);
    assert_eq!(record["dataSupplierId"], 2, "{record}");
    assert_eq!(record["mfrName"], record["brandName"], "{record}");
    assert_eq!(one["dataSuppliers"][0]["dataSupplierId"], 2);
    // Logos are included where the catalogue keeps them: it keeps none.
    let plain = post_json(&s, DLB_JSON, &json!({"getBrands": {"provider": "demo"}})).json();
    let asked = post_json(
        &s,
        DLB_JSON,
        &json!({"getBrands": {"provider": "demo", "includeDataSupplierLogo": true}}),
    )
    .json();
    assert_eq!(asked, plain);
    let request = json!({"getBrands": {"provider": "demo", "articleCountry": "Germany"}});
    let refused = post_json(&s, DLB_JSON, &request).json();
    assert_eq!(refused["status"], 400, "{refused}");
    let text = refused["statusText"].as_str().unwrap();
    assert!(text.contains("'articleCountry'"), "{text}");
    let wrapped = post_json(
        &s,
        DLW_JSON,
        &json!({"getBrands": {"arg0": {"provider": "demo"}}}),
    );
    assert_eq!(wrapped.json(), answer);
}

#[test]
fn hostile_envelopes_get_a_fault_at_once_and_memory_stays_flat() {
    let s = Served::demo(&[]);
    let laughs = format!(
        r#"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]><s:Envelope xmlns:s="{SOAP11}"><s:Body><getBrands>&lol2;</getBrands></s:Body></s:Envelope>"#
    );
    let xxe = format!(
        r#"<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><s:Envelope xmlns:s="{SOAP11}"><s:Body><getBrands><provider>&xxe;</provider></getBrands></s:Body></s:Envelope>"#
    );
    let undeclared = envelope(SOAP11, "<getBrands><provider>&xxe;</provider></getBrands>");
    let deep = envelope(
        SOAP12,
        &format!("{}{}", "<a>".repeat(10_000), "</a>".repeat(10_000)),
    );
    let cases = [
        (laughs.as_str(), SOAP11, "DTD"),
        (xxe.as_str(), SOAP11, "DTD"),
        (undeclared.as_str(), SOAP11, "&amp;xxe;"),
        (deep.as_str(), SOAP12, "deeper"),
        ("<not xml", SOAP11, "well-formed"),
    ];
    for (payload, version, why) in cases {
        let r = post_soap(&s, DLB, version, payload.to_owned());
        assert_eq!(r.status, 400, "{}", r.text());
        let text = r.text();
        assert!(text.contains("Fault") && text.contains(version), "{text}");
        assert!(text.contains(why), "{why} in {text}");
        assert!(!text.contains("root:"), "no file was read");
    }
    let fault12 = post_soap(&s, DLB, SOAP12, deep.clone()).text();
    assert!(fault12.contains("soap:Sender"));

    // A chunked body over the bound is refused without reading it all.
    let answer = send_chunked(&s, DLB, 3 * 1024 * 1024);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("Fault"));

    // Memory stays flat under a stream of hostile requests.
    let rss = || {
        let status = std::fs::read_to_string(format!("/proc/{}/status", s.pid())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .unwrap()
    };
    let wide_deep = envelope(SOAP11, &"<a>".repeat(200_000));
    for _ in 0..20 {
        post_soap(&s, DLB, SOAP11, wide_deep.clone());
    }
    let before = rss();
    for i in 0..300 {
        let payload = [&laughs, &deep, &wide_deep][i % 3].clone();
        assert_eq!(post_soap(&s, DLB, SOAP11, payload).status, 400);
    }
    let after = rss();
    assert!(
        after < before + 32 * 1024,
        "RSS grew from {before} kB to {after} kB over 300 hostile requests"
    );
}

#[test]
fn failures_are_answers_that_name_the_field() {
    let s = Served::demo(&[]);
    // Unknown operation: an Error element, 400.
    let unknown = post_soap(
        &s,
        DLB,
        SOAP11,
        envelope(SOAP11, "<p:frobnicate xmlns:p=\"urn:x\"/>"),
    );
    assert_eq!(unknown.status, 400);
    assert!(unknown.text().contains("Error>"));
    assert_eq!(
        element(&unknown.text(), "statusText"),
        Some("Unknown Call: frobnicate")
    );
    let unknown_json = post_json(&s, DLB_JSON, &json!({"frobnicate": {}}));
    assert_eq!(unknown_json.status, 400);
    assert_eq!(
        unknown_json.json()["statusText"],
        "Unknown Call: frobnicate"
    );

    // A body of the other style cannot be parsed.
    let bare_in_wrapped = post_soap(
        &s,
        DLW,
        SOAP11,
        envelope(SOAP11, "<getBrands><provider>demo</provider></getBrands>"),
    );
    assert_eq!(bare_in_wrapped.status, 400);
    assert!(
        element(&bare_in_wrapped.text(), "statusText")
            .unwrap()
            .starts_with("Unable to parse request")
    );
    for (path, body) in [
        (DLW_JSON, json!({"getBrands": {"provider": "demo"}})),
        (
            DLB_JSON,
            json!({"getBrands": {"arg0": {"provider": "demo"}}}),
        ),
        (DLB_JSON, json!(["getBrands"])),
        (DLB_JSON, json!({"getBrands": {}, "getArticles": {}})),
    ] {
        let r = post_json(&s, path, &body);
        assert_eq!(r.status, 400, "{body}");
        assert_eq!(r.json()["status"], 400);
        assert!(
            r.json()["statusText"]
                .as_str()
                .unwrap()
                .starts_with("Unable to parse request")
        );
    }
    let not_json = s.fetch(client().post(format!("{}{DLB_JSON}", s.base)).body("{"));
    assert_eq!(not_json.status, 400);
    // JSON nested 5,000 deep stops at the parser's recursion limit: a 400, not a crash.
    let deep = format!(
        r#"{{"getBrands":{}{}}}"#,
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let deep = s.fetch(client().post(format!("{}{DLB_JSON}", s.base)).body(deep));
    assert_eq!(deep.status, 400);
    assert!(
        deep.json()["statusText"]
            .as_str()
            .unwrap()
            .starts_with("Unable to parse request")
    );

    // Bad values: a normal answer (HTTP 200) whose status and text name the field.
    for (request, field) in [
        (
            json!({"getArticles": {"provider": "demo", "searchQuery": "x", "perPage": 5000}}),
            "perPage",
        ),
        (
            json!({"getArticles": {"provider": "demo", "searchQuery": "x", "perPage": "many"}}),
            "perPage",
        ),
        (
            json!({"getArticles": {"provider": "demo", "searchQuery": "x", "searchType": 7}}),
            "searchType",
        ),
        (
            json!({"getArticles": {"provider": "demo", "searchQuery": "x", "searchMatchType": "fuzzy"}}),
            "searchMatchType",
        ),
        (
            json!({"getArticles": {"provider": "demo", "searchQuery": "--"}}),
            "searchQuery",
        ),
        (
            json!({"getArticles": {"provider": "demo", "searchQuery": "x", "cursor": "???"}}),
            "cursor",
        ),
        (
            json!({"getArticleLinkages": {"provider": "demo", "articleNumber": "1"}}),
            "dataSupplierId",
        ),
        (
            json!({"addDynamicAPIKey": {"provider": "demo", "validityHours": 25}}),
            "validityHours",
        ),
        (
            json!({"addDynamicAddress": {"provider": "demo", "address": "::1"}}),
            "address",
        ),
        (
            json!({"getLinkageTargets": {"provider": "demo", "perPage": 101}}),
            "perPage",
        ),
    ] {
        let r = post_json(&s, DLB_JSON, &request);
        assert_eq!(r.status, 200, "{request}");
        let answer = r.json();
        assert_eq!(answer["status"], 400, "{request}: {answer}");
        let text = answer["statusText"].as_str().unwrap();
        assert!(text.contains(&format!("'{field}'")), "{request}: {text}");
    }
    let missing = post_json(
        &s,
        DLB_JSON,
        &json!({"getPricesByKtype": {"provider": "demo", "linkageTargetId": "999999"}}),
    );
    assert_eq!(missing.json()["status"], 404);
}

#[test]
fn soap_calls_authenticate_as_svc_calls_do() {
    let s = Served::demo(&[]);
    let call = |query: &str, provider_field: &str, headers: &[(&str, &str)]| -> Value {
        let body = json!({"getBrands": {"provider": provider_field}});
        let mut request = client()
            .post(format!("{}{DLB_JSON}{query}", s.base))
            .json(&body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let r = s.fetch(request);
        assert_eq!(r.status, 200);
        r.json()
    };
    assert_eq!(
        call(&format!("?api_key={DEMO_KEY}"), "demo", &[])["status"],
        200
    );
    assert_eq!(call("", "demo", &[("X-Api-Key", DEMO_KEY)])["status"], 200);
    use base64::Engine as _;
    let basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{DEMO_KEY}:"))
    );
    assert_eq!(
        call("", "demo", &[("Authorization", &basic)])["status"],
        200
    );
    // The provider from the query stands in for the field.
    let by_query = s.fetch(
        client()
            .post(format!(
                "{}{DLB_JSON}?provider=demo&api_key={DEMO_KEY}",
                s.base
            ))
            .json(&json!({"getBrands": {}})),
    );
    assert_eq!(by_query.json()["status"], 200);
    assert_eq!(call("?api_key=wrong", "demo", &[])["status"], 401);
    assert_eq!(
        call(&format!("?api_key={DEMO_KEY}"), "other", &[])["status"],
        401
    );
    assert_eq!(call("", "demo", &[])["status"], 401);
    let disagree = call(&format!("?provider=other&api_key={DEMO_KEY}"), "demo", &[]);
    assert_eq!(disagree["status"], 401);

    // A forged forwarding header from an untrusted peer changes nothing.
    let forged = s.fetch(
        client_from("127.0.0.5")
            .post(format!("{}{DLB_JSON}", s.base))
            .header("X-Forwarded-For", "127.0.0.2")
            .json(&json!({"getBrands": {"provider": "demo"}})),
    );
    assert_eq!(forged.json()["status"], 401);

    // Over IPv6 without a key: Access denied.
    if let Ok(listener) = std::net::TcpListener::bind("[::1]:0") {
        let port = listener.local_addr().unwrap().port();
        drop(listener);
        let v6 = Served::demo(&["--listen", &format!("[::1]:{port}")]);
        let r = v6.fetch(
            client()
                .post(format!("http://[::1]:{port}{DLB_JSON}"))
                .json(&json!({"getBrands": {"provider": "demo"}})),
        );
        assert_eq!(r.json()["status"], 403);
        assert!(
            r.json()["statusText"]
                .as_str()
                .unwrap()
                .contains("Access denied")
        );
    }
}

#[test]
fn get_articles_matches_any_writing_and_pages_by_cursor() {
    let s = Served::demo(&[]);
    let search = |fields: Value| -> Value {
        let mut request = json!({"provider": "demo"});
        request
            .as_object_mut()
            .unwrap()
            .extend(fields.as_object().unwrap().clone());
        let r = post_json(&s, DLB_JSON, &json!({ "getArticles": request }));
        assert_eq!(r.json()["status"], 200, "{}", r.text());
        r.json()
    };
    let numbers = |answer: &Value| -> Vec<String> {
        answer["articles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["articleNumber"].as_str().unwrap().to_owned())
            .collect()
    };
    for (query, mode, should) in [
        ("0986-478-379", "exact", true),
        ("0 986 478 379", "exact", true),
        ("0986478379", "prefix", true),
        ("0986-478", "prefix", true),
        ("478.379", "suffix", true),
        ("0986-478-379", "suffix", true),
        ("0986", "prefix_or_suffix", true),
        ("379", "prefix_or_suffix", true),
        ("0986-478", "exact", false),
        ("478.379", "prefix", false),
    ] {
        let found = numbers(&search(json!({
            "searchQuery": query, "searchMatchType": mode, "searchType": 0, "perPage": 1000
        })));
        assert_eq!(
            found.iter().any(|n| n == "0 986 478 379"),
            should,
            "{query} {mode}: {found:?}"
        );
    }
    // An OE number finds its article with searchType 1 and 10, not 6 (EAN).
    let oe = |t: u32| {
        numbers(&search(
            json!({"searchQuery": "9N0-690-938-B", "searchType": t}),
        ))
    };
    assert!(oe(1).contains(&"0 986 478 379".to_owned()));
    assert!(oe(10).contains(&"0 986 478 379".to_owned()));
    assert!(oe(6).is_empty());

    // The cursor walks the whole result, page by page, each article once.
    let first = search(
        json!({"searchQuery": "0", "searchMatchType": "prefix", "perPage": 7,
        "includeDataSupplierFacets": true}),
    );
    let total = first["totalMatchingArticles"].as_u64().unwrap();
    assert!(total > 14, "enough matches to page: {total}");
    let facets = &first["dataSupplierFacets"];
    assert_eq!(
        facets["total"].as_u64(),
        Some(facets["counts"].as_array().unwrap().len() as u64)
    );
    let facet_sum: u64 = facets["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["count"].as_u64().unwrap())
        .sum();
    assert_eq!(facet_sum, total);
    let mut seen = numbers(&first);
    let mut cursor = first["nextCursor"].as_str().map(str::to_owned);
    while let Some(c) = cursor {
        let page = search(
            json!({"searchQuery": "0", "searchMatchType": "prefix", "perPage": 7, "cursor": c}),
        );
        seen.extend(numbers(&page));
        cursor = page["nextCursor"].as_str().map(str::to_owned);
    }
    assert_eq!(seen.len() as u64, total);
    let page_two =
        search(json!({"searchQuery": "0", "searchMatchType": "prefix", "perPage": 7, "page": 2}));
    assert_eq!(numbers(&page_two), seen[7..14]);
    // perPage 0: counts and facets only.
    let counted = search(json!({"searchQuery": "0", "searchMatchType": "prefix", "perPage": 0}));
    assert_eq!(counted["totalMatchingArticles"].as_u64(), Some(total));
    assert_eq!(counted["articles"], json!([]));
}

/// Posts `size` bytes as a chunked body over a raw socket (the server may answer and close
/// before the body ends) and returns what came back.
fn send_chunked(s: &Served, path: &str, size: usize) -> String {
    use std::io::{Read, Write};
    let address = s.base.trim_start_matches("http://");
    let mut socket = std::net::TcpStream::connect(address).unwrap();
    socket
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).unwrap();
    let chunk = vec![b'a'; 64 * 1024];
    for _ in 0..size / chunk.len() {
        let framed = [format!("{:x}\r\n", chunk.len()).as_bytes(), &chunk, b"\r\n"].concat();
        if socket.write_all(&framed).is_err() {
            break;
        }
    }
    let _ = socket.write_all(b"0\r\n\r\n");
    let mut answer = Vec::new();
    let _ = socket.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn answers_kept_for_one_provider_never_reach_another() {
    use partscat::accounts::Scope;
    use partscat::store::Store;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    {
        let store = Store::open(&data).unwrap();
        partscat::demo::load_demo_catalogue(&store, &partscat::import::Quiet).unwrap();
        store
            .put_provider("all", "Every brand", vec![Scope::Read], Some("key-all"))
            .unwrap();
        store
            .put_provider("brand2", "Brand two", vec![Scope::Read], Some("key-brand2"))
            .unwrap();
        let mut restricted = (*store.provider("brand2").unwrap().unwrap()).clone();
        restricted.brands = vec![2];
        store.save_provider(restricted).unwrap();
        store.flush().unwrap();
    }
    let s = Served::start(&data, &[]);
    let call = |provider: &str, key: &str, request: Value| -> Value {
        let r = s.fetch(
            client()
                .post(format!(
                    "{}{DLB_JSON}?provider={provider}&api_key={key}",
                    s.base
                ))
                .json(&request),
        );
        r.json()
    };
    let brands = |provider: &str, key: &str| -> Vec<Value> {
        let answer = call(provider, key, json!({"getBrands": {}}));
        answer["data"]["array"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["brandId"].clone())
            .collect()
    };
    // Twice each, so the second answer of each comes from the cache.
    for _ in 0..2 {
        assert_eq!(brands("all", "key-all").len(), 4);
        assert_eq!(brands("brand2", "key-brand2"), vec![json!(2)]);
    }
    let search = json!({"getArticles": {"searchQuery": "0986-478-379"}});
    for _ in 0..2 {
        assert_eq!(
            call("all", "key-all", search.clone())["totalMatchingArticles"],
            1
        );
        assert_eq!(
            call("brand2", "key-brand2", search.clone())["totalMatchingArticles"],
            0
        );
    }
    let other_brand =
        json!({"getArticleLinkages": {"dataSupplierId": 1, "articleNumber": "0 986 478 379"}});
    assert_eq!(call("brand2", "key-brand2", other_brand)["status"], 403);
}
