//! partscat: an on-premise automotive parts-catalogue appliance.

pub mod accounts;
pub mod budget;
pub mod catalogue;
pub mod clock;
pub mod config;
pub mod demo;
pub mod generate;
pub mod import;
pub mod limits;
pub mod media;
pub mod outside;
pub mod priority;
pub mod server;
pub mod service;
pub mod store;
