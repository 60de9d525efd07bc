//! Writing an answer's fields as XML elements, in a form: partscat's own (every field,
//! qualified, in its type's order) or a schema's (`tecdoc_form`: its elements only, unqualified,
//! in its order).

use std::fmt::Write as _;

use quick_xml::escape::escape;
use serde_json::{Map, Value};

use super::{Property, Shape, Types};

impl Types {
    /// Writes the fields of `value` as elements in the order of the named type, qualified
    /// with the `tns` prefix.
    pub fn write_xml(&self, type_name: &str, value: &Value, out: &mut String) {
        self.write_elements(type_name, value, &Qualified, None, out);
    }

    /// Writes the fields of `value` of the named type in the form `form` gives: element
    /// names, prefix and order (`schema_type` is the form's own name of the type, if any).
    pub fn write_elements(
        &self,
        type_name: &str,
        value: &Value,
        form: &dyn Form,
        schema_type: Option<&str>,
        out: &mut String,
    ) {
        let Value::Object(map) = value else {
            return;
        };
        let props = self.fields(type_name);
        // Where the form orders this type: its elements that partscat has, in its order;
        // else every field, in partscat's.
        let order: Vec<(&Property, Option<&str>)> = match schema_type.and_then(|t| form.order(t)) {
            Some(elements) => elements
                .iter()
                .filter_map(|(name, child)| {
                    let p = props.iter().find(|p| p.name == name)?;
                    Some((p, child.as_deref()))
                })
                .collect(),
            None => props.iter().map(|p| (p, None)).collect(),
        };
        for (p, child_type) in order {
            self.write_property(p, map, form, child_type, out);
        }
    }

    /// Writes the field `name` of `value` (of the named type) as the form's element of schema
    /// type `schema_type`; nothing where the type has no such field or the value none.
    pub fn write_field(
        &self,
        type_name: &str,
        name: &str,
        value: &Value,
        form: &dyn Form,
        schema_type: Option<&str>,
        out: &mut String,
    ) {
        let (Value::Object(map), Some(p)) = (
            value,
            self.fields(type_name).iter().find(|p| p.name == name),
        ) else {
            return;
        };
        self.write_property(p, map, form, schema_type, out);
    }

    fn write_property(
        &self,
        p: &Property,
        map: &Map<String, Value>,
        form: &dyn Form,
        schema_type: Option<&str>,
        out: &mut String,
    ) {
        let Some(value) = map.get(p.name) else {
            return;
        };
        let items: &[Value] = match value {
            Value::Array(items) if p.many => items,
            Value::Null => &[],
            one => std::slice::from_ref(one),
        };
        let prefix = form.prefix();
        for item in items {
            let _ = write!(out, "<{prefix}{}>", p.name);
            match (&p.shape, item) {
                (Shape::Object(n), _) => self.write_elements(n, item, form, schema_type, out),
                (_, Value::String(s)) => out.push_str(&escape(s.as_str())),
                (_, other) => out.push_str(&other.to_string()),
            }
            let _ = write!(out, "</{prefix}{}>", p.name);
        }
    }
}

/// How an answer's elements are written: their prefix and, per schema type, their order.
pub trait Form {
    /// `tns:` for partscat's qualified elements; empty for a schema's unqualified ones.
    fn prefix(&self) -> &str;
    /// The elements of a schema type, in order, each with its own schema type; `None` where
    /// the form does not know the type.
    fn order(&self, schema_type: &str) -> Option<&[(String, Option<String>)]>;
}

/// partscat's own form: every field, in its type's order, qualified.
struct Qualified;

impl Form for Qualified {
    fn prefix(&self) -> &str {
        "tns:"
    }

    fn order(&self, _: &str) -> Option<&[(String, Option<String>)]> {
        None
    }
}
