//! Dynamic grants: an end user's IPv4 address, or a dynamic key, admitted for a provider
//! until an expiry second. Like providers, they live outside the catalogue generations.
//!
//! Trees (numbers big-endian, parts joined by `0xFF`):
//! - `providerip_grant`: provider id, 0xFF, IPv4 as u32 → a grant.
//! - `dynkeyhash_grant`: SHA-256 of the key → a grant.
//!
//! A grant is (expiry in unix seconds, provider id) through the store's codec. Grants written
//! before the codec (the bare expiry, big-endian, then the provider id) are still read: their
//! first byte is 0, which no codec version is.
//! - `grantexpiry_grant`: expiry (u64), kind (`a` address, `k` key), the other tree's key → ()
//!   so the sweeper finds what has expired without reading the rest.
//!
//! Every grant is flushed before the call that made it returns, so it survives a restart.

use std::net::Ipv4Addr;

use super::engine;
use super::error::StoreError;
use super::{Store, codec};

pub(super) const ADDRESSES: &str = "providerip_grant";
pub(super) const KEYS: &str = "dynkeyhash_grant";
pub(super) const BY_EXPIRY: &str = "grantexpiry_grant";

const ADDRESS: u8 = b'a';
const KEY: u8 = b'k';

pub(super) struct GrantTables {
    addresses: engine::Tree,
    keys: engine::Tree,
    by_expiry: engine::Tree,
}

impl GrantTables {
    pub(super) fn open(db: &engine::Db) -> Result<GrantTables, StoreError> {
        Ok(GrantTables {
            addresses: db.open_tree(ADDRESSES)?,
            keys: db.open_tree(KEYS)?,
            by_expiry: db.open_tree(BY_EXPIRY)?,
        })
    }
}

fn address_key(provider: &str, ip: Ipv4Addr) -> Vec<u8> {
    let mut k = provider.as_bytes().to_vec();
    k.push(0xFF);
    k.extend_from_slice(&ip.to_bits().to_be_bytes());
    k
}

fn expiry_key(expires_at: u64, kind: u8, key: &[u8]) -> Vec<u8> {
    let mut k = expires_at.to_be_bytes().to_vec();
    k.push(kind);
    k.extend_from_slice(key);
    k
}

fn read_u64(bytes: &[u8]) -> Option<u64> {
    Some(u64::from_be_bytes(bytes.get(..8)?.try_into().ok()?))
}

const GRANT_VERSION: u8 = 1;

fn grant(expires_at: u64, provider: &str) -> Vec<u8> {
    codec::encode(GRANT_VERSION, &(expires_at, provider))
}

/// (expiry, provider) of a stored grant.
fn read_grant(bytes: &[u8]) -> Option<(u64, String)> {
    match codec::split(bytes)? {
        (0, _) => Some((
            read_u64(bytes)?,
            String::from_utf8(bytes.get(8..)?.to_vec()).ok()?,
        )),
        (GRANT_VERSION, body) => codec::body(body),
        _ => None,
    }
}

fn expiry_of(bytes: &[u8]) -> Option<u64> {
    read_grant(bytes).map(|(expires_at, _)| expires_at)
}

impl Store {
    /// Admits `ip` for `provider` until `expires_at` (unix seconds); a later grant for the same
    /// address replaces the earlier one.
    pub fn grant_address(
        &self,
        provider: &str,
        ip: Ipv4Addr,
        expires_at: u64,
    ) -> Result<(), StoreError> {
        let g = &self.grants;
        let key = address_key(provider, ip);
        if let Some(old) = g.addresses.get(&key)?
            && let Some(old) = expiry_of(&old)
        {
            g.by_expiry.remove(expiry_key(old, ADDRESS, &key))?;
        }
        g.addresses.insert(&key, grant(expires_at, provider))?;
        g.by_expiry
            .insert(expiry_key(expires_at, ADDRESS, &key), [])?;
        self.db.flush()?;
        Ok(())
    }

    /// Until when `ip` is admitted for `provider`, if a grant exists (expired or not).
    pub fn address_grant(&self, provider: &str, ip: Ipv4Addr) -> Result<Option<u64>, StoreError> {
        Ok(self
            .grants
            .addresses
            .get(address_key(provider, ip))?
            .and_then(|v| expiry_of(&v)))
    }

    /// Stores a dynamic key (by its hash) for `provider` until `expires_at`.
    pub fn grant_key(
        &self,
        provider: &str,
        key_hash: [u8; 32],
        expires_at: u64,
    ) -> Result<(), StoreError> {
        let g = &self.grants;
        g.keys.insert(key_hash, grant(expires_at, provider))?;
        g.by_expiry
            .insert(expiry_key(expires_at, KEY, &key_hash), [])?;
        self.db.flush()?;
        Ok(())
    }

