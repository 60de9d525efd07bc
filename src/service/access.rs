//! Dynamic access for end users, as library calls: an application admits an end user's IPv4
//! address (`addDynamicAddress`) or hands out a dynamic key (`addDynamicAPIKey`) for a while.
//! The SOAP and JSON endpoints expose these; `/svc` authentication consults them.
//!
//! A grant works until its expiry second and not at it. The clock is a parameter so tests
//! can move time instead of sleeping.

use std::net::Ipv4Addr;

use crate::accounts::{ProviderRecord, hash_key, key_id, same_hash};
use crate::clock::Clock;
use crate::service::ServiceError;
use crate::service::caller::{Caller, Credential};
use crate::store::{AuditEntry, Store, StoreError, generate_key};

/// No grant lasts longer than a day, whatever the provider's cap says.
pub const MAX_VALIDITY_HOURS: u32 = 24;
/// An address grant lasts an hour unless the call says otherwise.
pub const DEFAULT_ADDRESS_HOURS: u32 = 1;
/// A dynamic key lasts a day unless the call says otherwise.
pub const DEFAULT_KEY_HOURS: u32 = 24;

#[derive(Debug, thiserror::Error)]
pub enum GrantError {
    /// The requested validity is outside what the provider may grant: refused, not clamped.
    #[error("Field 'validityHours' must be between 1 and {max}")]
    Validity { max: u32 },
    #[error(transparent)]
    Store(#[from] StoreError),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressGrant {
    pub provider: String,
    pub address: Ipv4Addr,
    pub validity_hours: u32,
    pub expires_at: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyGrant {
    pub provider: String,
    /// Shown once; the store keeps only its hash.
    pub api_key: String,
    pub validity_hours: u32,
    pub expires_at: u64,
}

fn validity(requested: Option<u32>, default: u32, cap: u32) -> Result<u32, GrantError> {
    let hours = requested.unwrap_or(default);
    if hours == 0 || hours > cap {
        return Err(GrantError::Validity { max: cap });
    }
    Ok(hours)
}

/// Admits `address` for the provider for `hours` (default 1, at most the provider's
/// `max_grant_hours`, never above 24). Durable before it returns.
pub fn add_dynamic_address(
    store: &Store,
    clock: &dyn Clock,
    provider: &ProviderRecord,
    address: Ipv4Addr,
    hours: Option<u32>,
) -> Result<AddressGrant, GrantError> {
    let cap = u32::from(provider.max_grant_hours).clamp(1, MAX_VALIDITY_HOURS);
    let hours = validity(hours, DEFAULT_ADDRESS_HOURS, cap)?;
    let expires_at = clock.now() + u64::from(hours) * 3600;
    audit_grant(
        store,
        clock,
        provider,
        "grant.address",
        format!("{address} for {hours} h, until {expires_at}"),
    )?;
    store.grant_address(&provider.id, address, expires_at)?;
    Ok(AddressGrant {
        provider: provider.id.clone(),
        address,
        validity_hours: hours,
        expires_at,
    })
}

/// A new dynamic key for the provider, valid `hours` (default 24, 1 to 24).
pub fn add_dynamic_key(
    store: &Store,
    clock: &dyn Clock,
    provider: &ProviderRecord,
    hours: Option<u32>,
) -> Result<KeyGrant, GrantError> {
    let hours = validity(hours, DEFAULT_KEY_HOURS, MAX_VALIDITY_HOURS)?;
    let api_key = generate_key()?;
    let expires_at = clock.now() + u64::from(hours) * 3600;
    let hash = hash_key(&api_key);
    audit_grant(
        store,
        clock,
        provider,
        "grant.key",
        format!("key {} for {hours} h, until {expires_at}", key_id(&hash)),
    )?;
    store.grant_key(&provider.id, hash, expires_at)?;
    Ok(KeyGrant {
        provider: provider.id.clone(),
        api_key,
        validity_hours: hours,
        expires_at,
    })
}

/// Grants are audited with the provider that issued them; the grant's write flushes the entry.
fn audit_grant(
    store: &Store,
    clock: &dyn Clock,
    provider: &ProviderRecord,
    action: &str,
    detail: String,
) -> Result<(), StoreError> {
    store.record_audit(&AuditEntry {
        at: clock.now(),
        operator: format!("provider {}", provider.id),
        action: action.into(),
        provider: provider.id.clone(),
        detail,
    })
}

/// Whether an unexpired grant admits `address` for the provider.
pub fn address_admitted(
    store: &Store,
    clock: &dyn Clock,
    provider: &str,
    address: Ipv4Addr,
) -> Result<bool, StoreError> {
    Ok(store
        .address_grant(provider, address)?
        .is_some_and(|expires_at| clock.now() < expires_at))
}

/// Whether `key_hash` is an unexpired dynamic key of the provider.
pub fn dynamic_key_admitted(
    store: &Store,
    clock: &dyn Clock,
    provider: &str,
    key_hash: &[u8; 32],
) -> Result<bool, StoreError> {
    Ok(store
        .dynamic_key(key_hash)?
        .is_some_and(|(owner, expires_at)| owner == provider && clock.now() < expires_at))
}

/// The caller presenting `key` for `provider`: one of the provider's static keys (compared
/// in constant time), or an unexpired dynamic key of it. None for an unknown or disabled
/// provider or a key that is not its: the gate answers all three alike.
pub fn admit_key(
    store: &Store,
    clock: &dyn Clock,
    provider: &str,
    key: &str,
) -> Result<Option<Caller>, ServiceError> {
    let Some(record) = store.provider_named(provider)?.filter(|r| r.enabled) else {
        return Ok(None);
    };
    let presented = hash_key(key);
    let static_key = record.key_hashes.iter().fold(false, |found, h| {
        found | bool::from(same_hash(h, &presented))
    });
    let credential = if static_key {
        Credential::StaticKey
    } else if dynamic_key_admitted(store, clock, &record.id, &presented)? {
        Credential::DynamicKey
    } else {
        return Ok(None);
    };
    Ok(Some(Caller {
        provider: record,
        credential,
    }))
}

/// The caller at `address` for `provider` without a key: in the provider's whitelist, or
/// under an unexpired address grant. None for an unknown or disabled provider or an address
/// it does not admit.
pub fn admit_address(
    store: &Store,
    clock: &dyn Clock,
    provider: &str,
    address: Ipv4Addr,
) -> Result<Option<Caller>, ServiceError> {
    let Some(record) = store.provider_named(provider)?.filter(|r| r.enabled) else {
        return Ok(None);
    };
    let credential = if record.admits(address) {
        Credential::Whitelist
    } else if address_admitted(store, clock, &record.id, address)? {
        Credential::AddressGrant
    } else {
        return Ok(None);
    };
    Ok(Some(Caller {
        provider: record,
        credential,
    }))
}

/// The caller of a media address signed for `provider` (the signature checked by the
/// caller of this): the provider while it is there and enabled; None else, as for a key.
pub fn admit_signed(store: &Store, provider: &str) -> Result<Option<Caller>, ServiceError> {
    Ok(store
        .provider_named(provider)?
        .filter(|r| r.enabled)
        .map(|record| Caller {
            provider: record,
            credential: Credential::SignedAddress,
        }))
}

/// Removes the grants expired at `now` and the audit entries older than `retention_days`;
/// returns how many of each. Grants stop working at their expiry second whether swept or not.
pub fn sweep_expired(
    store: &Store,
    clock: &dyn Clock,
    retention_days: u32,
) -> Result<(usize, usize), StoreError> {
    let now = clock.now();
    let grants = store.sweep_grants(now)?;
    let audit = store.trim_audit(now.saturating_sub(u64::from(retention_days) * 86_400))?;
    Ok((grants, audit))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};

    use super::*;
    use crate::accounts::Scope;

    struct FixedClock(AtomicU64);

    impl Clock for FixedClock {
        fn now(&self) -> u64 {
            self.0.load(Ordering::Relaxed)
        }
    }

    #[test]
    fn grants_work_until_their_expiry_second_and_not_at_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let clock = FixedClock(AtomicU64::new(1_000_000));
        let mut shop = ProviderRecord::new("shop", "Shop", vec![Scope::Read]);
        let ip: Ipv4Addr = "127.0.0.2".parse().unwrap();

        let grant = add_dynamic_address(&store, &clock, &shop, ip, None).unwrap();
        assert_eq!(grant.validity_hours, 1);
        assert_eq!(grant.expires_at, 1_000_000 + 3600);
        assert!(address_admitted(&store, &clock, "shop", ip).unwrap());
        assert!(!address_admitted(&store, &clock, "other", ip).unwrap());
        clock.0.store(grant.expires_at - 1, Ordering::Relaxed);
        assert!(address_admitted(&store, &clock, "shop", ip).unwrap());
        clock.0.store(grant.expires_at, Ordering::Relaxed);
        assert!(!address_admitted(&store, &clock, "shop", ip).unwrap());

        // Above the provider's cap: refused, not clamped; the cap may be raised to 24, no more.
        assert!(matches!(
            add_dynamic_address(&store, &clock, &shop, ip, Some(2)),
            Err(GrantError::Validity { max: 1 })
        ));
        shop.max_grant_hours = 48;
        assert!(add_dynamic_address(&store, &clock, &shop, ip, Some(24)).is_ok());
        assert!(add_dynamic_address(&store, &clock, &shop, ip, Some(25)).is_err());
        assert!(add_dynamic_address(&store, &clock, &shop, ip, Some(0)).is_err());

        let key = add_dynamic_key(&store, &clock, &shop, None).unwrap();
        assert_eq!(key.validity_hours, 24);
        let hash = hash_key(&key.api_key);
        assert!(dynamic_key_admitted(&store, &clock, "shop", &hash).unwrap());
        assert!(!dynamic_key_admitted(&store, &clock, "other", &hash).unwrap());
        clock.0.store(key.expires_at, Ordering::Relaxed);
        assert!(!dynamic_key_admitted(&store, &clock, "shop", &hash).unwrap());
        assert!(matches!(
            add_dynamic_key(&store, &clock, &shop, Some(25)),
            Err(GrantError::Validity { max: 24 })
        ));
        let err = add_dynamic_key(&store, &clock, &shop, Some(25)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Field 'validityHours' must be between 1 and 24"
        );
    }
}
