//! Providers: the accounts clients authenticate as. Keys are stored only as SHA-256 hashes.
//! Providers live outside the catalogue generations: imports never touch them.
//!
//! A record is stored as `0xFF`, then the store's codec with layout 5 as its version byte.
//! Older layouts are read with the new fields at their defaults and rewritten in the newest
//! one the next time they change: the first (no brands, whitelist or limits) was bare
//! bincode, whose first byte, a length, is never `0xFF`; the second (`0xFF 0x02`) had no
//! `dynamic_export`, the third no `number`, the fourth no `strict`.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use bincode::Decode;

use super::engine;
use super::error::StoreError;
use super::{Store, codec};
use crate::accounts::{Ipv4Range, ProviderRecord, Scope, hash_key};

pub(super) const PROVIDERS: &str = "providerid_provider";
pub(super) const KEYS: &str = "apikeyhash_provider";

/// Marks a record of layout 2 or later (layout 1 was bare bincode).
const TAGGED: u8 = 0xFF;
const LAYOUT: u8 = 5;

/// The fourth stored layout, read for stores written before `strict`.
#[derive(Decode)]
#[cfg_attr(test, derive(bincode::Encode))]
struct ProviderRecordV4 {
    id: String,
    name: String,
    enabled: bool,
    scopes: Vec<Scope>,
    key_hashes: Vec<[u8; 32]>,
    brands: Vec<u32>,
    whitelist: Vec<Ipv4Range>,
    max_grant_hours: u8,
    rate_limit_per_second: u32,
    dynamic_export: bool,
    number: Option<u32>,
}

/// The third stored layout, read for stores written before `number`.
#[derive(Decode)]
#[cfg_attr(test, derive(bincode::Encode))]
struct ProviderRecordV3 {
    id: String,
    name: String,
    enabled: bool,
    scopes: Vec<Scope>,
    key_hashes: Vec<[u8; 32]>,
    brands: Vec<u32>,
    whitelist: Vec<Ipv4Range>,
    max_grant_hours: u8,
    rate_limit_per_second: u32,
    dynamic_export: bool,
}

/// The second stored layout, read for stores written before `dynamic_export`.
#[derive(Decode)]
#[cfg_attr(test, derive(bincode::Encode))]
struct ProviderRecordV2 {
    id: String,
    name: String,
    enabled: bool,
    scopes: Vec<Scope>,
    key_hashes: Vec<[u8; 32]>,
    brands: Vec<u32>,
    whitelist: Vec<Ipv4Range>,
    max_grant_hours: u8,
    rate_limit_per_second: u32,
}

/// The first stored layout, read for stores written before brands and whitelists.
#[derive(Decode)]
#[cfg_attr(test, derive(bincode::Encode))]
struct ProviderRecordV1 {
    id: String,
    name: String,
    enabled: bool,
    scopes: Vec<Scope>,
    key_hashes: Vec<[u8; 32]>,
}

impl ProviderRecord {
    fn encode(&self) -> Result<Vec<u8>, StoreError> {
        let mut out = vec![TAGGED];
        out.extend(codec::encode(LAYOUT, self));
        Ok(out)
    }

    fn decode(bytes: &[u8]) -> Result<ProviderRecord, String> {
        let unreadable = || "its bytes do not decode".to_owned();
        if let Some(tagged) = bytes.strip_prefix(&[TAGGED]) {
            let (layout, body) = codec::split(tagged).ok_or_else(unreadable)?;
            if layout == LAYOUT {
                return codec::body(body).ok_or_else(unreadable);
            }
            let v4 = match layout {
                4 => codec::body(body).ok_or_else(unreadable)?,
                3 | 2 => {
                    let v3: ProviderRecordV3 = if layout == 3 {
                        codec::body(body).ok_or_else(unreadable)?
                    } else {
                        let v2: ProviderRecordV2 = codec::body(body).ok_or_else(unreadable)?;
                        ProviderRecordV3 {
                            id: v2.id,
                            name: v2.name,
                            enabled: v2.enabled,
                            scopes: v2.scopes,
                            key_hashes: v2.key_hashes,
                            brands: v2.brands,
                            whitelist: v2.whitelist,
                            max_grant_hours: v2.max_grant_hours,
                            rate_limit_per_second: v2.rate_limit_per_second,
                            dynamic_export: false,
                        }
                    };
                    ProviderRecordV4 {
                        id: v3.id,
                        name: v3.name,
                        enabled: v3.enabled,
                        scopes: v3.scopes,
                        key_hashes: v3.key_hashes,
                        brands: v3.brands,
                        whitelist: v3.whitelist,
                        max_grant_hours: v3.max_grant_hours,
                        rate_limit_per_second: v3.rate_limit_per_second,
                        dynamic_export: v3.dynamic_export,
                        number: None,
                    }
                }
                _ => return Err(format!("its layout {layout} is unknown")),
            };
            return Ok(ProviderRecord {
                id: v4.id,
                name: v4.name,
                enabled: v4.enabled,
                scopes: v4.scopes,
                key_hashes: v4.key_hashes,
                brands: v4.brands,
                whitelist: v4.whitelist,
                max_grant_hours: v4.max_grant_hours,
                rate_limit_per_second: v4.rate_limit_per_second,
                dynamic_export: v4.dynamic_export,
                number: v4.number,
                strict: false,
            });
        }
        let (v1, _): (ProviderRecordV1, _) =
            bincode::decode_from_slice(bytes, bincode::config::standard())
                .map_err(|e| e.to_string())?;
        let mut record = ProviderRecord::new(&v1.id, &v1.name, v1.scopes);
        record.enabled = v1.enabled;
        record.key_hashes = v1.key_hashes;
        Ok(record)
    }
}