    /// The provider and expiry of a dynamic key, if it exists (expired or not).
    pub fn dynamic_key(&self, key_hash: &[u8; 32]) -> Result<Option<(String, u64)>, StoreError> {
        Ok(self.grants.keys.get(key_hash)?.and_then(|v| {
            let (expires_at, provider) = read_grant(&v)?;
            Some((provider, expires_at))
        }))
    }

    /// Revokes a dynamic key at once; returns its provider, if it existed. Flushed.
    pub fn revoke_dynamic_key(&self, key_hash: &[u8; 32]) -> Result<Option<String>, StoreError> {
        let owner = self.dynamic_key(key_hash)?;
        if let Some((_, expires_at)) = &owner {
            let g = &self.grants;
            g.keys.remove(key_hash)?;
            g.by_expiry.remove(expiry_key(*expires_at, KEY, key_hash))?;
            self.db.flush()?;
        }
        Ok(owner.map(|(provider, _)| provider))
    }

    /// Removes every grant of a provider (it is being deleted); the caller flushes.
    pub(super) fn remove_grants_of(&self, provider: &str) -> Result<(), StoreError> {
        let g = &self.grants;
        let mut prefix = provider.as_bytes().to_vec();
        prefix.push(0xFF);
        for item in g.addresses.scan_prefix(&prefix) {
            let (key, value) = item?;
            if let Some(expires_at) = expiry_of(&value) {
                g.by_expiry.remove(expiry_key(expires_at, ADDRESS, &key))?;
            }
            g.addresses.remove(key)?;
        }
        for item in g.keys.iter() {
            let (hash, value) = item?;
            if let Some((expires_at, owner)) = read_grant(&value)
                && owner == provider
            {
                g.by_expiry.remove(expiry_key(expires_at, KEY, &hash))?;
                g.keys.remove(hash)?;
            }
        }
        Ok(())
    }

    /// Removes every grant that expired at or before `now`; returns how many.
    pub fn sweep_grants(&self, now: u64) -> Result<usize, StoreError> {
        let g = &self.grants;
        let mut swept = 0;
        for entry in g.by_expiry.range(..expiry_key(now + 1, 0, &[])) {
            let (k, _) = entry?;
            let Some(expires_at) = read_u64(&k) else {
                continue;
            };
            let (kind, key) = (k.get(8).copied(), &k[9.min(k.len())..]);
            let tree = match kind {
                Some(ADDRESS) => &g.addresses,
                Some(KEY) => &g.keys,
                _ => continue,
            };
            // Remove the grant only if it was not renewed since.
            if tree.get(key)?.and_then(|v| expiry_of(&v)) == Some(expires_at) {
                tree.remove(key)?;
            }
            g.by_expiry.remove(&k)?;
            swept += 1;
        }
        if swept > 0 {
            self.db.flush()?;
        }
        Ok(swept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grants_are_found_until_swept_and_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let ip: Ipv4Addr = "127.0.0.2".parse().unwrap();
        {
            let store = Store::open(dir.path()).unwrap();
            store.grant_address("shop", ip, 1_000).unwrap();
            store.grant_key("shop", [7; 32], 2_000).unwrap();
        }
        let store = Store::open(dir.path()).unwrap();
        assert_eq!(store.address_grant("shop", ip).unwrap(), Some(1_000));
        assert_eq!(store.address_grant("other", ip).unwrap(), None);
        assert_eq!(
            store.dynamic_key(&[7; 32]).unwrap(),
            Some(("shop".into(), 2_000))
        );
        // A renewal survives the sweep of the grant it replaced.
        store.grant_address("shop", ip, 3_000).unwrap();
        assert_eq!(store.sweep_grants(1_500).unwrap(), 0);
        assert_eq!(store.address_grant("shop", ip).unwrap(), Some(3_000));
        assert_eq!(store.sweep_grants(2_000).unwrap(), 1);
        assert_eq!(store.dynamic_key(&[7; 32]).unwrap(), None);
        assert_eq!(store.sweep_grants(3_000).unwrap(), 1);
        assert_eq!(store.address_grant("shop", ip).unwrap(), None);
    }

    #[test]
    fn grants_written_before_the_codec_are_still_read() {
        let mut legacy = 2_000u64.to_be_bytes().to_vec();
        legacy.extend_from_slice(b"shop");
        assert_eq!(read_grant(&legacy), Some((2_000, "shop".into())));
        assert_eq!(
            read_grant(&grant(2_000, "shop")),
            Some((2_000, "shop".into()))
        );
        assert_eq!(read_grant(&[9, 1, 2]), None);
    }
}
