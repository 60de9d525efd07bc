//! Providers: the accounts clients authenticate as. Keys are stored only as SHA-256 hashes.
//! Providers live outside the catalogue generations: imports never touch them.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use bincode::{Decode, Encode};
use sha2::{Digest, Sha256};

use super::Store;
use super::error::StoreError;

const PROVIDERS: &str = "providerid_provider";
const KEYS: &str = "apikeyhash_provider";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Encode, Decode)]
pub enum Scope {
    /// Lookups and prices.
    Read,
    /// Exports and DMM.
    Export,
    /// Imports, sync, publishing, provider management.
    Admin,
}

#[derive(Debug, Clone, PartialEq, Eq, Encode, Decode)]
pub struct ProviderRecord {
    pub id: String,
    pub name: String,
    pub enabled: bool,
    pub scopes: Vec<Scope>,
    /// SHA-256 of each static key.
    pub key_hashes: Vec<[u8; 32]>,
}

pub fn hash_key(key: &str) -> [u8; 32] {
    Sha256::digest(key.as_bytes()).into()
}

/// A new static key: 192 bits from the operating system's CSPRNG, as text.
pub fn generate_key() -> Result<String, StoreError> {
    let mut bytes = [0u8; 24];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Engine(format!("no randomness for a key: {e}")))?;
    Ok(format!("pc_{}", hex::encode(bytes)))
}

/// The provider trees, and the decoded records every authenticated request reads.
pub(super) struct ProviderTables {
    records: sled::Tree,
    by_key: sled::Tree,
    decoded: RwLock<HashMap<String, Arc<ProviderRecord>>>,
}

impl ProviderTables {
    pub(super) fn open(db: &sled::Db) -> Result<ProviderTables, StoreError> {
        Ok(ProviderTables {
            records: db.open_tree(PROVIDERS)?,
            by_key: db.open_tree(KEYS)?,
            decoded: RwLock::new(HashMap::new()),
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
        let hash = hash_key(&key);
        let record = ProviderRecord {
            id: id.into(),
            name: name.into(),
            enabled: true,
            scopes,
            key_hashes: vec![hash],
        };
        let tables = &self.providers;
        if let Some(old) = self.provider(id)? {
            for old_hash in &old.key_hashes {
                tables.by_key.remove(old_hash)?;
            }
        }
        let encoded = bincode::encode_to_vec(&record, bincode::config::standard())
            .map_err(|e| StoreError::Engine(e.to_string()))?;
        tables.records.insert(id.as_bytes(), encoded)?;
        tables.by_key.insert(hash, id.as_bytes())?;
        self.db.flush()?;
        tables
            .decoded
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_owned(), Arc::new(record));
        Ok(key)
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
        let (record, _): (ProviderRecord, _) =
            bincode::decode_from_slice(&bytes, bincode::config::standard())
                .map_err(|e| StoreError::Engine(format!("provider {id} cannot be read: {e}")))?;
        let record = Arc::new(record);
        tables
            .decoded
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_owned(), record.clone());
        Ok(Some(record))
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
mod tests {
    use super::*;

    #[test]
    fn keys_are_found_by_hash_and_never_stored_in_plain_text() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let first = store
            .put_provider("acme", "Acme", vec![Scope::Read], None)
            .unwrap();
        assert!(first.starts_with("pc_") && first.len() == 51);
        assert_eq!(
            store.provider_of_key(&first).unwrap().as_deref(),
            Some("acme")
        );
        assert_eq!(store.provider_of_key("pc_wrong").unwrap(), None);

        // Re-keying retires the old key.
        let second = store
            .put_provider(
                "acme",
                "Acme",
                vec![Scope::Read],
                Some("fixed-key-for-scripts"),
            )
            .unwrap();
        assert_eq!(second, "fixed-key-for-scripts");
        assert_eq!(store.provider_of_key(&first).unwrap(), None);
        assert_eq!(
            store.provider("acme").unwrap().unwrap().key_hashes,
            vec![hash_key(&second)]
        );
        store.flush().unwrap();

        for entry in std::fs::read_dir(dir.path()).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                let bytes = std::fs::read(&path).unwrap();
                for key in [&first, &second] {
                    assert!(
                        !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
                        "{key} in {}",
                        path.display()
                    );
                }
            }
        }
    }
}
