//! Reading SOAP envelopes from untrusted clients, and writing answers and faults.
//!
//! The reader refuses what could make a small request expensive before it costs anything: a
//! DTD (so no entity can be declared, expanded or fetched), any entity reference other than the
//! five predefined ones and character references, nesting deeper than `MAX_DEPTH`, more than
//! `MAX_ELEMENTS` elements, and text beyond the body bound. It keeps a small tree of local
//! names and text: operations read fields by name, whatever prefixes the client chose.

use quick_xml::escape::{escape, resolve_predefined_entity};
use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::name::ResolveResult;
use quick_xml::reader::NsReader;

/// The largest envelope read, in bytes (requests are small; answers may be large).
pub const MAX_ENVELOPE_BYTES: usize = 1024 * 1024;
/// The deepest element nesting accepted (envelope, body, operation, then the request's own).
pub const MAX_DEPTH: usize = 32;
/// The most elements one envelope may hold.
pub const MAX_ELEMENTS: usize = 20_000;

pub const SOAP11_NS: &str = "http://schemas.xmlsoap.org/soap/envelope/";
pub const SOAP12_NS: &str = "http://www.w3.org/2003/05/soap-envelope";
const XSI_NS: &str = "http://www.w3.org/2001/XMLSchema-instance";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SoapVersion {
    V11,
    V12,
}

impl SoapVersion {
    pub fn namespace(self) -> &'static str {
        match self {
            SoapVersion::V11 => SOAP11_NS,
            SoapVersion::V12 => SOAP12_NS,
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            SoapVersion::V11 => "text/xml; charset=utf-8",
            SoapVersion::V12 => "application/soap+xml; charset=utf-8",
        }
    }
}

/// An element: its local name, its text, and its child elements.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Element {
    pub name: String,
    pub text: String,
    pub children: Vec<Element>,
    /// `xsi:nil="true"`: present but without a value.
    pub nil: bool,
}

impl Element {
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }
}

/// Why an envelope was refused; the fault's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Malformed(pub String);

fn malformed(text: impl Into<String>) -> Malformed {
    Malformed(text.into())
}

/// A parsed request envelope: its version and the one element of its body.
#[derive(Debug)]
pub struct Envelope {
    pub version: SoapVersion,
    pub operation: Element,
    /// The namespace of the operation element, where it has one: a client built from
    /// TecDoc's WSDL names TecDoc's, and is answered in TecDoc's form.
    pub operation_namespace: Option<String>,
}

/// Parses an envelope. `Err` carries the fault text, and the version when it could be told.
pub fn parse(bytes: &[u8]) -> Result<Envelope, (Option<SoapVersion>, Malformed)> {
    if bytes.len() > MAX_ENVELOPE_BYTES {
        return Err((
            None,
            malformed(format!(
                "the envelope is larger than {MAX_ENVELOPE_BYTES} bytes"
            )),
        ));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|_| (None, malformed("the envelope is not UTF-8 text")))?;
    let (version, root, operation_namespace) = read_tree(text)?;
    let version = version.ok_or_else(|| {
        (
            None,
            malformed(format!(
                "the root element is `{}`, not a SOAP 1.1 or 1.2 Envelope",
                root.name
            )),
        )
    })?;
    let fail = |m: &str| (Some(version), malformed(m));
    let body = root
        .child("Body")
        .ok_or_else(|| fail("the envelope has no Body"))?;
    let mut elements = body.children.iter();
    let operation = elements
        .next()
        .ok_or_else(|| fail("the Body holds no operation element"))?;
    if elements.next().is_some() {
        return Err(fail("the Body holds more than one element"));
    }
    Ok(Envelope {
        version,
        operation: operation.clone(),
        operation_namespace,
    })
}

/// What the reader found: the version (that of the root `Envelope`'s namespace), the tree,
/// and the namespace of the body's first element.
type Read = (Option<SoapVersion>, Element, Option<String>);

/// Reads the document into a tree.
fn read_tree(text: &str) -> Result<Read, (Option<SoapVersion>, Malformed)> {
    let mut reader = NsReader::from_str(text);
    let config = reader.config_mut();
    config.expand_empty_elements = false;
    config.check_end_names = true;
    let mut tree = Tree::default();
    loop {
        let known = tree.version;
        let fail = |m: String| (known, malformed(m));
        let (ns, event) = reader
            .read_resolved_event()
            .map_err(|e| fail(format!("the envelope is not well-formed XML: {e}")))?;
        // The namespace, read before the reader is asked about attributes.
        let soap = soap_version(&ns);
        // Envelope and Body are open: this is the operation element.
        if tree.stack.len() == 2
            && tree.operation_namespace.is_none()
            && matches!(event, Event::Start(_) | Event::Empty(_))
            && let ResolveResult::Bound(n) = &ns
        {
            tree.operation_namespace = Some(n.0.to_owned());
        }
        match event {
            Event::Start(start) => tree.open(soap, &start, &reader, false).map_err(fail)?,
            Event::Empty(start) => tree.open(soap, &start, &reader, true).map_err(fail)?,
            Event::End(_) => {
                let element = tree
                    .stack
                    .pop()
                    .ok_or_else(|| fail("an end tag without its start".into()))?;
                close(&mut tree.stack, &mut tree.root, element);
            }
            Event::Text(t) => append(&mut tree.stack, &t.xml10_content()),
            Event::CData(c) => append(&mut tree.stack, &c.into_inner()),
            Event::GeneralRef(r) => append(&mut tree.stack, &reference_text(&r).map_err(fail)?),
            Event::DocType(_) => {
                return Err(fail(
                    "a DTD is not accepted (no entities can be declared or fetched)".into(),
                ));
            }
            Event::Decl(decl) => {
                if let Some(Ok(encoding)) = decl.encoding()
                    && !encoding.eq_ignore_ascii_case("utf-8")
                {
                    return Err(fail("only UTF-8 envelopes are accepted".into()));
                }
            }
            Event::Comment(_) | Event::PI(_) => {}
            Event::Eof => break,
        }
    }
    let Tree {
        version,
        stack,
        root,
        operation_namespace,
        ..
    } = tree;
    if !stack.is_empty() {
        return Err((version, malformed("the envelope ends inside an element")));
    }
    let root = root.ok_or_else(|| (version, malformed("the body is empty")))?;
    Ok((version, root, operation_namespace))
}

