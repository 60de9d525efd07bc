//! The operations' types as XML Schema, and the conversions they govern. The request and
//! answer types are Rust structs described for poem-openapi; their registry is the one source
//! for the XSD, for reading a request (XML or JSON) into typed values, and for writing an
//! answer as XML in the XSD's element order.

use std::collections::HashMap;
use std::fmt::Write as _;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use quick_xml::escape::escape;
use serde_json::{Map, Value};

use super::envelope::Element;

mod answer_form;

pub use answer_form::Form;

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

    /// Reads an element of the named type into JSON, by the type: unknown, repeated,
    /// missing and mistyped fields are refused naming the field.
    pub fn read_xml(&self, type_name: &str, element: &Element) -> Result<Value, String> {
        if !self.fields.contains_key(type_name) {
            return Err(format!("no type {type_name}"));
        }
        let props = self.fields(type_name);
        let mut map = Map::new();
        for child in &element.children {
            let p = props
                .iter()
                .find(|p| p.name == child.name)
                .ok_or_else(|| format!("Field '{}' is not part of {type_name}", child.name))?;
            if child.nil {
                continue;
            }
            let value = match &p.shape {
                Shape::Object(n) => self.read_xml(n, child)?,
                Shape::Enum(n) => self.read_enum(n, p.name, &Value::String(child.text.clone()))?,
                Shape::Scalar(s) => s.read(p.name, &Value::String(child.text.clone()))?,
            };
            if p.many {
                match map
                    .entry(p.name.to_owned())
                    .or_insert_with(|| Value::Array(Vec::new()))
                {
                    Value::Array(items) => {
                        if !items.contains(&value) {
                            items.push(value);
                            p.check_count(items.len())?;
                        }
                    }
                    _ => return Err(format!("Field '{}' is given twice", p.name)),
                }
            } else if map.insert(p.name.to_owned(), value).is_some() {
                return Err(format!("Field '{}' is given twice", p.name));
            }
        }
        finish(props, map)
    }

    /// Reads a JSON value of the named type, by the type, as `read_xml` does.
    pub fn read_json(&self, type_name: &str, value: &Value) -> Result<Value, String> {
        if !self.fields.contains_key(type_name) {
            return Err(format!("no type {type_name}"));
        }
        let Value::Object(input) = value else {
            return Err(format!("{type_name} must be an object"));
        };
        let props = self.fields(type_name);
        let mut map = Map::new();
        for (key, value) in input {
            let p = props
                .iter()
                .find(|p| p.name == key)
                .ok_or_else(|| format!("Field '{key}' is not part of {type_name}"))?;
            if value.is_null() {
                continue;
            }
            let one = |v: &Value| match &p.shape {
                Shape::Object(n) => self.read_json(n, &self.bare_id(n, v)),
                Shape::Enum(n) => self.read_enum(n, p.name, v),
                Shape::Scalar(s) => s.read(p.name, v),
            };
            let read = match (p.many, value) {
                (true, Value::Array(items)) => {
                    let mut distinct: Vec<Value> = Vec::new();
                    let mut seen = std::collections::HashSet::new();
                    for item in items {
                        let item = one(item)?;
                        if seen.insert(item.to_string()) {
                            distinct.push(item);
                            p.check_count(distinct.len())?;
                        }
                    }
                    Value::Array(distinct)
                }
                (true, single) => Value::Array(vec![one(single)?]),
                (false, Value::Array(_)) => {
                    return Err(format!("Field '{key}' takes one value, not a list"));
                }
                (false, v) => one(v)?,
            };
            map.insert(key.clone(), read);
        }
        finish(props, map)
    }

    /// Pegasus's shorthand: a record of an `id` (and optional qualifiers) may be given as the
    /// bare id (`"linkageTargetIds": [10219]`).
    fn bare_id(&self, type_name: &str, value: &Value) -> Value {
        let has_id = self.fields(type_name).iter().any(|p| p.name == "id");
        match value {
            Value::Number(_) | Value::String(_) if has_id => serde_json::json!({ "id": value }),
            _ => value.clone(),
        }
    }

    fn read_enum(&self, type_name: &str, field: &str, value: &Value) -> Result<Value, String> {
        let allowed = self
            .schema(type_name)
            .map(|s| s.enum_items.as_slice())
            .unwrap_or_default();
        let text = value.as_str().map(str::trim).unwrap_or_default();
        if allowed.iter().any(|a| a.as_str() == Some(text)) {
            Ok(Value::String(text.to_owned()))
        } else {
            let names: Vec<String> = allowed
                .iter()
                .filter_map(|a| a.as_str().map(str::to_owned))
                .collect();
            Err(format!(
                "Field '{field}' must be one of {}",
                names.join(", ")
            ))
        }
    }
}

impl Property {
    /// Repeated values of a list are merged; more distinct ones than its maximum are refused.
    fn check_count(&self, distinct: usize) -> Result<(), String> {
        match self.max_items {
            Some(max) if distinct > max => Err(format!(
                "Field '{}' takes at most {max} different values",
                self.name
            )),
            _ => Ok(()),
        }
    }
}

/// Required fields present, lists present even when empty.
fn finish(props: &[Property], mut map: Map<String, Value>) -> Result<Value, String> {
    for p in props {
        if p.many {
            map.entry(p.name.to_owned())
                .or_insert_with(|| Value::Array(Vec::new()));
        } else if p.required && !map.contains_key(p.name) {
            return Err(format!("Field '{}' is required", p.name));
        }
    }
    Ok(Value::Object(map))
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
