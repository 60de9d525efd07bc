//! The SOAP and JSON endpoints: `PartsToCatDLB` (document/literal bare) and `PartsToCatDLW`
//! (wrapped, the fields in `arg0`), one operation set on both, each as SOAP 1.1 and 1.2 and as
//! JSON, with WSDLs and an XSD generated from the operations' types. Every operation is a row
//! of `registry.rs`; its handler, request and answer types and records live in its family's
//! folder (access, articles, vehicles, categories, reference lists, prices).

#[macro_use]
mod fields;

mod access;
mod articles;
mod call;
mod categories;
mod codes;
mod criteria;
pub mod envelope;
mod exchange;
pub mod ignored;
mod json_endpoint;
mod perform;
mod prices;
mod reference_lists;
mod registry;
mod service;
mod soap_endpoint;
mod tecdoc_form;
mod types;
mod vehicles;
mod wsdl;

pub use registry::operation_access;
pub use service::{endpoint_paths, json_endpoint_path, routes};

/// The names of the operations that have a handler.
#[cfg(test)]
pub fn operation_names() -> Vec<&'static str> {
    registry::operations().iter().map(|op| op.name).collect()
}
