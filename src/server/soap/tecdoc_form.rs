//! Answers to SOAP clients built from TecDoc's own WSDL: a request whose operation element is
//! in TecDoc's namespace is answered in that namespace, with unqualified children in the order
//! TecDoc's DLB schema declares (`status` where it puts it, after the answer's data), and only
//! the elements that schema knows, so that generated stubs read it by changing their URL.
//! The order is `assets/tecdoc/elements.json`, written from the public schema by
//! `tests/interop/tecdoc_elements.py`.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;

use super::call::Failure;
use super::types::{Form, Types};

/// TecDoc's namespace.
pub const TECDOC_NS: &str = "http://server.cat.tecdoc.net";

/// The element order of TecDoc's answers and requests: each operation's response and request
/// type, and each type's elements with their own types.
#[derive(Debug, Default, Deserialize)]
pub struct TecdocForm {
    responses: HashMap<String, String>,
    requests: HashMap<String, String>,
    types: HashMap<String, Vec<(String, Option<String>)>>,
}

impl TecdocForm {
    /// Whether TecDoc's request of `operation` defines the field at `path` (`sort.field`).
    pub fn defines(&self, operation: &str, path: &str) -> bool {
        let mut at = self.requests.get(operation);
        let mut names = path.split('.').peekable();
        while let (Some(type_name), Some(name)) = (at, names.next()) {
            let Some((_, inner)) = self
                .types
                .get(type_name)
                .and_then(|fields| fields.iter().find(|(n, _)| n == name))
            else {
                return false;
            };
            if names.peek().is_none() {
                return true;
            }
            at = inner.as_ref();
        }
        false
    }
}

impl Form for TecdocForm {
    fn prefix(&self) -> &str {
        ""
    }

    fn order(&self, schema_type: &str) -> Option<&[(String, Option<String>)]> {
        self.types.get(schema_type).map(Vec::as_slice)
    }
}

/// The form, read once from the embedded file (which a test holds readable and complete).
pub fn form() -> &'static TecdocForm {
    static FORM: OnceLock<TecdocForm> = OnceLock::new();
    FORM.get_or_init(|| {
        serde_json::from_str(include_str!("../../../assets/tecdoc/elements.json"))
            .unwrap_or_default()
    })
}

fn status_elements(status: u16, text: &str, out: &mut String) {
    out.push_str(&format!(
        "<status>{status}</status><statusText>{}</statusText>",
        quick_xml::escape::escape(text)
    ));
}

/// The answer element of `operation` whose fields are `value` (of partscat's type
/// `answer_type`), in TecDoc's form.
pub fn success(operation: &str, answer_type: &str, types: &Types, value: &Value) -> String {
    let form = form();
    let mut out = format!(r#"<ns1:{operation}Response xmlns:ns1="{TECDOC_NS}">"#);
    let response = form.responses.get(operation);
    match response.and_then(|t| form.order(t)) {
        Some(elements) => {
            for (name, schema_type) in elements {
                match name.as_str() {
                    "status" => out.push_str("<status>200</status>"),
                    "statusText" => out.push_str("<statusText>OK</statusText>"),
                    _ => types.write_field(
                        answer_type,
                        name,
                        value,
                        form,
                        schema_type.as_deref(),
                        &mut out,
                    ),
                }
            }
        }
        // An operation TecDoc has not: partscat's fields, then the status as TecDoc places it.
        None => {
            types.write_elements(answer_type, value, form, None, &mut out);
            status_elements(200, "OK", &mut out);
        }
    }
    out.push_str(&format!("</ns1:{operation}Response>"));
    out
}

/// A failure of `operation` in TecDoc's form.
pub fn failure(operation: &str, failure: &Failure) -> String {
    let mut out = format!(r#"<ns1:{operation}Response xmlns:ns1="{TECDOC_NS}">"#);
    status_elements(failure.status, &failure.text, &mut out);
    out.push_str(&format!("</ns1:{operation}Response>"));
    out
}

#[cfg(test)]
mod tests {
    use super::form;

    #[test]
    fn the_embedded_order_is_read_whole() {
        let form = form();
        let articles = &form.responses["getArticles"];
        let elements: Vec<&str> = form.types[articles]
            .iter()
            .map(|(n, _)| n.as_str())
            .collect();
        assert_eq!(elements[0], "totalMatchingArticles");
        let status = elements.iter().position(|e| *e == "status").unwrap();
        assert!(status > elements.iter().position(|e| *e == "articles").unwrap());
        assert!(form.responses.len() >= 20, "{:?}", form.responses.keys());
    }

    #[test]
    fn a_request_field_is_looked_up_along_its_path() {
        let form = form();
        assert!(form.defines("getArticles", "includeAll"));
        assert!(form.defines("getArticles", "sort.field"));
        assert!(!form.defines("getArticles", "country"));
        assert!(!form.defines("getArticles", "sort.country"));
        assert!(!form.defines("getArticles", "includeAll.x"));
        assert!(!form.defines("getLinkageTargets", "lang"));
    }
}
