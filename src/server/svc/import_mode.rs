//! `/svc`'s import mode, as the import routes take it and a job reports it.

use poem_openapi::Enum;
use serde::Serialize;

use crate::import::ImportMode;

/// What an import does to the rows of its data set the file does not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize)]
#[oai(rename = "ImportMode", rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// They stay: the file adds and changes rows.
    Merge,
    /// They are retired, within the brands the file's rows name where the data set is per
    /// brand (cross-references: OE, internal and trade numbers; competitor references:
    /// competitor numbers).
    Replace,
}

impl From<Mode> for ImportMode {
    fn from(m: Mode) -> ImportMode {
        match m {
            Mode::Merge => ImportMode::Merge,
            Mode::Replace => ImportMode::Replace,
        }
    }
}

impl From<ImportMode> for Mode {
    fn from(m: ImportMode) -> Mode {
        match m {
            ImportMode::Merge => Mode::Merge,
            // A sync's refresh replaces the whole data set.
            ImportMode::Replace | ImportMode::Refresh => Mode::Replace,
        }
    }
}
