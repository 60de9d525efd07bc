//! Provider administration, the spec's out-of-band step: create, list, show, enable, disable
//! and delete providers, add and revoke keys, change whitelists, scopes, brands and limits.
//!
//! The same calls serve the running server's admin API and `partscat admin` on a stopped
//! store. Each validates its input, writes through `Store::save_provider` (flushed before it
//! returns) and leaves an audit entry. Keys are shown once, in the answer that creates them;
//! afterwards a key is named by its id, the first 16 hex digits of its hash.

use serde::{Deserialize, Serialize};

use crate::clock::Clock;
use crate::store::{
    AuditEntry, Ipv4Range, ProviderRecord, Scope, Store, StoreError, generate_key, hash_key, key_id,
};

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
}

/// The provider after a change, and the key it made, if it made one (shown this once).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Outcome {
    pub provider: ProviderView,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

const MAX_ID_LEN: usize = 64;
const MAX_NAME_LEN: usize = 200;

fn check_id(id: &str) -> Result<(), AdminError> {
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

fn check_name(name: &str) -> Result<String, AdminError> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_LEN || name.chars().any(char::is_control)
    {
        return Err(AdminError::Invalid(format!(
            "a provider's name must be 1 to {MAX_NAME_LEN} printable characters"
        )));
    }
    Ok(name.to_owned())
}

