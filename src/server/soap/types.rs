//! The operations' types as XML Schema, and the conversions they govern. The request and
//! answer types are Rust structs described for poem-openapi; their registry is the one source
//! for the XSD, for reading a request (XML or JSON) into typed values, and for writing an
//! answer as XML in the XSD's element order.

use std::collections::HashMap;
use std::fmt::Write as _;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use quick_xml::escape::escape;
use serde_json::Value;

mod answer_form;
mod reading;

pub use answer_form::Form;
pub use reading::Read;

/// The registered types of every operation, with each complex type's fields resolved once
/// (every request read and every answer written walks them).
pub struct Types {
    pub registry: Registry,
    fields: HashMap<String, Vec<Property>>,
}

/// What a property holds.
enum Shape {
    Scalar(Scalar),
    /// A named enumeration of strings.
    Enum(String),
    /// A named complex type.
    Object(String),
}

#[derive(Clone, Copy)]
enum Scalar {
    String,
    Boolean,
    Int,
    Long,
    UnsignedInt,
    UnsignedShort,
    UnsignedLong,
    Double,
}

impl Scalar {
    fn xsd(self) -> &'static str {
        match self {
            Scalar::String => "xs:string",
            Scalar::Boolean => "xs:boolean",
            Scalar::Int => "xs:int",
            Scalar::Long => "xs:long",
            Scalar::UnsignedInt => "xs:unsignedInt",
            Scalar::UnsignedShort => "xs:unsignedShort",
            Scalar::UnsignedLong => "xs:unsignedLong",
            Scalar::Double => "xs:double",
        }
    }

    fn of(schema: &MetaSchema) -> Scalar {
        match (schema.ty, schema.format) {
            ("boolean", _) => Scalar::Boolean,
            ("integer", Some("int64")) => Scalar::Long,
            ("integer", Some("uint32")) => Scalar::UnsignedInt,
            ("integer", Some("uint16" | "uint8")) => Scalar::UnsignedShort,
            ("integer", Some("uint64")) => Scalar::UnsignedLong,
            ("integer", _) => Scalar::Int,
            ("number", _) => Scalar::Double,
            _ => Scalar::String,
        }
    }

    /// A value of this type from text (XML) or from JSON, as JSON.
    fn read(self, field: &str, value: &Value) -> Result<Value, String> {
        let text = match value {
            Value::String(s) => Some(s.trim()),
            _ => None,
        };
        let integer = |min: i128, max: i128, what: &str| -> Result<Value, String> {
            let n = match (value, text) {
                (Value::Number(n), _) => n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)),
                (_, Some(t)) => t.parse::<i128>().ok(),
                _ => None,
            };
            match n {
                Some(n) if (min..=max).contains(&n) => Ok(Value::from(n as i64)),
                _ => Err(format!("Field '{field}' must be {what}")),
            }
        };
        match self {
            Scalar::String => match value {
                Value::String(_) => Ok(value.clone()),
                Value::Number(n) => Ok(Value::String(n.to_string())),
                _ => Err(format!("Field '{field}' must be text")),
            },
            Scalar::Boolean => match (value, text) {
                (Value::Bool(b), _) => Ok(Value::Bool(*b)),
                (_, Some("true" | "1")) => Ok(Value::Bool(true)),
                (_, Some("false" | "0")) => Ok(Value::Bool(false)),
                _ => Err(format!("Field '{field}' must be true or false")),
            },
            Scalar::Int => integer(i32::MIN.into(), i32::MAX.into(), "an integer"),
            Scalar::Long => integer(i64::MIN.into(), i64::MAX.into(), "an integer"),
            Scalar::UnsignedInt => integer(0, u32::MAX.into(), "a non-negative integer"),
            Scalar::UnsignedShort => integer(0, u16::MAX.into(), "a non-negative integer"),
            Scalar::UnsignedLong => integer(0, i64::MAX.into(), "a non-negative integer"),
            Scalar::Double => match (value, text) {
                (Value::Number(_), _) => Ok(value.clone()),
                (_, Some(t)) => t
                    .parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map(Value::Number)
                    .ok_or_else(|| format!("Field '{field}' must be a number")),
                _ => Err(format!("Field '{field}' must be a number")),
            },
        }
    }
}

/// A property of a complex type.
struct Property {
    name: &'static str,
    shape: Shape,
    many: bool,
    /// For a list, the most distinct values a request may give (`maxOccurs` in the XSD).
    max_items: Option<usize>,
    required: bool,
    doc: Option<&'static str>,
}

