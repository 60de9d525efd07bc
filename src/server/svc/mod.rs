//! The `/svc` routes (V2 integration) as poem-openapi operations: the OpenAPI document is
//! generated from this code, so it cannot drift from what the server does.

mod article_answer;
mod data_set;
mod direct_lookups;
mod dmm;
mod examples;
mod export_format;
mod export_rows;
mod export_writers;
mod exports;
mod import_mode;
mod imports;
mod job_status;
mod lookups;
mod media_files;
mod parameter_examples;
mod prices;
mod query_parameters;
mod reader_context;
mod suggestions;
mod sync;
mod vehicle_path;

use poem_openapi::{OpenApi, Tags};

#[derive(Tags)]
pub enum ApiTag {
    /// Articles and cross-references by reference, articles by vehicle.
    Lookups,
    /// The vehicle path: makes, model series, vehicle types and their assembly groups.
    Vehicles,
    /// Prices by vehicle, kit prices and exhaust kit prices.
    Prices,
    /// Streamed exports per brand or competitor manufacturer, as JSON or CSV.
    Exports,
    /// Imports from the import inbox, run as jobs.
    Imports,
    /// Synchronisation and media publishing.
    Synchronisation,
}

pub use direct_lookups::direct_answer as lookup_before_routing;
pub use imports::job_status;
pub use query_parameters::refused_query;

/// Every `/svc` operation.
pub fn api() -> impl OpenApi {
    (
        lookups::LookupApi,
        suggestions::SuggestionApi,
        vehicle_path::VehiclePathApi,
        media_files::MediaFileApi,
        prices::PriceApi,
        exports::ExportApi,
        imports::ImportApi,
        sync::SyncApi,
        dmm::DmmApi,
    )
}

/// The route whose one path parameter is a reference as written.
const REFERENCE_ROUTE: &str = "/svc/getCrossRefsOrArticle/";

/// References often hold a `/` (`HU 719/7 x`, `FN 717/5`). Sent as is, it would split the
/// path; everything after the route's name is the reference, so `…/FN%20717/5` and
/// `…/FN%20717%2F5` are the same request. The URI with the slashes of its reference encoded,
/// where it has any: a URI that was parsed stays parseable with `%2F` for `/`, so `None`
/// means "nothing to encode".
pub fn slashes_encoded(uri: &poem::http::Uri) -> Option<poem::http::Uri> {
    let reference = uri.path().strip_prefix(REFERENCE_ROUTE)?;
    if !reference.contains('/') {
        return None;
    }
    let mut encoded = format!("{REFERENCE_ROUTE}{}", reference.replace('/', "%2F"));
    if let Some(query) = uri.query() {
        encoded.push('?');
        encoded.push_str(query);
    }
    let mut parts = uri.clone().into_parts();
    parts.path_and_query = Some(encoded.parse().ok()?);
    poem::http::Uri::from_parts(parts).ok()
}
