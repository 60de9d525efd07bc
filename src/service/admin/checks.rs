//! What a provider's fields may hold: each check names what was wrong.

use super::AdminError;
use crate::accounts::{Ipv4Range, Scope};
use crate::store::Store;

const MAX_ID_LEN: usize = 64;
const MAX_NAME_LEN: usize = 200;

pub(super) fn check_id(id: &str) -> Result<(), AdminError> {
    let fine = !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if fine {
        Ok(())
    } else {
        Err(AdminError::Invalid(format!(
            "provider id `{id}` must be 1 to {MAX_ID_LEN} letters, digits, `-`, `_` or `.`"
        )))
    }
}

pub(super) fn check_name(name: &str) -> Result<String, AdminError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_LEN || name.chars().any(char::is_control)
    {
        return Err(AdminError::Invalid(format!(
            "a provider's name must be 1 to {MAX_NAME_LEN} printable characters"
        )));
    }
    Ok(name.to_owned())
}

pub(super) fn parse_scopes(names: &[String]) -> Result<Vec<Scope>, AdminError> {
    let mut scopes = Vec::new();
    for name in names {
        let scope = Scope::from_name(name.trim()).ok_or_else(|| {
            AdminError::Invalid(format!(
                "`{name}` is not a scope; the scopes are read, export, admin and sync"
            ))
        })?;
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    if scopes.is_empty() {
        return Err(AdminError::Invalid(
            "a provider needs at least one scope (read, export, admin); to stop one, disable it"
                .into(),
        ));
    }
    Ok(scopes)
}

pub(super) fn check_brands(brands: &[u32]) -> Result<Vec<u32>, AdminError> {
    if brands.contains(&0) {
        return Err(AdminError::Invalid(
            "brand ids are positive integers".into(),
        ));
    }
    let mut brands = brands.to_vec();
    brands.sort_unstable();
    brands.dedup();
    Ok(brands)
}

/// An IPv4 address or CIDR range; IPv6 is refused, since only IPv4 is admitted by address.
pub fn parse_whitelist_entry(text: &str) -> Result<Ipv4Range, AdminError> {
    let text = text.trim();
    if let Ok(net) = text.parse::<ipnet::Ipv4Net>() {
        return Ok(net.into());
    }
    if let Ok(ip) = text.parse::<std::net::Ipv4Addr>() {
        return Ok(ipnet::Ipv4Net::from(ip).into());
    }
    if text.parse::<ipnet::IpNet>().is_ok() || text.parse::<std::net::IpAddr>().is_ok() {
        return Err(AdminError::Invalid(format!(
            "`{text}` is IPv6: whitelists admit IPv4 addresses only (over IPv6 a key is needed)"
        )));
    }
    Err(AdminError::Invalid(format!(
        "`{text}` is not an IPv4 address or CIDR range (10.0.0.5, 10.0.0.0/24)"
    )))
}

pub(super) fn check_grant_hours(hours: u8) -> Result<u8, AdminError> {
    let max = crate::service::access::MAX_VALIDITY_HOURS;
    if hours == 0 || u32::from(hours) > max {
        return Err(AdminError::Invalid(format!(
            "max_grant_hours must be between 1 and {max}"
        )));
    }
    Ok(hours)
}

/// A numeric alias must be positive and must not name another provider already, by its id
/// or by its number (an id wins over a number when a call names a provider).
pub(super) fn check_number(store: &Store, id: &str, number: u32) -> Result<u32, AdminError> {
    if number == 0 {
        return Err(AdminError::Invalid(
            "a provider's number is a positive integer".into(),
        ));
    }
    match store.provider_named(&number.to_string())? {
        Some(holder) if holder.id != id => Err(AdminError::NumberTaken {
            number,
            provider: holder.id.clone(),
        }),
        _ => Ok(number),
    }
}
