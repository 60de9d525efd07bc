//! Providers: the accounts clients authenticate as, what each may do and see. The store
//! keeps them (`store::providers`, keys only as SHA-256 hashes); the gate admits requests by
//! them; neither owns the idea.

use bincode::{Decode, Encode};
use sha2::{Digest, Sha256};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Encode, Decode)]
pub enum Scope {
    /// Lookups and prices.
    Read,
    /// Exports and DMM.
    Export,
    /// Imports, sync, publishing, provider management.
    Admin,
    /// The change feed, for downstream appliances that follow this one.
    Sync,
}

impl Scope {
    pub const ALL: [Scope; 4] = [Scope::Read, Scope::Export, Scope::Admin, Scope::Sync];

    pub fn name(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Export => "export",
            Scope::Admin => "admin",
            Scope::Sync => "sync",
        }
    }

    pub fn from_name(name: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// An IPv4 address or CIDR range of a whitelist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Encode, Decode)]
pub struct Ipv4Range {
    network: u32,
    prefix: u8,
}

impl From<ipnet::Ipv4Net> for Ipv4Range {
    fn from(net: ipnet::Ipv4Net) -> Self {
        let net = net.trunc();
        Ipv4Range {
            network: net.network().to_bits(),
            prefix: net.prefix_len(),
        }
    }
}

impl Ipv4Range {
    pub fn net(self) -> ipnet::Ipv4Net {
        ipnet::Ipv4Net::new_assert(
            std::net::Ipv4Addr::from_bits(self.network),
            self.prefix.min(32),
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Encode, Decode)]
pub struct ProviderRecord {
    pub id: String,
    pub name: String,
    pub enabled: bool,
    pub scopes: Vec<Scope>,
    /// SHA-256 of each static key.
    pub key_hashes: Vec<[u8; 32]>,
    /// The brands the provider may see; empty: every brand.
    pub brands: Vec<u32>,
    /// IPv4 addresses and ranges admitted without a key.
    pub whitelist: Vec<Ipv4Range>,
    /// The longest dynamic address grant the provider may issue, in hours (1 to 24).
    pub max_grant_hours: u8,
    /// Requests a second the provider may make; 0: the server's `rate_limit_per_second`.
    pub rate_limit_per_second: u32,
    /// Whether its end users' dynamic keys and address grants may export too (they always
    /// may read; never more).
    pub dynamic_export: bool,
    /// A numeric alias a call may name the provider by: TecDoc clients send their provider
    /// (Pegasus's ProviderId) as an integer.
    pub number: Option<u32>,
    /// Whether a Pegasus call giving a field TecDoc does not define is refused (400 naming
    /// it) rather than answered with the field ignored: for a developer integrating.
    pub strict: bool,
}

impl ProviderRecord {
    /// An enabled provider with these scopes, no keys, every brand, no whitelist.
    pub fn new(id: &str, name: &str, scopes: Vec<Scope>) -> ProviderRecord {
        ProviderRecord {
            id: id.into(),
            name: name.into(),
            enabled: true,
            scopes,
            key_hashes: Vec::new(),
            brands: Vec::new(),
            whitelist: Vec::new(),
            max_grant_hours: 1,
            rate_limit_per_second: 0,
            dynamic_export: false,
            number: None,
            strict: false,
        }
    }

    /// Whether the whitelist admits the address.
    pub fn admits(&self, ip: std::net::Ipv4Addr) -> bool {
        self.whitelist.iter().any(|r| r.net().contains(&ip))
    }

    /// Whether the provider may see the brand.
    pub fn sees_brand(&self, brand_id: u32) -> bool {
        self.brands.is_empty() || self.brands.contains(&brand_id)
    }
}

pub fn hash_key(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

/// Whether two key hashes are equal, in constant time: compared as four words, where a
/// byte-wise comparison fences each of the 32 bytes from the optimiser on every request.
pub fn same_hash(a: &[u8; 32], b: &[u8; 32]) -> subtle::Choice {
    use subtle::ConstantTimeEq;
    let word = |h: &[u8; 32], i: usize| {
        let mut bytes = [0; 8];
        bytes.copy_from_slice(&h[i * 8..i * 8 + 8]);
        u64::from_ne_bytes(bytes)
    };
    (0..4).fold(subtle::Choice::from(1), |same, i| {
        same & word(a, i).ct_eq(&word(b, i))
    })
}

/// A key's id: the first 16 hex digits of its SHA-256, enough to name it, useless to use it.
pub fn key_id(hash: &[u8; 32]) -> String {
    hex::encode(&hash[..8])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_hashes_are_the_same_only_when_every_byte_is() {
        let hash = hash_key("pc_key");
        assert!(bool::from(same_hash(&hash, &hash_key("pc_key"))));
        for i in 0..32 {
            let mut other = hash;
            other[i] ^= 0x80;
            assert!(!bool::from(same_hash(&hash, &other)), "byte {i}");
        }
    }
}