/// A new static key: 192 bits from the operating system's CSPRNG, as text.
pub fn generate_key() -> Result<String, StoreError> {
    let mut bytes = [0u8; 24];
    getrandom::fill(&mut bytes).map_err(|source| StoreError::NoRandomness {
        what: "a key",
        source,
    })?;
    Ok(format!("pc_{}", hex::encode(bytes)))
}

/// The provider trees, and the decoded records every authenticated request reads.
pub(super) struct ProviderTables {
    records: engine::Tree,
    by_key: engine::Tree,
    /// Read by every authenticated request: hashed with foldhash, its keys being the ids of
    /// stored providers only.
    decoded: RwLock<foldhash::HashMap<String, Arc<ProviderRecord>>>,
    /// Each numeric alias and its provider's id, read from the records when the store opens
    /// (providers are few) and kept in step by every save.
    numbers: RwLock<HashMap<u32, String>>,
}

impl ProviderTables {
    pub(super) fn open(db: &engine::Db) -> Result<ProviderTables, StoreError> {
        let records = db.open_tree(PROVIDERS)?;
        let mut numbers = HashMap::new();
        for item in records.values() {
            // A record that does not decode is the integrity check's to report.
            if let Ok(record) = ProviderRecord::decode(&item?)
                && let Some(number) = record.number
            {
                numbers.insert(number, record.id);
            }
        }
        Ok(ProviderTables {
            records,
            by_key: db.open_tree(KEYS)?,
            decoded: RwLock::new(foldhash::HashMap::default()),
            numbers: RwLock::new(numbers),
        })
    }
}

impl Store {
    /// Creates or replaces a provider with one static key (given, or generated); returns it.
    pub fn put_provider(
        &self,
        id: &str,
        name: &str,
        scopes: Vec<Scope>,
        key: Option<&str>,
    ) -> Result<String, StoreError> {
        let key = match key {
            Some(k) => k.to_owned(),
            None => generate_key()?,
        };
        let mut record = ProviderRecord::new(id, name, scopes);
        record.key_hashes.push(hash_key(&key));
        self.save_provider(record)?;
        Ok(key)
    }

    /// Writes a provider record, keeps the key index and the numbers in step, and flushes
    /// before it returns. A number another provider has is refused, with nothing written.
    pub fn save_provider(&self, record: ProviderRecord) -> Result<(), StoreError> {
        let tables = &self.providers;
        let id = record.id.clone();
        let mut numbers = tables.numbers.write().unwrap_or_else(|e| e.into_inner());
        if let Some(number) = record.number
            && let Some(holder) = numbers.get(&number).filter(|holder| **holder != id)
        {
            return Err(StoreError::NumberTaken {
                number,
                provider: holder.clone(),
            });
        }
        if let Some(old) = self.provider(&id)? {
            for old_hash in old
                .key_hashes
                .iter()
                .filter(|h| !record.key_hashes.contains(h))
            {
                tables.by_key.remove(old_hash)?;
            }
        }
        numbers.retain(|_, holder| *holder != id);
        if let Some(number) = record.number {
            numbers.insert(number, id.clone());
        }
        tables.records.insert(id.as_bytes(), record.encode()?)?;
        for hash in &record.key_hashes {
            tables.by_key.insert(hash, id.as_bytes())?;
        }
        self.db.flush()?;
        tables
            .decoded
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, Arc::new(record));
        Ok(())
    }

    /// A provider by id, decoded once and then kept in memory until it changes.
    pub fn provider(&self, id: &str) -> Result<Option<Arc<ProviderRecord>>, StoreError> {
        let tables = &self.providers;
        if let Some(record) = tables
            .decoded
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
        {
            return Ok(Some(record.clone()));
        }
        let Some(bytes) = tables.records.get(id.as_bytes())? else {
            return Ok(None);
        };
        let record = ProviderRecord::decode(&bytes)
            .map_err(|e| StoreError::Damaged(format!("provider {id} cannot be read: {e}")))?;
        let record = Arc::new(record);
        tables
            .decoded
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_owned(), record.clone());
        Ok(Some(record))
    }

    /// The provider a call names: by its id, or else by its numeric alias.
    pub fn provider_named(&self, name: &str) -> Result<Option<Arc<ProviderRecord>>, StoreError> {
        if let Some(record) = self.provider(name)? {
            return Ok(Some(record));
        }
        let Ok(number) = name.parse::<u32>() else {
            return Ok(None);
        };
        let id = self
            .providers
            .numbers
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&number)
            .cloned();
        match id {
            Some(id) => self.provider(&id),
            None => Ok(None),
        }
    }

    /// Every provider, by id.
    pub fn providers(&self) -> Result<Vec<Arc<ProviderRecord>>, StoreError> {
        let mut all = Vec::new();
        for item in self.providers.records.keys() {
            let id = item?;
            if let Some(record) = self.provider(&String::from_utf8_lossy(&id))? {
                all.push(record);
            }
        }
        Ok(all)
    }

    /// Removes a provider, its keys and its grants; flushed before it returns. `false` if
    /// there was no such provider.
    pub fn delete_provider(&self, id: &str) -> Result<bool, StoreError> {
        let Some(record) = self.provider(id)? else {
            return Ok(false);
        };
        let tables = &self.providers;
        for hash in &record.key_hashes {
            tables.by_key.remove(hash)?;
        }
        tables.records.remove(id.as_bytes())?;
        tables
            .numbers
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, holder| holder != id);
        self.remove_grants_of(id)?;
        self.db.flush()?;
        tables
            .decoded
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        Ok(true)
    }

    /// The provider a static key belongs to.
    pub fn provider_of_key(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .providers
            .by_key
            .get(hash_key(key))?
            .map(|id| String::from_utf8_lossy(&id).into_owned()))
    }
}

#[cfg(test)]
mod tests;
