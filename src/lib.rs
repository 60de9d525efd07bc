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

// The library's own tests count answers in flight as the binary does (`src/main.rs`).
#[cfg(test)]
#[global_allocator]
static TEST_ALLOCATOR: limits::in_flight::CountingAllocator<std::alloc::System> =
    limits::in_flight::CountingAllocator(std::alloc::System);
