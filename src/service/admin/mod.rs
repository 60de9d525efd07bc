//! Provider administration, the spec's out-of-band step: create, list, show, enable, disable
//! and delete providers, add and revoke keys, change whitelists, scopes, brands and limits.
//!
//! The same calls serve the running server's admin API and `partscat admin` on a stopped
//! store. Each validates its input, writes through `Store::save_provider` (flushed before it
//! returns) and leaves an audit entry. Keys are shown once, in the answer that creates them;
//! afterwards a key is named by its id, the first 16 hex digits of its hash.

use serde::{Deserialize, Serialize};

mod change;
mod checks;

pub use change::change;
use change::{limits, listed, numbered};
pub use checks::parse_whitelist_entry;
use checks::{check_brands, check_grant_hours, check_id, check_name, check_number, parse_scopes};

use crate::accounts::{ProviderRecord, hash_key, key_id};
use crate::clock::Clock;
use crate::store::{AuditEntry, Store, StoreError, generate_key};

/// Who acts, and through what: `admin socket (alice)`, `provider ops from 127.0.0.1`.
#[derive(Debug, Clone)]
pub struct Operator(pub String);

#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("there is no provider `{0}`")]
    UnknownProvider(String),
    #[error("provider `{0}` exists already")]
    Exists(String),
    #[error("number {number} names provider `{provider}` already")]
    NumberTaken { number: u32, provider: String },
    #[error("provider `{provider}` has no key `{key}`")]
    UnknownKey { provider: String, key: String },
    #[error("`{entry}` is not in the whitelist of provider `{provider}`")]
    NotListed { provider: String, entry: String },
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A provider as administrators see it: keys by id, never the keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProviderView {
    pub id: String,
    pub name: String,
    pub enabled: bool,
    pub scopes: Vec<String>,
    /// Ids of the static keys.
    pub keys: Vec<String>,
    /// The brands the provider may see; empty: every brand.
    pub brands: Vec<u32>,
    /// IPv4 addresses and ranges admitted without a key.
    pub whitelist: Vec<String>,
    pub max_grant_hours: u8,
    /// 0: the server's `rate_limit_per_second`.
    pub rate_limit_per_second: u32,
    /// Whether its end users' dynamic keys and address grants may export (they always read).
    pub dynamic_export: bool,
    /// The numeric alias a call may name it by (TecDoc clients send an integer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// Whether its Pegasus calls are refused for a field TecDoc does not define, rather than
    /// answered with the field ignored.
    #[serde(default)]
    pub strict: bool,
}

impl From<&ProviderRecord> for ProviderView {
    fn from(r: &ProviderRecord) -> Self {
        ProviderView {
            id: r.id.clone(),
            name: r.name.clone(),
            enabled: r.enabled,
            scopes: r.scopes.iter().map(|s| s.name().to_owned()).collect(),
            keys: r.key_hashes.iter().map(key_id).collect(),
            brands: r.brands.clone(),
            whitelist: r.whitelist.iter().map(|w| w.net().to_string()).collect(),
            max_grant_hours: r.max_grant_hours,
            rate_limit_per_second: r.rate_limit_per_second,
            dynamic_export: r.dynamic_export,
            number: r.number,
            strict: r.strict,
        }
    }
}

/// What `create` is given. Unset fields take the defaults of `ProviderRecord::new`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewProvider {
    pub id: String,
    /// Defaults to the id.
    #[serde(default)]
    pub name: Option<String>,
    pub scopes: Vec<String>,
    #[serde(default)]
    pub brands: Vec<u32>,
    #[serde(default)]
    pub whitelist: Vec<String>,
    #[serde(default)]
    pub max_grant_hours: Option<u8>,
    #[serde(default)]
    pub rate_limit_per_second: Option<u32>,
    #[serde(default)]
    pub dynamic_export: Option<bool>,
    /// A numeric alias a call may name it by.
    #[serde(default)]
    pub number: Option<u32>,
    /// Whether its Pegasus calls are refused for a field TecDoc does not define.
    #[serde(default)]
    pub strict: Option<bool>,
    /// Whether to generate a first key (the default); a provider without one is admitted by
    /// its whitelist only.
    #[serde(default = "yes")]
    pub with_key: bool,
}

fn yes() -> bool {
    true
}

