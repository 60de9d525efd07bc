//! End users' access: an address or a key the provider hands out for a while.

use std::net::{IpAddr, Ipv4Addr};

use serde_json::Value;

pub mod messages;

use crate::catalogue::utc_timestamp;
use crate::server::soap::call::{Call, Failure, answer};
use crate::service::ServiceError;
use crate::service::access::{self, GrantError};
use messages::*;

fn grant_failure(e: GrantError) -> Failure {
    match e {
        GrantError::Validity { .. } => Failure::bad(e.to_string()),
        GrantError::Store(e) => ServiceError::from(e).into(),
    }
}

pub fn add_dynamic_address(call: &Call<'_>, r: AddDynamicAddressRequest) -> Result<Value, Failure> {
    let address: Ipv4Addr = match r.address.as_deref().map(str::trim) {
        Some(text) if !text.is_empty() => text.parse().map_err(|_| {
            Failure::bad(format!(
                "Field 'address' must be an IPv4 address, not '{text}'"
            ))
        })?,
        _ => match call.client_ip {
            Some(IpAddr::V4(ip)) => ip,
            _ => {
                return Err(Failure::bad(
                    "Field 'address' is required: the call did not come over IPv4",
                ));
            }
        },
    };
    let state = call.state;
    let grant = access::add_dynamic_address(
        &state.store,
        state.clock.as_ref(),
        &call.context.caller().provider,
        address,
        r.validity_hours,
    )
    .map_err(grant_failure)?;
    answer(&DynamicAddress {
        provider_id: grant.provider,
        address: grant.address.to_string(),
        validity_hours: grant.validity_hours,
        expires_at: utc_timestamp(grant.expires_at),
    })
}

pub fn add_dynamic_api_key(call: &Call<'_>, r: AddDynamicApiKeyRequest) -> Result<Value, Failure> {
    let state = call.state;
    let grant = access::add_dynamic_key(
        &state.store,
        state.clock.as_ref(),
        &call.context.caller().provider,
        r.validity_hours,
    )
    .map_err(grant_failure)?;
    answer(&DynamicApiKey {
        provider_id: grant.provider,
        api_key: grant.api_key,
        validity_hours: grant.validity_hours,
        expires_at: utc_timestamp(grant.expires_at),
    })
}
