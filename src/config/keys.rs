//! Finding a setting by what names it: a config file's key (`cache_mb`, `sync.upstream`), its
//! tables, the environment variables partscat reads, and the settings as help text. The
//! rows themselves are in `table.rs` (and `[sync]`'s in `sync.rs`).

use super::setting::Setting;
use super::sync::SYNC_SETTINGS;
use super::table::SETTINGS;

/// Every setting: the table's rows, then `[sync]`'s.
pub fn every_setting() -> impl Iterator<Item = &'static Setting> {
    SETTINGS.iter().chain(SYNC_SETTINGS.iter())
}

/// The setting a config file's key (`cache_mb`, `sync.upstream`) names.
pub(super) fn by_key(key: &str) -> Option<&'static Setting> {
    every_setting().find(|s| s.key == key)
}

/// The tables a config file may hold (`catalogue`, `sync`, `limits`).
pub(super) fn is_table(name: &str) -> bool {
    every_setting().any(|s| s.key.split_once('.').is_some_and(|(t, _)| t == name))
}

/// The keys a config file may hold at its top level.
pub(super) fn known_keys() -> Vec<&'static str> {
    let mut keys: Vec<&str> = every_setting()
        .map(|s| s.key.split('.').next().unwrap_or(s.key))
        .collect();
    keys.dedup();
    keys
}

/// The keys of a table (`catalogue`, `sync`).
pub(super) fn known_table_keys(table: &str) -> Vec<&'static str> {
    every_setting()
        .filter_map(|s| s.key.strip_prefix(table)?.strip_prefix('.'))
        .collect()
}

/// Every variable partscat reads: the settings' and the one naming the config file.
pub(super) fn known_env() -> Vec<&'static str> {
    std::iter::once(super::CONFIG_ENV)
        .chain(every_setting().map(|s| s.env))
        .collect()
}

/// The settings as help text: key, variable, default.
pub fn settings_help() -> String {
    let mut text = String::from(
        "Settings (config file key, environment variable, default); flags win over variables, variables over the file:\n",
    );
    for s in every_setting() {
        text.push_str(&format!("  {:<26} {:<31} {}\n", s.key, s.env, s.default));
    }
    text.push_str(&format!(
        "  The config file: --config, or {}, or {} if it exists.",
        super::CONFIG_ENV,
        super::DEFAULT_CONFIG_FILE
    ));
    text
}
