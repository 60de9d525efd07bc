//! partscat: an on-premise automotive parts-catalogue appliance.

pub mod access;
pub mod admin;
pub mod budget;
pub mod catalogue;
pub mod clock;
pub mod config;
pub mod demo;
pub mod generate;
pub mod import;
pub mod server;
pub mod store;
