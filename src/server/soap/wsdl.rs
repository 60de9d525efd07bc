//! The XSD and WSDL of each endpoint, generated from the operation set: every operation and
//! field is documented, and the service address is where the client reaches the server.

use std::fmt::Write as _;

use quick_xml::escape::escape;

use super::registry::Operation;
use super::types::Types;

/// The two message styles of the one operation set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Document/literal bare: the request element holds the fields.
    Bare,
    /// Document/literal wrapped: the request element holds `arg0`, which holds the fields.
    Wrapped,
}

/// An endpoint's names: its style under the maker's brand name (setting `brand_name`), so
/// that `Parts` in `PartsToCatDLB` is the maker's, as the service description has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceName {
    pub style: Style,
    pub brand: String,
}

impl ServiceName {
    pub fn new(style: Style, brand: &str) -> ServiceName {
        ServiceName {
            style,
            brand: brand.to_owned(),
        }
    }

    /// `{brand}ToCatDLB` or `{brand}ToCatDLW`.
    pub fn service(&self) -> String {
        let suffix = match self.style {
            Style::Bare => "DLB",
            Style::Wrapped => "DLW",
        };
        format!("{}ToCat{suffix}", self.brand)
    }

    pub fn namespace(&self) -> String {
        format!("urn:partscat:ws:3.0:{}", self.service())
    }
}

const SERVICE_DOC: &str = "partscat parts catalogue: articles by number, vehicles, brands, generic articles, manufacturers, prices, and dynamic access for end users. Every call names its provider (the `provider` field, or the query parameter) and authenticates with an API key (query `api_key`, header `X-Api-Key`, or HTTP Basic with the key as user name) or by IPv4 address. Every answer carries `status` (200 on success) and `statusText`.";

/// The XSD of an endpoint.
pub fn xsd(names: &ServiceName, operations: &[Operation], types: &Types) -> String {
    let ns = names.namespace();
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="{ns}" targetNamespace="{ns}" elementFormDefault="qualified">"#
    );
    types.xsd_types(&mut out);
    for op in operations {
        let name = op.name;
        let doc = documentation(op.doc);
        match names.style {
            Style::Bare => {
                let _ = write!(
                    out,
                    r#"<xs:element name="{name}" type="tns:{}">{doc}</xs:element>"#,
                    op.request_type
                );
            }
            Style::Wrapped => {
                let _ = write!(
                    out,
                    r#"<xs:element name="{name}">{doc}<xs:complexType><xs:sequence><xs:element name="arg0" type="tns:{}">{}</xs:element></xs:sequence></xs:complexType></xs:element>"#,
                    op.request_type,
                    documentation(&format!("The fields of {name}."))
                );
            }
        }
        let _ = write!(
            out,
            r#"<xs:element name="{name}Response">{}<xs:complexType><xs:sequence>{}"#,
            documentation(&format!(
                "The answer of {name}: status and statusText, then, with status 200, its fields."
            )),
            STATUS_ELEMENTS
        );
        types.xsd_elements(&op.answer_type, true, &mut out);
        out.push_str("</xs:sequence></xs:complexType></xs:element>");
    }
    let _ = write!(
        out,
        r#"<xs:element name="Error"><xs:annotation><xs:documentation>The answer to an operation this service does not have.</xs:documentation></xs:annotation><xs:complexType><xs:sequence>{STATUS_ELEMENTS}</xs:sequence></xs:complexType></xs:element>"#
    );
    out.push_str("</xs:schema>");
    out
}

fn documentation(text: &str) -> String {
    format!(
        "<xs:annotation><xs:documentation>{}</xs:documentation></xs:annotation>",
        escape(text)
    )
}

const STATUS_ELEMENTS: &str = r#"<xs:element name="status" type="xs:int"><xs:annotation><xs:documentation>200 on success; else 400 bad field, 401 credentials, 403 access denied, 404 not found, 429 rate limit.</xs:documentation></xs:annotation></xs:element><xs:element name="statusText" type="xs:string"><xs:annotation><xs:documentation>OK, or what went wrong, naming the field.</xs:documentation></xs:annotation></xs:element>"#;

