//! `change`: one change to one provider, validated, audited and saved.

use super::checks::{
    check_brands, check_grant_hours, check_name, check_number, parse_scopes, parse_whitelist_entry,
};
use super::{AdminError, Change, Operator, Outcome, ProviderView, audit, existing};
use crate::accounts::{ProviderRecord, hash_key, key_id};
use crate::clock::Clock;
use crate::store::{Store, generate_key};

/// What a change did: its audit action and detail, and the key it made (shown this once).
struct Applied {
    action: &'static str,
    detail: String,
    key: Option<String>,
}

impl Applied {
    fn new(action: &'static str, detail: String) -> Applied {
        Applied {
            action,
            detail,
            key: None,
        }
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
    if let Change::RevokeKey { key: named } = &change
        && static_key(&record, named)?.is_none()
    {
        // Not a static key: a dynamic key of this provider, presented whole.
        return revoke_dynamic_key(store, clock, operator, record, named.clone());
    }
    let applied = apply(store, &mut record, change)?;
    audit(store, clock, operator, applied.action, id, applied.detail)?;
    let provider = ProviderView::from(&record);
    store.save_provider(record)?;
    Ok(Outcome {
        provider,
        key: applied.key,
    })
}

/// Applies a change to `record` (a dynamic key's revocation is not one).
fn apply(
    store: &Store,
    record: &mut ProviderRecord,
    change: Change,
) -> Result<Applied, AdminError> {
    Ok(match change {
        Change::Enable => {
            record.enabled = true;
            Applied::new("provider.enable", String::new())
        }
        Change::Disable => {
            record.enabled = false;
            Applied::new("provider.disable", String::new())
        }
        Change::Rename { name } => {
            record.name = check_name(&name)?;
            Applied::new("provider.rename", format!("to {:?}", record.name))
        }
        Change::AddKey => {
            let key = generate_key()?;
            let hash = hash_key(&key);
            record.key_hashes.push(hash);
            Applied {
                key: Some(key),
                ..Applied::new("key.add", format!("key {}", key_id(&hash)))
            }
        }
        Change::RevokeKey { key: named } => {
            let hash = static_key(record, &named)?.ok_or_else(|| AdminError::UnknownKey {
                provider: record.id.clone(),
                key: named.clone(),
            })?;
            record.key_hashes.retain(|h| *h != hash);
            Applied::new("key.revoke", format!("key {}", key_id(&hash)))
        }
        Change::AddWhitelist { entries } => {
            Applied::new("whitelist.add", add_whitelist(record, &entries)?)
        }
        Change::RemoveWhitelist { entries } => {
            Applied::new("whitelist.remove", remove_whitelist(record, &entries)?)
        }
        Change::SetScopes { scopes } => {
            record.scopes = parse_scopes(&scopes)?;
            let names: Vec<_> = record.scopes.iter().map(|s| s.name()).collect();
            Applied::new("scopes.set", listed(&names, "none"))
        }
        Change::SetBrands { brands } => {
            record.brands = check_brands(&brands)?;
            Applied::new("brands.set", listed(&record.brands, "all"))
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
            Applied::new("limits.set", limits(record))
        }
        Change::SetNumber { number } => {
            record.number = number
                .map(|number| check_number(store, &record.id, number))
                .transpose()?;
            Applied::new("number.set", numbered(record))
        }
        Change::SetStrict { strict } => {
            record.strict = strict;
            Applied::new("strict.set", format!("strict {strict}"))
        }
    })
}

/// Revokes a dynamic key of the provider, presented whole; the provider itself is unchanged.
fn revoke_dynamic_key(
    store: &Store,
    clock: &dyn Clock,
    operator: &Operator,
    record: ProviderRecord,
    named: String,
) -> Result<Outcome, AdminError> {
    let hash = hash_key(named.trim());
    match store.dynamic_key(&hash)? {
        Some((owner, _)) if owner == record.id => {
            let detail = format!("key {}", key_id(&hash));
            audit(
                store,
                clock,
                operator,
                "dynamic_key.revoke",
                &record.id,
                detail,
            )?;
            store.revoke_dynamic_key(&hash)?;
            Ok(Outcome {
                provider: ProviderView::from(&record),
                key: None,
            })
        }
        _ => Err(AdminError::UnknownKey {
            provider: record.id,
            key: named,
        }),
    }
}

/// Adds the entries not listed yet; the audit detail names those added.
fn add_whitelist(record: &mut ProviderRecord, entries: &[String]) -> Result<String, AdminError> {
    let mut added = Vec::new();
    for entry in entries {
        let range = parse_whitelist_entry(entry)?;
        if !record.whitelist.contains(&range) {
            record.whitelist.push(range);
            added.push(range.net().to_string());
        }
    }
    Ok(listed(&added, "none"))
}

/// Removes the entries; one that is not listed is an error.
fn remove_whitelist(record: &mut ProviderRecord, entries: &[String]) -> Result<String, AdminError> {
    let mut removed = Vec::new();
    for entry in entries {
        let range = parse_whitelist_entry(entry)?;
        let before = record.whitelist.len();
        record.whitelist.retain(|r| *r != range);
        if record.whitelist.len() == before {
            return Err(AdminError::NotListed {
                provider: record.id.clone(),
                entry: range.net().to_string(),
            });
        }
        removed.push(range.net().to_string());
    }
    Ok(listed(&removed, "none"))
}

/// A list in an audit detail, one way everywhere: `read, export`, or `none` (`all` for brands).
pub(super) fn listed(items: &[impl std::fmt::Display], when_empty: &str) -> String {
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
pub(super) fn limits(record: &ProviderRecord) -> String {
    format!(
        "max_grant_hours {}; rate_limit_per_second {}; dynamic_export {}",
        record.max_grant_hours, record.rate_limit_per_second, record.dynamic_export
    )
}

/// A provider's number in an audit detail.
pub(super) fn numbered(record: &ProviderRecord) -> String {
    match record.number {
        Some(number) => format!("number {number}"),
        None => "no number".into(),
    }
}

/// The static key named by the key itself or by its id (or a unique prefix of 8 or more hex
/// digits of it); `None` if neither names one of the provider's keys.
fn static_key(record: &ProviderRecord, named: &str) -> Result<Option<[u8; 32]>, AdminError> {
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
        [hash] => Ok(Some(*hash)),
        _ => Err(AdminError::Invalid(format!(
            "`{named}` names {} keys of provider `{}`; give more of the key id",
            matching.len(),
            record.id
        ))),
    }
}
