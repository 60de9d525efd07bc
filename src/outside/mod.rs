//! What partscat takes from places it does not control, taken with care: files in folders it
//! was given, and answers of servers it calls.

pub mod files;
pub mod http;
pub mod tls;
