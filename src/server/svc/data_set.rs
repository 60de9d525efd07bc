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

/// A data set, named as `importType` names it; where `OR_ALL`, also `all` (`None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Named<const OR_ALL: bool>(Option<ImportType>);

/// One data set.
pub type DataSet = Named<false>;
/// One data set, or `all` of them.
pub type DataSetOrAll = Named<true>;

/// What `all` is called on the wire.
const ALL: &str = "all";

impl DataSet {
    pub fn of(data_set: ImportType) -> DataSet {
        Named(Some(data_set))
    }

    pub fn get(self) -> ImportType {
        // Parsing gives `DataSet` a data set, never `all`.
        self.0.unwrap_or(ImportType::Brands)
    }
}

impl DataSetOrAll {
    pub fn of(data_set: Option<ImportType>) -> DataSetOrAll {
        Named(data_set)
    }

    /// The data set, or `None` for all.
    pub fn get(self) -> Option<ImportType> {
        self.0
    }
}

impl<const OR_ALL: bool> Type for Named<OR_ALL> {
    const IS_REQUIRED: bool = true;
    type RawValueType = Self;
    type RawElementValueType = Self;

    fn name() -> Cow<'static, str> {
        if OR_ALL {
            "ImportTypeOrAll"
        } else {
            "ImportType"
        }
        .into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Reference(Self::name().into_owned())
    }

    fn register(registry: &mut Registry) {
        registry.create_schema::<Self, _>(Self::name().into_owned(), |_| {
            let mut names: Vec<Value> = ImportType::ALL.map(|t| t.name().into()).to_vec();
            if OR_ALL {
                names.push(ALL.into());
            }
            MetaSchema {
                description: Some(if OR_ALL {
                    "The data sets `importType` names, or `all` of them."
                } else {
                    "The data sets `importType` names."
                }),
                enum_items: names,
                ..MetaSchema::new("string")
            }
        });
    }

    fn as_raw_value(&self) -> Option<&Self> {
        Some(self)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a Self> + 'a> {
        Box::new(std::iter::once(self))
    }
}

impl<const OR_ALL: bool> Named<OR_ALL> {
    fn from_wire(name: &str) -> Option<Self> {
        if OR_ALL && name == ALL {
            return Some(Named(None));
        }
        ImportType::ALL
            .into_iter()
            .find(|t| t.name() == name)
            .map(|t| Named(Some(t)))
    }

    fn wire_name(&self) -> &'static str {
        self.0.map_or(ALL, |t| t.name())
    }
}

impl<const OR_ALL: bool> ParseFromParameter for Named<OR_ALL> {
    fn parse_from_parameter(value: &str) -> ParseResult<Self> {
        Self::from_wire(value)
            .ok_or_else(|| ParseError::custom("Expect a valid enumeration value."))
    }
}

impl<const OR_ALL: bool> ParseFromJSON for Named<OR_ALL> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        let value = value.unwrap_or_default();
        match value.as_str().and_then(Self::from_wire) {
            Some(set) => Ok(set),
            None => Err(ParseError::expected_type(value)),
        }
    }
}

impl<const OR_ALL: bool> ToJSON for Named<OR_ALL> {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.wire_name().to_owned()))
    }
}

impl<const OR_ALL: bool> serde::Serialize for Named<OR_ALL> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.wire_name())
    }
}