fn parse_scopes(names: &[String]) -> Result<Vec<Scope>, AdminError> {
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

fn check_brands(brands: &[u32]) -> Result<Vec<u32>, AdminError> {
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

fn check_grant_hours(hours: u8) -> Result<u8, AdminError> {
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
fn check_number(store: &Store, id: &str, number: u32) -> Result<u32, AdminError> {
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

fn existing(store: &Store, id: &str) -> Result<ProviderRecord, AdminError> {
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

pub fn change(
    store: &Store,
    clock: &dyn Clock,
    operator: &Operator,
    id: &str,
    change: Change,
) -> Result<Outcome, AdminError> {
    let mut record = existing(store, id)?;
    let mut key = None;
    let (action, detail) = match change {
        Change::Enable => {
            record.enabled = true;
            ("provider.enable", String::new())
        }
        Change::Disable => {
            record.enabled = false;
            ("provider.disable", String::new())
        }
        Change::Rename { name } => {
            record.name = check_name(&name)?;
            ("provider.rename", format!("to {:?}", record.name))
        }
        Change::AddKey => {
            let new_key = generate_key()?;
            let hash = hash_key(&new_key);
            record.key_hashes.push(hash);
            key = Some(new_key);
            ("key.add", format!("key {}", key_id(&hash)))
        }
        Change::RevokeKey { key: named } => {
            match revoke_key(&mut record, &named)? {
                Some(hash) => ("key.revoke", format!("key {}", key_id(&hash))),
                None => {
                    // Not a static key: a dynamic key of this provider, presented whole.
                    let hash = hash_key(named.trim());
                    match store.dynamic_key(&hash)? {
                        Some((owner, _)) if owner == record.id => {
                            audit(
                                store,
                                clock,
                                operator,
                                "dynamic_key.revoke",
                                id,
                                format!("key {}", key_id(&hash)),
                            )?;
                            store.revoke_dynamic_key(&hash)?;
                            return Ok(Outcome {
                                provider: ProviderView::from(&record),
                                key: None,
                            });
                        }
                        _ => {
                            return Err(AdminError::UnknownKey {
                                provider: record.id,
                                key: named,
                            });
                        }
                    }
                }
            }
        }
        Change::AddWhitelist { entries } => {
            let mut added = Vec::new();
            for entry in &entries {
                let range = parse_whitelist_entry(entry)?;
                if !record.whitelist.contains(&range) {
                    record.whitelist.push(range);
                    added.push(range.net().to_string());
                }
            }
            ("whitelist.add", listed(&added, "none"))
        }
        Change::RemoveWhitelist { entries } => {
            let mut removed = Vec::new();
            for entry in &entries {
                let range = parse_whitelist_entry(entry)?;
                let before = record.whitelist.len();
                record.whitelist.retain(|r| *r != range);
                if record.whitelist.len() == before {
                    return Err(AdminError::NotListed {
                        provider: record.id,
                        entry: range.net().to_string(),
                    });
                }
                removed.push(range.net().to_string());
            }
            ("whitelist.remove", listed(&removed, "none"))
        }
        Change::SetScopes { scopes } => {
            record.scopes = parse_scopes(&scopes)?;
            let names: Vec<_> = record.scopes.iter().map(|s| s.name()).collect();
            ("scopes.set", listed(&names, "none"))
        }
        Change::SetBrands { brands } => {
            record.brands = check_brands(&brands)?;
            ("brands.set", listed(&record.brands, "all"))
        }
        Change::SetLimits {
            max_grant_hours,
            rate_limit_per_second,
            dynamic_export,
        } => {
            if let Some(hours) = max_grant_hours {
                record.max_grant_hours = check_grant_hours(hours)?;
            }
            if let Some(rate) = rate_limit_per_second {
                record.rate_limit_per_second = rate;
            }
            if let Some(export) = dynamic_export {
                record.dynamic_export = export;
            }
            ("limits.set", limits(&record))
        }
        Change::SetNumber { number } => {
            record.number = number
                .map(|number| check_number(store, id, number))
                .transpose()?;
            ("number.set", numbered(&record))
        }
    };
    audit(store, clock, operator, action, id, detail)?;
    let provider = ProviderView::from(&record);
    store.save_provider(record)?;
    Ok(Outcome { provider, key })
}

/// A list in an audit detail, one way everywhere: `read, export`, or `none` (`all` for brands).
fn listed(items: &[impl std::fmt::Display], when_empty: &str) -> String {
    match items {
        [] => when_empty.to_owned(),
        _ => items
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A provider's limits in an audit detail.
fn limits(record: &ProviderRecord) -> String {
    format!(
        "max_grant_hours {}; rate_limit_per_second {}; dynamic_export {}",
        record.max_grant_hours, record.rate_limit_per_second, record.dynamic_export
    )
}

/// A provider's number in an audit detail.
fn numbered(record: &ProviderRecord) -> String {
    match record.number {
        Some(number) => format!("number {number}"),
        None => "no number".into(),
    }
}

/// Removes a static key named by the key itself or by its id (or a unique prefix of 8 or
/// more hex digits of it); `None` if neither names one of the provider's keys.
fn revoke_key(record: &mut ProviderRecord, named: &str) -> Result<Option<[u8; 32]>, AdminError> {
    let named = named.trim();
    let whole = hash_key(named);
    let lower = named.to_ascii_lowercase();
    let matching: Vec<[u8; 32]> = if record.key_hashes.contains(&whole) {
        vec![whole]
    } else if lower.len() >= 8 && lower.bytes().all(|b| b.is_ascii_hexdigit()) {
        record
            .key_hashes
            .iter()
            .filter(|h| hex::encode(h).starts_with(&lower))
            .copied()
            .collect()
    } else {
        Vec::new()
    };
    match matching.as_slice() {
        [] => Ok(None),
        [hash] => {
            record.key_hashes.retain(|h| h != hash);
            Ok(Some(*hash))
        }
        _ => Err(AdminError::Invalid(format!(
            "`{named}` names {} keys of provider `{}`; give more of the key id",
            matching.len(),
            record.id
        ))),
    }
}

/// The newest `limit` audit entries, oldest first.
pub fn audit_trail(store: &Store, limit: usize) -> Result<Vec<AuditEntry>, AdminError> {
    Ok(store.audit_entries(limit)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::SystemClock;

    fn operator() -> Operator {
        Operator("test".into())
    }

    fn shop() -> NewProvider {
        NewProvider {
            id: "shop".into(),
            scopes: vec!["read".into()],
            whitelist: vec!["10.1.0.0/16".into(), "192.168.1.7".into()],
            with_key: true,
            ..NewProvider::default()
        }
    }

    #[test]
    fn a_provider_is_created_changed_audited_and_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let clock = SystemClock;
        let made = create(&store, &clock, &operator(), shop()).unwrap();
        let first = made.key.unwrap();
        assert_eq!(made.provider.keys, vec![key_id(&hash_key(&first))]);
        assert_eq!(made.provider.whitelist, ["10.1.0.0/16", "192.168.1.7/32"]);
        assert!(matches!(
            create(&store, &clock, &operator(), shop()),
            Err(AdminError::Exists(_))
        ));

        let second = change(&store, &clock, &operator(), "shop", Change::AddKey)
            .unwrap()
            .key
            .unwrap();
        assert_eq!(
            store.provider_of_key(&second).unwrap().as_deref(),
            Some("shop")
        );
        // Revoked by id: the key index forgets it too.
        let first_id = key_id(&hash_key(&first));
        change(
            &store,
            &clock,
            &operator(),
            "shop",
            Change::RevokeKey {
                key: first_id.clone(),
            },
        )
        .unwrap();
        assert_eq!(store.provider_of_key(&first).unwrap(), None);
        assert!(matches!(
            change(
                &store,
                &clock,
                &operator(),
                "shop",
                Change::RevokeKey { key: first_id }
            ),
            Err(AdminError::UnknownKey { .. })
        ));
        // Revoked by the key itself.
        change(
            &store,
            &clock,
            &operator(),
            "shop",
            Change::RevokeKey {
                key: second.clone(),
            },
        )
        .unwrap();
        assert!(show(&store, "shop").unwrap().keys.is_empty());

        let removed = change(
            &store,
            &clock,
            &operator(),
            "shop",
            Change::RemoveWhitelist {
                entries: vec!["10.1.0.0/16".into()],
            },
        )
        .unwrap();
        assert_eq!(removed.provider.whitelist, ["192.168.1.7/32"]);

        // Deleting a provider deletes its grants.
        let record = store.provider("shop").unwrap().unwrap();
        let ip = "127.0.0.2".parse().unwrap();
        crate::service::access::add_dynamic_address(&store, &clock, &record, ip, None).unwrap();
        let dynamic =
            crate::service::access::add_dynamic_key(&store, &clock, &record, None).unwrap();
        delete(&store, &clock, &operator(), "shop").unwrap();
        assert_eq!(store.address_grant("shop", ip).unwrap(), None);
        assert_eq!(
            store.dynamic_key(&hash_key(&dynamic.api_key)).unwrap(),
            None
        );
        assert_eq!(
            store.sweep_grants(u64::MAX / 2).unwrap(),
            0,
            "no expiry entries left"
        );
        assert!(matches!(
            show(&store, "shop"),
            Err(AdminError::UnknownProvider(_))
        ));
        let actions: Vec<String> = audit_trail(&store, 100)
            .unwrap()
            .into_iter()
            .map(|e| e.action)
            .collect();
        assert_eq!(
            actions,
            [
                "provider.create",
                "key.add",
                "key.revoke",
                "key.revoke",
                "whitelist.remove",
                "grant.address",
                "grant.key",
                "provider.delete"
            ]
        );
        // No audit entry holds a key.
        let trail = serde_json::to_string(&audit_trail(&store, 100).unwrap()).unwrap();
        assert!(!trail.contains(&first) && !trail.contains(&second));
    }

    #[test]
    fn bad_input_is_refused_with_a_reason_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let clock = SystemClock;
        let refused = |new: NewProvider| {
            create(&store, &clock, &operator(), new)
                .unwrap_err()
                .to_string()
        };
        let cases = [
            (
                NewProvider {
                    id: "a b".into(),
                    ..shop()
                },
                "letters, digits",
            ),
            (
                NewProvider {
                    scopes: vec!["write".into()],
                    ..shop()
                },
                "not a scope",
            ),
            (
                NewProvider {
                    scopes: vec![],
                    ..shop()
                },
                "at least one scope",
            ),
            (
                NewProvider {
                    whitelist: vec!["::1".into()],
                    ..shop()
                },
                "IPv6",
            ),
            (
                NewProvider {
                    whitelist: vec!["10.0.0.0/33".into()],
                    ..shop()
                },
                "not an IPv4",
            ),
            (
                NewProvider {
                    brands: vec![0],
                    ..shop()
                },
                "positive",
            ),
            (
                NewProvider {
                    max_grant_hours: Some(25),
                    ..shop()
                },
                "between 1 and 24",
            ),
        ];
        for (new, reason) in cases {
            let said = refused(new);
            assert!(said.contains(reason), "{said}");
        }
        assert!(store.providers().unwrap().is_empty());
        assert!(audit_trail(&store, 10).unwrap().is_empty());
    }
}