/// The WSDL of an endpoint: its types inline, a SOAP 1.1 and a SOAP 1.2 binding and port.
pub fn wsdl(names: &ServiceName, operations: &[Operation], types: &Types, address: &str) -> String {
    let ns = names.namespace();
    let service = names.service();
    let address = escape(address);
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<?xml version="1.0" encoding="UTF-8"?><wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="{ns}" targetNamespace="{ns}" name="{service}"><wsdl:documentation>{}</wsdl:documentation><wsdl:types>{}</wsdl:types>"#,
        escape(SERVICE_DOC),
        xsd(names, operations, types)
    );
    for op in operations {
        let name = op.name;
        let _ = write!(
            out,
            r#"<wsdl:message name="{name}"><wsdl:part name="parameters" element="tns:{name}"/></wsdl:message><wsdl:message name="{name}Response"><wsdl:part name="parameters" element="tns:{name}Response"/></wsdl:message>"#
        );
    }
    let _ = write!(out, r#"<wsdl:portType name="{service}">"#);
    for op in operations {
        let name = op.name;
        let _ = write!(
            out,
            r#"<wsdl:operation name="{name}"><wsdl:documentation>{}</wsdl:documentation><wsdl:input message="tns:{name}"/><wsdl:output message="tns:{name}Response"/></wsdl:operation>"#,
            escape(op.doc)
        );
    }
    out.push_str("</wsdl:portType>");
    for (suffix, prefix) in [("Soap", "soap"), ("Soap12", "soap12")] {
        let _ = write!(
            out,
            r#"<wsdl:binding name="{service}{suffix}" type="tns:{service}"><{prefix}:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>"#
        );
        for op in operations {
            let _ = write!(
                out,
                r#"<wsdl:operation name="{0}"><{prefix}:operation soapAction="{0}" style="document"/><wsdl:input><{prefix}:body use="literal"/></wsdl:input><wsdl:output><{prefix}:body use="literal"/></wsdl:output></wsdl:operation>"#,
                op.name
            );
        }
        out.push_str("</wsdl:binding>");
    }
    let _ = write!(
        out,
        r#"<wsdl:service name="{service}"><wsdl:port name="{service}Soap" binding="tns:{service}Soap"><soap:address location="{address}"/></wsdl:port><wsdl:port name="{service}Soap12" binding="tns:{service}Soap12"><soap12:address location="{address}"/></wsdl:port></wsdl:service></wsdl:definitions>"#
    );
    out
}

/// Whether a request's fields are the one `arg0` of the wrapped style: given to a bare
/// endpoint, they are in the wrong place, not fields it does not know.
pub(super) fn only_arg0<'a>(names: Option<impl Iterator<Item = &'a String>>) -> bool {
    names.is_some_and(|mut names| {
        names.next().is_some_and(|n| n == "arg0") && names.next().is_none()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn service() -> (&'static [Operation], Types) {
        let operations = super::super::registry::operations();
        let types = Types::new(|r| operations.iter().for_each(|op| op.register(r)));
        (operations, types)
    }

    #[test]
    fn every_element_and_type_of_the_schema_is_documented() {
        let (operations, types) = service();
        for style in [Style::Bare, Style::Wrapped] {
            let xsd = xsd(&ServiceName::new(style, "Parts"), operations, &types);
            let mut undocumented = Vec::new();
            for (at, _) in xsd.match_indices("<xs:element name=\"") {
                let rest = &xsd[at..];
                let tag_end = rest.find('>').unwrap();
                let name = rest[19..].split('"').next().unwrap().to_owned();
                let documented = !rest[..tag_end].ends_with('/')
                    && rest[tag_end + 1..].starts_with("<xs:annotation>");
                if !documented {
                    undocumented.push(name);
                }
            }
            assert!(undocumented.is_empty(), "{style:?}: {undocumented:?}");
            for op in operations {
                assert!(xsd.contains(&format!("<xs:element name=\"{}\"", op.name)));
            }
        }
    }
}