/// The tree as it is read: the elements open, the root once closed, and the bounds' counts.
#[derive(Default)]
struct Tree {
    version: Option<SoapVersion>,
    stack: Vec<Element>,
    root: Option<Element>,
    elements: usize,
    operation_namespace: Option<String>,
}

impl Tree {
    /// A start tag in the namespace of SOAP version `soap` (if either), `empty` where it
    /// closes itself, within the bounds.
    fn open(
        &mut self,
        soap: Option<SoapVersion>,
        start: &BytesStart,
        reader: &NsReader<&[u8]>,
        empty: bool,
    ) -> Result<(), String> {
        self.elements += 1;
        if self.elements > MAX_ELEMENTS {
            return Err(format!(
                "the envelope has more than {MAX_ELEMENTS} elements"
            ));
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(format!(
                "the envelope nests deeper than {MAX_DEPTH} elements"
            ));
        }
        let name = start.local_name().as_ref().to_owned();
        if self.stack.is_empty() {
            if self.root.is_some() {
                return Err("the document has more than one root element".into());
            }
            if name == "Envelope" {
                self.version = soap;
            }
        }
        let element = Element {
            name,
            nil: is_nil(start, reader)?,
            ..Element::default()
        };
        if empty {
            close(&mut self.stack, &mut self.root, element);
        } else {
            self.stack.push(element);
        }
        Ok(())
    }
}

/// The SOAP version whose envelope namespace `ns` is.
fn soap_version(ns: &ResolveResult) -> Option<SoapVersion> {
    match ns {
        ResolveResult::Bound(n) if n.as_ref() == SOAP11_NS => Some(SoapVersion::V11),
        ResolveResult::Bound(n) if n.as_ref() == SOAP12_NS => Some(SoapVersion::V12),
        _ => None,
    }
}

/// Whether the element says `xsi:nil="true"`.
fn is_nil(start: &BytesStart, reader: &NsReader<&[u8]>) -> Result<bool, String> {
    let mut nil = false;
    for attribute in start.attributes() {
        let attribute = attribute.map_err(|e| format!("a malformed attribute: {e}"))?;
        let (attr_ns, local) = reader.resolver().resolve_attribute(attribute.key);
        if local.as_ref() == "nil"
            && matches!(attr_ns, ResolveResult::Bound(n) if n.as_ref() == XSI_NS)
        {
            nil = matches!(attribute.value.as_ref(), "true" | "1");
        }
    }
    Ok(nil)
}

/// A character reference or one of the five predefined entities, as text; any other entity
/// is refused.
fn reference_text(r: &BytesRef) -> Result<String, String> {
    if let Some(c) = r
        .resolve_char_ref()
        .map_err(|e| format!("a bad character reference: {e}"))?
    {
        return Ok(c.to_string());
    }
    let name = r.xml10_content();
    resolve_predefined_entity(&name)
        .map(str::to_owned)
        .ok_or_else(|| {
            format!(
                "the entity `&{name};` is not accepted: only the five predefined entities and character references are"
            )
        })
}

fn close(stack: &mut [Element], root: &mut Option<Element>, element: Element) {
    match stack.last_mut() {
        Some(parent) => parent.children.push(element),
        None => *root = Some(element),
    }
}

fn append(stack: &mut [Element], text: &str) {
    if let Some(current) = stack.last_mut() {
        current.text.push_str(text);
    }
}

/// An answer envelope around `body` (already XML).
pub fn envelope(version: SoapVersion, body: &str) -> String {
    String::from_utf8(around(version, &[body.as_bytes()])).unwrap_or_default()
}

/// An answer envelope around `parts` (already XML, one after the other), as bytes: a kept
/// answer goes in as it was kept.
pub fn around(version: SoapVersion, parts: &[&[u8]]) -> Vec<u8> {
    let open = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="{}"><soap:Body>"#,
        version.namespace()
    );
    const CLOSE: &[u8] = b"</soap:Body></soap:Envelope>";
    let length = open.len() + parts.iter().map(|p| p.len()).sum::<usize>() + CLOSE.len();
    let mut out = Vec::with_capacity(length);
    out.extend_from_slice(open.as_bytes());
    parts.iter().for_each(|p| out.extend_from_slice(p));
    out.extend_from_slice(CLOSE);
    out
}

/// A fault of the client's making, in the form of the request's SOAP version.
pub fn client_fault(version: SoapVersion, reason: &str) -> String {
    let reason = escape(reason);
    let body = match version {
        SoapVersion::V11 => format!(
            "<soap:Fault><faultcode>soap:Client</faultcode><faultstring>{reason}</faultstring></soap:Fault>"
        ),
        SoapVersion::V12 => format!(
            r#"<soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">{reason}</soap:Text></soap:Reason></soap:Fault>"#
        ),
    };
    envelope(version, &body)
}

#[cfg(test)]
mod tests;