fn shape_of(registry: &Registry, r: &MetaSchemaRef) -> (Shape, bool) {
    if let MetaSchemaRef::Inline(s) = r
        && s.ty == "array"
        && let Some(items) = &s.items
    {
        return (shape_of(registry, items).0, true);
    }
    if let Some(name) = reference_name(r) {
        let is_enum = registry
            .schemas
            .get(name)
            .is_some_and(|s| !s.enum_items.is_empty());
        let name = name.to_owned();
        return (
            if is_enum {
                Shape::Enum(name)
            } else {
                Shape::Object(name)
            },
            false,
        );
    }
    match r {
        MetaSchemaRef::Inline(s) => (Shape::Scalar(Scalar::of(s)), false),
        MetaSchemaRef::Reference(_) => (Shape::Scalar(Scalar::String), false),
    }
}

fn properties(registry: &Registry, schema: &MetaSchema) -> Vec<Property> {
    schema
        .properties
        .iter()
        .map(|(name, r)| {
            let (shape, many) = shape_of(registry, r);
            let (doc, max_items) = match r {
                MetaSchemaRef::Inline(s) => (s.description, s.max_items),
                MetaSchemaRef::Reference(_) => (None, None),
            };
            Property {
                name,
                shape,
                many,
                max_items,
                required: schema.required.contains(name),
                doc,
            }
        })
        .collect()
}

fn reference_name(r: &MetaSchemaRef) -> Option<&str> {
    match r {
        MetaSchemaRef::Reference(name) => Some(name),
        MetaSchemaRef::Inline(s) => s.all_of.iter().find_map(reference_name),
    }
}

impl Types {
    pub fn new(register: impl FnOnce(&mut Registry)) -> Types {
        let mut registry = Registry::new();
        register(&mut registry);
        let fields = registry
            .schemas
            .iter()
            .map(|(name, schema)| (name.clone(), properties(&registry, schema)))
            .collect();
        Types { registry, fields }
    }

    /// The fields of a complex type, in order; none for an unknown name.
    fn fields(&self, type_name: &str) -> &[Property] {
        self.fields.get(type_name).map_or(&[], Vec::as_slice)
    }

    fn schema(&self, name: &str) -> Option<&MetaSchema> {
        self.registry.schemas.get(name)
    }

    /// The XSD `complexType`s and `simpleType`s of every registered schema.
    pub fn xsd_types(&self, out: &mut String) {
        for (name, schema) in &self.registry.schemas {
            let doc = annotation(schema.description);
            if !schema.enum_items.is_empty() {
                let _ = write!(
                    out,
                    r#"<xs:simpleType name="{name}">{doc}<xs:restriction base="xs:string">"#
                );
                for item in &schema.enum_items {
                    let value = item.as_str().map(str::to_owned).unwrap_or(item.to_string());
                    let _ = write!(out, r#"<xs:enumeration value="{}"/>"#, escape(&value));
                }
                out.push_str("</xs:restriction></xs:simpleType>");
                continue;
            }
            let _ = write!(out, r#"<xs:complexType name="{name}">{doc}<xs:sequence>"#);
            self.xsd_elements(name, false, out);
            out.push_str("</xs:sequence></xs:complexType>");
        }
    }

    /// The elements of a schema's properties; `all_optional` for answers, whose fields are
    /// absent when the status is not 200.
    pub fn xsd_elements(&self, type_name: &str, all_optional: bool, out: &mut String) {
        for p in self.fields(type_name) {
            let ty = match &p.shape {
                Shape::Scalar(s) => s.xsd().to_owned(),
                Shape::Enum(n) | Shape::Object(n) => format!("tns:{n}"),
            };
            let min = if p.required && !p.many && !all_optional {
                1
            } else {
                0
            };
            let max = match (p.many, p.max_items) {
                (false, _) => "1".to_owned(),
                (true, Some(n)) => n.to_string(),
                (true, None) => "unbounded".to_owned(),
            };
            let doc = annotation(p.doc);
            if doc.is_empty() {
                let _ = write!(
                    out,
                    r#"<xs:element name="{}" type="{ty}" minOccurs="{min}" maxOccurs="{max}"/>"#,
                    p.name
                );
            } else {
                let _ = write!(
                    out,
                    r#"<xs:element name="{}" type="{ty}" minOccurs="{min}" maxOccurs="{max}">{doc}</xs:element>"#,
                    p.name
                );
            }
        }
    }
}

fn annotation(doc: Option<&str>) -> String {
    match doc {
        Some(d) if !d.is_empty() => format!(
            "<xs:annotation><xs:documentation>{}</xs:documentation></xs:annotation>",
            escape(d)
        ),
        _ => String::new(),
    }
}
