//! End users' access: a dynamic address or a dynamic API key.

use poem_openapi::Object;
use serde::Serialize;

request!(
    /// `addDynamicAddress`: admits an end user's IPv4 address for a while.
    AddDynamicAddressRequest {
        /// The end user's IPv4 address; omitted: the caller's own address.
        address: Option<String>,
        /// Whole hours, 1 to the provider's cap (default 1; never above 24).
        validity_hours: Option<u32>,
    }
);

request!(
    /// `addDynamicAPIKey`: a new key for an end user, valid for a while.
    AddDynamicApiKeyRequest {
        /// Whole hours, 1 to 24 (default 24).
        validity_hours: Option<u32>,
    }
);

/// `addDynamicAddress`.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct DynamicAddress {
    /// The provider the address is admitted for.
    pub provider_id: String,
    /// The admitted IPv4 address.
    pub address: String,
    /// How many hours the grant lasts.
    pub validity_hours: u32,
    /// The first second it no longer works (UTC, ISO 8601).
    pub expires_at: String,
}

/// `addDynamicAPIKey`.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct DynamicApiKey {
    /// The provider the key belongs to.
    pub provider_id: String,
    /// Shown once; pass it as `api_key`, `X-Api-Key` or Basic user with this provider.
    pub api_key: String,
    /// How many hours the key lasts.
    pub validity_hours: u32,
    /// The first second it no longer works (UTC, ISO 8601).
    pub expires_at: String,
}
