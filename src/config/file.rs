//! The config file's layer: its keys (a table's as `<table>.<key>`) with their values written
//! as text, for the settings' rows to read as they read an environment variable.

use std::path::Path;

use super::ConfigError;
use super::keys::{by_key, is_table, known_keys, known_table_keys};
use super::table::Setting;

/// The settings a config file sets, each with its value as text, and a warning for every key
/// no setting has.
pub(super) fn read(
    path: &Path,
    warnings: &mut Vec<String>,
) -> Result<Vec<(&'static Setting, String)>, ConfigError> {
    let fail = |m: String| ConfigError::File(path.into(), m);
    let text = crate::outside::files::read_setting_text(path)
        .map_err(|e| fail(format!("cannot be read: {e}")))?;
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| fail(e.to_string()))?;
    let mut unknown = |key: String, known: Vec<&str>| {
        warnings.push(format!(
            "config file {}: unknown key '{key}' is ignored; known keys: {}",
            path.display(),
            known.join(", ")
        ))
    };
    let mut set = Vec::new();
    for (key, value) in table {
        match value {
            toml::Value::Table(entries) if is_table(&key) => {
                for (inner, value) in entries {
                    let name = format!("{key}.{inner}");
                    match by_key(&name) {
                        Some(setting) => set.push((setting, as_text(&name, &value, &fail)?)),
                        None => unknown(name, known_table_keys(&key)),
                    }
                }
            }
            value => match by_key(&key) {
                Some(setting) => set.push((setting, as_text(&key, &value, &fail)?)),
                None => unknown(key, known_keys()),
            },
        }
    }
    Ok(set)
}

/// A value as its setting reads it: a string as it is, a list joined with commas, a number or
/// a boolean as TOML writes it.
fn as_text(
    key: &str,
    value: &toml::Value,
    fail: &impl Fn(String) -> ConfigError,
) -> Result<String, ConfigError> {
    match value {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Array(items) => Ok(items
            .iter()
            .map(|item| as_text(key, item, fail))
            .collect::<Result<Vec<_>, _>>()?
            .join(",")),
        toml::Value::Table(_) => Err(fail(format!("{key}: a table is not a value of it"))),
        other => Ok(other.to_string()),
    }
}
