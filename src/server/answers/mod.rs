//! What the catalogue's answers look like on the wire, for `/svc` and SOAP/JSON alike: the
//! records (articles, vehicles, prices, media) and the price answers, each a named schema of
//! the OpenAPI document and a type of the XSD.

pub mod prices;
pub mod records;