/// A change to one provider.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum Change {
    Enable,
    Disable,
    Rename {
        name: String,
    },
    /// A new static key beside the others (for rotation); shown once.
    AddKey,
    /// A static key by its id or the key itself, or a dynamic key itself.
    RevokeKey {
        key: String,
    },
    AddWhitelist {
        entries: Vec<String>,
    },
    RemoveWhitelist {
        entries: Vec<String>,
    },
    SetScopes {
        scopes: Vec<String>,
    },
    /// Empty: every brand.
    SetBrands {
        brands: Vec<u32>,
    },
    SetLimits {
        #[serde(default)]
        max_grant_hours: Option<u8>,
        #[serde(default)]
        rate_limit_per_second: Option<u32>,
        /// Whether end users' dynamic credentials may export.
        #[serde(default)]
        dynamic_export: Option<bool>,
    },
    /// The numeric alias a call may name the provider by; none: calls name it by its id only.
    SetNumber {
        #[serde(default)]
        number: Option<u32>,
    },
    /// Whether the provider's Pegasus calls are refused for a field TecDoc does not define
    /// (true), or answered with it ignored and named (false, the default).
    SetStrict {
        strict: bool,
    },
}

/// The provider after a change, and the key it made, if it made one (shown this once).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Outcome {
    pub provider: ProviderView,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// Records an admin action in the audit trail, stamped by `clock`.
pub fn audit(
    store: &Store,
    clock: &dyn Clock,
    operator: &Operator,
    action: &str,
    provider: &str,
    detail: String,
) -> Result<(), StoreError> {
    store.record_audit(&AuditEntry {
        at: clock.now(),
        operator: operator.0.clone(),
        action: action.into(),
        provider: provider.into(),
        detail,
    })
}

pub(super) fn existing(store: &Store, id: &str) -> Result<ProviderRecord, AdminError> {
    store
        .provider(id)?
        .map(|r| (*r).clone())
        .ok_or_else(|| AdminError::UnknownProvider(id.into()))
}

pub fn create(
    store: &Store,
    clock: &dyn Clock,
    operator: &Operator,
    new: NewProvider,
) -> Result<Outcome, AdminError> {
    check_id(&new.id)?;
    let name = check_name(new.name.as_deref().unwrap_or(&new.id))?;
    let mut record = ProviderRecord::new(&new.id, &name, parse_scopes(&new.scopes)?);
    record.brands = check_brands(&new.brands)?;
    for entry in &new.whitelist {
        let range = parse_whitelist_entry(entry)?;
        if !record.whitelist.contains(&range) {
            record.whitelist.push(range);
        }
    }
    if let Some(hours) = new.max_grant_hours {
        record.max_grant_hours = check_grant_hours(hours)?;
    }
    record.rate_limit_per_second = new.rate_limit_per_second.unwrap_or(0);
    record.dynamic_export = new.dynamic_export.unwrap_or(false);
    record.strict = new.strict.unwrap_or(false);
    if store.provider(&new.id)?.is_some() {
        return Err(AdminError::Exists(new.id));
    }
    if let Ok(number) = new.id.parse::<u32>()
        && let Some(holder) = store.provider_named(&new.id)?
    {
        return Err(AdminError::NumberTaken {
            number,
            provider: holder.id.clone(),
        });
    }
    record.number = new
        .number
        .map(|number| check_number(store, &new.id, number))
        .transpose()?;
    let key = if new.with_key {
        let key = generate_key()?;
        record.key_hashes.push(hash_key(&key));
        Some(key)
    } else {
        None
    };
    let view = ProviderView::from(&record);
    audit(
        store,
        clock,
        operator,
        "provider.create",
        &record.id,
        format!(
            "scopes {}; keys {}; brands {}; whitelist {}; {}; {}",
            listed(&view.scopes, "none"),
            listed(&view.keys, "none"),
            listed(&view.brands, "all"),
            listed(&view.whitelist, "none"),
            limits(&record),
            numbered(&record),
        ),
    )?;
    store.save_provider(record)?;
    Ok(Outcome {
        provider: view,
        key,
    })
}

pub fn list(store: &Store) -> Result<Vec<ProviderView>, AdminError> {
    Ok(store
        .providers()?
        .iter()
        .map(|r| ProviderView::from(r.as_ref()))
        .collect())
}

pub fn show(store: &Store, id: &str) -> Result<ProviderView, AdminError> {
    Ok(ProviderView::from(&existing(store, id)?))
}

pub fn delete(
    store: &Store,
    clock: &dyn Clock,
    operator: &Operator,
    id: &str,
) -> Result<(), AdminError> {
    existing(store, id)?;
    audit(
        store,
        clock,
        operator,
        "provider.delete",
        id,
        "with its keys and grants".into(),
    )?;
    if store.delete_provider(id)? {
        Ok(())
    } else {
        Err(AdminError::UnknownProvider(id.into()))
    }
}

/// The newest `limit` audit entries, oldest first.
pub fn audit_trail(store: &Store, limit: usize) -> Result<Vec<AuditEntry>, AdminError> {
    Ok(store.audit_entries(limit)?)
}

#[cfg(test)]
mod tests;
