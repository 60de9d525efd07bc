//! A request read by its type, from XML or JSON, into the typed JSON the operations take:
//! repeated, missing and mistyped fields are refused naming the field; a field the type does
//! not define is left out and named (`Read::unknown`), for the endpoint to ignore as TecDoc
//! does or refuse for a strict provider.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::{Property, Shape, Types};
use crate::server::soap::envelope::Element;

/// A request's fields as its type reads them, and the fields it gave that the type does not
/// define, each by its path (`sort.order`), in the order given.
#[derive(Debug)]
pub struct Read {
    pub fields: Value,
    pub unknown: Vec<String>,
}

impl Types {
    /// Reads an element of the named type.
    pub fn read_xml(&self, type_name: &str, element: &Element) -> Result<Read, String> {
        let mut unknown = Vec::new();
        let fields = self.xml_of(type_name, element, "", &mut unknown)?;
        Ok(Read { fields, unknown })
    }

    /// Reads a JSON value of the named type, as `read_xml` does.
    pub fn read_json(&self, type_name: &str, value: &Value) -> Result<Read, String> {
        let mut unknown = Vec::new();
        let fields = self.json_of(type_name, value, "", &mut unknown)?;
        Ok(Read { fields, unknown })
    }

    fn props_of(&self, type_name: &str) -> Result<&[Property], String> {
        if !self.fields.contains_key(type_name) {
            return Err(format!("no type {type_name}"));
        }
        Ok(self.fields(type_name))
    }

    fn xml_of(
        &self,
        type_name: &str,
        element: &Element,
        path: &str,
        unknown: &mut Vec<String>,
    ) -> Result<Value, String> {
        let props = self.props_of(type_name)?;
        let mut map = Map::new();
        for child in &element.children {
            let Some(p) = props.iter().find(|p| p.name == child.name) else {
                note_unknown(unknown, path, &child.name);
                continue;
            };
            if child.nil {
                continue;
            }
            let value = match &p.shape {
                // The shorthand of the JSON form, as the first WSDL typed these: a record of
                // an `id` given as the bare id (`<linkageTargetIds>10219</linkageTargetIds>`).
                Shape::Object(n) if child.children.is_empty() && self.has_id(n) => {
                    let id = Value::String(child.text.clone());
                    self.json_of(n, &self.bare_id(n, &id), &within(path, p.name), unknown)?
                }
                Shape::Object(n) => self.xml_of(n, child, &within(path, p.name), unknown)?,
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

    fn json_of(
        &self,
        type_name: &str,
        value: &Value,
        path: &str,
        unknown: &mut Vec<String>,
    ) -> Result<Value, String> {
        let props = self.props_of(type_name)?;
        let Value::Object(input) = value else {
            return Err(format!("{type_name} must be an object"));
        };
        let mut map = Map::new();
        for (key, value) in input {
            let Some(p) = props.iter().find(|p| p.name == key) else {
                note_unknown(unknown, path, key);
                continue;
            };
            if value.is_null() {
                continue;
            }
            let inner = within(path, p.name);
            let mut one = |v: &Value| match &p.shape {
                Shape::Object(n) => self.json_of(n, &self.bare_id(n, v), &inner, unknown),
                Shape::Enum(n) => self.read_enum(n, p.name, v),
                Shape::Scalar(s) => s.read(p.name, v),
            };
            let read = match (p.many, value) {
                (true, Value::Array(items)) => {
                    let mut distinct: Vec<Value> = Vec::new();
                    let mut seen = HashSet::new();
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
        match value {
            Value::Number(_) | Value::String(_) if self.has_id(type_name) => {
                serde_json::json!({ "id": value })
            }
            _ => value.clone(),
        }
    }

    fn has_id(&self, type_name: &str) -> bool {
        self.fields(type_name).iter().any(|p| p.name == "id")
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

fn within(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

/// How many unknown fields a request's answer names, and how long a name it gives.
const NAMED: usize = 32;
const NAME_CHARS: usize = 64;

/// A field named once, however often it is given; a name past `NAME_CHARS` is cut with `…`.
fn note_unknown(unknown: &mut Vec<String>, path: &str, name: &str) {
    let mut field = within(path, name);
    if let Some((cut, _)) = field.char_indices().nth(NAME_CHARS) {
        field.truncate(cut);
        field.push('…');
    }
    if unknown.len() < NAMED && !unknown.contains(&field) {
        unknown.push(field);
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
