//! `importType` as the document and the wire know it: a data set by its import name. The
//! names are the import's own (`ImportType::ALL`), so the document cannot offer a data set
//! that imports do not take, nor leave one out.

use std::borrow::Cow;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef, Registry};
use poem_openapi::types::{
    ParseError, ParseFromJSON, ParseFromParameter, ParseResult, ToJSON, Type,
};
use serde_json::Value;

use crate::import::ImportType;

/// A data set, named as `importType` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataSet(pub ImportType);

impl Type for DataSet {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        "ImportType".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Reference(Self::name().into_owned())
    }

    fn register(registry: &mut Registry) {
        registry.create_schema::<Self, _>(Self::name().into_owned(), |_| MetaSchema {
            description: Some("The data sets `importType` names."),
            enum_items: ImportType::ALL.map(|t| t.name().into()).to_vec(),
            ..MetaSchema::new("string")
        });
    }

    fn as_raw_value(&self) -> Option<&Self> {
        Some(self)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self> + 'a> {
        Box::new(std::iter::once(self))
    }
}

impl DataSet {
    fn named(name: &str) -> Option<DataSet> {
        ImportType::ALL
            .into_iter()
            .find(|t| t.name() == name)
            .map(DataSet)
    }
}

impl ParseFromParameter for DataSet {
    fn parse_from_parameter(value: &str) -> ParseResult<Self> {
        DataSet::named(value).ok_or_else(|| ParseError::custom("Expect a valid enumeration value."))
    }
}

impl ParseFromJSON for DataSet {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        let value = value.unwrap_or_default();
        match value.as_str().and_then(DataSet::named) {
            Some(set) => Ok(set),
            None => Err(ParseError::expected_type(value)),
        }
    }
}

impl ToJSON for DataSet {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.0.name().to_owned()))
    }
}

impl serde::Serialize for DataSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.name())
    }
}
