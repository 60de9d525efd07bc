//! One setting's row: its names, its default as the help shows it, and its setter.

use super::Settings;

/// Sets one setting from its text: a config file's value as text (a list joined with commas),
/// or an environment variable's.
pub type Set = fn(&mut Settings, &str) -> Result<(), String>;

/// One setting as the config file and the environment name it.
pub struct Setting {
    /// The key in the config file (a table's keys as `<table>.<key>`).
    pub key: &'static str,
    pub env: &'static str,
    /// The default, as the help text shows it.
    pub default: &'static str,
    pub set: Set,
}

pub(super) const fn setting(
    key: &'static str,
    env: &'static str,
    default: &'static str,
    set: Set,
) -> Setting {
    Setting {
        key,
        env,
        default,
        set,
    }
}
