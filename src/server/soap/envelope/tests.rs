use super::*;

fn soap11(body: &str) -> String {
    format!(r#"<s:Envelope xmlns:s="{SOAP11_NS}"><s:Header/><s:Body>{body}</s:Body></s:Envelope>"#)
}

#[test]
fn an_envelope_gives_its_version_and_operation() {
    let xml = soap11(
        r#"<p:getBrands xmlns:p="urn:x"><p:provider>demo &amp; co&#33;</p:provider><p:x xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/><![CDATA[<raw>]]></p:getBrands>"#,
    );
    let e = parse(xml.as_bytes()).unwrap();
    assert_eq!(e.version, SoapVersion::V11);
    assert_eq!(e.operation.name, "getBrands");
    assert_eq!(e.operation.child("provider").unwrap().text, "demo & co!");
    assert!(e.operation.child("x").unwrap().nil);
    assert_eq!(e.operation.text, "<raw>");
    let v12 = format!(
        r#"<env:Envelope xmlns:env="{SOAP12_NS}"><env:Body><getBrands/></env:Body></env:Envelope>"#
    );
    assert_eq!(parse(v12.as_bytes()).unwrap().version, SoapVersion::V12);
}

#[test]
fn hostile_envelopes_are_refused_with_a_reason() {
    let laughs = r#"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><a>&lol2;</a></s:Body></s:Envelope>"#;
    assert!(parse(laughs.as_bytes()).unwrap_err().1.0.contains("DTD"));
    let xxe = soap11("<a>&xxe;</a>");
    assert!(parse(xxe.as_bytes()).unwrap_err().1.0.contains("&xxe;"));
    let deep = soap11(&format!(
        "{}{}",
        "<a>".repeat(10_000),
        "</a>".repeat(10_000)
    ));
    let (version, why) = parse(deep.as_bytes()).unwrap_err();
    assert_eq!(version, Some(SoapVersion::V11));
    assert!(why.0.contains("deeper"));
    let wide = soap11(&format!("<a>{}</a>", "<b/>".repeat(MAX_ELEMENTS + 1)));
    assert!(
        parse(wide.as_bytes())
            .unwrap_err()
            .1
            .0
            .contains("more than")
    );
    for broken in ["", "<a", "<a></b>", "not xml", "<a/><b/>"] {
        assert!(parse(broken.as_bytes()).is_err(), "{broken}");
    }
    assert!(parse(b"\xff\xfe").unwrap_err().1.0.contains("UTF-8"));
    let not_soap = "<Envelope><Body><x/></Body></Envelope>";
    assert!(
        parse(not_soap.as_bytes())
            .unwrap_err()
            .1
            .0
            .contains("not a SOAP")
    );
    assert!(
        parse(soap11("").as_bytes())
            .unwrap_err()
            .1
            .0
            .contains("no operation")
    );
    assert!(
        parse(soap11("<a/><b/>").as_bytes())
            .unwrap_err()
            .1
            .0
            .contains("more than one")
    );
}

#[test]
fn faults_take_the_request_version() {
    let f11 = client_fault(SoapVersion::V11, "bad <thing>");
    assert!(f11.contains("<faultcode>soap:Client</faultcode>"));
    assert!(f11.contains("bad &lt;thing&gt;"));
    let f12 = client_fault(SoapVersion::V12, "x");
    assert!(f12.contains("soap:Sender") && f12.contains(SOAP12_NS));
}
