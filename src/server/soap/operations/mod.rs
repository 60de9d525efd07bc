//! The operation set both endpoints carry: each is a request type, an answer type and a
//! function. A failure is an answer too: its `status` and a `statusText` naming the field.

use poem_openapi::registry::Registry;
use poem_openapi::types::Type;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::call::{Call, Failure};
use crate::server::registry::OPERATIONS;

mod access;
mod articles;
mod legacy_articles;
mod prices;
mod reference;
mod vehicle_tree;
mod vehicles;

type Runner = Box<dyn Fn(&Call<'_>, Value) -> Result<Value, Failure> + Send + Sync>;

pub struct Operation {
    pub name: &'static str,
    /// What it does, for the XSD and WSDL.
    pub doc: &'static str,
    /// The XSD type of the request's fields.
    pub request_type: String,
    /// The XSD type whose fields follow `status` and `statusText` in the answer.
    pub answer_type: String,
    /// A pure catalogue read, whose answers the answer cache may keep.
    pub cacheable: bool,
    register: fn(&mut Registry),
    run: Runner,
}

impl Operation {
    pub fn register(&self, registry: &mut Registry) {
        (self.register)(registry)
    }

    /// Whether a call may take long: a read of a whole index (suffix matches, free text, a
    /// search without a number, vehicles by make) or a grant, which flushes.
    pub fn may_block(&self, fields: &Value) -> bool {
        let text = |name: &str| fields.get(name).and_then(Value::as_str);
        match self.name {
            "getArticles" => {
                matches!(text("searchMatchType"), Some("suffix" | "prefix_or_suffix"))
                    || fields.get("searchType").and_then(Value::as_u64) == Some(99)
                    || text("searchQuery").is_none()
            }
            // Not exact: numbers that end with the query too.
            "getArticleDirectSearchAllNumbersWithState" => {
                fields.get("searchExact").and_then(Value::as_bool) == Some(false)
            }
            // Without ids every vehicle type is read.
            "getLinkageTargets" => fields
                .get("linkageTargetIds")
                .and_then(Value::as_array)
                .is_none_or(Vec::is_empty),
            // Kits holding an article are found by reading every kit.
            "getArticleLinkedAllLinkingTarget4" => {
                fields.get("withMainArticles").and_then(Value::as_bool) == Some(true)
            }
            "addDynamicAddress" | "addDynamicAPIKey" => true,
            _ => false,
        }
    }

    /// Runs the operation on fields already read by the request type.
    pub fn run(&self, call: &Call<'_>, fields: Value) -> Result<Value, Failure> {
        (self.run)(call, fields)
    }
}

fn operation<Req, Ans>(
    name: &'static str,
    doc: &'static str,
    run: fn(&Call<'_>, Req) -> Result<Value, Failure>,
) -> Operation
where
    Req: DeserializeOwned + Type + 'static,
    Ans: Type,
{
    Operation {
        name,
        doc,
        request_type: Req::name().into_owned(),
        answer_type: Ans::name().into_owned(),
        cacheable: false,
        register: |registry| {
            Req::register(registry);
            Ans::register(registry);
        },
        run: Box::new(move |call, fields| {
            let request: Req = serde_json::from_value(fields)
                .map_err(|e| Failure::bad(format!("Unable to parse request: {e}")))?;
            run(call, request)
        }),
    }
}

impl Operation {
    fn cached(mut self) -> Operation {
        self.cacheable = true;
        self
    }
}

/// Every operation's handler, in the registry's order (`registry::OPERATIONS`), which the
/// WSDL follows; who may call each is the registry's too.
pub fn all() -> Vec<Operation> {
    let mut all: Vec<Operation> = [
        access::operations(),
        articles::operations(),
        legacy_articles::operations(),
        vehicles::operations(),
        vehicle_tree::operations(),
        reference::operations(),
        prices::operations(),
    ]
    .into_iter()
    .flatten()
    .collect();
    all.sort_by_key(|o| {
        OPERATIONS
            .iter()
            .position(|r| r.name == o.name)
            .unwrap_or(usize::MAX)
    });
    all
}
