//! The SOAP and JSON endpoints: `PartsToCatDLB` (document/literal bare) and `PartsToCatDLW`
//! (wrapped, the fields in `arg0`), one operation set on both, each as SOAP 1.1 and 1.2 and as
//! JSON, with WSDLs and an XSD generated from the operations' types.

mod article_record;
mod article_search;
mod call;
mod direct_search;
pub mod envelope;
mod exchange;
mod json_endpoint;
mod linked_targets;
mod messages;
mod operations;
mod pegasus;
mod perform;
mod plates;
mod service;
mod soap_endpoint;
mod tecdoc_form;
mod types;
mod vehicles;
mod wsdl;

pub use service::{endpoint_paths, json_endpoint_path, routes};

/// The names of the operations that have a handler.
#[cfg(test)]
pub fn operation_names() -> Vec<&'static str> {
    operations::all().iter().map(|op| op.name).collect()
}
